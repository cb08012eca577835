package oidc_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/oidc"
	op "github.com/svc-dss/dss/fixtures/oidc"
)

// es256 signs claims with key as a compact ES256 JWS: a proxy's
// client-signed token.
func es256(t *testing.T, key *ecdsa.PrivateKey, claims map[string]any) string {
	t.Helper()
	enc := func(v any) string {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return base64.RawURLEncoding.EncodeToString(raw)
	}
	input := enc(map[string]any{"alg": "ES256", "typ": "JWT"}) + "." + enc(claims)
	sum := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, key, sum[:])
	if err != nil {
		t.Fatal(err)
	}
	sig := make([]byte, 64)
	r.FillBytes(sig[:32])
	s.FillBytes(sig[32:])
	return input + "." + base64.RawURLEncoding.EncodeToString(sig)
}

func writePEM(t *testing.T, blocks ...*pem.Block) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "keys.pem")
	var out []byte
	for _, b := range blocks {
		out = append(out, pem.EncodeToMemory(b)...)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func pkix(t *testing.T, k crypto.PublicKey) *pem.Block {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return &pem.Block{Type: "PUBLIC KEY", Bytes: der}
}

// Each key source accepts its tokens and refuses the rest with a reason.
func TestResourceServer(t *testing.T) {
	t.Parallel()
	a := op.Start(t, op.Options{Name: "idp", DistinctKeys: true})
	other := op.Start(t, op.Options{Name: "other", DistinctKeys: true})
	proxy, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	stranger, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := oidc.ReadPublicKeys(writePEM(t, pkix(t, a.PublicKey()), pkix(t, &proxy.PublicKey)))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims := func(mod func(map[string]any)) map[string]any {
		c := a.ClaimSet(t, op.Claims{Subject: "proxy"})
		if mod != nil {
			mod(c)
		}
		return c
	}
	ok := claims(nil)
	sources := []struct {
		name string
		src  oidc.KeySource
		good []string
	}{
		{"jwk-set-uri", oidc.KeySource{JWKSetURI: a.JWKSURI}, []string{a.Token(t, op.Claims{Subject: "proxy"})}},
		{"issuer-uri", oidc.KeySource{IssuerURI: a.Issuer}, []string{a.Token(t, op.Claims{Subject: "proxy"})}},
		{"public-key file", oidc.KeySource{PublicKeys: keys}, []string{a.Sign(t, map[string]any{"kid": nil}, ok), es256(t, proxy, ok)}},
	}
	refused := []struct {
		name  string
		token string
		why   string
	}{
		{"empty", "", "the request carries no bearer token"},
		{"garbage", "a.b", "the token is not a JWT signed with an accepted algorithm"},
		{"alg none", a.Unsigned(t, ok), "the token is not a JWT signed with an accepted algorithm"},
		{"HS256 keyed with the public key", a.HS256WithPublicKey(t, ok), "the token is not a JWT signed with an accepted algorithm"},
		{"another key", other.Sign(t, nil, ok), "the token is signed with a key its issuer does not publish|the token's signature does not verify"},
		{"an unregistered EC key", es256(t, stranger, ok), "the token is signed with a key its issuer does not publish|the token's signature does not verify"},
		{"expired", a.Sign(t, nil, claims(func(c map[string]any) { c["exp"] = now.Add(-time.Hour).Unix() })), "the token has expired"},
		{"no expiry", a.Sign(t, nil, claims(func(c map[string]any) { delete(c, "exp") })), "the token has no expiry"},
		{"not yet valid", a.Sign(t, nil, claims(func(c map[string]any) { c["nbf"] = now.Add(time.Hour).Unix() })), "the token is not valid yet"},
		{"issued in the future", a.Sign(t, nil, claims(func(c map[string]any) { c["iat"] = now.Add(time.Hour).Unix() })), "the token is issued in the future"},
	}
	for _, s := range sources {
		t.Run(s.name, func(t *testing.T) {
			rs, err := oidc.NewResourceServer(s.src, oidc.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for i, tok := range s.good {
				sub, err := rs.Verify(context.Background(), tok)
				if err != nil {
					t.Fatalf("good token %d: %v", i, err)
				}
				if sub.Subject != "proxy" {
					t.Fatalf("good token %d: subject %q", i, sub.Subject)
				}
			}
			for _, r := range refused {
				t.Run(r.name, func(t *testing.T) {
					is := is.New(t)
					_, err := rs.Verify(context.Background(), r.token)
					is.True(errors.Is(err, oidc.ErrUnauthenticated))
					// A key set names keys by kid; a key file does not.
					// The message is the reason's sentence, nothing more.
					said := false
					for _, why := range strings.Split(r.why, "|") {
						said = said || err.Error() == "oidc: not authenticated: "+why
					}
					if !said {
						t.Fatalf("%v does not say %q", err, r.why)
					}
				})
			}
		})
	}

	t.Run("issuer-uri refuses another issuer's name", func(t *testing.T) {
		is := is.New(t)
		rs, err := oidc.NewResourceServer(oidc.KeySource{IssuerURI: a.Issuer}, oidc.Options{})
		is.NoErr(err)
		_, err = rs.Verify(context.Background(), a.Sign(t, nil, claims(func(c map[string]any) { c["iss"] = other.Issuer })))
		is.True(errors.Is(err, oidc.ErrUnauthenticated))
		is.Equal(err.Error(), "oidc: not authenticated: the token is from another issuer")
	})

	t.Run("key source down", func(t *testing.T) {
		is := is.New(t)
		for _, src := range []oidc.KeySource{{JWKSetURI: "http://127.0.0.1:9/jwks"}, {IssuerURI: "http://127.0.0.1:9/idp"}} {
			rs, err := oidc.NewResourceServer(src, oidc.Options{})
			is.NoErr(err)
			_, err = rs.Verify(context.Background(), a.Token(t, op.Claims{}))
			is.True(errors.Is(err, oidc.ErrUnavailable))
		}
	})
}

func TestNewResourceServerNeedsOneSource(t *testing.T) {
	t.Parallel()
	for _, src := range []oidc.KeySource{{}, {JWKSetURI: "http://x/jwks", IssuerURI: "http://x"}} {
		_, err := oidc.NewResourceServer(src, oidc.Options{})
		if !errors.Is(err, oidc.ErrNoKeySource) {
			t.Fatalf("%+v: %v", src, err)
		}
	}
}

func TestReadPublicKeys(t *testing.T) {
	t.Parallel()
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		blocks []*pem.Block
		keys   int
		err    string
	}{
		{"one EC key", []*pem.Block{pkix(t, &ec.PublicKey)}, 1, ""},
		{"a private key", []*pem.Block{{Type: "PRIVATE KEY", Bytes: []byte{1}}}, 0, `block 1 is a "PRIVATE KEY", not a public key or certificate`},
		{"a broken key", []*pem.Block{{Type: "PUBLIC KEY", Bytes: []byte{1, 2}}}, 0, "block 1: "},
		{"no PEM", nil, 0, "holds no PEM public key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			keys, err := oidc.ReadPublicKeys(writePEM(t, tt.blocks...))
			if tt.err != "" {
				is.True(err != nil)
				is.True(strings.Contains(err.Error(), tt.err))
				return
			}
			is.NoErr(err)
			is.Equal(len(keys), tt.keys)
		})
	}
	_, err = oidc.ReadPublicKeys(filepath.Join(t.TempDir(), "absent.pem"))
	if err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("absent file: %v", err)
	}
}

