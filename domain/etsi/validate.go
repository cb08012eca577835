package etsi

import (
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// Result is the outcome of the process for one signature.
type Result struct {
	// Indication is verdict.TotalPassed, verdict.Indeterminate or
	// verdict.TotalFailed.
	Indication verdict.Indication
	// SubIndication is "" when TOTAL_PASSED, else the EN 319 102-1
	// sub-indication.
	SubIndication verdict.SubIndication
	// Path is the chosen certificate path of the signing certificate, nil
	// when none was built. When CV concluded it is the first path built,
	// not judged: it only tells where the signer chains to.
	Path *certpath.Path
	// BestSignatureTime is the lowest proof of existence of the signature
	// from a trusted, intact time-stamp or an accepted time-mark; the
	// validation time when none.
	BestSignatureTime time.Time
	// EvidenceLevel is the level the evidence supports: the reader's
	// level, or a lower one when a time-stamp it counts does not verify
	// or the embedded revocation data does not cover the signer's chain
	// (warning LEVEL_NOT_SUPPORTED_BY_EVIDENCE). The report's
	// signatureFormat is the reader's level, as DSS reports the
	// structure, not this one.
	EvidenceLevel ades.Level
	// Errors and Warnings carry stable codes and English messages.
	Errors, Warnings []verdict.Message
	// Timestamps are the time-stamps that gave a proof of existence, in
	// generation order, each with the TSA path that made it trusted.
	Timestamps []TimestampResult
	// TimeMark is the time-mark of a BDOC 2.1 time-mark signature when
	// it gave a proof of existence (timemark.go); nil otherwise.
	TimeMark *TimeMarkResult

	// What the process ran, for the reports (domain/report); the fields
	// above are the verdict and never depend on these.

	// Blocks are the building blocks of clause 5.2 in the order the
	// process ran them (FC, ISC, CV, SAV, XCV); a block that did not run
	// because an earlier one concluded is absent.
	Blocks []Block
	// Basic is the validation process for basic signatures (5.3): whether
	// each block that ran passed, and the conclusion at the validation
	// time, before any proof of existence is looked at.
	Basic Stage
	// LongTerm is the validation with time and long-term validation
	// material (5.5 and 5.6, simplified as 0018 says: past signature
	// validation at the best-signature-time); nil when X.509 certificate
	// validation did not run. When present, its conclusion is the
	// result's.
	LongTerm *Stage
	// TimestampValidations are the time-stamps the process judged, valid
	// or not, in document order.
	TimestampValidations []TimestampValidation
	// Revocation holds the revocation facts the process relied on: the
	// usable facts about the links of Path when X.509 certificate
	// validation ran, then those about the TSA paths of the valid
	// time-stamps; each once.
	Revocation []revocation.Fact
}

// A TimestampResult is a time-stamp the process found valid.
type TimestampResult struct {
	Type    ades.TimestampType
	GenTime time.Time
	// POE is the time it was judged at: the first valid archive
	// time-stamp after it, else the validation time; its own lowest proof
	// of existence.
	POE  time.Time
	Path *certpath.Path
}

// Validate runs the EN 319 102-1 validation process (clauses 5.2 to 5.6,
// simplified as docs/decisions/0018-etsi-process.md says) on one
// signature at p.ValidationTime.
//
// Validate is pure and deterministic: the same inputs give the same
// Result. It fetches nothing: revocation facts missing from
// in.Revocation make the result INDETERMINATE/TRY_LATER. The caller must
// call p.Validate first; an invalid policy gives
// INDETERMINATE/POLICY_PROCESSING_ERROR. It does not validate
// counter-signatures (a warning says so) nor decide qualification.
func Validate(sig ades.Signature, in Inputs, p Policy) Result {
	r := Result{EvidenceLevel: sig.Level, Errors: []verdict.Message{}, Warnings: []verdict.Message{}}
	if err := p.Validate(); err != nil {
		r.Indication, r.SubIndication = verdict.Indeterminate, verdict.SubPolicyProcessingError
		m := detail(CodePolicyInvalid, err.Error())
		r.Errors = append(r.Errors, m)
		r.Basic = Stage{
			Checks:     []Check{{Name: "Is the validation policy usable?", Status: NotOK, Code: string(verdict.SubPolicyProcessingError), Message: m.Message}},
			Conclusion: Conclusion{Indication: r.Indication, SubIndication: r.SubIndication, Errors: []verdict.Message{m}},
		}
		return r
	}
	vt := p.ValidationTime
	v := &validation{sig: sig, in: in, vt: vt, r: &r, cat: p.catalogue(), checks: p.Constraints.resolved(), expiryWarning: p.ExpiryWarning, plan: in.Plan}
	if v.plan == nil {
		v.plan = NewPlan(sig, in)
	}
	v.run()
	r.Warnings = append(r.Warnings, v.late...)
	v.basicStage()
	r.Revocation = distinct(append(v.signerFacts, v.tsaFacts...))
	return r
}

type validation struct {
	sig ades.Signature
	in  Inputs
	vt  time.Time
	r   *Result
	// late are the time-stamp, level and counter-signature warnings,
	// reported after the others.
	late []verdict.Message
	// signerFacts and tsaFacts are the facts the process relied on, for
	// Result.Revocation.
	signerFacts, tsaFacts []revocation.Fact
	// cat is the policy's cryptographic constraints (constraints.go).
	cat algorithm.Catalogue
	// checks are the levels of the policy's checks (policychecks.go),
	// defaults resolved.
	checks Constraints
	// expiryWarning is the policy's ExpiryWarning.
	expiryWarning time.Duration
	// plan holds the candidate paths, built once (plan.go).
	plan *Plan
	// entry names the time-stamp entry validated (ValidateTimestamp);
	// "" for a signature.
	entry string
	// disorder says how the signature's time-stamps contradict each
	// other (order.go); "" when they do not.
	disorder string
}

// begin starts recording building block name: the checks and warnings
// that follow are its own.
func (v *validation) begin(name BlockName) {
	v.r.Blocks = append(v.r.Blocks, Block{Name: name, Stage: Stage{Conclusion: Conclusion{Indication: verdict.Passed}}})
}

// block is the building block running.
func (v *validation) block() *Block { return &v.r.Blocks[len(v.r.Blocks)-1] }

// check records a check of the running block.
func (v *validation) check(name string, status Status, code, format string, args ...any) {
	b := v.block()
	b.Checks = append(b.Checks, Check{Name: name, Status: status, Code: code, Message: fmt.Sprintf(format, args...)})
}

// warn adds the warning m to the result and to the running block, with
// the check that gave it.
func (v *validation) warn(name string, m verdict.Message) {
	code := m.Code
	v.r.Warnings = append(v.r.Warnings, m)
	b := v.block()
	b.Checks = append(b.Checks, Check{Name: name, Status: Warning, Code: code, Message: m.Message})
	b.Conclusion.Warnings = append(b.Conclusion.Warnings, m)
}

// conclude decides the result: the running block concluded with a
// failed check name and the error m (or, for TOTAL_PASSED, passed).
// The error's code is the sub-indication's name but for a few
// (CodeTimeMarkNonceMismatch).
func (v *validation) conclude(name string, indication verdict.Indication, sub verdict.SubIndication, m verdict.Message) {
	v.r.Indication, v.r.SubIndication = indication, sub
	if indication == verdict.TotalPassed {
		return
	}
	code := m.Code
	v.r.Errors = append(v.r.Errors, m)
	b := v.block()
	b.Checks = append(b.Checks, Check{Name: name, Status: NotOK, Code: code, Message: m.Message})
	b.Conclusion.Indication, b.Conclusion.SubIndication = blockIndication(indication), sub
	b.Conclusion.Errors = append(b.Conclusion.Errors, m)
}

func (v *validation) run() {
	sig := v.sig
	// Facts independent of the outcome: proofs of existence, level. The
	// level is a format matter: FC records it. Counter-signatures are
	// signatures of their own, validated by this process when the caller
	// gives them (ades.Signature.CounterSignatureOf).
	v.begin(FC)
	v.r.BestSignatureTime = v.timeMark(v.timestamps())
	v.disorder = disorder(sig.Timestamps[:min(len(sig.Timestamps), MaxTimestamps)])
	v.level()
	v.late, v.r.Warnings = v.r.Warnings, []verdict.Message{}

	// 5.2.2 Format checking: the reader says which of its findings make
	// the format invalid.
	const formatSound = "Is the signature's format sound?"
	for _, pr := range sig.Problems {
		if pr.FormatFailure {
			v.conclude(formatSound, verdict.TotalFailed, verdict.SubFormatFailure, formatFailure(pr))
			if sig.SigningCertificate != nil {
				v.locate(sig.SigningCertificate)
			}
			return
		}
	}
	v.check(formatSound, OK, "", "no finding of the reader makes the format invalid")
	for _, pr := range sig.Problems {
		m := problem(pr)
		v.r.Warnings = append(v.r.Warnings, m)
		b := v.block()
		b.Checks = append(b.Checks, Check{Name: "Is the signature free of other format findings?", Status: Warning, Code: pr.Code, Message: pr.Message})
		b.Conclusion.Warnings = append(b.Conclusion.Warnings, m)
	}

	// 5.2.3 Identification of the signing certificate.
	v.begin(ISC)
	const identified = "Is the signing certificate identified?"
	signer := sig.SigningCertificate
	if signer == nil {
		v.conclude(identified, verdict.Indeterminate, verdict.SubNoSigningCertificateFound,
			verdict.Say(string(verdict.SubNoSigningCertificateFound), "not-found", "the signing certificate was not found"))
		return
	}
	v.check(identified, OK, "", "certificate %s", subject(signer))
	const (
		refPresent  = "Is a signed signing-certificate reference present?"
		refDigest   = "Does the signing-certificate reference's digest match the signing certificate?"
		refIssuerSN = "Do the signing-certificate reference's issuer and serial number match the signing certificate?"
	)
	switch ref := sig.Reference; {
	case !ref.Present:
		m := verdict.Say(CodeSigningCertificateRefMissing, "", "the signature carries no signed signing-certificate reference")
		if v.constrain(v.checks.SigningCertificateReference, refPresent, verdict.Indeterminate, verdict.SubNoSigningCertificateFound, m) {
			return
		}
	case !ref.DigestMatched:
		v.check(refPresent, OK, "", "the signature carries a signed signing-certificate reference")
		v.conclude(refDigest, verdict.Indeterminate, verdict.SubNoSigningCertificateFound,
			verdict.Say(string(verdict.SubNoSigningCertificateFound), "digest", "the signed signing-certificate reference does not match the signing certificate's digest"))
		return
	case ref.IssuerSerialPresent && !ref.IssuerSerialMatched:
		v.check(refPresent, OK, "", "the signature carries a signed signing-certificate reference")
		v.check(refDigest, OK, "", "the digests match")
		v.warn(refIssuerSN, verdict.Say(CodeIssuerSerialMismatch, "", "the issuer and serial number of the signing-certificate reference do not match the signing certificate"))
	default:
		v.check(refPresent, OK, "", "the signature carries a signed signing-certificate reference")
		v.check(refDigest, OK, "", "the digests match")
		if ref.IssuerSerialPresent {
			v.check(refIssuerSN, OK, "", "they match")
		}
	}

	// 5.2.7 Cryptographic verification.
	v.begin(CV)
	if !v.cryptographic() {
		v.locate(signer)
		return
	}

	// 5.2.8 Signature acceptance validation: warnings, but for the
	// nonce of a time-mark.
	v.begin(SAV)
	if !v.acceptance(signer) {
		v.locate(signer)
		return
	}

	// 5.2.6 X.509 certificate validation, 5.3 basic validation, 5.5/5.6
	// validation with time.
	v.begin(XCV)
	v.certificates(signer)
}

// basicStage records the validation process for basic signatures (5.3.4)
// from the blocks that ran: each passed or concluded, and the first that
// concluded gives the process's conclusion; X.509 certificate validation
// gives the conclusion before any proof of existence.
func (v *validation) basicStage() {
	st := Stage{Conclusion: Conclusion{Indication: verdict.TotalPassed}}
	decided := false
	for _, b := range v.r.Blocks {
		c := b.Conclusion
		name := fmt.Sprintf("Did the %s building block pass?", b.Name)
		if c.Indication == verdict.Passed {
			st.Checks = append(st.Checks, Check{Name: name, Status: OK, Message: string(verdict.Passed)})
			continue
		}
		st.Checks = append(st.Checks, Check{Name: name, Status: NotOK, Code: string(c.SubIndication), Message: string(c.Indication) + "/" + string(c.SubIndication)})
		if !decided {
			decided = true
			st.Conclusion = Conclusion{Indication: processIndication(c.Indication), SubIndication: c.SubIndication, Errors: c.Errors}
		}
	}
	v.r.Basic = st
}

// processIndication is the process spelling of a block indication.
func processIndication(indication verdict.Indication) verdict.Indication {
	switch indication {
	case verdict.Passed:
		return verdict.TotalPassed
	case verdict.Failed:
		return verdict.TotalFailed
	}
	return indication
}

// cryptographic is CV (5.2.7); false when it concluded.
func (v *validation) cryptographic() bool {
	sig := v.sig
	const (
		intact = "Is the digest of the signed data object intact?"
		found  = "Is the signed data found?"
		value  = "Does the signature value verify with the signing certificate's key?"
	)
	for _, d := range sig.DataObjects {
		if d.Found && !d.Intact && d.Unchecked == "" {
			v.conclude(intact, verdict.TotalFailed, verdict.SubHashFailure, verdict.Say(string(verdict.SubHashFailure), "object",
				fmt.Sprintf("the digest of signed data object %q does not match", d.Name), verdict.QuotedParam("Object", d.Name)))
			return false
		}
	}
	if len(sig.DataObjects) == 0 {
		v.conclude(found, verdict.Indeterminate, verdict.SubSignedDataNotFound,
			verdict.Say(string(verdict.SubSignedDataNotFound), "data", "the signed data was not found"))
		return false
	}
	for _, d := range sig.DataObjects {
		if !d.Found {
			v.conclude(found, verdict.Indeterminate, verdict.SubSignedDataNotFound, verdict.Say(string(verdict.SubSignedDataNotFound), "object",
				fmt.Sprintf("signed data object %q was not found", d.Name), verdict.QuotedParam("Object", d.Name)))
			return false
		}
	}
	for _, d := range sig.DataObjects {
		if d.Unchecked != "" {
			v.conclude(intact, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, verdict.Say(string(verdict.SubCryptoConstraintsFailureNoPOE), "digest",
				fmt.Sprintf("the digest of signed data object %q could not be computed: unsupported algorithm %s (%s)", d.Name, orUnknown(d.DigestAlgorithm), d.Unchecked),
				verdict.QuotedParam("Object", d.Name), verdict.TextParam("Algorithm", orUnknown(d.DigestAlgorithm)), verdict.TextParam("Detail", d.Unchecked)))
			return false
		}
	}
	for _, d := range sig.DataObjects {
		v.check(found, OK, "", "signed data object %q found", d.Name)
		v.check(intact, OK, "", "the %s digest of signed data object %q matches", orUnknown(d.DigestAlgorithm), d.Name)
	}
	switch val := sig.Value; {
	case !val.Done && algorithmReason(val.Reason):
		// An algorithm the catalogue forbids outright is that, not merely
		// one this validator does not compute (an EdDSA key with a digest
		// RFC 8419 does not pair it with).
		var digest algorithm.Digest
		if d := sig.DataObjects[0].DigestAlgorithm; d != "" {
			digest = algorithm.NormalizeDigest(d)
		}
		if u, ok := valueUse(val, sig.SigningCertificate, digest); ok {
			if l := v.cat.Judge(u); l.Never {
				v.conclude(value, verdict.Indeterminate, verdict.SubCryptoConstraintsFailure, verdict.Say(string(verdict.SubCryptoConstraintsFailure), "value",
					fmt.Sprintf("the signature value uses %s, which is not acceptable: %s", u, l.Reason), verdict.TextParam("Algorithm", u.String()), verdict.TextParam("Detail", l.Reason)))
				return false
			}
		}
		v.conclude(value, verdict.Indeterminate, verdict.SubCryptoConstraintsFailureNoPOE, verdict.Say(string(verdict.SubCryptoConstraintsFailureNoPOE), "value",
			fmt.Sprintf("the signature value could not be verified: unsupported algorithm %s (%s)", orUnknown(val.Algorithm), val.Reason),
			verdict.TextParam("Algorithm", orUnknown(val.Algorithm)), verdict.TextParam("Detail", val.Reason)))
		return false
	case !val.Done:
		v.conclude(value, verdict.Indeterminate, verdict.SubFormatFailure, verdict.Say(string(verdict.SubFormatFailure), "value",
			fmt.Sprintf("the signature value could not be verified (%s)", orUnknown(val.Reason)), verdict.TextParam("Detail", orUnknown(val.Reason))))
		return false
	case !val.Valid:
		v.conclude(value, verdict.TotalFailed, verdict.SubSigCryptoFailure, verdict.Say(string(verdict.SubSigCryptoFailure), "value",
			fmt.Sprintf("the signature does not verify with the signing certificate's key (%s)", orUnknown(val.Reason)), verdict.TextParam("Detail", orUnknown(val.Reason))))
		return false
	}
	v.check(value, OK, "", "%s signature value verified", orUnknown(sig.Value.Algorithm))
	return true
}

// algorithmReason reports whether a reader's reason for an undone check is
// about the algorithm (a code naming ALGORITHM).
func algorithmReason(reason string) bool {
	return strings.Contains(strings.ToUpper(reason), "ALGORITHM")
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// acceptance is SAV (5.2.8): the nonce of a time-mark, the
// cryptographic constraints at the validation time and the signing-time
// checks; false when it concluded.
func (v *validation) acceptance(signer *x509.Certificate) bool {
	if !v.timeMarkNonce() {
		return false
	}
	v.cryptoAcceptance(signer)
	if !v.policyChecks() {
		return false
	}
	if id := v.sig.PolicyID; id != "" {
		// 5.2.4 (VCI) and the policy's constraints are not implemented
		// (0018): say that the policy the signer named was not applied.
		v.check("Is the signature policy applied?", Information, "", "the signature names policy %s, which is not processed: the validator's own constraints apply", id)
	}
	t := v.sig.ClaimedSigningTime
	if t.IsZero() {
		// Today's INFORM records the check without a code, as before
		// policies had levels.
		m := verdict.Message{Message: "the signature claims no signing time"}
		if l := v.checks.SigningTime; l != LevelInform {
			m = detail(CodeSigningTimeMissing, m.Message)
			return !v.constrain(l, "Is a claimed signing time present?", verdict.Indeterminate, verdict.SubSigConstraintsFailure, m)
		}
		v.check("Is a claimed signing time present?", Information, "", "%s", m.Message)
		return true
	}
	const (
		inValidity = "Is the claimed signing time within the signing certificate's validity?"
		beforePOE  = "Is the claimed signing time at or before the signature's proof of existence?"
	)
	if t.Before(signer.NotBefore) || t.After(signer.NotAfter) {
		v.warn(inValidity, verdict.Say(CodeClaimedSigningTimeOutside, "", fmt.Sprintf("the claimed signing time %s is outside the signing certificate's validity %s to %s",
			stamp(t), stamp(signer.NotBefore), stamp(signer.NotAfter)),
			verdict.TimeParam("Claimed", t), verdict.TimeParam("NotBefore", signer.NotBefore), verdict.TimeParam("NotAfter", signer.NotAfter)))
	} else {
		v.check(inValidity, OK, "", "the claimed signing time %s is within %s to %s", stamp(t), stamp(signer.NotBefore), stamp(signer.NotAfter))
	}
	if v.r.BestSignatureTime.Before(v.vt) {
		if t.After(v.r.BestSignatureTime) {
			v.warn(beforePOE, verdict.Say(CodeClaimedSigningTimeAfterPOE, "", fmt.Sprintf("the claimed signing time %s is after the signature's proof of existence %s",
				stamp(t), stamp(v.r.BestSignatureTime)), verdict.TimeParam("Claimed", t), verdict.TimeParam("POE", v.r.BestSignatureTime)))
		} else {
			v.check(beforePOE, OK, "", "the claimed signing time %s is not after the proof of existence %s", stamp(t), stamp(v.r.BestSignatureTime))
		}
	}
	return true
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// linkStatus is what the revocation facts say about one link of a path.
type linkStatus struct {
	index   int // of the certificate in the path
	noCheck bool
	// fresh: a fact settles the status at the validation time
	// (revocation.Fresh): GOOD fresh then or issued after it, REVOKED at
	// or before it, or REVOKED after it but for a suspension.
	fresh bool
	// revoked at revokedAt, the earliest revocation at or before the
	// validation time.
	revoked   bool
	revokedAt time.Time
	// goodAt is the latest thisUpdate of a GOOD fact, fresh or not.
	goodAt time.Time
	// facts are the usable facts, in the order the application gave them.
	facts []revocation.Fact
	// unknown: an OCSP responder answered unknown about the certificate
	// (such a fact is not usable: it settles nothing).
	unknown bool
}

// revocationOf judges the facts of one link (5.2.5, simplified): a fact
// is usable when it is about this certificate and issuer, says GOOD or
// REVOKED and speaks of the validation time (revocation.Usable: issued
// by then, or after it as 0035 says).
func (v *validation) revocationOf(i int, l certpath.Link) linkStatus {
	st := linkStatus{index: i, noCheck: noCheck(l.Cert)}
	for _, f := range v.in.Revocation[Key(l.Cert)] {
		if f.Status == revocation.Unknown && f.Source == revocation.OCSP && v.acceptableData(f) {
			st.unknown = true
		}
		if !usable(f, l, v.vt) || !v.acceptableData(f) {
			continue
		}
		st.facts = append(st.facts, f)
		if revocation.Fresh(f, v.vt) {
			st.fresh = true
		}
		switch {
		case f.Status == revocation.Good:
			if f.ThisUpdate.After(st.goodAt) {
				st.goodAt = f.ThisUpdate
			}
		case !f.RevokedAt.After(v.vt):
			if !st.revoked || f.RevokedAt.Before(st.revokedAt) {
				st.revokedAt = f.RevokedAt
			}
			st.revoked = true
		}
	}
	return st
}

// notRevokedAt reports whether the facts show the certificate was not
// revoked at t (at or before the validation time): no revocation at or
// before t, and either fresh data, a revocation after t, or GOOD data
// issued at or after t.
func (st linkStatus) notRevokedAt(t time.Time) bool {
	if st.noCheck {
		return true
	}
	if st.revoked && !st.revokedAt.After(t) {
		return false
	}
	return st.fresh || !st.goodAt.IsZero() && !st.goodAt.Before(t)
}

// used are the facts of the links whose revocation is checked.
func used(status []linkStatus) []revocation.Fact {
	var out []revocation.Fact
	for _, st := range status {
		if !st.noCheck {
			out = append(out, st.facts...)
		}
	}
	return out
}

// describe says what the facts of a link say at the validation time, for
// the check that records it.
func (st linkStatus) describe(c *x509.Certificate, vt time.Time) (Status, verdict.SubIndication, string) {
	who := "certificate " + subject(c)
	switch {
	case st.noCheck:
		return Information, "", who + " carries id-pkix-ocsp-nocheck: its revocation is not checked"
	case st.revoked:
		sub := verdict.SubRevokedNoPOE
		if st.index > 0 {
			sub = verdict.SubRevokedCANoPOE
		}
		return NotOK, sub, fmt.Sprintf("%s was revoked at %s", who, stamp(st.revokedAt))
	case st.fresh:
		for _, f := range st.facts {
			switch {
			case !revocation.Fresh(f, vt):
			case f.Status == revocation.Revoked:
				return OK, "", fmt.Sprintf("%s: %s says revoked only at %s, after the validation time", who, factName(f), stamp(f.RevokedAt))
			case revocation.IssuedAfter(f, vt):
				return OK, "", fmt.Sprintf("%s: %s, issued after the validation time, says GOOD: not revoked then either", who, factName(f))
			default:
				return OK, "", fmt.Sprintf("%s: %s says GOOD", who, factName(f))
			}
		}
	case !st.goodAt.IsZero():
		return NotOK, verdict.SubTryLater, fmt.Sprintf("%s: the latest GOOD data, of %s, is not fresh at the validation time", who, stamp(st.goodAt))
	}
	for _, f := range st.facts {
		if f.Status == revocation.Revoked && f.Reason == revocation.ReasonCertificateHold {
			return NotOK, verdict.SubTryLater, fmt.Sprintf("%s: %s says suspended (certificateHold) only from %s, which does not show it was not suspended at the validation time", who, factName(f), stamp(f.RevokedAt))
		}
	}
	return NotOK, verdict.SubTryLater, who + ": no usable revocation data"
}

// factName names a fact for a message: "OCSP response of 2026-01-01T…
// (embedded, next update …)".
func factName(f revocation.Fact) string {
	kind := "CRL"
	if f.Source == revocation.OCSP {
		kind = "OCSP response"
	}
	origin := "fetched"
	if f.Embedded {
		origin = "embedded"
	}
	next := "no next update"
	if !f.NextUpdate.IsZero() {
		next = "next update " + stamp(f.NextUpdate)
	}
	return fmt.Sprintf("%s of %s (%s, %s)", kind, stamp(f.ThisUpdate), origin, next)
}

// usable is the rule of domain/revocation, which the gathering of facts
// (app) applies too: one rule in one place.
func usable(f revocation.Fact, l certpath.Link, vt time.Time) bool {
	return revocation.Usable(f, l.Cert, l.Issuer, vt)
}

// outcome is a conclusion on one candidate path.
type outcome struct {
	indication verdict.Indication
	sub        verdict.SubIndication
	message    verdict.Message // the error, but for TOTAL_PASSED
	warnings   []verdict.Message
}

func (o outcome) rank() int {
	switch o.indication {
	case verdict.TotalPassed:
		return 0
	case verdict.Indeterminate:
		return 1
	}
	return 2
}

// judged is one candidate path as the process judged it.
type judged struct {
	// basic is the conclusion at the validation time (XCV, 5.3), final
	// the one after past signature validation (5.5, 5.6).
	basic, final outcome
	// checks are XCV's, longTerm the past signature validation's.
	checks   []Check
	longTerm Stage
	status   []linkStatus
}

// chainFound is the first check of XCV.
const chainFound = "Is there a certificate chain from the signing certificate to a trust anchor?"

// certificates is XCV (5.2.6) over every candidate path, then the basic
// (5.3.4) and with-time (5.5.4, 5.6 simplified) conclusions. The first
// passing path in certpath order is chosen, else the first least severe.
func (v *validation) certificates(signer *x509.Certificate) {
	paths, err := v.plan.signer.paths, v.plan.signer.err
	if err != nil {
		var nc *certpath.NoChainError
		if errors.As(err, &nc) {
			v.conclude(chainFound, verdict.Indeterminate, verdict.SubNoCertificateChainFound, detail(string(verdict.SubNoCertificateChainFound), err.Error()))
		} else {
			v.conclude(chainFound, verdict.Indeterminate, verdict.SubCertificateChainGeneralFailure, detail(string(verdict.SubCertificateChainGeneralFailure), err.Error()))
		}
		return
	}
	if len(paths) == 0 {
		v.conclude(chainFound, verdict.Indeterminate, verdict.SubNoCertificateChainFound,
			verdict.Say(string(verdict.SubNoCertificateChainFound), "none", "no certificate chain found"))
		return
	}
	best, bestAt := judged{}, -1
	for i, p := range paths {
		j := v.path(p)
		if bestAt < 0 || j.final.rank() < best.final.rank() {
			best, bestAt = j, i
		}
		if j.final.rank() == 0 {
			break
		}
	}
	chosen := paths[bestAt]
	v.r.Path = &chosen

	// XCV concludes with the chosen path's basic outcome; the process
	// with its final one.
	v.check(chainFound, OK, "", "%d candidate path(s); path %d, of %d certificate(s), ends at %s", len(paths), bestAt+1, len(chosen.Certificates), anchorName(chosen.Anchor))
	b := v.block()
	b.Checks = append(b.Checks, best.checks...)
	b.Conclusion.Indication, b.Conclusion.SubIndication = blockIndication(best.basic.indication), best.basic.sub
	if best.basic.indication != verdict.TotalPassed {
		b.Conclusion.Errors = append(b.Conclusion.Errors, best.basic.message)
	}
	v.r.LongTerm = &best.longTerm
	v.signerFacts = used(best.status)

	v.r.Warnings = append(v.r.Warnings, best.final.warnings...)
	v.r.Indication, v.r.SubIndication = best.final.indication, best.final.sub
	if best.final.indication != verdict.TotalPassed {
		v.r.Errors = append(v.r.Errors, best.final.message)
	}
}

// anchorName names an anchor for a message.
func anchorName(a certpath.Anchor) string {
	if a.Private || a.Certificate == nil {
		return "the private anchor " + subject(a.Certificate)
	}
	return fmt.Sprintf("%s, anchor of the %s trusted list (%s)", subject(a.Certificate), a.Territory, a.Framework)
}

// locate sets the path of a signature that FC or CV already concluded on, so
// that the report still says which trusted list (framework, country) the
// signer chains to, as DSS's reports do for a failed signature. The path
// is the first certpath builds (Swiss precedence); it is not judged, and
// the conclusion stays CV's.
func (v *validation) locate(signer *x509.Certificate) {
	if paths := v.plan.signer.paths; len(paths) > 0 {
		v.r.Path = &paths[0]
	}
}

// path concludes on one candidate path.
func (v *validation) path(p certpath.Path) judged {
	links := p.Links()
	status := make([]linkStatus, len(links))
	for i, l := range links {
		status[i] = v.revocationOf(i, l)
	}
	j := judged{status: status}
	j.basic = v.basic(p, status, &j.checks)
	j.final = j.basic
	if o, ok := v.order(j.basic, &j.longTerm); !ok {
		j.final = o
		j.longTerm.Conclusion = Conclusion{Indication: o.indication, SubIndication: o.sub, Errors: []verdict.Message{o.message}}
		return j
	}
	switch j.basic.sub {
	case verdict.SubRevokedNoPOE, verdict.SubRevokedCANoPOE, verdict.SubOutOfBoundsNoPOE, verdict.SubTryLater:
		j.final = v.withTime(p, status, j.basic, &j.longTerm)
	default:
		j.longTerm.Checks = append(j.longTerm.Checks, Check{Name: "Can a proof of existence change the basic validation's conclusion?", Status: Information,
			Message: fmt.Sprintf("the basic validation concluded %s: past signature validation does not apply", orPassed(j.basic))})
	}
	j.final = v.issuedBefore(p, j.final, &j.longTerm)
	j.final = v.freshEnough(status, func(i int) string { return subject(p.Certificates[i]) }, j.final, &j.longTerm)
	j.final = v.anchorStatus(p, j.final, &j.longTerm)
	j.final = v.cryptoWithTime(p, j.final, &j.longTerm)
	c := Conclusion{Indication: j.final.indication, SubIndication: j.final.sub, Warnings: j.final.warnings}
	if j.final.indication != verdict.TotalPassed {
		c.Errors = []verdict.Message{j.final.message}
	}
	j.longTerm.Conclusion = c
	return j
}

// issuedBefore checks that the signature did not exist before its signing
// certificate (EN 319 102-1, 5.5.4; DSS's "best signature time not before
// the issuance of the signing certificate"): a proof of existence of the
// signature before the certificate's notBefore means the signature was
// made, or its time-stamp obtained, before the key was certified, and the
// signature fails as NOT_YET_VALID whatever the rest concluded.
func (v *validation) issuedBefore(p certpath.Path, o outcome, st *Stage) outcome {
	bst := v.r.BestSignatureTime
	if !bst.Before(v.vt) || o.indication == verdict.TotalFailed || len(p.Certificates) == 0 {
		return o
	}
	const name = "Is the best-signature-time not before the signing certificate's issuance?"
	signer := p.Certificates[0]
	if !bst.Before(signer.NotBefore) {
		st.Checks = append(st.Checks, Check{Name: name, Status: OK, Message: fmt.Sprintf("the best-signature-time %s is not before notBefore %s", stamp(bst), stamp(signer.NotBefore))})
		return o
	}
	msg := verdict.Say(string(verdict.SubNotYetValid), "poe", fmt.Sprintf("a proof of existence of the signature at %s precedes the issuance of the signing certificate %s (notBefore %s)", stamp(bst), subject(signer), stamp(signer.NotBefore)),
		verdict.TimeParam("POE", bst), verdict.QuotedParam("Subject", signer.Subject.String()), verdict.TimeParam("NotBefore", signer.NotBefore))
	st.Checks = append(st.Checks, Check{Name: name, Status: NotOK, Code: string(verdict.SubNotYetValid), Message: msg.Message})
	return outcome{indication: verdict.TotalFailed, sub: verdict.SubNotYetValid, message: msg}
}

// orPassed spells an outcome for a message.
func orPassed(o outcome) string {
	if o.sub == "" {
		return string(o.indication)
	}
	return string(o.indication) + "/" + string(o.sub)
}

// basic is XCV at the validation time with the 5.3.4 conclusions; it
// records its checks in checks.
func (v *validation) basic(p certpath.Path, status []linkStatus, checks *[]Check) outcome {
	const (
		valid     = "Is the certificate chain valid at the validation time?"
		notRevoke = "Does fresh revocation data show the certificate not revoked at the validation time?"
	)
	add := func(name string, s Status, sub verdict.SubIndication, msg string) {
		*checks = append(*checks, Check{Name: name, Status: s, Code: string(sub), Message: msg})
	}
	err := certpath.Check(p, v.vt, checkOptions())
	var pe *certpath.PathError
	expired := false
	if err != nil {
		if !errors.As(err, &pe) {
			add(valid, NotOK, verdict.SubCertificateChainGeneralFailure, err.Error())
			return outcome{indication: verdict.Indeterminate, sub: verdict.SubCertificateChainGeneralFailure, message: detail(string(verdict.SubCertificateChainGeneralFailure), err.Error())}
		}
		switch pe.Check {
		case certpath.CheckNotYetValid:
			add(valid, NotOK, verdict.SubNotYetValid, pe.Error())
			return outcome{indication: verdict.TotalFailed, sub: verdict.SubNotYetValid, message: detail(string(verdict.SubNotYetValid), pe.Error())}
		case certpath.CheckExpired:
			add(valid, NotOK, verdict.SubOutOfBoundsNoPOE, pe.Error())
			expired = true
		default:
			add(valid, NotOK, pe.SubIndication(), pe.Error())
			return outcome{indication: verdict.Indeterminate, sub: pe.SubIndication(), message: detail(string(pe.SubIndication()), pe.Error())}
		}
	} else {
		add(valid, OK, "", fmt.Sprintf("every certificate is valid at %s and the chain's constraints hold", stamp(v.vt)))
	}
	certs := p.Certificates
	for _, st := range status {
		s, code, msg := st.describe(certs[st.index], v.vt)
		add(notRevoke, s, code, msg)
	}
	for _, st := range status {
		if st.revoked && !st.noCheck {
			sub := verdict.SubRevokedNoPOE
			if st.index > 0 {
				sub = verdict.SubRevokedCANoPOE
			}
			return outcome{indication: verdict.Indeterminate, sub: sub,
				message: verdict.Say(string(sub), "certificate", fmt.Sprintf("certificate %s was revoked at %s, before the validation time, and no proof of existence of the signature precedes the revocation",
					subject(certs[st.index]), stamp(st.revokedAt)), verdict.QuotedParam("Subject", certs[st.index].Subject.String()), verdict.TimeParam("Revoked", st.revokedAt))}
		}
	}
	if expired {
		return outcome{indication: verdict.Indeterminate, sub: verdict.SubOutOfBoundsNoPOE,
			message: verdict.Say(string(verdict.SubOutOfBoundsNoPOE), "validity", pe.Error()+"; no proof of existence of the signature within the validity",
				verdict.TextParam("Detail", pe.Error()))}
	}
	for _, st := range status {
		if !st.fresh && !st.noCheck && st.unknown && v.checks.OCSPUnknown == UnknownFails {
			// The policy treats an OCSP unknown that nothing else
			// outweighs as a revocation (decision 0042).
			return outcome{indication: verdict.TotalFailed, sub: verdict.SubRevoked,
				message: detail(string(verdict.SubRevoked), fmt.Sprintf("the OCSP responder does not know certificate %s (status unknown), which the validation policy treats as revoked", subject(certs[st.index])))}
		}
	}
	for _, st := range status {
		if !st.fresh && !st.noCheck {
			return outcome{indication: verdict.Indeterminate, sub: verdict.SubTryLater,
				message: verdict.Say(string(verdict.SubTryLater), "revocation", fmt.Sprintf("no fresh revocation data for certificate %s", subject(certs[st.index])),
					verdict.QuotedParam("Subject", certs[st.index].Subject.String()))}
		}
	}
	return outcome{indication: verdict.TotalPassed}
}

// withTime is the past signature validation of 5.5.4/5.6 (simplified):
// with a proof of existence of the signature before the validation time,
// a certificate revoked or expired since, or one whose only revocation
// data is not fresh at the validation time, is accepted when the path is
// valid at the best-signature-time and the facts show that no
// certificate on it was revoked at that time (see notRevokedAt). It
// records its checks in st.
func (v *validation) withTime(p certpath.Path, status []linkStatus, basic outcome, st *Stage) outcome {
	const (
		poe       = "Is there a proof of existence of the signature before the validation time?"
		valid     = "Is the certificate chain valid at the best-signature-time?"
		notRevoke = "Do the revocation data show the certificate not revoked at the best-signature-time?"
	)
	add := func(name string, s Status, code, msg string) {
		st.Checks = append(st.Checks, Check{Name: name, Status: s, Code: code, Message: msg})
	}
	add("Can a proof of existence change the basic validation's conclusion?", OK, "", fmt.Sprintf("the basic validation concluded %s: past signature validation applies", orPassed(basic)))
	bst := v.r.BestSignatureTime
	if !bst.Before(v.vt) {
		add(poe, NotOK, string(basic.sub), "no valid signature or archive time-stamp gives one: the best-signature-time is the validation time")
		return basic
	}
	add(poe, OK, "", "the best-signature-time is "+stamp(bst))
	if err := certpath.Check(p, bst, checkOptions()); err != nil {
		var pe *certpath.PathError
		if errors.As(err, &pe) && pe.Check == certpath.CheckNotYetValid && basic.sub == verdict.SubOutOfBoundsNoPOE {
			add(valid, NotOK, string(verdict.SubNotYetValid), err.Error())
			return outcome{indication: verdict.TotalFailed, sub: verdict.SubNotYetValid,
				message: verdict.Say(string(verdict.SubNotYetValid), "bst", pe.Error()+" (best-signature-time before notBefore)", verdict.TextParam("Detail", pe.Error()))}
		}
		add(valid, NotOK, string(basic.sub), err.Error())
		return basic
	}
	add(valid, OK, "", fmt.Sprintf("every certificate is valid at %s", stamp(bst)))
	var warnings []verdict.Message
	certs := p.Certificates
	for _, ls := range status {
		if ls.noCheck {
			continue
		}
		who := "certificate " + subject(certs[ls.index])
		if !ls.notRevokedAt(bst) {
			add(notRevoke, NotOK, string(basic.sub), who+": the revocation data do not show it was not revoked then")
			return basic
		}
		add(notRevoke, OK, "", who+": not revoked then")
		if ls.revoked {
			warnings = append(warnings, verdict.Say(CodeRevokedAfterPOE, "", fmt.Sprintf("certificate %s was revoked at %s, after the proof of existence of the signature at %s",
				subject(certs[ls.index]), stamp(ls.revokedAt), stamp(bst)),
				verdict.QuotedParam("Subject", certs[ls.index].Subject.String()), verdict.TimeParam("Revoked", ls.revokedAt), verdict.TimeParam("POE", bst)))
		}
	}
	for _, c := range certs[:max(len(certs)-1, 1)] {
		if v.vt.After(c.NotAfter) {
			warnings = append(warnings, verdict.Say(CodeExpiredAfterPOE, "", fmt.Sprintf("certificate %s expired at %s, after the proof of existence of the signature at %s",
				subject(c), stamp(c.NotAfter), stamp(bst)),
				verdict.QuotedParam("Subject", c.Subject.String()), verdict.TimeParam("Expired", c.NotAfter), verdict.TimeParam("POE", bst)))
		}
	}
	for _, w := range warnings {
		name := "Was the certificate revoked only after the proof of existence?"
		if w.Code == CodeExpiredAfterPOE {
			name = "Did the certificate expire only after the proof of existence?"
		}
		add(name, Warning, w.Code, w.Message)
	}
	return outcome{indication: verdict.TotalPassed, warnings: warnings}
}

// detail is the message of code whose English sentence is made of parts
// that are not said in words of their own (a certificate path's error, a
// policy's): its template frames the English text, as Detail.
func detail(code, english string) verdict.Message {
	return verdict.Say(code, "", english, verdict.TextParam("Detail", english))
}

// problem is the warning of a reader's finding, in the reader's words
// when it said them (ades.Say), else framing its English text as Detail
// (decision 0038).
func problem(pr ades.Problem) verdict.Message {
	if pr.ID != "" {
		return verdict.Message{Code: pr.Code, Message: pr.Message, ID: pr.ID, Params: pr.Params}
	}
	return verdict.Say(pr.Code, "", pr.Message, verdict.TextParam("Detail", pr.Message))
}

// formatFailure is the error of a reader's finding that makes the format
// invalid: "format failure", the finding's code and its sentence, whose
// template is FORMAT_FAILURE's variant of the finding's ID when the
// reader worded it.
func formatFailure(pr ades.Problem) verdict.Message {
	english := fmt.Sprintf("format failure: %s: %s", pr.Code, pr.Message)
	if pr.ID != "" {
		return verdict.Say(string(verdict.SubFormatFailure), pr.ID, english, append([]verdict.Param{verdict.TextParam("Problem", pr.Code)}, pr.Params...)...)
	}
	return verdict.Say(string(verdict.SubFormatFailure), "problem", english, verdict.TextParam("Problem", pr.Code), verdict.TextParam("Detail", pr.Message))
}

func subject(c *x509.Certificate) string {
	return fmt.Sprintf("%q", c.Subject.String())
}
