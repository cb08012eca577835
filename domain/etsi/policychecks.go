package etsi

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
)

// A Level is what a check that is a matter of policy does when it does
// not hold, in the spirit of DSS's constraint levels: conclude with the
// sub-indication EN 319 102-1 gives (LevelFail), warn (LevelWarn), note
// it (LevelInform: an information check in the reports), or nothing
// (LevelIgnore). The zero value is the check's default level, the one
// of DefaultConstraints.
type Level uint8

const (
	LevelDefault Level = iota // the check's own default
	LevelFail                 // FAIL
	LevelWarn                 // WARN
	LevelInform               // INFORM
	LevelIgnore               // IGNORE
)

func (l Level) String() string {
	switch l {
	case LevelFail:
		return "FAIL"
	case LevelWarn:
		return "WARN"
	case LevelInform:
		return "INFORM"
	case LevelIgnore:
		return "IGNORE"
	}
	return "DEFAULT"
}

// or is l, or def when l is LevelDefault.
func (l Level) or(def Level) Level {
	if l == LevelDefault {
		return def
	}
	return l
}

// OCSPUnknown says what an OCSP response of status unknown (RFC 6960,
// 2.2) makes of a certificate that no other data shows not revoked.
type OCSPUnknown uint8

const (
	// UnknownIndeterminate: the status is not known, as when there is
	// no data: INDETERMINATE/TRY_LATER (the default).
	UnknownIndeterminate OCSPUnknown = iota
	// UnknownFails: the responder does not vouch for the certificate,
	// which the policy treats as revoked: TOTAL_FAILED/REVOKED.
	UnknownFails
)

// Constraints are the levels of the checks that are a matter of policy.
// The zero value is DefaultConstraints: each check at its default level.
type Constraints struct {
	// SigningCertificateReference: a signed signing-certificate
	// reference is present (ISC, 5.2.3). FAIL concludes
	// INDETERMINATE/NO_SIGNING_CERTIFICATE_FOUND; default WARN.
	SigningCertificateReference Level
	// SigningTime: a claimed signing time is present (SAV, 5.2.8). FAIL
	// concludes INDETERMINATE/SIG_CONSTRAINTS_FAILURE; default INFORM.
	SigningTime Level
	// ContentType: the signature names the type of what it signs (a
	// content-type signed attribute, SAV). FAIL concludes
	// INDETERMINATE/SIG_CONSTRAINTS_FAILURE; default IGNORE. Only the
	// readers that report it (ades.Signature.ContentTypeReported) are
	// held to it.
	ContentType Level
	// SignatureLevels: the baseline level the evidence supports is one
	// of Accepted (SAV). FAIL concludes
	// INDETERMINATE/SIG_CONSTRAINTS_FAILURE; default IGNORE.
	SignatureLevels Accepted[ades.Level]
	// CommitmentTypes: the signature carries a commitment type and each
	// it carries is one of Accepted, any when Accepted is empty (SAV).
	// FAIL concludes INDETERMINATE/SIG_CONSTRAINTS_FAILURE; default
	// IGNORE.
	CommitmentTypes Accepted[string]
	// SignaturePolicies: the signature names a signature policy, one of
	// Accepted, any when Accepted is empty (5.2.4). FAIL concludes
	// INDETERMINATE/POLICY_PROCESSING_ERROR; default IGNORE.
	SignaturePolicies Accepted[string]
	// RevocationFreshness: the revocation data of each certificate of
	// the signer's path was issued at most MaxAge before the
	// best-signature-time (5.2.5.4). FAIL concludes
	// INDETERMINATE/TRY_LATER; default IGNORE.
	RevocationFreshness Freshness
	// OCSPUnknown: what an OCSP unknown makes of a certificate.
	OCSPUnknown OCSPUnknown
}

// Accepted is a check that a value is one of a set.
type Accepted[T comparable] struct {
	Level    Level
	Accepted []T
}

// Freshness is the revocation freshness check.
type Freshness struct {
	Level Level
	// MaxAge is the largest age of revocation data at the
	// best-signature-time; zero: issued at or after it.
	MaxAge time.Duration
}

