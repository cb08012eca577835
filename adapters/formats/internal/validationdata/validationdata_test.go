package validationdata_test

import (
	"crypto/x509"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/internal/validationdata"
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
