package etsi_test

import (
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestPolicyLevels holds each check that is a matter of policy to its
// level: FAIL concludes with the sub-indication EN 319 102-1 gives, WARN
// adds a warning, INFORM an information check and IGNORE nothing, on
// a signature that passes under the default policy but for that check.
func TestPolicyLevels(t *testing.T) {
	t.Parallel()
	type check struct {
		name string
		// breaks makes the signature fail the check; nil: it does not.
		breaks func(p *pki.PKI, sig *ades.Signature, in *etsi.Inputs)
		// set puts the check at level l.
		set func(c *etsi.Constraints, l etsi.Level)
		// fail is the outcome at FAIL; code the warning's and
		// information's code ("" for none); def the level of the
		// default policy.
		indication verdict.Indication
		sub        verdict.SubIndication
		code       string
		def        etsi.Level
		// checkName is the name of the check in the reports.
		checkName string
	}
	checks := []check{
		{
			name:       "signing-certificate reference present",
			breaks:     func(_ *pki.PKI, sig *ades.Signature, _ *etsi.Inputs) { sig.Reference = ades.CertificateReference{} },
			set:        func(c *etsi.Constraints, l etsi.Level) { c.SigningCertificateReference = l },
			indication: verdict.Indeterminate, sub: verdict.SubNoSigningCertificateFound, code: etsi.CodeSigningCertificateRefMissing, def: etsi.LevelWarn,
			checkName: "Is a signed signing-certificate reference present?",
		},
		{
			name:       "signing time present",
			breaks:     func(_ *pki.PKI, sig *ades.Signature, _ *etsi.Inputs) { sig.ClaimedSigningTime = time.Time{} },
			set:        func(c *etsi.Constraints, l etsi.Level) { c.SigningTime = l },
			indication: verdict.Indeterminate, sub: verdict.SubSigConstraintsFailure, code: etsi.CodeSigningTimeMissing, def: etsi.LevelInform,
			checkName: "Is a claimed signing time present?",
		},
		{
			name: "content type present",
			breaks: func(_ *pki.PKI, sig *ades.Signature, _ *etsi.Inputs) {
				sig.ContentTypeReported, sig.ContentType = true, ""
			},
			set:        func(c *etsi.Constraints, l etsi.Level) { c.ContentType = l },
			indication: verdict.Indeterminate, sub: verdict.SubSigConstraintsFailure, code: etsi.CodeContentTypeMissing, def: etsi.LevelIgnore,
			checkName: "Does the signature name the type of its content?",
		},
		{
			name: "acceptable signature levels: B where LT is required",
			set: func(c *etsi.Constraints, l etsi.Level) {
				c.SignatureLevels = etsi.Accepted[ades.Level]{Level: l, Accepted: []ades.Level{ades.LevelLT, ades.LevelLTA}}
			},
			indication: verdict.Indeterminate, sub: verdict.SubSigConstraintsFailure, code: etsi.CodeSignatureLevelNotAccepted, def: etsi.LevelIgnore,
			checkName: "Is the signature's level one the validation policy accepts?",
		},
		{
			name: "accepted commitment types",
			breaks: func(_ *pki.PKI, sig *ades.Signature, _ *etsi.Inputs) {
				sig.CommitmentTypes = []string{"1.2.840.113549.1.9.16.6.2"}
			},
			set: func(c *etsi.Constraints, l etsi.Level) {
				c.CommitmentTypes = etsi.Accepted[string]{Level: l, Accepted: []string{"1.2.840.113549.1.9.16.6.1"}}
			},
			indication: verdict.Indeterminate, sub: verdict.SubSigConstraintsFailure, code: etsi.CodeCommitmentTypeNotAccepted, def: etsi.LevelIgnore,
			checkName: "Does the signature carry a commitment type the validation policy accepts?",
		},
		{
			name: "signature policy identifier required",
			set: func(c *etsi.Constraints, l etsi.Level) {
				c.SignaturePolicies = etsi.Accepted[string]{Level: l, Accepted: []string{"2.16.756.5.30.1.1"}}
			},
			indication: verdict.Indeterminate, sub: verdict.SubPolicyProcessingError, code: etsi.CodePolicyNotAccepted, def: etsi.LevelIgnore,
			checkName: "Does the signature name a signature policy the validation policy accepts?",
		},
		{
			name: "revocation freshness: data a day older than the best-signature-time allows",
			breaks: func(_ *pki.PKI, _ *ades.Signature, in *etsi.Inputs) {
				for k, fs := range in.Revocation {
					for i := range fs {
						fs[i].ThisUpdate, fs[i].ProducedAt = vt.Add(-25*time.Hour), vt.Add(-25*time.Hour)
					}
					in.Revocation[k] = fs
				}
			},
			set: func(c *etsi.Constraints, l etsi.Level) {
				c.RevocationFreshness = etsi.Freshness{Level: l, MaxAge: 24 * time.Hour}
			},
			indication: verdict.Indeterminate, sub: verdict.SubTryLater, code: etsi.CodeRevocationNotFresh, def: etsi.LevelIgnore,
			checkName: "Was the revocation data issued recently enough before the best-signature-time?",
		},
	}
	for _, c := range checks {
		for _, l := range []etsi.Level{etsi.LevelDefault, etsi.LevelFail, etsi.LevelWarn, etsi.LevelInform, etsi.LevelIgnore} {
			t.Run(c.name+"/"+l.String(), func(t *testing.T) {
				is := is.New(t)
				p := newPKI(t)
				sig, in := signature(p.SignerRSA), inputs(p)
				in.Revocation = goodFacts(sig, in, false)
				if c.breaks != nil {
					c.breaks(p, &sig, &in)
				}
				var cons etsi.Constraints
				c.set(&cons, l)
				r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt, Constraints: cons})
				want := l
				if l == etsi.LevelDefault {
					want = c.def
				}
				found := func(s etsi.Status) bool {
					for _, b := range r.Blocks {
						if slices.ContainsFunc(b.Checks, func(k etsi.Check) bool { return k.Name == c.checkName && k.Status == s }) {
							return true
						}
					}
					return r.LongTerm != nil && slices.ContainsFunc(r.LongTerm.Checks, func(k etsi.Check) bool { return k.Name == c.checkName && k.Status == s })
				}
				switch want {
				case etsi.LevelFail:
					is.Equal(r.Indication, c.indication)
					is.Equal(r.SubIndication, c.sub)
					is.Equal(codes(r.Errors), []string{string(c.sub)})
					is.True(found(etsi.NotOK))
				case etsi.LevelWarn:
					is.Equal(r.Indication, verdict.TotalPassed)
					is.True(slices.Contains(codes(r.Warnings), c.code))
					is.True(found(etsi.Warning))
				case etsi.LevelInform:
					is.Equal(r.Indication, verdict.TotalPassed)
					is.True(!slices.Contains(codes(r.Warnings), c.code))
					is.True(found(etsi.Information))
				case etsi.LevelIgnore:
					is.Equal(r.Indication, verdict.TotalPassed)
					is.True(!slices.Contains(codes(r.Warnings), c.code))
					is.True(!found(etsi.Information) && !found(etsi.Warning) && !found(etsi.NotOK))
				}
			})
		}
	}
}

