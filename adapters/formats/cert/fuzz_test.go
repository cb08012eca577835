package cert

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"net/url"
	"testing"
	"time"

	"github.com/ProtonMail/go-crypto/brainpool"
)

// fuzzSeeds returns certificates with every extension the lenient reader
// handles and with the deviations the repair path handles. They are made
// with a fresh P-256 key: the fixture PKI derives RSA primes, which under
// the fuzzer's coverage instrumentation takes minutes.
func fuzzSeeds(tb testing.TB) [][]byte {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	u, _ := url.Parse("https://example.eu/x")
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1000),
		Subject:               pkix.Name{CommonName: "Fuzz CA", Organization: []string{"Ö"}, Country: []string{"EU"}},
		NotBefore:             time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:              time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageTimeStamping},
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLen:            1,
		SubjectKeyId:          []byte{1, 2, 3},
		AuthorityKeyId:        []byte{1, 2, 3},
		OCSPServer:            []string{"http://ocsp.example.eu"},
		IssuingCertificateURL: []string{"http://ca.example.eu/ca.crt"},
		CRLDistributionPoints: []string{"http://ca.example.eu/ca.crl"},
		PolicyIdentifiers:     []asn1.ObjectIdentifier{{0, 4, 0, 194112, 1, 2}},
		DNSNames:              []string{"example.eu"},
		EmailAddresses:        []string{"ca@example.eu"},
		URIs:                  []*url.URL{u},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		tb.Fatal(err)
	}
	bp := brainpool.P256r1().Params()
	return [][]byte{
		der,
		forge(tb, der, func(parts *tbsParts) { parts.serial = []byte{0x02, 0x01, 0xff} }, key),
		forge(tb, der, func(parts *tbsParts) {
			//lint:ignore SA1019 a point of a custom curve (brainpool) has no other form in crypto/ecdsa.
			parts.spki = brainpoolSPKI(tb, &ecdsa.PublicKey{Curve: brainpool.P256r1(), X: bp.Gx, Y: bp.Gy})
		}, key),
	}
}

// FuzzParseCertificate feeds arbitrary bytes to the three readers. None may
// panic; a certificate returned keeps the input as Raw; and the lenient
// reader must cope with whatever the splitter accepts.
func FuzzParseCertificate(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, rep, err := ParseDetailed(data)
		if err == nil {
			if c == nil || rep == nil || !bytes.Equal(c.Raw, data) {
				t.Fatalf("certificate without its input as Raw (method %v)", rep.Method)
			}
			_ = CheckCertificateSignature(c, c.PublicKey)
		}
		rc, err := parseRawCertificate(data)
		if err != nil {
			return
		}
		lc := lenient(rc, &Report{})
		if !bytes.Equal(lc.Raw, data) || !bytes.Equal(lc.RawTBSCertificate, rc.tbs.raw) {
			t.Fatal("lenient certificate does not keep the input")
		}
		_ = repair(rc, &Report{})
		_, _ = ParseAll(append(bytes.Clone(data), data...))
	})
}
