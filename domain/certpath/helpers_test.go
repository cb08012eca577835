package certpath_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/pki"
)

var fixture = sync.OnceValues(func() (*pki.PKI, error) { return pki.New("http://127.0.0.1:9") })

// fx returns the shared deterministic fixture PKI.
func fx(t *testing.T) *pki.PKI {
	t.Helper()
	p, err := fixture()
	if err != nil {
		t.Fatalf("fixture PKI: %v", err)
	}
	return p
}

// A testCert is a certificate made by a test, with its key.
type testCert struct {
	cert *x509.Certificate
	key  crypto.Signer
}

// newKey generates a fresh P-256 key.
func newKey(t *testing.T) crypto.Signer {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var serial int64 = 1000

var serialMu sync.Mutex

func nextSerial() *big.Int {
	serialMu.Lock()
	defer serialMu.Unlock()
	serial++
	return big.NewInt(serial)
}

// Validity of the test-made certificates: around pki.ReferenceTime.
var (
	tNotBefore = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	tNotAfter  = time.Date(2040, 1, 1, 0, 0, 0, 0, time.UTC)
)

// tmpl returns a template for a certificate named cn; ca makes it a CA
// with keyCertSign.
func tmpl(cn string, ca bool) *x509.Certificate {
	c := &x509.Certificate{
		SerialNumber:          nextSerial(),
		Subject:               pkix.Name{CommonName: cn, Organization: []string{"certpath test"}},
		NotBefore:             tNotBefore,
		NotAfter:              tNotAfter,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageDigitalSignature,
	}
	if ca {
		c.IsCA = true
		c.KeyUsage = x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	}
	return c
}

// issue signs template for key with issuer (self-signed when issuer is
// nil).
func issue(t *testing.T, template *x509.Certificate, key crypto.Signer, issuer *testCert) *testCert {
	t.Helper()
	parent, signer := template, key
	if issuer != nil {
		parent, signer = issuer.cert, issuer.key
	}
	der, err := x509.CreateCertificate(rand.Reader, template, parent, key.Public(), signer)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCert{cert: c, key: key}
}

// ident wraps a fixture identity.
func ident(id *pki.Identity) *testCert { return &testCert{cert: id.Certificate, key: id.Key} }

// private returns a private anchor for c.
func private(c *x509.Certificate) certpath.Anchor {
	return certpath.Anchor{Certificate: c, Framework: trust.Unknown, Private: true}
}

// listed returns an anchor for c from a list of the framework.
func listed(c *x509.Certificate, f trust.Framework, territory string) certpath.Anchor {
	return certpath.Anchor{Certificate: c, Framework: f, Territory: territory,
		Service: &trust.Service{Type: trust.TypeCAQC, Status: trust.StatusGranted}}
}

// cns returns the common names of a path's certificates.
func cns(p certpath.Path) []string {
	var out []string
	for _, c := range p.Certificates {
		out = append(out, c.Subject.CommonName)
	}
	return out
}

// tlState returns a list state holding ders as identities of one CA/QC
// service.
func tlState(territory string, f trust.Framework, ders ...[]byte) trust.ListState {
	return trust.ListState{
		Territory: territory, Kind: trust.TL, Framework: f,
		List: &trust.List{Kind: trust.TL, Territory: territory, Providers: []trust.Provider{{
			Name: "TSP " + territory,
			Services: []trust.Service{{
				Type: trust.TypeCAQC, Status: trust.StatusGranted,
				StatusStart: time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC),
				Identity:    trust.Identity{Certificates: ders},
			}},
		}}},
	}
}

// forge returns a leaf whose issuer name and authority key identifier are
// those of ca, but signed by a freshly generated key.
func forge(t *testing.T, ca *x509.Certificate) *x509.Certificate {
	t.Helper()
	ft := tmpl("", true)
	ft.Subject = ca.Subject
	ft.SubjectKeyId = ca.SubjectKeyId
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048) // same algorithm as the fixture CAs
	if err != nil {
		t.Fatal(err)
	}
	fake := issue(t, ft, rsaKey, nil)
	return issue(t, tmpl("Forged Signer", false), newKey(t), fake).cert
}
