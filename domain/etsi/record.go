package etsi

import (
	"bytes"
	"slices"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// BlockName names a building block of EN 319 102-1, clause 5.2.
type BlockName uint8

const (
	_   BlockName = iota
	FC            // FC: format checking, 5.2.2
	ISC           // ISC: identification of the signing certificate, 5.2.3
	CV            // CV: cryptographic verification, 5.2.7
	SAV           // SAV: signature acceptance validation, 5.2.8
	XCV           // XCV: X.509 certificate validation, 5.2.6
)

func (b BlockName) String() string {
	switch b {
	case FC:
		return "FC"
	case ISC:
		return "ISC"
	case CV:
		return "CV"
	case SAV:
		return "SAV"
	case XCV:
		return "XCV"
	}
	return ""
}

// Status is the outcome of one check.
type Status uint8

const (
	_           Status = iota
	OK                 // OK
	NotOK              // NOT_OK: the check failed; its code is the block's sub-indication when it concluded
	Warning            // WARNING: the check failed without concluding; its code is among the warnings
	Information        // INFORMATION: a fact the process noted, neither good nor bad
)

func (s Status) String() string {
	switch s {
	case OK:
		return "OK"
	case NotOK:
		return "NOT_OK"
	case Warning:
		return "WARNING"
	case Information:
		return "INFORMATION"
	}
	return ""
}

// A Check is one check the process ran.
type Check struct {
	// Name says what was checked, as a question; it does not depend on
	// the signature.
	Name   string
	Status Status
	// Code is the message code a NOT_OK or WARNING check stands for (a
	// sub-indication's name or a warning code); "" otherwise.
	Code string
	// Message says what was found, in English.
	Message string
}

// A Conclusion is what a building block or a validation process
// concluded.
type Conclusion struct {
	// Indication is PASSED, FAILED or INDETERMINATE for a building block
	// or a time-stamp, TOTAL_PASSED, TOTAL_FAILED or INDETERMINATE for a
	// process.
	Indication verdict.Indication
	// SubIndication is "" when passed, and may be "" for a time-stamp the
	// standard has no sub-indication for.
	SubIndication    verdict.SubIndication
	Errors, Warnings []verdict.Message
}

// A Stage is what one part of the process checked, in order, and what it
// concluded.
type Stage struct {
	Checks     []Check
	Conclusion Conclusion
}

// A Block is a building block of clause 5.2 as the process ran it.
type Block struct {
	Name BlockName
	Stage
}

// A TimestampValidation is the validation of one time-stamp of the
// signature (5.4, simplified as docs/decisions/0018 says), valid or not.
type TimestampValidation struct {
	// Index is the time-stamp's position in ades.Signature.Timestamps.
	Index   int
	Type    ades.TimestampType
	GenTime time.Time
	// Control is the time the TSA's path was judged at: the generation
	// time of the earliest later valid archive time-stamp (the one at
	// ProtectedBy), else the validation time.
	Control time.Time
	// ProtectedBy is the Index of that archive time-stamp, -1 when none.
	ProtectedBy int
	// Valid is true when the time-stamp gives a proof of existence.
	Valid bool
	// Best is true for the time-stamp whose generation time is the
	// signature's best-signature-time (the first such in document order).
	Best bool
	// Path is the TSA's path that made it valid; nil when not valid.
	Path *certpath.Path
	Stage
}

// blockIndication is the building-block spelling of a process indication.
func blockIndication(indication verdict.Indication) verdict.Indication {
	switch indication {
	case verdict.TotalPassed:
		return verdict.Passed
	case verdict.TotalFailed:
		return verdict.Failed
	}
	return indication
}

// distinct returns facts without repeats, in order: the links of a
// signer's and a TSA's path often share a CA, and so its facts.
func distinct(facts []revocation.Fact) []revocation.Fact {
	var out []revocation.Fact
	for _, f := range facts {
		if !slices.ContainsFunc(out, func(g revocation.Fact) bool { return sameFact(f, g) }) {
			out = append(out, f)
		}
	}
	return out
}

// sameFact reports whether a and b are the same fact: same data about
// the same certificate.
func sameFact(a, b revocation.Fact) bool {
	return sameCert(a.Certificate, b.Certificate) && a.Source == b.Source && a.Embedded == b.Embedded && a.Status == b.Status &&
		a.RevokedAt.Equal(b.RevokedAt) && a.ProducedAt.Equal(b.ProducedAt) && a.ThisUpdate.Equal(b.ThisUpdate) &&
		a.NextUpdate.Equal(b.NextUpdate) && bytes.Equal(a.Raw, b.Raw)
}
