package seal_test

import (
	"crypto/x509"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/seal"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestJWS: the token verifies with the seal certificate's key, names its
// type and carries the seal's chain, for ECDSA and RSA seals.
func TestJWS(t *testing.T) {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id  *pki.Identity
		alg jose.SignatureAlgorithm
	}{
		{p.SealCHRegulated, jose.ES256},
		{p.SignerRSA, jose.RS256},
	}
	for _, tt := range tests {
		t.Run(tt.id.Name, func(t *testing.T) {
			is := is.New(t)
			s, err := seal.New(tt.id.Key, tt.id.Chain(), nil, time.Now)
			is.NoErr(err)
			compact, err := s.JWS([]byte(`{"jti":"1"}`), "JWT")
			is.NoErr(err)
			jws, err := jose.ParseSigned(compact, []jose.SignatureAlgorithm{tt.alg})
			is.NoErr(err)
			h := jws.Signatures[0].Protected
			is.Equal(h.Algorithm, string(tt.alg))
			is.Equal(h.ExtraHeaders[jose.HeaderType], "JWT")
			chain := tt.id.Chain()
			roots, inter := x509.NewCertPool(), x509.NewCertPool()
			roots.AddCert(chain[len(chain)-1])
			for _, c := range chain[1 : len(chain)-1] {
				inter.AddCert(c)
			}
			chains, err := h.Certificates(x509.VerifyOptions{Roots: roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}})
			is.NoErr(err) // x5c is the seal's chain
			is.True(chains[0][0].Equal(tt.id.Certificate))
			payload, err := jws.Verify(tt.id.Certificate.PublicKey)
			is.NoErr(err)
			is.Equal(string(payload), `{"jti":"1"}`)
		})
	}
}
