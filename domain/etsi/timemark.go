package etsi

import (
	"bytes"
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// A TimeMarkResult is the time-mark of a BDOC 2.1 time-mark signature
// that gave a proof of existence of the signature.
type TimeMarkResult struct {
	// ProducedAt is the OCSP response's producedAt: the proof of
	// existence.
	ProducedAt time.Time
	// Fact is the revocation fact the application read from the same
	// response, which made it one the process may rely on.
	Fact revocation.Fact
}

// Checks of a time-mark.
const (
	tmNonce    = "Is the time-mark's nonce the digest of the signature value?"
	tmFact     = "Is the time-mark's OCSP response a usable revocation fact about the signing certificate?"
	tmProduced = "Was the time-mark produced at or before the validation time?"
)

// timeMark judges the signature's time-mark, an OCSP response standing
// where a signature time-stamp stands (an Estonian BDOC 2.1 time-mark
// signature, docs/decisions/0031-bdoc-time-mark.md), and returns the
// best-signature-time with it: best, or the response's producedAt when
// that is earlier and the time-mark gives a proof of existence.
//
// It gives one, as a valid signature time-stamp does, when its nonce is
// the digest of the signature value (the reader checked it) and its
// response is a revocation fact the process may rely on: the
// application read an embedded fact from the same BasicOCSPResponse
// about the signing certificate, which means it is signed by the
// certificate's issuer or by a responder the issuer authorised (the
// issuer being that of a candidate path, trusted through it), and it
// says GOOD or REVOKED with a signature acceptable at the validation
// time, produced at or before the validation time. Whether the
// signing certificate was revoked then is XCV's and the past signature
// validation's question, with that fact among the others. A nonce that
// does not match gives no proof of existence here, and SAV fails the
// signature on it (timeMarkNonce); the other shortfalls are warnings
// (TIMEMARK_INVALID), as a time-stamp's are.
func (v *validation) timeMark(best time.Time) time.Time {
	tm, signer := v.sig.TimeMark, v.sig.SigningCertificate
	if tm == nil || signer == nil {
		return best
	}
	switch {
	case !tm.Nonce.Done:
		v.warn(tmNonce, verdict.Say(CodeTimeMarkInvalid, "nonce", fmt.Sprintf("the time-mark's nonce could not be checked (%s); it gives no proof of existence", orUnknown(tm.Nonce.Reason)),
			verdict.TextParam("Detail", orUnknown(tm.Nonce.Reason))))
		return best
	case !tm.Nonce.Valid:
		// SAV concludes on it.
		v.check(tmNonce, Information, "", "the time-mark's nonce does not match the signature value (%s); it gives no proof of existence", orUnknown(tm.Nonce.Reason))
		return best
	}
	facts, looked := v.in.Revocation[Key(signer)]
	if !looked {
		// The application gathers facts for the links of the signer's
		// paths: there is none to an anchor.
		v.warn(tmFact, verdict.Say(CodeTimeMarkInvalid, "no-data", "no revocation data was gathered for the signing certificate, which reaches no trust anchor; the time-mark gives no proof of existence"))
		return best
	}
	var fact *revocation.Fact
	for _, f := range facts {
		if f.Embedded && f.Source == revocation.OCSP && bytes.Equal(f.Raw, tm.Response) && sameCert(f.Certificate, signer) &&
			(f.Status == revocation.Good || f.Status == revocation.Revoked) && v.acceptableData(f) {
			fact = &f
			break
		}
	}
	if fact == nil {
		v.warn(tmFact, verdict.Say(CodeTimeMarkInvalid, "response", "the time-mark's OCSP response is not a usable revocation fact about the signing certificate "+
			"(signed by its issuer or a responder the issuer authorised, with an acceptable algorithm); it gives no proof of existence"))
		return best
	}
	v.check(tmFact, OK, "", "%s", factName(*fact))
	if fact.ProducedAt.After(v.vt) {
		v.warn(tmProduced, verdict.Say(CodeTimeMarkInvalid, "produced", fmt.Sprintf("the time-mark was produced at %s, after the validation time; it gives no proof of existence", stamp(fact.ProducedAt)),
			verdict.TimeParam("Produced", fact.ProducedAt)))
		return best
	}
	v.check(tmProduced, OK, "", "produced at %s", stamp(fact.ProducedAt))
	v.r.TimeMark = &TimeMarkResult{ProducedAt: fact.ProducedAt, Fact: *fact}
	if fact.ProducedAt.Before(best) {
		return fact.ProducedAt
	}
	return best
}

// timeMarkNonce is SAV's check of a time-mark's nonce; false when it
// concluded. A nonce that is not the digest of the signature value
// means the OCSP response was asked for another signature, or the
// signature value was changed since: the time-mark the BDOC policy
// requires does not bind this signature, and no later evidence can make
// it. SiVa and DigiDoc4j fail such a signature (TOTAL_FAILED); the
// sub-indication is SIG_CONSTRAINTS_FAILURE, the closest of EN 319
// 102-1 (the signature does not meet the constraints of its policy),
// and the error's code says which (docs/decisions/0031).
func (v *validation) timeMarkNonce() bool {
	tm := v.sig.TimeMark
	if tm == nil || !tm.Nonce.Done {
		return true
	}
	if !tm.Nonce.Valid {
		v.conclude(tmNonce, verdict.TotalFailed, verdict.SubSigConstraintsFailure, verdict.Say(CodeTimeMarkNonceMismatch, "", fmt.Sprintf(
			"the nonce of the time-mark's OCSP response is not the %s digest of the signature value (%s): the time-mark does not bind this signature",
			orUnknown(tm.Nonce.Algorithm), orUnknown(tm.Nonce.Reason)),
			verdict.TextParam("Algorithm", orUnknown(tm.Nonce.Algorithm)), verdict.TextParam("Detail", orUnknown(tm.Nonce.Reason))))
		return false
	}
	v.check(tmNonce, OK, "", "the nonce is the %s digest of the signature value", orUnknown(tm.Nonce.Algorithm))
	return true
}
