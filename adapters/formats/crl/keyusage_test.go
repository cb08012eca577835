package crl_test

import (
	"crypto/rand"
	"crypto/x509"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/fixtures/pki"
)

// CheckSignatureFrom refuses an issuer whose key usage extension leaves
// out cRLSign, and accepts one without the extension, each with the same
// name and key as the certificate that signed the CRL (mutation testing,
// docs/testing.md, found the key usage check unheld by any test).
func TestCheckSignatureFromKeyUsage(t *testing.T) {
	t.Parallel()
	signer, key := ecdsaCA(t)
	der, err := x509.CreateRevocationList(rand.Reader, &x509.RevocationList{
		Number:     big.NewInt(1),
		ThisUpdate: pki.ReferenceTime,
		NextUpdate: pki.ReferenceTime.Add(time.Hour),
	}, signer, key)
	if err != nil {
		t.Fatal(err)
	}
	l, err := crl.Parse(der)
	if err != nil {
		t.Fatal(err)
	}
	// reissued is signer's subject and key with another key usage.
	reissued := func(usage x509.KeyUsage) *x509.Certificate {
		tmpl := &x509.Certificate{
			SerialNumber:          big.NewInt(2),
			Subject:               signer.Subject,
			NotBefore:             signer.NotBefore,
			NotAfter:              signer.NotAfter,
			IsCA:                  true,
			BasicConstraintsValid: true,
			KeyUsage:              usage,
		}
		c, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
		if err != nil {
			t.Fatal(err)
		}
		cert, err := x509.ParseCertificate(c)
		if err != nil {
			t.Fatal(err)
		}
		return cert
	}
	tests := []struct {
		name   string
		issuer *x509.Certificate
		err    error
	}{
		{"keyCertSign and cRLSign", signer, nil},
		{"no key usage extension", reissued(0), nil},
		{"cRLSign alone", reissued(x509.KeyUsageCRLSign), nil},
		{"keyCertSign without cRLSign", reissued(x509.KeyUsageCertSign), crl.ErrWrongIssuer},
		{"digitalSignature alone", reissued(x509.KeyUsageDigitalSignature), crl.ErrWrongIssuer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			err := l.CheckSignatureFrom(tt.issuer)
			if tt.err == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, tt.err))
			is.Equal(err.Error(), `crl: certificate is not the CRL issuer: "CN=ECDSA CRL Issuer" has no key usage cRLSign`)
		})
	}
}
