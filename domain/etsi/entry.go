package etsi

import (
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// A TimestampEntryResult is the outcome of the validation of one
// time-stamp entry of a document (ades.TimestampEntry): the time-stamp
// validation building block of EN 319 102-1, 5.4, on a time-stamp that
// covers data rather than a signature.
type TimestampEntryResult struct {
	// Indication is verdict.Passed, verdict.Failed or
	// verdict.Indeterminate, as 5.4 concludes.
	Indication verdict.Indication
	// SubIndication is "" when PASSED, else the EN 319 102-1
	// sub-indication; it may be "" for an INDETERMINATE the standard has
	// none for (a time-stamp generated after the validation time).
	SubIndication verdict.SubIndication
	GenTime       time.Time
	// Path is the TSA's path that made the time-stamp valid. When it is
	// not valid, Path is the first candidate path, not judged: it only
	// tells where the TSA chains to; nil when there is none.
	Path *certpath.Path
	// Errors and Warnings carry stable codes and English messages.
	Errors, Warnings []verdict.Message
	// Validation is what the process checked, in order, and concluded,
	// for the reports; the fields above are the verdict.
	Validation TimestampValidation
	// Revocation holds the revocation facts of Path the process relied
	// on when the time-stamp is valid.
	Revocation []revocation.Fact
}

// Checks of a time-stamp entry's own, before those of its time-stamp.
const (
	entryPolicy = "Is the validation policy usable?"
	entryFormat = "Is the time-stamp's format sound?"
	entryOther  = "Is the time-stamp free of other format findings?"
	entryFound  = "Is the time-stamped data found?"
	entryIntact = "Is the digest of the time-stamped data object intact?"
)

// ValidateTimestamp validates the time-stamp entry e at p.ValidationTime
// (EN 319 102-1, 5.4, simplified as docs/decisions/0018 and 0032 say):
// its format findings, the data it covers (each data object found and
// its digest intact: SIGNED_DATA_NOT_FOUND, HASH_FAILURE), then the
// checks of a signature's time-stamp, in the one place they are made
// (Validation.timestamp): imprint, token signature, cryptographic
// constraints, generation time, TSA certificate and its extended key
// usage, a path to a trust anchor valid at the validation time, and
// revocation facts showing no certificate of it revoked then.
//
// in.Plan, when set, is NewPlan(e.Evidence(), in): its TSA paths are used
// instead of being built again. Like Validate, ValidateTimestamp is pure
// and fetches nothing; the caller must call p.Validate first, and it does
// not decide the TSA's qualification (qualification.OfTimestamp).
func ValidateTimestamp(e ades.TimestampEntry, in Inputs, p Policy) TimestampEntryResult {
	ts := e.Timestamp
	r := TimestampEntryResult{GenTime: ts.GenTime, Errors: []verdict.Message{}, Warnings: []verdict.Message{}}
	tv := &r.Validation
	*tv = TimestampValidation{Type: ts.Type, GenTime: ts.GenTime, Control: p.ValidationTime, ProtectedBy: -1}
	st := &tv.Stage
	conclude := func(check string, indication verdict.Indication, sub verdict.SubIndication, m verdict.Message) TimestampEntryResult {
		code := m.Code
		st.Checks = append(st.Checks, Check{Name: check, Status: NotOK, Code: code, Message: m.Message})
		st.Conclusion = Conclusion{Indication: indication, SubIndication: sub, Errors: []verdict.Message{m}, Warnings: r.Warnings}
		r.Indication, r.SubIndication, r.Errors = indication, sub, st.Conclusion.Errors
		return r
	}
	if err := p.Validate(); err != nil {
		return conclude(entryPolicy, verdict.Indeterminate, verdict.SubPolicyProcessingError, detail(CodePolicyInvalid, err.Error()))
	}
	sig := e.Evidence()
	v := &validation{sig: sig, in: in, vt: p.ValidationTime, r: &Result{}, cat: p.catalogue(), checks: p.Constraints.resolved(), plan: in.Plan, entry: e.Name}
	if v.plan == nil || len(v.plan.timestamps) != 1 {
		v.plan = NewPlan(sig, in) // none, or not this entry's
	}
	if paths := v.plan.timestamps[0].paths; len(paths) > 0 {
		r.Path = &paths[0]
	}

	// Format checking, as 5.2.2 for a signature: the reader says which
	// of its findings make the format invalid.
	for _, pr := range e.Problems {
		if pr.FormatFailure {
			return conclude(entryFormat, verdict.Failed, verdict.SubFormatFailure, formatFailure(pr))
		}
	}
	st.Checks = append(st.Checks, Check{Name: entryFormat, Status: OK, Message: "no finding of the reader makes the format invalid"})
	for _, pr := range e.Problems {
		r.Warnings = append(r.Warnings, problem(pr))
		st.Checks = append(st.Checks, Check{Name: entryOther, Status: Warning, Code: pr.Code, Message: pr.Message})
	}

	// The time-stamped data, as CV checks a signature's signed data.
	for _, d := range e.DataObjects {
		if d.Found && !d.Intact && d.Unchecked == "" {
			return conclude(entryIntact, verdict.Failed, verdict.SubHashFailure, verdict.Say(string(verdict.SubHashFailure), "timestamped",
				fmt.Sprintf("the digest of time-stamped data object %q does not match", d.Name), verdict.QuotedParam("Object", d.Name)))
		}
	}
	if len(e.DataObjects) == 0 {
		return conclude(entryFound, verdict.Indeterminate, verdict.SubSignedDataNotFound, verdict.Say(string(verdict.SubSignedDataNotFound), "timestamped-data", "the time-stamped data was not found"))
	}
	for _, d := range e.DataObjects {
		if !d.Found {
			return conclude(entryFound, verdict.Indeterminate, verdict.SubSignedDataNotFound, verdict.Say(string(verdict.SubSignedDataNotFound), "timestamped",
				fmt.Sprintf("time-stamped data object %q was not found", d.Name), verdict.QuotedParam("Object", d.Name)))
		}
		if d.Unchecked != "" {
			return conclude(entryIntact, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, verdict.Say(string(verdict.SubCryptoConstraintsFailureNoPOE), "timestamped",
				fmt.Sprintf("the digest of time-stamped data object %q could not be computed: unsupported algorithm %s (%s)", d.Name, orUnknown(d.DigestAlgorithm), d.Unchecked),
				verdict.QuotedParam("Object", d.Name), verdict.TextParam("Algorithm", orUnknown(d.DigestAlgorithm)), verdict.TextParam("Detail", d.Unchecked)))
		}
	}
	for _, d := range e.DataObjects {
		st.Checks = append(st.Checks, Check{Name: entryFound, Status: OK, Message: fmt.Sprintf("time-stamped data object %q found", d.Name)},
			Check{Name: entryIntact, Status: OK, Message: fmt.Sprintf("the %s digest of time-stamped data object %q matches", orUnknown(d.DigestAlgorithm), d.Name)})
	}

	// The time-stamp itself: the checks of a signature's time-stamp, at
	// the validation time (no later archive time-stamp protects it).
	valid, path, _, facts := v.timestamp(0, ts, v.vt, st)
	st.Conclusion.Warnings = r.Warnings
	if !valid {
		// As a signature's errors, an entry's carry its sub-indication's
		// name as their code when it has one (codes.go).
		c := &st.Conclusion
		for i := range c.Errors {
			if c.SubIndication != "" {
				c.Errors[i].Code = string(c.SubIndication)
			}
		}
		r.Indication, r.SubIndication, r.Errors = c.Indication, c.SubIndication, c.Errors
		return r
	}
	r.Indication, r.Path, r.Revocation = verdict.Passed, path, distinct(facts)
	tv.Valid, tv.Path = true, path
	return r
}
