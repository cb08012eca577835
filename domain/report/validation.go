package report

import (
	"errors"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
)

// ErrInconsistent is wrapped by the error of Detailed and ETSI when a
// Validation's signatures are not those of its summary: the reports would
// say something else than the summary.
var ErrInconsistent = errors.New("report: the validation details do not match the summary")

// ErrNoSignature is wrapped by the error of ETSI for a document without
// signatures, one that holds time-stamp entries alone included: a TS 119
// 102-2 report holds at least one signature's report (its schema
// requires a SignatureValidationReport; docs/decisions/0032).
var ErrNoSignature = errors.New("report: the document holds no signature")

// Validation is what the reports of one validated document are written
// from.
type Validation struct {
	// Summary is exactly what POST /api/validate returns for the
	// document; the reports take their verdicts from it.
	Summary verdict.ValidationSummary
	// ValidationTime is the time the signatures were validated at.
	ValidationTime time.Time
	// Signatures are the evidence and the process of each signature, in
	// the order of Summary.Signatures.
	Signatures []Signature
	// Timestamps are the evidence and the process of each time-stamp
	// entry, in the order of Summary.Timestamps.
	Timestamps []TimestampEntry
}

// TimestampEntry is one time-stamp entry as the reader found it and the
// time-stamp validation of EN 319 102-1 (5.4) ran on it.
type TimestampEntry struct {
	Evidence ades.TimestampEntry
	Result   etsi.TimestampEntryResult
}

// Signature is one signature as the reader found it and the process of
// EN 319 102-1 ran on it.
type Signature struct {
	Evidence ades.Signature
	Result   etsi.Result
}

// check reports whether v's details are those of its summary: one per
// signature, same ID, same indication and sub-indication.
func (v Validation) check() error {
	if len(v.Signatures) != len(v.Summary.Signatures) {
		return fmt.Errorf("%w: %d signatures summarised, %d detailed", ErrInconsistent, len(v.Summary.Signatures), len(v.Signatures))
	}
	if len(v.Timestamps) != len(v.Summary.Timestamps) {
		return fmt.Errorf("%w: %d time-stamp entries summarised, %d detailed", ErrInconsistent, len(v.Summary.Timestamps), len(v.Timestamps))
	}
	for i, e := range v.Timestamps {
		sum := v.Summary.Timestamps[i]
		if e.Evidence.ID != sum.ID || e.Result.Indication != sum.Indication {
			return fmt.Errorf("%w: time-stamp entry %d: %s %s detailed, %s %s summarised", ErrInconsistent, i+1, e.Evidence.ID, e.Result.Indication, sum.ID, sum.Indication)
		}
	}
	if v.ValidationTime.IsZero() {
		return fmt.Errorf("%w: no validation time", ErrInconsistent)
	}
	for i, s := range v.Signatures {
		sum := v.Summary.Signatures[i]
		var sub verdict.SubIndication
		if sum.SubIndication != nil {
			sub = *sum.SubIndication
		}
		if s.Evidence.ID != sum.SignatureID || s.Result.Indication != sum.Indication || s.Result.Indication != verdict.TotalPassed && s.Result.SubIndication != sub {
			return fmt.Errorf("%w: signature %d: %s %s/%s detailed, %s %s/%s summarised", ErrInconsistent, i+1,
				s.Evidence.ID, s.Result.Indication, s.Result.SubIndication, sum.SignatureID, sum.Indication, sub)
		}
	}
	return nil
}
