package signclient_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/adapters/signclient"
	"github.com/svc-dss/dss/adapters/signjwt"
)

const (
	tenant = "11111111-1111-4111-8111-111111111111"
	module = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
)

// The client's tokens pass the server's verifier (adapters/signjwt) for
// the body they were made for, once each, for every kind of client key;
// each carries a new jti.
func TestTokenPassesTheVerifier(t *testing.T) {
	t.Parallel()
	ec256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ec384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	for _, tt := range []struct {
		name      string
		signer    any
		algorithm string
	}{
		{"ES256", ec256, "ES256"},
		{"ES384", ec384, "ES384"},
		{"RS256", rsaKey, "RS256"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var pub any
			switch k := tt.signer.(type) {
			case *ecdsa.PrivateKey:
				pub = &k.PublicKey
			case *rsa.PrivateKey:
				pub = &k.PublicKey
			}
			jwk, err := json.Marshal(jose.JSONWebKey{Key: pub})
			is.NoErr(err)
			lookup := func(_ context.Context, tn, kid string) (signjwt.Key, error) {
				if tn != tenant || kid != "proxy" {
					return signjwt.Key{}, signjwt.ErrUnknownKey
				}
				return signjwt.Key{Tenant: tenant, Module: module, Kid: kid, Algorithm: tt.algorithm, PublicKey: string(jwk)}, nil
			}
			v := signjwt.NewVerifier(lookup, replay.New(100, clock), signjwt.Options{Clock: clock})
			c := &signclient.Client{Tenant: tenant, Module: module, KID: "proxy", Now: clock}
			switch k := tt.signer.(type) {
			case *ecdsa.PrivateKey:
				c.ClientKey = k
			case *rsa.PrivateKey:
				c.ClientKey = k
			}
			body := []byte(`{"a":1}`)
			first, err := c.Token(body)
			is.NoErr(err)
			second, err := c.Token(body)
			is.NoErr(err)
			for _, tok := range []string{first, second} { // a new jti each
				id, err := v.Verify(context.Background(), "Bearer "+tok, body)
				is.NoErr(err)
				is.Equal(id.Module, module)
			}
			other, err := c.Token([]byte(`{"a":2}`))
			is.NoErr(err)
			_, err = v.Verify(context.Background(), "Bearer "+other, body)
			is.True(err != nil) // a token for another body
		})
	}
	t.Run("an Ed25519 client key", func(t *testing.T) {
		is := is.New(t)
		_, ed, _ := ed25519.GenerateKey(rand.Reader)
		_, err := (&signclient.Client{ClientKey: ed}).Token(nil)
		is.Equal(err.Error(), "signclient: a client key of type ed25519.PublicKey signs no token: use an EC (P-256, P-384, P-521) or RSA key")
	})
}
