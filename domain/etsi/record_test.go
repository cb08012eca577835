package etsi_test

import (
	"crypto/x509"
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

// blockOutcome is a block's name and conclusion, "FC PASSED",
// "CV FAILED/HASH_FAILURE".
func blockOutcome(b etsi.Block) string {
	s := b.Name.String() + " " + b.Conclusion.Indication.String()
	if b.Conclusion.SubIndication != "" {
		s += "/" + b.Conclusion.SubIndication.String()
	}
	return s
}

func conclusionOf(c etsi.Conclusion) string {
	if c.SubIndication == "" {
		return c.Indication.String()
	}
	return c.Indication.String() + "/" + c.SubIndication.String()
}

// TestRecordedProcess: the building blocks, the basic and long-term
// stages and the time-stamp validations record what the process ran, and
// agree with the verdict the result carries (EN 319 102-1 5.3.4: the
// first block that does not pass decides the basic validation; 5.5.4:
// past signature validation decides the result when it runs).
func TestRecordedProcess(t *testing.T) {
	t.Parallel()
	tsGen := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name     string
		build    func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs)
		blocks   []string
		basic    string
		longTerm string // "" when past signature validation is absent
		stamps   []string
	}{
		{
			name: "5.3 TOTAL_PASSED: every block ran and passed",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				return withGoodFacts(signature(p.SignerRSA), inputs(p))
			},
			blocks:   []string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV PASSED"},
			basic:    "TOTAL_PASSED",
			longTerm: "TOTAL_PASSED",
		},
		{
			name: "5.2.7 CV concludes HASH_FAILURE: SAV and XCV do not run",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.DataObjects[0].Intact = false
				return withGoodFacts(sig, inputs(p))
			},
			blocks: []string{"FC PASSED", "ISC PASSED", "CV FAILED/HASH_FAILURE"},
			basic:  "TOTAL_FAILED/HASH_FAILURE",
		},
		{
			name: "5.2.3 ISC concludes: no signing certificate",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.SigningCertificate = nil
				return sig, inputs(p)
			},
			blocks: []string{"FC PASSED", "ISC INDETERMINATE/NO_SIGNING_CERTIFICATE_FOUND"},
			basic:  "INDETERMINATE/NO_SIGNING_CERTIFICATE_FOUND",
		},
		{
			name: "5.2.2 FC concludes FORMAT_FAILURE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Problems = []ades.Problem{{Code: "BYTE_RANGE_INVALID", Message: "/ByteRange overlaps itself", FormatFailure: true}}
				return sig, inputs(p)
			},
			blocks: []string{"FC FAILED/FORMAT_FAILURE"},
			basic:  "TOTAL_FAILED/FORMAT_FAILURE",
		},
		{
			name: "5.2.6 XCV: no chain; the long-term stage is not reached",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				u := newUntrusted(t)
				sig := signature(p.SignerRSA)
				sig.SigningCertificate = u.Signer
				sig.Certificates = []*x509.Certificate{u.Signer, u.Root}
				return sig, inputs(p)
			},
			blocks: []string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND"},
			basic:  "INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND",
		},
		{
			name: "5.5.4: revoked signer, time-stamp before the revocation: basic REVOKED_NO_POE, cured by the POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Revoked)
				sig.ClaimedSigningTime = tsGen.Add(-time.Hour)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				in := inputs(p)
				in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
				return sig, in
			},
			blocks:   []string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV INDETERMINATE/REVOKED_NO_POE"},
			basic:    "INDETERMINATE/REVOKED_NO_POE",
			longTerm: "TOTAL_PASSED",
			stamps:   []string{"PASSED"},
		},
		{
			name: "5.5.4: expired signer, the only time-stamp after notAfter: stays OUT_OF_BOUNDS_NO_POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.Expired)
				sig.Level = ades.LevelT
				sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
				return withGoodFacts(sig, inputs(p))
			},
			blocks:   []string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV INDETERMINATE/OUT_OF_BOUNDS_NO_POE"},
			basic:    "INDETERMINATE/OUT_OF_BOUNDS_NO_POE",
			longTerm: "INDETERMINATE/OUT_OF_BOUNDS_NO_POE",
			stamps:   []string{"PASSED"},
		},
		{
			name: "5.4: a time-stamp whose imprint does not match is FAILED/HASH_FAILURE and gives no POE",
			build: func(t *testing.T, p *pki.PKI) (ades.Signature, etsi.Inputs) {
				sig := signature(p.SignerRSA)
				sig.Level = ades.LevelT
				ts := timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)
				ts.Imprint.Valid = false
				untrustedTS := timestamp(ades.ArchiveTimestamp, tsGen.Add(time.Hour), nil)
				sig.Timestamps = []ades.Timestamp{ts, untrustedTS}
				return withGoodFacts(sig, inputs(p))
			},
			blocks:   []string{"FC PASSED", "ISC PASSED", "CV PASSED", "SAV PASSED", "XCV PASSED"},
			basic:    "TOTAL_PASSED",
			longTerm: "TOTAL_PASSED",
			stamps:   []string{"FAILED/HASH_FAILURE", "INDETERMINATE/NO_SIGNING_CERTIFICATE_FOUND"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p := newPKI(t)
			sig, in := tt.build(t, p)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})

			var blocks []string
			for _, b := range r.Blocks {
				blocks = append(blocks, blockOutcome(b))
			}
			is.Equal(blocks, tt.blocks)
			is.Equal(conclusionOf(r.Basic.Conclusion), tt.basic)

			// The verdict is the long-term stage's when it ran, else the
			// basic stage's; never another.
			final := r.Basic.Conclusion
			if tt.longTerm == "" {
				is.True(r.LongTerm == nil)
			} else {
				is.True(r.LongTerm != nil)
				is.Equal(conclusionOf(r.LongTerm.Conclusion), tt.longTerm)
				final = r.LongTerm.Conclusion
			}
			is.Equal(final.Indication, r.Indication)
			is.Equal(final.SubIndication, r.SubIndication)
			is.Equal(final.Errors, nilIfEmpty(r.Errors))

			// Every block's checks: a NOT_OK check for a block that
			// concluded, carrying its sub-indication; none for a passed one.
			for _, b := range r.Blocks {
				is.True(len(b.Checks) > 0) // every block that ran records a check
				failed := slices.ContainsFunc(b.Checks, func(c etsi.Check) bool { return c.Status == etsi.NotOK })
				if b.Conclusion.Indication == verdict.Passed {
					is.True(!failed || b.Name == etsi.XCV) // XCV may record a failing check a POE cures later
					continue
				}
				is.True(slices.ContainsFunc(b.Checks, func(c etsi.Check) bool {
					return c.Status == etsi.NotOK && c.Code == b.Conclusion.SubIndication.String()
				}))
			}

			var stamps []string
			for i, tv := range r.TimestampValidations {
				is.Equal(tv.Index, i)
				stamps = append(stamps, conclusionOf(tv.Conclusion))
				is.Equal(tv.Valid, tv.Conclusion.Indication == verdict.Passed)
				is.Equal(tv.Valid, tv.Path != nil)
			}
			is.Equal(stamps, tt.stamps)
		})
	}
}

