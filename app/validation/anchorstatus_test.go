package validation_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// withdraw returns base with the service listing cert withdrawn at
// when, granted before, as the next sequence number.
func withdraw(t *testing.T, base tl.Spec, when time.Time, certs ...*pki.Identity) tl.Spec {
	t.Helper()
	spec := base
	spec.SequenceNumber++
	spec.Services = slices.Clone(base.Services)
	for _, c := range certs {
		i := slices.IndexFunc(spec.Services, func(svc tl.Service) bool { return svc.Certificate.Equal(c.Certificate) })
		if i < 0 {
			t.Fatalf("%s is not on the %s list", c.Certificate.Subject, base.Territory)
		}
		svc := &spec.Services[i]
		svc.History = []tl.Period{{Start: svc.StatusStart}}
		svc.Status, svc.StatusStart = tl.StatusWithdrawn, when
	}
	return spec
}

// Trust-service status at the best-signature-time (EN 319 102-1 and TS
// 119 615; decision 0018): a CA whose service was withdrawn before the
// signature's best-signature-time is no trust anchor for it, one
// withdrawn after it still is; a TSA whose service was withdrawn before
// the time-stamp was generated gives no proof of existence. The DE list,
// the only one listing the EU branch of the fixture PKI, is republished
// for each case and the trust store refreshed.
func TestTrustServiceStatusAtBestSignatureTime(t *testing.T) {
	s := newValidationWith(t, pki.ReferenceTime, tl.EcosystemOptions{Branches: true})
	p := s.pki.PKI
	signedAt := s.at.Add(-time.Hour) // also the time-stamp's generation time
	d := pades.New(1)
	if err := d.Sign(pades.Options{PKI: p, Signer: p.SignerEUQES, Level: cades.T, SigningTime: signedAt, TSA: p.TSAEU}); err != nil {
		t.Fatal(err)
	}
	base := s.eco.Spec("DE")
	ca := p.IntermediateEU
	tests := []struct {
		name    string
		spec    tl.Spec
		want    verdict.Indication
		wantSub verdict.SubIndication
	}{
		{"granted throughout", base, verdict.TotalPassed, ""},
		{"CA withdrawn before the signing time", withdraw(t, base, signedAt.Add(-24*time.Hour), ca), verdict.Indeterminate, verdict.SubNoCertificateChainFound},
		{"CA withdrawn after the signature time-stamp", withdraw(t, base, signedAt.Add(30*time.Minute), ca), verdict.TotalPassed, ""},
	}
	for _, tt := range tests {
		if err := s.eco.Publish("DE", tt.spec, 0); err != nil {
			t.Fatal(err)
		}
		s.v.Refresh(context.Background())
		sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		r := sum.Signatures[0]
		if r.Indication != tt.want || deref(r.SubIndication) != tt.wantSub {
			t.Errorf("%s: %s/%s, want %s/%s (errors %+v)", tt.name, r.Indication, deref(r.SubIndication), tt.want, tt.wantSub, r.Errors)
		}
	}
}

// A private anchor has no trusted-list service and no status: a CA
// withdrawn from its list before the validation time still chains to
// the private root above it.
func TestTrustServiceStatusPrivateAnchor(t *testing.T) {
	t.Parallel()
	f := listFiles(t)
	p := f.p
	at := pki.ReferenceTime
	der, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerEUQES, Level: cades.LT, Detached: true, SigningTime: at.Add(-time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	doc := document(der, []byte("contract"), true)
	if err := f.eco.Publish("DE", withdraw(t, f.eco.Spec("DE"), at.Add(-24*time.Hour), p.IntermediateEU), 0); err != nil {
		t.Fatal(err)
	}
	de := f.write(t, "DE")
	tests := []struct {
		name    string
		private bool
		want    verdict.Indication
		wantSub verdict.SubIndication
	}{
		{"the withdrawn CA alone", false, verdict.Indeterminate, verdict.SubNoCertificateChainFound},
		{"the withdrawn CA under a private root", true, verdict.TotalPassed, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			opts := []validation.Option{validation.WithTrustedListFiles(f.signers, f.lotl, de, f.fr, f.ch), validation.WithTime(at)}
			if tt.private {
				opts = append(opts, validation.WithPrivateAnchors(p.Root.Certificate))
			}
			v := offlineValidator(t, opts...)
			res, err := v.Validate(context.Background(), doc)
			is.NoErr(err)
			_, err = catalogued(res.Summary)
			is.NoErr(err) // the messages, in the catalogue
			r := res.Summary.Signatures[0]
			is.Equal(r.Indication, tt.want)
			is.Equal(deref(r.SubIndication), tt.wantSub)
		})
	}
}

// A TSA whose service, and that of the CA above it, were withdrawn before
// the time-stamp was generated is no trust anchor for the time-stamp: it
// gives no proof of existence and is reported with why. The signer, of
// the Swiss branch, is unaffected.
func TestTrustServiceStatusOfTheTSA(t *testing.T) {
	s := newValidationWith(t, pki.ReferenceTime, tl.EcosystemOptions{Branches: true})
	p := s.pki.PKI
	signedAt := s.at.Add(-time.Hour)
	d := pades.New(1)
	if err := d.Sign(pades.Options{PKI: p, Signer: p.SignerCHQES, Level: cades.T, SigningTime: signedAt, TSA: p.TSAEU}); err != nil {
		t.Fatal(err)
	}
	base := s.eco.Spec("DE")
	for _, tt := range []struct {
		name    string
		spec    tl.Spec
		trusted bool
	}{
		{"granted throughout", base, true},
		{"withdrawn after the time-stamp", withdraw(t, base, signedAt.Add(30*time.Minute), p.TSAEU, p.IntermediateEU), true},
		{"withdrawn before the time-stamp", withdraw(t, base, signedAt.Add(-24*time.Hour), p.TSAEU, p.IntermediateEU), false},
	} {
		if err := s.eco.Publish("DE", tt.spec, 0); err != nil {
			t.Fatal(err)
		}
		s.v.Refresh(context.Background())
		sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
		if err != nil {
			t.Fatal(err)
		}
		r := sum.Signatures[0]
		if r.Indication != verdict.TotalPassed {
			t.Errorf("%s: %s, want TOTAL_PASSED: the signer's CA is on the Swiss list", tt.name, r.Indication)
		}
		notTrusted := slices.ContainsFunc(r.Warnings, func(w verdict.Message) bool { return w.Code == etsi.CodeTimestampNotTrusted })
		if got := len(r.Timestamps) == 1 && !notTrusted; got != tt.trusted {
			t.Errorf("%s: time-stamp trusted %t, want %t (time-stamps %+v, warnings %+v)", tt.name, got, tt.trusted, r.Timestamps, r.Warnings)
		}
	}
}
