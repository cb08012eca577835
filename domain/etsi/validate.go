package etsi

import (
	"bytes"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
)

// Result is the outcome of the process for one signature.
type Result struct {
	// Indication is verdict.TotalPassed, verdict.Indeterminate or
	// verdict.TotalFailed.
	Indication string
	// SubIndication is "" when TOTAL_PASSED, else an EN 319 102-1 name
	// (the Sub constants).
	SubIndication string
	// Path is the chosen certificate path of the signing certificate, nil
	// when none was built. When CV concluded it is the first path built,
	// not judged: it only tells where the signer chains to.
	Path *certpath.Path
	// BestSignatureTime is the lowest proof of existence of the signature
	// from a trusted, intact time-stamp; the validation time when none.
	BestSignatureTime time.Time
	// EvidenceLevel is the level the evidence supports: the reader's
	// level, or a lower one when a time-stamp it counts does not verify
	// or the revocation data it counts does not cover the signing
	// certificate (warning LEVEL_NOT_SUPPORTED_BY_EVIDENCE). The report's
	// signatureFormat is the reader's level, as DSS reports the
	// structure, not this one.
	EvidenceLevel ades.Level
	// Errors and Warnings carry stable codes and English messages.
	Errors, Warnings []verdict.Message
	// Timestamps are the time-stamps that gave a proof of existence, in
	// generation order, each with the TSA path that made it trusted.
	Timestamps []TimestampResult
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
		r.Indication, r.SubIndication = verdict.Indeterminate, SubPolicyProcessingError
		r.Errors = append(r.Errors, verdict.Message{Code: CodePolicyInvalid, Message: err.Error()})
		return r
	}
	vt := p.ValidationTime
	v := &validation{sig: sig, in: in, vt: vt, r: &r}
	v.run()
	r.Warnings = append(r.Warnings, v.late...)
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
}

func (v *validation) warn(code, format string, args ...any) {
	v.r.Warnings = append(v.r.Warnings, verdict.Message{Code: code, Message: fmt.Sprintf(format, args...)})
}

func (v *validation) conclude(indication, sub, format string, args ...any) {
	v.r.Indication, v.r.SubIndication = indication, sub
	if indication != verdict.TotalPassed {
		v.r.Errors = append(v.r.Errors, verdict.Message{Code: sub, Message: fmt.Sprintf(format, args...)})
	}
}

func (v *validation) run() {
	sig := v.sig
	// Facts independent of the outcome: proofs of existence, level.
	v.r.BestSignatureTime = v.timestamps()
	v.level()
	if len(sig.CounterSignatures) > 0 {
		v.warn(CodeCounterSignaturesNotValidated, "%d counter-signature(s) present and not validated", len(sig.CounterSignatures))
	}
	v.late, v.r.Warnings = v.r.Warnings, []verdict.Message{}

	// 5.2.2 Format checking.
	for _, pr := range sig.Problems {
		if slices.Contains(formatFailureCodes, pr.Code) {
			v.conclude(verdict.TotalFailed, SubFormatFailure, "format failure: %s: %s", pr.Code, pr.Message)
			if sig.SigningCertificate != nil {
				v.locate(sig.SigningCertificate)
			}
			return
		}
	}
	for _, pr := range sig.Problems {
		v.r.Warnings = append(v.r.Warnings, verdict.Message{Code: pr.Code, Message: pr.Message})
	}

	// 5.2.3 Identification of the signing certificate.
	signer := sig.SigningCertificate
	if signer == nil {
		v.conclude(verdict.Indeterminate, SubNoSigningCertificateFound, "the signing certificate was not found")
		return
	}
	switch ref := sig.Reference; {
	case !ref.Present:
		v.warn(CodeSigningCertificateRefMissing, "the signature carries no signed signing-certificate reference")
	case !ref.DigestMatched:
		v.conclude(verdict.Indeterminate, SubNoSigningCertificateFound, "the signed signing-certificate reference does not match the signing certificate's digest")
		return
	case ref.IssuerSerialPresent && !ref.IssuerSerialMatched:
		v.warn(CodeIssuerSerialMismatch, "the issuer and serial number of the signing-certificate reference do not match the signing certificate")
	}

	// 5.2.7 Cryptographic verification.
	if !v.cryptographic() {
		v.locate(signer)
		return
	}

	// 5.2.8 Signature acceptance validation (warnings only).
	v.acceptance(signer)

	// 5.2.6 X.509 certificate validation, 5.3 basic validation, 5.5/5.6
	// validation with time.
	v.certificates(signer)
}

