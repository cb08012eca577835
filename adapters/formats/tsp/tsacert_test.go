package tsp

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"
)

// CheckTSACertificate finds the extended key usage extension wherever it
// stands among the extensions, the first place included (mutation
// testing, docs/testing.md, found that place unchecked: the fixture's TSA
// certificate has a key usage extension before it).
func TestCheckTSACertificatePlaces(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	eku, err := asn1.Marshal([]asn1.ObjectIdentifier{{1, 3, 6, 1, 5, 5, 7, 3, 8}}) // id-kp-timeStamping
	if err != nil {
		t.Fatal(err)
	}
	// tsa is a self-signed TSA certificate whose extended key usage is
	// critical or not, after a key usage extension or first of all.
	tsa := func(critical, keyUsageFirst bool) *x509.Certificate {
		tmpl := &x509.Certificate{
			SerialNumber:    big.NewInt(1),
			Subject:         pkix.Name{CommonName: "TSA"},
			NotBefore:       time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
			NotAfter:        time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
			ExtraExtensions: []pkix.Extension{{Id: oidExtExtKeyUsage, Critical: critical, Value: eku}},
		}
		if keyUsageFirst {
			tmpl.KeyUsage = x509.KeyUsageDigitalSignature
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	tests := []struct {
		name     string
		cert     *x509.Certificate
		strict   bool
		ekuIndex int
		notTSA   bool
	}{
		{"critical, first", tsa(true, false), true, 0, false},
		{"critical, after key usage", tsa(true, true), true, 1, false},
		{"not critical, first, strict", tsa(false, false), true, 0, true},
		{"not critical, first, lenient", tsa(false, false), false, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			is.True(tt.cert.Extensions[tt.ekuIndex].Id.Equal(oidExtExtKeyUsage)) // where the test puts it
			err := CheckTSACertificate(tt.cert, tt.strict)
			if !tt.notTSA {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, ErrNotTSACertificate))
			is.Equal(err.Error(), ErrNotTSACertificate.Error()+": extended key usage not critical")
		})
	}
}