// DefaultConstraints are the levels of today's process, that of DSS's
// default policy for what this process implements
// (docs/decisions/0042-validation-policy.md says where it differs).
func DefaultConstraints() Constraints {
	return Constraints{
		SigningCertificateReference: LevelWarn,
		SigningTime:                 LevelInform,
		ContentType:                 LevelIgnore,
		SignatureLevels:             Accepted[ades.Level]{Level: LevelIgnore},
		CommitmentTypes:             Accepted[string]{Level: LevelIgnore},
		SignaturePolicies:           Accepted[string]{Level: LevelIgnore},
		RevocationFreshness:         Freshness{Level: LevelIgnore},
		OCSPUnknown:                 UnknownIndeterminate,
	}
}

// resolved is c with every default level replaced by its value.
func (c Constraints) resolved() Constraints {
	d := DefaultConstraints()
	c.SigningCertificateReference = c.SigningCertificateReference.or(d.SigningCertificateReference)
	c.SigningTime = c.SigningTime.or(d.SigningTime)
	c.ContentType = c.ContentType.or(d.ContentType)
	c.SignatureLevels.Level = c.SignatureLevels.Level.or(LevelIgnore)
	c.CommitmentTypes.Level = c.CommitmentTypes.Level.or(LevelIgnore)
	c.SignaturePolicies.Level = c.SignaturePolicies.Level.or(LevelIgnore)
	c.RevocationFreshness.Level = c.RevocationFreshness.Level.or(LevelIgnore)
	return c
}

// Message codes of the policy checks when they warn or inform; when
// they fail, the error's code is the sub-indication's name.
const (
	CodeSigningTimeMissing        = "SIGNING_TIME_MISSING"
	CodeContentTypeMissing        = "CONTENT_TYPE_MISSING"
	CodeSignatureLevelNotAccepted = "SIGNATURE_LEVEL_NOT_ACCEPTED"
	CodeCommitmentTypeNotAccepted = "COMMITMENT_TYPE_NOT_ACCEPTED"
	CodePolicyNotAccepted         = "SIGNATURE_POLICY_NOT_ACCEPTED"
	CodeRevocationNotFresh        = "REVOCATION_NOT_FRESH"
)

// LevelName names a baseline level as a policy does: B, T, LT, LTA, or
// NONE for a signature of no baseline level.
func LevelName(l ades.Level) string {
	switch l {
	case ades.LevelB:
		return "B"
	case ades.LevelT:
		return "T"
	case ades.LevelLT:
		return "LT"
	case ades.LevelLTA:
		return "LTA"
	}
	return "NONE"
}

// constrain applies level l to the check name that did not hold: m is
// its warning or information (code and sentence), and a failure
// concludes the running block with indication and sub, the message
// framing m's sentence. It reports whether the block concluded.
func (v *validation) constrain(l Level, name string, indication verdict.Indication, sub verdict.SubIndication, m verdict.Message) bool {
	switch l {
	case LevelFail:
		v.conclude(name, indication, sub, detail(string(sub), m.Message))
		return true
	case LevelWarn:
		v.warn(name, m)
	case LevelInform:
		v.check(name, Information, m.Code, "%s", m.Message)
	}
	return false
}