// cryptographic is CV (5.2.7); false when it concluded.
func (v *validation) cryptographic() bool {
	sig := v.sig
	for _, d := range sig.DataObjects {
		if d.Found && !d.Intact && d.Unchecked == "" {
			v.conclude(verdict.TotalFailed, SubHashFailure, "the digest of signed data object %q does not match", d.Name)
			return false
		}
	}
	if len(sig.DataObjects) == 0 {
		v.conclude(verdict.Indeterminate, SubSignedDataNotFound, "the signed data was not found")
		return false
	}
	for _, d := range sig.DataObjects {
		if !d.Found {
			v.conclude(verdict.Indeterminate, SubSignedDataNotFound, "signed data object %q was not found", d.Name)
			return false
		}
	}
	for _, d := range sig.DataObjects {
		if d.Unchecked != "" {
			v.conclude(verdict.Indeterminate, SubCryptoConstraintsFailureNP, "the digest of signed data object %q could not be computed: unsupported algorithm %s (%s)", d.Name, orUnknown(d.DigestAlgorithm), d.Unchecked)
			return false
		}
	}
	switch val := sig.Value; {
	case !val.Done && algorithmReason(val.Reason):
		v.conclude(verdict.Indeterminate, SubCryptoConstraintsFailureNP, "the signature value could not be verified: unsupported algorithm %s (%s)", orUnknown(val.Algorithm), val.Reason)
		return false
	case !val.Done:
		v.conclude(verdict.Indeterminate, SubFormatFailure, "the signature value could not be verified (%s)", orUnknown(val.Reason))
		return false
	case !val.Valid:
		v.conclude(verdict.TotalFailed, SubSigCryptoFailure, "the signature value does not verify with the signing certificate's key")
		return false
	}
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

// acceptance is SAV (5.2.8), reduced to signing-time checks.
func (v *validation) acceptance(signer *x509.Certificate) {
	t := v.sig.ClaimedSigningTime
	if t.IsZero() {
		return
	}
	if t.Before(signer.NotBefore) || t.After(signer.NotAfter) {
		v.warn(CodeClaimedSigningTimeOutside, "the claimed signing time %s is outside the signing certificate's validity %s to %s",
			stamp(t), stamp(signer.NotBefore), stamp(signer.NotAfter))
	}
	if v.r.BestSignatureTime.Before(v.vt) && t.After(v.r.BestSignatureTime) {
		v.warn(CodeClaimedSigningTimeAfterPOE, "the claimed signing time %s is after the signature's proof of existence %s",
			stamp(t), stamp(v.r.BestSignatureTime))
	}
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// linkStatus is what the revocation facts say about one link of a path.
type linkStatus struct {
	index   int // of the certificate in the path
	noCheck bool
	// fresh: a GOOD fact fresh at the validation time (5.2.5.4 without a
	// freshness constraint: nextUpdate, when given, after the validation
	// time) or any REVOKED fact.
	fresh bool
	// revoked at revokedAt, the earliest revocation at or before the
	// validation time.
	revoked   bool
	revokedAt time.Time
	// goodAt is the latest thisUpdate of a GOOD fact, fresh or not.
	goodAt time.Time
	// later: a REVOKED fact with a revocation after the validation time.
	later bool
}

// revocationOf judges the facts of one link (5.2.5, simplified): a fact
// is usable when it is about this certificate and issuer, says GOOD or
// REVOKED and was issued at or before the validation time.
func (v *validation) revocationOf(i int, l certpath.Link) linkStatus {
	st := linkStatus{index: i, noCheck: noCheck(l.Cert)}
	for _, f := range v.in.Revocation[Key(l.Cert)] {
		if !usable(f, l, v.vt) {
			continue
		}
		switch {
		case f.Status == revocation.Good:
			if f.NextUpdate.IsZero() || f.NextUpdate.After(v.vt) {
				st.fresh = true
			}
			if f.ThisUpdate.After(st.goodAt) {
				st.goodAt = f.ThisUpdate
			}
		case f.RevokedAt.After(v.vt):
			st.fresh, st.later = true, true
		default:
			st.fresh = true
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

func usable(f revocation.Fact, l certpath.Link, vt time.Time) bool {
	if f.Certificate != nil && !sameCert(f.Certificate, l.Cert) {
		return false
	}
	if f.Issuer != nil && !bytes.Equal(f.Issuer.RawSubjectPublicKeyInfo, l.Issuer.RawSubjectPublicKeyInfo) {
		return false
	}
	if f.Status != revocation.Good && f.Status != revocation.Revoked {
		return false
	}
	return f.ThisUpdate.IsZero() || !f.ThisUpdate.After(vt)
}

// outcome is the conclusion for one candidate path.
type outcome struct {
	indication, sub, message string
	warnings                 []verdict.Message
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

// certificates is XCV (5.2.6) over every candidate path, then the basic
// (5.3.4) and with-time (5.5.4, 5.6 simplified) conclusions. The first
// passing path in certpath order is chosen, else the first least severe.
func (v *validation) certificates(signer *x509.Certificate) {
	paths, err := certpath.Build(signer, options(v.in, v.sig.Certificates))
	if err != nil {
		var nc *certpath.NoChainError
		if errors.As(err, &nc) {
			v.conclude(verdict.Indeterminate, SubNoCertificateChainFound, "%s", err.Error())
		} else {
			v.conclude(verdict.Indeterminate, SubCertificateChainGeneral, "%s", err.Error())
		}
		return
	}
	if len(paths) == 0 {
		v.conclude(verdict.Indeterminate, SubNoCertificateChainFound, "no certificate chain found")
		return
	}
	best, bestAt := outcome{}, -1
	for i, p := range paths {
		o := v.path(p)
		if bestAt < 0 || o.rank() < best.rank() {
			best, bestAt = o, i
		}
		if o.rank() == 0 {
			break
		}
	}
	chosen := paths[bestAt]
	v.r.Path = &chosen
	v.r.Warnings = append(v.r.Warnings, best.warnings...)
	v.conclude(best.indication, best.sub, "%s", best.message)
}

// locate sets the path of a signature that FC or CV already concluded on, so
// that the report still says which trusted list (framework, country) the
// signer chains to, as DSS's reports do for a failed signature. The path
// is the first certpath builds (Swiss precedence); it is not judged, and
// the conclusion stays CV's.
func (v *validation) locate(signer *x509.Certificate) {
	if paths, err := certpath.Build(signer, options(v.in, v.sig.Certificates)); err == nil && len(paths) > 0 {
		v.r.Path = &paths[0]
	}
}

// path concludes on one candidate path.
func (v *validation) path(p certpath.Path) outcome {
	links := p.Links()
	status := make([]linkStatus, len(links))
	for i, l := range links {
		status[i] = v.revocationOf(i, l)
	}
	basic := v.basic(p, status)
	switch basic.sub {
	case SubRevokedNoPOE, SubRevokedCANoPOE, SubOutOfBoundsNoPOE, SubTryLater:
		return v.withTime(p, status, basic)
	}
	return basic
}

// basic is XCV at the validation time with the 5.3.4 conclusions.
func (v *validation) basic(p certpath.Path, status []linkStatus) outcome {
	err := certpath.Check(p, v.vt, certpath.CheckOptions{SkipAnchorValidity: true})
	var pe *certpath.PathError
	expired := false
	if err != nil {
		if !errors.As(err, &pe) {
			return outcome{indication: verdict.Indeterminate, sub: SubCertificateChainGeneral, message: err.Error()}
		}
		switch pe.Check {
		case certpath.CheckNotYetValid:
			return outcome{indication: verdict.TotalFailed, sub: SubNotYetValid, message: pe.Error()}
		case certpath.CheckExpired:
			expired = true
		default:
			return outcome{indication: verdict.Indeterminate, sub: pe.SubIndication(), message: pe.Error()}
		}
	}
	certs := p.Certificates
	for _, st := range status {
		if st.revoked && !st.noCheck {
			sub := SubRevokedNoPOE
			if st.index > 0 {
				sub = SubRevokedCANoPOE
			}
			return outcome{indication: verdict.Indeterminate, sub: sub,
				message: fmt.Sprintf("certificate %s was revoked at %s, before the validation time, and no proof of existence of the signature precedes the revocation",
					subject(certs[st.index]), stamp(st.revokedAt))}
		}
	}
	if expired {
		return outcome{indication: verdict.Indeterminate, sub: SubOutOfBoundsNoPOE,
			message: pe.Error() + "; no proof of existence of the signature within the validity"}
	}
	for _, st := range status {
		if !st.fresh && !st.noCheck {
			return outcome{indication: verdict.Indeterminate, sub: SubTryLater,
				message: fmt.Sprintf("no fresh revocation data for certificate %s", subject(certs[st.index]))}
		}
	}
	return outcome{indication: verdict.TotalPassed}
}

// withTime is the past signature validation of 5.5.4/5.6 (simplified):
// with a proof of existence of the signature before the validation time,
// a certificate revoked or expired since, or one whose only revocation
// data is not fresh at the validation time, is accepted when the path is
// valid at the best-signature-time and the facts show that no
// certificate on it was revoked at that time (see notRevokedAt).
func (v *validation) withTime(p certpath.Path, status []linkStatus, basic outcome) outcome {
	bst := v.r.BestSignatureTime
	if !bst.Before(v.vt) {
		return basic
	}
	if err := certpath.Check(p, bst, certpath.CheckOptions{SkipAnchorValidity: true}); err != nil {
		var pe *certpath.PathError
		if errors.As(err, &pe) && pe.Check == certpath.CheckNotYetValid && basic.sub == SubOutOfBoundsNoPOE {
			return outcome{indication: verdict.TotalFailed, sub: SubNotYetValid,
				message: pe.Error() + " (best-signature-time before notBefore)"}
		}
		return basic
	}
	var warnings []verdict.Message
	certs := p.Certificates
	for _, st := range status {
		if st.noCheck {
			continue
		}
		if !st.notRevokedAt(bst) {
			return basic
		}
		if st.revoked {
			warnings = append(warnings, verdict.Message{Code: CodeRevokedAfterPOE,
				Message: fmt.Sprintf("certificate %s was revoked at %s, after the proof of existence of the signature at %s",
					subject(certs[st.index]), stamp(st.revokedAt), stamp(bst))})
		}
	}
	for _, c := range certs[:max(len(certs)-1, 1)] {
		if v.vt.After(c.NotAfter) {
			warnings = append(warnings, verdict.Message{Code: CodeExpiredAfterPOE,
				Message: fmt.Sprintf("certificate %s expired at %s, after the proof of existence of the signature at %s",
					subject(c), stamp(c.NotAfter), stamp(bst))})
		}
	}
	return outcome{indication: verdict.TotalPassed, warnings: warnings}
}

func subject(c *x509.Certificate) string {
	return fmt.Sprintf("%q", c.Subject.String())
}
