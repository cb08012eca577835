package revocation_test

import (
	"crypto/x509"
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/revocation"
)

func TestServes(t *testing.T) {
	t.Parallel()
	vt := time.Date(2026, time.June, 1, 0, 0, 0, 0, time.UTC)
	// Only the encodings the rule compares matter.
	cert := &x509.Certificate{Raw: []byte("signer"), RawSubjectPublicKeyInfo: []byte("signer key"), NotAfter: vt.Add(30 * 24 * time.Hour)}
	other := &x509.Certificate{Raw: []byte("other signer"), RawSubjectPublicKeyInfo: []byte("other key")}
	issuer := &x509.Certificate{Raw: []byte("CA"), RawSubjectPublicKeyInfo: []byte("CA key")}
	// rekeyed has the issuer's name and another key.
	rekeyed := &x509.Certificate{Raw: []byte("CA rekeyed"), RawSubjectPublicKeyInfo: []byte("CA new key")}
	good := revocation.Fact{Certificate: cert, Issuer: issuer, Source: revocation.OCSP, Status: revocation.Good,
		ThisUpdate: vt.Add(-time.Hour), NextUpdate: vt.Add(11 * time.Hour)}
	with := func(change func(*revocation.Fact)) revocation.Fact {
		f := good
		change(&f)
		return f
	}
	tests := []struct {
		name          string
		f             revocation.Fact
		usable, serve bool
	}{
		{"fresh GOOD", good, true, true},
		{"GOOD without nextUpdate", with(func(f *revocation.Fact) { f.NextUpdate = time.Time{} }), true, true},
		{"GOOD issued at the validation time", with(func(f *revocation.Fact) { f.ThisUpdate = vt }), true, true},
		{"GOOD without thisUpdate", with(func(f *revocation.Fact) { f.ThisUpdate = time.Time{} }), true, true},
		{"GOOD naming neither certificate nor issuer", with(func(f *revocation.Fact) { f.Certificate, f.Issuer = nil, nil }), true, true},
		{"stale GOOD: nextUpdate before the validation time", with(func(f *revocation.Fact) { f.ThisUpdate, f.NextUpdate = vt.Add(-2*time.Hour), vt.Add(-time.Hour) }), true, false},
		{"stale GOOD: nextUpdate at the validation time", with(func(f *revocation.Fact) { f.NextUpdate = vt }), true, false},
		// Issued after the validation time (decision 0035): revocation is
		// permanent, so GOOD later is GOOD then, while the certificate is
		// valid.
		{"GOOD issued after the validation time", with(func(f *revocation.Fact) { f.ThisUpdate, f.NextUpdate = vt.Add(time.Second), vt.Add(12*time.Hour) }), true, true},
		{"GOOD issued after it, stale by then", with(func(f *revocation.Fact) { f.ThisUpdate, f.NextUpdate = vt.Add(24*time.Hour), vt.Add(25*time.Hour) }), true, true},
		{"GOOD issued at the certificate's notAfter", with(func(f *revocation.Fact) { f.ThisUpdate, f.NextUpdate = cert.NotAfter, time.Time{} }), true, true},
		{"GOOD issued after the certificate expired", with(func(f *revocation.Fact) { f.ThisUpdate, f.NextUpdate = cert.NotAfter.Add(time.Second), time.Time{} }), false, false},
		{"REVOKED before the validation time, stale", with(func(f *revocation.Fact) {
			f.Status, f.RevokedAt, f.ThisUpdate, f.NextUpdate = revocation.Revoked, vt.Add(-48*time.Hour), vt.Add(-30*time.Hour), vt.Add(-6*time.Hour)
		}), true, true},
		{"REVOKED after the validation time", with(func(f *revocation.Fact) { f.Status, f.RevokedAt = revocation.Revoked, vt.Add(time.Hour) }), true, true},
		{"REVOKED before the validation time, issued after it", with(func(f *revocation.Fact) {
			f.Status, f.RevokedAt, f.ThisUpdate = revocation.Revoked, vt.Add(-time.Hour), vt.Add(time.Hour)
		}), true, true},
		{"REVOKED after the validation time, issued after the certificate expired", with(func(f *revocation.Fact) {
			f.Status, f.RevokedAt, f.ThisUpdate = revocation.Revoked, vt.Add(time.Hour), cert.NotAfter.Add(time.Hour)
		}), true, true},
		// A suspension may be lifted: one after the validation time does
		// not show that none covered it; one before is not assumed lifted.
		{"certificateHold after the validation time", with(func(f *revocation.Fact) {
			f.Status, f.RevokedAt, f.Reason, f.ThisUpdate = revocation.Revoked, vt.Add(time.Hour), revocation.ReasonCertificateHold, vt.Add(2*time.Hour)
		}), true, false},
		{"certificateHold at the validation time, issued after it", with(func(f *revocation.Fact) {
			f.Status, f.RevokedAt, f.Reason, f.ThisUpdate = revocation.Revoked, vt, revocation.ReasonCertificateHold, vt.Add(2*time.Hour)
		}), true, true},
		{"UNKNOWN", with(func(f *revocation.Fact) { f.Status = revocation.Unknown }), false, false},
		{"unset status", with(func(f *revocation.Fact) { f.Status = 0 }), false, false},
		{"about another certificate", with(func(f *revocation.Fact) { f.Certificate = other }), false, false},
		{"about another issuer key", with(func(f *revocation.Fact) { f.Issuer = rekeyed }), false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := revocation.Usable(tc.f, cert, issuer, vt); got != tc.usable {
				t.Errorf("Usable = %v, want %v", got, tc.usable)
			}
			if got := revocation.Serves([]revocation.Fact{tc.f}, cert, issuer, vt); got != tc.serve {
				t.Errorf("Serves = %v, want %v", got, tc.serve)
			}
		})
	}

	t.Run("one fact that serves is enough", func(t *testing.T) {
		t.Parallel()
		stale := with(func(f *revocation.Fact) { f.ThisUpdate, f.NextUpdate = vt.Add(-2*time.Hour), vt.Add(-time.Hour) })
		expired := with(func(f *revocation.Fact) { f.ThisUpdate = cert.NotAfter.Add(time.Hour) })
		if revocation.Serves([]revocation.Fact{stale, expired}, cert, issuer, vt) {
			t.Error("Serves = true for a stale fact and one issued after the certificate expired")
		}
		if !revocation.Serves([]revocation.Fact{stale, expired, good}, cert, issuer, vt) {
			t.Error("Serves = false with a fresh fact among them")
		}
		if revocation.Serves(nil, cert, issuer, vt) {
			t.Error("Serves = true without facts")
		}
	})
}