// TestPolicyChecksHold: a signature that meets each check passes it
// at FAIL, and says so.
func TestPolicyChecksHold(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	sig, in := signature(p.SignerRSA), inputs(p)
	in.Revocation = goodFacts(sig, in, false)
	sig.CommitmentTypes = []string{"1.2.840.113549.1.9.16.6.1"}
	sig.PolicyID = "2.16.756.5.30.1.1"
	sig.ContentType, sig.ContentTypeReported = "1.2.840.113549.1.7.1", true
	cons := etsi.Constraints{
		SigningCertificateReference: etsi.LevelFail,
		SigningTime:                 etsi.LevelFail,
		ContentType:                 etsi.LevelFail,
		SignatureLevels:             etsi.Accepted[ades.Level]{Level: etsi.LevelFail, Accepted: []ades.Level{ades.LevelB}},
		CommitmentTypes:             etsi.Accepted[string]{Level: etsi.LevelFail, Accepted: []string{"1.2.840.113549.1.9.16.6.1"}},
		SignaturePolicies:           etsi.Accepted[string]{Level: etsi.LevelFail, Accepted: []string{"2.16.756.5.30.1.1"}},
		RevocationFreshness:         etsi.Freshness{Level: etsi.LevelFail, MaxAge: 2 * time.Hour},
		OCSPUnknown:                 etsi.UnknownFails,
	}
	r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt, Constraints: cons})
	is.Equal(r.Indication, verdict.TotalPassed)
	is.Equal(len(r.Warnings), 0)
}

// TestOCSPUnknown: an OCSP unknown that nothing else outweighs is
// INDETERMINATE/TRY_LATER by default and TOTAL_FAILED/REVOKED when the
// policy says it fails; a fresh GOOD from another source outweighs it.
func TestOCSPUnknown(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		unknown    etsi.OCSPUnknown
		goodToo    bool
		indication verdict.Indication
		sub        verdict.SubIndication
	}{
		{"default: indeterminate", etsi.UnknownIndeterminate, false, verdict.Indeterminate, verdict.SubTryLater},
		{"policy: failure", etsi.UnknownFails, false, verdict.TotalFailed, verdict.SubRevoked},
		{"policy: failure, but a GOOD CRL outweighs it", etsi.UnknownFails, true, verdict.TotalPassed, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			p := newPKI(t)
			sig, in := signature(p.SignerRSA), inputs(p)
			in.Revocation = goodFacts(sig, in, false)
			k := etsi.Key(p.SignerRSA.Certificate)
			f := in.Revocation[k][0]
			f.Status = revocation.Unknown
			in.Revocation[k] = []revocation.Fact{f}
			if c.goodToo {
				g := in.Revocation[k][0]
				g.Status, g.Source = revocation.Good, revocation.CRL
				in.Revocation[k] = append(in.Revocation[k], g)
			}
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt, Constraints: etsi.Constraints{OCSPUnknown: c.unknown}})
			is.Equal(r.Indication, c.indication)
			is.Equal(r.SubIndication, c.sub)
		})
	}
}
