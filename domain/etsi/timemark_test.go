package etsi_test

import (
	"slices"
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestTimeMark (docs/decisions/0031): the time-mark of a BDOC 2.1
// signature, an OCSP response whose nonce binds the signature value,
// gives a proof of existence at its producedAt, as a signature
// time-stamp does, when the application read a usable embedded fact
// about the signer from that very response; a nonce that does not match
// fails the signature.
func TestTimeMark(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	response := []byte("the BasicOCSPResponse of the time-mark")
	// timeMarked is a time-mark signature by id whose OCSP response was
	// produced at at; its facts are the application's: the signer's read
	// from that response (thisUpdate at, next update 12 hours later),
	// fresh ones for the CAs.
	timeMarked := func(id *pki.Identity, at time.Time) (ades.Signature, etsi.Inputs) {
		sig := signature(id)
		sig.Format, sig.Level, sig.Form = ades.XAdES, ades.LevelLT, "XAdES_BASELINE_LT_TM"
		sig.ClaimedSigningTime = at.Add(-time.Minute)
		sig.TimeMark = &ades.TimeMark{ProducedAt: at, Response: response, Nonce: ades.Check{Done: true, Valid: true, Algorithm: "SHA256"}}
		in := inputs(p)
		in.Revocation = goodFacts(sig, in, true)
		k := etsi.Key(id.Certificate)
		f := in.Revocation[k][0]
		f.ProducedAt, f.ThisUpdate, f.NextUpdate, f.Raw = at, at, at.Add(12*time.Hour), response
		in.Revocation[k] = []revocation.Fact{f}
		return sig, in
	}
	producedAt := vt.Add(-30 * 24 * time.Hour)
	inExpired := time.Date(2020, time.June, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		signer     *pki.Identity
		at         time.Time
		change     func(*ades.Signature, *etsi.Inputs)
		indication verdict.Indication
		sub        verdict.SubIndication
		errors     []string
		warning    string // among the warnings
		poe        bool   // the best-signature-time is the producedAt
	}{
		{name: "a time-mark cures stale revocation data", signer: p.SignerRSA, at: producedAt,
			indication: verdict.TotalPassed, errors: []string{}, poe: true},
		{name: "a time-mark within an expired signer's validity", signer: p.Expired, at: inExpired,
			indication: verdict.TotalPassed, errors: []string{}, warning: etsi.CodeExpiredAfterPOE, poe: true},
		{name: "the nonce does not match", signer: p.SignerRSA, at: producedAt,
			change: func(s *ades.Signature, _ *etsi.Inputs) {
				s.TimeMark.Nonce = ades.Check{Done: true, Algorithm: "SHA256", Reason: "XADES_TIMEMARK_NONCE_MISMATCH"}
			},
			indication: verdict.TotalFailed, sub: verdict.SubSigConstraintsFailure, errors: []string{etsi.CodeTimeMarkNonceMismatch},
			warning: etsi.CodeLevelNotSupported},
		{name: "the nonce could not be checked", signer: p.SignerRSA, at: producedAt,
			change: func(s *ades.Signature, _ *etsi.Inputs) {
				s.TimeMark.Nonce = ades.Check{Reason: "XADES_UNSUPPORTED_ALGORITHM"}
			},
			indication: verdict.Indeterminate, sub: verdict.SubTryLater, errors: []string{string(verdict.SubTryLater)}, warning: etsi.CodeTimeMarkInvalid},
		{name: "no fact read from the time-mark's response", signer: p.SignerRSA, at: producedAt,
			change: func(s *ades.Signature, _ *etsi.Inputs) {
				s.TimeMark.Response = []byte("another response")
			},
			indication: verdict.Indeterminate, sub: verdict.SubTryLater, errors: []string{string(verdict.SubTryLater)}, warning: etsi.CodeTimeMarkInvalid},
		{name: "the response's fact was fetched, not embedded", signer: p.SignerRSA, at: producedAt,
			change: func(s *ades.Signature, in *etsi.Inputs) {
				in.Revocation[etsi.Key(s.SigningCertificate)][0].Embedded = false
			},
			indication: verdict.Indeterminate, sub: verdict.SubTryLater, errors: []string{string(verdict.SubTryLater)}, warning: etsi.CodeTimeMarkInvalid},
		{name: "the response says UNKNOWN", signer: p.SignerRSA, at: producedAt,
			change: func(s *ades.Signature, in *etsi.Inputs) {
				in.Revocation[etsi.Key(s.SigningCertificate)][0].Status = revocation.Unknown
			},
			indication: verdict.Indeterminate, sub: verdict.SubTryLater, errors: []string{string(verdict.SubTryLater)}, warning: etsi.CodeTimeMarkInvalid},
		{name: "the signer reaches no anchor: no facts were gathered", signer: p.SignerRSA, at: producedAt,
			change: func(_ *ades.Signature, in *etsi.Inputs) {
				in.Anchors, in.Revocation = certpath.NewAnchorSet(nil), map[string][]revocation.Fact{}
			},
			indication: verdict.Indeterminate, sub: verdict.SubNoCertificateChainFound, errors: []string{string(verdict.SubNoCertificateChainFound)},
			warning: etsi.CodeTimeMarkInvalid},
		// The response still shows the signer GOOD at the validation time
		// (decision 0035); it proves no existence before it.
		{name: "produced after the validation time", signer: p.SignerRSA, at: vt.Add(time.Hour),
			indication: verdict.TotalPassed, warning: etsi.CodeTimeMarkInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sig, in := timeMarked(tc.signer, tc.at)
			if tc.change != nil {
				tc.change(&sig, &in)
			}
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			if r.Indication != tc.indication || r.SubIndication != tc.sub {
				t.Fatalf("%s/%s, want %s/%s; errors %v", r.Indication, r.SubIndication, tc.indication, tc.sub, r.Errors)
			}
			if got := codes(r.Errors); !slices.Equal(got, tc.errors) {
				t.Errorf("errors %v, want %v", got, tc.errors)
			}
			if tc.warning != "" && !slices.Contains(codes(r.Warnings), tc.warning) {
				t.Errorf("warnings %v, want %s among them", codes(r.Warnings), tc.warning)
			}
			want := vt
			if tc.poe {
				want = tc.at
			}
			if !r.BestSignatureTime.Equal(want) {
				t.Errorf("best-signature-time %v, want %v", r.BestSignatureTime, want)
			}
			if (r.TimeMark != nil) != tc.poe {
				t.Errorf("TimeMark %+v, want one: %v", r.TimeMark, tc.poe)
			}
			if tc.poe && (r.EvidenceLevel != ades.LevelLT || slices.Contains(codes(r.Warnings), etsi.CodeLevelNotSupported)) {
				t.Errorf("evidence level %v, warnings %v: the time-mark should support LT", r.EvidenceLevel, codes(r.Warnings))
			}
			if rep := etsi.Report(sig, r); rep.SignatureFormat != "XAdES_BASELINE_LT_TM" {
				t.Errorf("signatureFormat %q", rep.SignatureFormat)
			}
		})
	}
}