// TestRecordedWarnings: every warning of the result was recorded by the
// block, stage or time-stamp that gave it, as a WARNING check or an
// error of a time-stamp's conclusion.
func TestRecordedWarnings(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	sig := signature(p.Revoked)
	sig.Level = ades.LevelLT // the facts are not embedded: LEVEL_NOT_SUPPORTED_BY_EVIDENCE
	sig.Reference.IssuerSerialMatched = false
	sig.Problems = []ades.Problem{{Code: "UNSUPPORTED_ATTRIBUTE", Message: "unsupported unsigned attribute 1.2.3"}}
	sig.ClaimedSigningTime = vt.Add(-time.Hour)
	tsGen := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	broken := timestamp(ades.ArchiveTimestamp, tsGen.Add(time.Hour), p.TSA.Certificate)
	broken.Value.Valid = false
	sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate), broken}
	in := inputs(p)
	in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
	r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	is.Equal(r.Indication, verdict.TotalPassed)

	var recorded []verdict.Message
	for _, b := range r.Blocks {
		recorded = append(recorded, b.Conclusion.Warnings...)
	}
	recorded = append(recorded, r.LongTerm.Conclusion.Warnings...)
	for _, tv := range r.TimestampValidations {
		recorded = append(recorded, tv.Conclusion.Errors...)
	}
	for _, w := range r.Warnings {
		is.True(slices.ContainsFunc(recorded, func(m verdict.Message) bool { return m.Code == w.Code && m.Message == w.Message })) // each warning has its place
	}
	is.Equal(len(recorded), len(r.Warnings))
	for _, code := range []string{"UNSUPPORTED_ATTRIBUTE", etsi.CodeIssuerSerialMismatch, etsi.CodeClaimedSigningTimeAfterPOE,
		etsi.CodeRevokedAfterPOE, etsi.CodeArchiveTimestampInvalid, etsi.CodeLevelNotSupported} {
		is.True(slices.Contains(codes(r.Warnings), code)) // the case covers code
	}
	is.True(r.TimestampValidations[0].Best)
	is.True(!r.TimestampValidations[1].Best)
	is.Equal(r.TimestampValidations[1].Conclusion.SubIndication, verdict.SubSigCryptoFailure)
}