// A resource server's key set lives and is fetched as a Verifier's: a
// withdrawn key verifies until the set's lifetime ends, and a failing
// JWKS is asked once per refresh interval, however many tokens arrive.
func TestResourceServerKeySet(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	c := newClock()
	a := op.Start(t, op.Options{Name: "idp", DistinctKeys: true})
	rs, err := oidc.NewResourceServer(oidc.KeySource{JWKSetURI: a.JWKSURI}, oidc.Options{Clock: c.Now})
	is.NoErr(err)
	old := a.Token(t, op.Claims{Subject: "proxy", Expiry: time.Now().Add(3 * time.Hour)})
	_, err = rs.Verify(context.Background(), old)
	is.NoErr(err)
	kid := a.KeyID()
	a.Rotate(t)
	a.Withdraw(t, kid)
	c.Advance(time.Hour - time.Second)
	_, err = rs.Verify(context.Background(), old)
	is.NoErr(err)
	c.Advance(time.Second)
	_, err = rs.Verify(context.Background(), old)
	is.Equal(reasonOf(err), oidc.ReasonUnknownKey)
	is.Equal(a.JWKSRequests(), 2)

	a.FailJWKS(true)
	c.Advance(30 * time.Second)
	for range 20 {
		_, err = rs.Verify(context.Background(), a.UnknownKid(t, a.ClaimSet(t, op.Claims{Subject: "proxy"})))
		is.True(errors.Is(err, oidc.ErrUnavailable))
	}
	is.Equal(a.JWKSRequests(), 3)
}