// policyChecks are the checks of SAV (5.2.8) and VCI (5.2.4) that are a
// matter of policy, after the cryptographic constraints; false when
// one concluded.
func (v *validation) policyChecks() bool {
	c, sig := v.checks, v.sig
	if l := c.SignaturePolicies; l.Level != LevelIgnore {
		const name = "Does the signature name a signature policy the validation policy accepts?"
		switch id := sig.PolicyID; {
		case id == "":
			if v.constrain(l.Level, name, verdict.Indeterminate, verdict.SubPolicyProcessingError, detail(CodePolicyNotAccepted, "the signature names no signature policy, which the validation policy requires")) {
				return false
			}
		case len(l.Accepted) > 0 && !slices.Contains(l.Accepted, id):
			if v.constrain(l.Level, name, verdict.Indeterminate, verdict.SubPolicyProcessingError, detail(CodePolicyNotAccepted,
				fmt.Sprintf("the signature names signature policy %s, which is not among those the validation policy accepts (%s)", id, strings.Join(l.Accepted, ", ")))) {
				return false
			}
		default:
			v.check(name, OK, "", "the signature names signature policy %s", id)
		}
	}
	if l := c.SignatureLevels; l.Level != LevelIgnore && len(l.Accepted) > 0 {
		const name = "Is the signature's level one the validation policy accepts?"
		got := LevelName(v.r.EvidenceLevel)
		if !slices.Contains(l.Accepted, v.r.EvidenceLevel) {
			names := make([]string, len(l.Accepted))
			for i, a := range l.Accepted {
				names[i] = LevelName(a)
			}
			if v.constrain(l.Level, name, verdict.Indeterminate, verdict.SubSigConstraintsFailure, detail(CodeSignatureLevelNotAccepted,
				fmt.Sprintf("the evidence of the signature supports level %s; the validation policy accepts %s", got, strings.Join(names, ", ")))) {
				return false
			}
		} else {
			v.check(name, OK, "", "the evidence supports level %s", got)
		}
	}
	if l := c.CommitmentTypes; l.Level != LevelIgnore {
		const name = "Does the signature carry a commitment type the validation policy accepts?"
		var refused []string
		for _, t := range sig.CommitmentTypes {
			if len(l.Accepted) > 0 && !slices.Contains(l.Accepted, t) {
				refused = append(refused, t)
			}
		}
		switch {
		case len(sig.CommitmentTypes) == 0:
			if v.constrain(l.Level, name, verdict.Indeterminate, verdict.SubSigConstraintsFailure, detail(CodeCommitmentTypeNotAccepted, "the signature carries no commitment type")) {
				return false
			}
		case len(refused) > 0:
			if v.constrain(l.Level, name, verdict.Indeterminate, verdict.SubSigConstraintsFailure, detail(CodeCommitmentTypeNotAccepted,
				fmt.Sprintf("the signature carries commitment type %s, which the validation policy does not accept (%s)", strings.Join(refused, ", "), strings.Join(l.Accepted, ", ")))) {
				return false
			}
		default:
			v.check(name, OK, "", "commitment type %s", strings.Join(sig.CommitmentTypes, ", "))
		}
	}
	if l := c.ContentType; l != LevelIgnore && sig.ContentTypeReported {
		const name = "Does the signature name the type of its content?"
		if sig.ContentType == "" {
			if v.constrain(l, name, verdict.Indeterminate, verdict.SubSigConstraintsFailure, detail(CodeContentTypeMissing, "the signature does not name the type of its content")) {
				return false
			}
		} else {
			v.check(name, OK, "", "content type %s", sig.ContentType)
		}
	}
	return true
}

// freshEnough is the revocation freshness check (5.2.5.4) on the
// signer's path, when the path passed: each link whose revocation is
// checked has data issued at most MaxAge before the
// best-signature-time.
func (v *validation) freshEnough(status []linkStatus, certsOf func(int) string, o outcome, st *Stage) outcome {
	f := v.checks.RevocationFreshness
	if f.Level == LevelIgnore || o.indication != verdict.TotalPassed {
		return o
	}
	const name = "Was the revocation data issued recently enough before the best-signature-time?"
	bst := v.r.BestSignatureTime
	oldest := bst.Add(-f.MaxAge)
	for _, ls := range status {
		if ls.noCheck {
			continue
		}
		latest := time.Time{}
		for _, fact := range ls.facts {
			if fact.ThisUpdate.After(latest) {
				latest = fact.ThisUpdate
			}
		}
		if !latest.Before(oldest) {
			st.Checks = append(st.Checks, Check{Name: name, Status: OK, Message: fmt.Sprintf("certificate %s: revocation data of %s", certsOf(ls.index), stamp(latest))})
			continue
		}
		when := "none"
		if !latest.IsZero() {
			when = "the latest of " + stamp(latest)
		}
		english := fmt.Sprintf("certificate %s: the revocation data (%s) is older than %s before the best-signature-time %s", certsOf(ls.index), when, f.MaxAge, stamp(bst))
		switch f.Level {
		case LevelFail:
			m := detail(string(verdict.SubTryLater), english)
			st.Checks = append(st.Checks, Check{Name: name, Status: NotOK, Code: string(verdict.SubTryLater), Message: english})
			return outcome{indication: verdict.Indeterminate, sub: verdict.SubTryLater, message: m}
		case LevelWarn:
			m := detail(CodeRevocationNotFresh, english)
			st.Checks = append(st.Checks, Check{Name: name, Status: Warning, Code: m.Code, Message: english})
			o.warnings = append(o.warnings, m)
		case LevelInform:
			st.Checks = append(st.Checks, Check{Name: name, Status: Information, Code: CodeRevocationNotFresh, Message: english})
		}
	}
	return o
}