// TestRecordedRevocation: the facts the process relied on are those of
// the chosen path's links and of the valid time-stamps' TSA paths, each
// once, revoked ones included.
func TestRecordedRevocation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	tsGen := time.Date(2026, time.January, 1, 0, 0, 0, 0, time.UTC)
	sig := signature(p.Revoked)
	sig.ClaimedSigningTime = tsGen.Add(-time.Hour)
	sig.Level = ades.LevelT
	sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate)}
	in := inputs(p)
	in.Revocation = revokedFacts(sig, in, p.Revoked.Certificate, pki.RevocationTime)
	// An unusable fact (GOOD, issued after the certificate expired) is not
	// relied on.
	late := fact(p.Revoked.Certificate, p.Intermediate.Certificate, revocation.Good, false)
	late.ThisUpdate = p.Revoked.Certificate.NotAfter.Add(time.Hour)
	in.Revocation[etsi.Key(p.Revoked.Certificate)] = append(in.Revocation[etsi.Key(p.Revoked.Certificate)], late)

	r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	is.Equal(r.Indication, verdict.TotalPassed)
	var want []revocation.Fact
	for _, l := range r.Path.Links() {
		want = append(want, in.Revocation[etsi.Key(l.Cert)][0])
	}
	for _, l := range r.TimestampValidations[0].Path.Links() {
		f := in.Revocation[etsi.Key(l.Cert)][0]
		if !slices.ContainsFunc(want, func(g revocation.Fact) bool { return g.Certificate.Equal(f.Certificate) }) {
			want = append(want, f)
		}
	}
	is.Equal(len(r.Revocation), len(want))
	for i := range want {
		is.True(r.Revocation[i].Certificate.Equal(want[i].Certificate))
		is.Equal(r.Revocation[i].Status, want[i].Status)
	}
	is.Equal(r.Revocation[0].Status, revocation.Revoked) // the signer's: it decided the basic validation
}

// withGoodFacts fills in GOOD facts for every link Needs returns.
func withGoodFacts(sig ades.Signature, in etsi.Inputs) (ades.Signature, etsi.Inputs) {
	in.Revocation = goodFacts(sig, in, false)
	return sig, in
}

func nilIfEmpty(ms []verdict.Message) []verdict.Message {
	if len(ms) == 0 {
		return nil
	}
	return ms
}
