package crl_test

import (
	"crypto/x509"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/fixtures/pki"
)

// FuzzParseCRL: Parse never panics, fails only with ErrMalformed, and
// every entry of a parsed CRL is found by Status and Lookup under its own
// serial number.
func FuzzParseCRL(f *testing.F) {
	p := fixture(f)
	for _, ca := range []*pki.Identity{p.Intermediate, p.Root} {
		der, err := p.CRL(ca, pki.ReferenceTime)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(der)
	}
	f.Add(v1CRL(f, p.Intermediate, x509.SHA256WithRSA, pki.ReferenceTime.Add(time.Hour), []revokedV1{{Serial: big.NewInt(-5), Date: pki.RevocationTime}}))
	f.Add(manyEntries(f, p, 3))
	f.Add([]byte("-----BEGIN X509 CRL-----\nMAA=\n-----END X509 CRL-----\n"))
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := crl.Parse(data)
		if err != nil {
			if !errors.Is(err, crl.ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			if l != nil {
				t.Fatal("error with a CRL")
			}
			return
		}
		if l.Version != 1 && l.Version != 2 {
			t.Fatalf("version %d", l.Version)
		}
		for _, e := range l.Entries {
			if _, ok := l.Lookup(e.Serial); !ok {
				t.Fatalf("entry %v not found", e.Serial)
			}
			revoked, _, reason := l.Status(e.Serial)
			if first, _ := l.Lookup(e.Serial); revoked != (first.Reason != crl.ReasonRemoveFromCRL) || reason != first.Reason {
				t.Fatalf("status of %v disagrees with its entry", e.Serial)
			}
		}
		_ = l.CheckSignatureFrom(p.Intermediate.Certificate)
	})
}
