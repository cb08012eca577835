package validationdata_test

import (
	"crypto/x509"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/internal/validationdata"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestSet: duplicates by their bytes are kept once, in order of
// appearance; a bound keeps the first ones and says something was left
// out; CRLs and OCSP responses share their bound.
func TestSet(t *testing.T) {
	a, b, c := &x509.Certificate{Raw: []byte{1}}, &x509.Certificate{Raw: []byte{2}}, &x509.Certificate{Raw: []byte{3}}
	s := validationdata.New(2, 3)
	for _, cert := range []*x509.Certificate{a, b, &x509.Certificate{Raw: []byte{1}}} {
		s.AddCertificate(cert)
	}
	if len(s.Certificates) != 2 || s.Certificates[0] != a || s.Certificates[1] != b || s.Over {
		t.Fatalf("certificates %v, over %v", s.Certificates, s.Over)
	}
	s.AddCertificate(c)
	if len(s.Certificates) != 2 || !s.Over {
		t.Fatalf("over the bound: certificates %d, over %v", len(s.Certificates), s.Over)
	}

	s = validationdata.New(2, 3)
	s.AddCRL([]byte{1})
	s.AddOCSP([]byte{1}) // a CRL and a response of the same bytes are two values
	s.AddCRL([]byte{1})
	s.AddOCSP([]byte{2})
	if len(s.CRLs) != 1 || len(s.OCSPResponses) != 2 || s.Over {
		t.Fatalf("CRLs %v, OCSP %v, over %v", s.CRLs, s.OCSPResponses, s.Over)
	}
	s.AddCRL([]byte{3})
	if len(s.CRLs) != 1 || !s.Over {
		t.Fatalf("over the shared bound: CRLs %d, over %v", len(s.CRLs), s.Over)
	}

	s.Problem("CODE", "value %d", 7)
	if len(s.Problems) != 1 || s.Problems[0].Code != "CODE" || s.Problems[0].Message != "value 7" {
		t.Fatalf("problems %+v", s.Problems)
	}
}

// TestRevocationsAbout: an OCSP response is about the serial number it
// answers for; a CRL about the certificates of its issuer, but only when
// that issuer's certificate is carried too; a certificate not carried has
// no data; what does not parse is about nothing.
func TestRevocationsAbout(t *testing.T) {
	p, err := pki.New("http://pki.test")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
	ocspOf := func(id *pki.Identity) []byte {
		der, err := cades.OCSPResponse(p, id, at)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}
	crlOf, err := p.CRL(p.Intermediate, at)
	if err != nil {
		t.Fatal(err)
	}
	signer, ca := p.SignerRSA.Certificate, p.Intermediate.Certificate
	tests := []struct {
		name        string
		crls, ocsps [][]byte
		c           *x509.Certificate
		carried     []*x509.Certificate
		want        bool
	}{
		{"an OCSP response about the certificate", nil, [][]byte{ocspOf(p.SignerRSA)}, signer, []*x509.Certificate{signer}, true},
		{"the same, the certificate not carried", nil, [][]byte{ocspOf(p.SignerRSA)}, signer, []*x509.Certificate{ca}, false},
		{"an OCSP response about another certificate", nil, [][]byte{ocspOf(p.SignerECDSA)}, signer, []*x509.Certificate{signer}, false},
		{"the issuer's CRL, the issuer carried", [][]byte{crlOf}, nil, signer, []*x509.Certificate{signer, ca}, true},
		{"the issuer's CRL, the issuer not carried", [][]byte{crlOf}, nil, signer, []*x509.Certificate{signer}, false},
		{"a CRL of another issuer", [][]byte{crlOf}, nil, ca, []*x509.Certificate{ca, p.Root.Certificate}, false},
		{"what does not parse", [][]byte{{0x30, 0x00}}, [][]byte{{0x30, 0x00}}, signer, []*x509.Certificate{signer, ca}, false},
		{"no certificate", nil, [][]byte{ocspOf(p.SignerRSA)}, nil, []*x509.Certificate{signer}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(validationdata.RevocationsOf(tt.crls, tt.ocsps).About(tt.c, tt.carried), tt.want)
		})
	}
}
