package signjwt_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/ports"
)

const (
	tenantA = "11111111-1111-4111-8111-111111111111"
	tenantB = "22222222-2222-4222-8222-222222222222"
	moduleA = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
	moduleB = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"
)

// The kids registered by the fixture.
const (
	kidRSA      = "rsa-pem"      // tenant A, module A, RS256, PEM
	kidEC       = "ec-jwk"       // tenant A, module A, ES256, JWK
	kidRSAJWK   = "rsa-jwk"      // tenant A, module A, PS384, JWK
	kidModuleB  = "rsa-module-b" // tenant A, module B, RS256, PEM
	kidTenantB  = "b-key"        // tenant B only
	kidBadPEM   = "bad-pem"      // tenant A: PEM that does not parse
	kidBadCurve = "bad-curve"    // tenant A: a P-384 key registered as ES256
	kidHMAC     = "hmac"         // tenant A: registered as HS256
	kidDown     = "db-down"      // the lookup fails
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

var body = []byte(`{"tenantId":"` + tenantA + `","moduleUuid":"` + moduleA + `","digests":["3q2+7w=="]}`)

// keys are the fixture's private keys, generated once: RSA generation is
// slow.
var keys = sync.OnceValue(func() (k struct {
	rsa, rsaOther, rsaModuleB *rsa.PrivateKey
	ec, ec384                 *ecdsa.PrivateKey
}) {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	var err error
	k.rsa, err = rsa.GenerateKey(rand.Reader, 2048)
	must(err)
	k.rsaOther, err = rsa.GenerateKey(rand.Reader, 2048)
	must(err)
	k.rsaModuleB, err = rsa.GenerateKey(rand.Reader, 2048)
	must(err)
	k.ec, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	must(err)
	k.ec384, err = ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	must(err)
	return k
})

func pemOf(t testing.TB, pub any) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

func jwkOf(t testing.TB, pub any, alg string) string {
	t.Helper()
	b, err := json.Marshal(jose.JSONWebKey{Key: pub, Algorithm: alg, Use: "sig"})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// registry is the control database of the fixture.
func registry(t testing.TB) map[[2]string]signjwt.Key {
	k := keys()
	reg := map[[2]string]signjwt.Key{}
	add := func(tenant, module, kid, alg, pub string) {
		reg[[2]string{tenant, kid}] = signjwt.Key{Tenant: tenant, Module: module, Kid: kid, Algorithm: alg, PublicKey: pub}
	}
	add(tenantA, moduleA, kidRSA, "RS256", pemOf(t, &k.rsa.PublicKey))
	add(tenantA, moduleA, kidEC, "ES256", jwkOf(t, &k.ec.PublicKey, "ES256"))
	add(tenantA, moduleA, kidRSAJWK, "PS384", jwkOf(t, &k.rsa.PublicKey, ""))
	add(tenantA, moduleB, kidModuleB, "RS256", pemOf(t, &k.rsaModuleB.PublicKey))
	add(tenantB, moduleB, kidTenantB, "ES256", pemOf(t, &k.ec.PublicKey))
	add(tenantA, moduleA, kidBadPEM, "RS256", "-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----\n")
	add(tenantA, moduleA, kidBadCurve, "ES256", pemOf(t, &k.ec384.PublicKey))
	add(tenantA, moduleA, kidHMAC, "HS256", pemOf(t, &k.rsa.PublicKey))
	return reg
}

var errDown = errors.New("connection refused")

// lookup returns the fixture's Lookup.
func lookup(t testing.TB) signjwt.Lookup {
	reg := registry(t)
	return func(_ context.Context, tenant, kid string) (signjwt.Key, error) {
		if kid == kidDown {
			return signjwt.Key{}, errDown
		}
		k, ok := reg[[2]string{tenant, kid}]
		if !ok {
			return signjwt.Key{}, fmt.Errorf("tenant %s, kid %q: %w", tenant, kid, signjwt.ErrUnknownKey)
		}
		return k, nil
	}
}

// newVerifier returns a Verifier of the fixture at t0, recording jtis in
// store, or in a fresh replay.Store when store is nil.
func newVerifier(t testing.TB, store ports.ReplayStore) *signjwt.Verifier {
	if store == nil {
		store = replay.New(1<<16, func() time.Time { return t0 })
	}
	return signjwt.NewVerifier(lookup(t), store, signjwt.Options{Clock: func() time.Time { return t0 }})
}

var jtis atomic.Int64

// claims returns valid claims for tenant A's module A over body, changed
// by mod.
func claims(mod func(c map[string]any)) map[string]any {
	c := map[string]any{
		"iss":                   moduleA,
		"sub":                   "proxy-1",
		"aud":                   []string{"urn:other", signjwt.Audience},
		"jti":                   fmt.Sprint("jti-", jtis.Add(1)),
		"iat":                   t0.Add(-10 * time.Second).Unix(),
		"exp":                   t0.Add(2 * time.Minute).Unix(),
		signjwt.ClaimTenant:     tenantA,
		signjwt.ClaimModule:     moduleA,
		signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	}
	if mod != nil {
		mod(c)
	}
	return c
}

// token describes a JWS to make.
type token struct {
	alg    jose.SignatureAlgorithm
	key    any    // the signing key
	kid    string // "" leaves kid out
	typ    string // "" leaves typ out
	claims map[string]any
	extra  map[jose.HeaderKey]any
}

func sign(t testing.TB, tk token) string {
	t.Helper()
	o := &jose.SignerOptions{}
	if tk.kid != "" {
		o.WithHeader("kid", tk.kid)
	}
	if tk.typ != "" {
		o.WithType(jose.ContentType(tk.typ))
	}
	for k, v := range tk.extra {
		o.WithHeader(k, v)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: tk.alg, Key: tk.key}, o)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := json.Marshal(tk.claims)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	compact, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return compact
}

// unsigned is an alg "none" token (RFC 7519 §6).
func unsigned(t testing.TB, kid string, c map[string]any) string {
	t.Helper()
	h, _ := json.Marshal(map[string]string{"alg": "none", "kid": kid, "typ": signjwt.Type})
	p, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(h) + "." + base64.RawURLEncoding.EncodeToString(p) + "."
}

// rs256 and es256 are valid tokens of the fixture, with claims changed by
// mod.
func rs256(t testing.TB, mod func(map[string]any)) string {
	return sign(t, token{alg: jose.RS256, key: keys().rsa, kid: kidRSA, typ: signjwt.Type, claims: claims(mod)})
}

func es256(t testing.TB, mod func(map[string]any)) string {
	return sign(t, token{alg: jose.ES256, key: keys().ec, kid: kidEC, typ: signjwt.Type, claims: claims(mod)})
}

func del(names ...string) func(map[string]any) {
	return func(c map[string]any) {
		for _, n := range names {
			delete(c, n)
		}
	}
}

func set(name string, v any) func(map[string]any) {
	return func(c map[string]any) { c[name] = v }
}

func TestVerify(t *testing.T) {
	t.Parallel()
	k := keys()
	tests := []struct {
		name   string
		header func(t testing.TB) string
		kid    string
	}{
		{"RS256, PEM, Bearer", func(t testing.TB) string { return "Bearer " + rs256(t, nil) }, kidRSA},
		{"ES256, JWK, bare", func(t testing.TB) string { return es256(t, nil) }, kidEC},
		{"PS384, JWK without alg, lower-case scheme", func(t testing.TB) string {
			return "bearer " + sign(t, token{alg: jose.PS384, key: k.rsa, kid: kidRSAJWK, typ: signjwt.Type, claims: claims(nil)})
		}, kidRSAJWK},
		{"typ as media type, upper case", func(t testing.TB) string {
			return "BEARER  " + sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidRSA, typ: strings.ToUpper(signjwt.MediaType), claims: claims(nil)})
		}, kidRSA},
		{"aud as a string, nbf, upper-case UUIDs", func(t testing.TB) string {
			return rs256(t, func(c map[string]any) {
				c["aud"] = signjwt.Audience
				c["nbf"] = t0.Add(30 * time.Second).Unix() // within the skew
				c[signjwt.ClaimTenant] = strings.ToUpper(tenantA)
				c[signjwt.ClaimModule] = strings.ToUpper(moduleA)
				c["iss"] = strings.ToUpper(moduleA)
			})
		}, kidRSA},
		{"expired within the skew", func(t testing.TB) string {
			return rs256(t, func(c map[string]any) {
				c["iat"] = t0.Add(-4 * time.Minute).Unix()
				c["exp"] = t0.Add(-59 * time.Second).Unix()
			})
		}, kidRSA},
		{"lifetime exactly 5 minutes, iat within the skew", func(t testing.TB) string {
			return rs256(t, func(c map[string]any) {
				c["iat"] = t0.Add(time.Minute).Unix()
				c["exp"] = t0.Add(6 * time.Minute).Unix()
			})
		}, kidRSA},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			v := newVerifier(t, nil)
			id, err := v.Verify(context.Background(), tt.header(t), body)
			is.NoErr(err)
			is.Equal(id.Tenant, tenantA)
			is.Equal(id.Module, moduleA)
			is.Equal(id.Kid, tt.kid)
			is.Equal(id.Subject, "proxy-1")
			is.True(strings.HasPrefix(id.JTI, "jti-"))
		})
	}
}

// The attack matrix: each token is refused with its class, and the error
// never holds the token.
func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	k := keys()
	pub := []byte(pemOf(t, &k.rsa.PublicKey))
	tests := []struct {
		name   string
		header func(t testing.TB) string
		body   []byte // nil: the fixture's body
		want   error
		why    string // in the error
	}{
		// The header.
		{"missing header", func(testing.TB) string { return "" }, nil, signjwt.ErrUnauthenticated, "no Authorization header"},
		{"Basic", func(testing.TB) string { return "Basic x" }, nil, signjwt.ErrUnauthenticated, "scheme is not Bearer"},
		{"Bearer without token", func(testing.TB) string { return "Bearer " }, nil, signjwt.ErrUnauthenticated, "not a compact JWS"},
		{"garbage", func(testing.TB) string { return "Bearer not.a.jwt" }, nil, signjwt.ErrUnauthenticated, "not a compact JWS"},
		{"two tokens", func(t testing.TB) string { return "Bearer " + rs256(t, nil) + " " + rs256(t, nil) }, nil, signjwt.ErrUnauthenticated, "malformed Authorization header"},
		{"too long", func(t testing.TB) string { return rs256(t, set("pad", strings.Repeat("x", signjwt.MaxTokenBytes))) }, nil, signjwt.ErrUnauthenticated, "longer than 8192 bytes"},
		{"JWS JSON serialization", func(t testing.TB) string {
			s, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k.rsa}, (&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", kidRSA))
			p, _ := json.Marshal(claims(nil))
			jws, _ := s.Sign(p)
			return jws.FullSerialize()
		}, nil, signjwt.ErrUnauthenticated, "not a compact JWS"},

		// alg.
		{"alg none", func(t testing.TB) string { return unsigned(t, kidRSA, claims(nil)) }, nil, signjwt.ErrUnauthenticated, "not a compact JWS signed with an asymmetric algorithm"},
		{"HS256 keyed with the public key PEM", func(t testing.TB) string {
			return sign(t, token{alg: jose.HS256, key: pub, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "not a compact JWS signed with an asymmetric algorithm"},
		{"PS256 token for an RS256 key", func(t testing.TB) string {
			return sign(t, token{alg: jose.PS256, key: k.rsa, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "alg PS256 is not the RS256 registered"},
		{"ES384 token for a P-256 key", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES384, key: k.ec384, kid: kidEC, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "alg ES384 is not the ES256 registered"},

		// typ, kid, crit.
		{"missing typ", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidRSA, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "typ is not"},
		{"typ JWT", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidRSA, typ: "JWT", claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "typ is not"},
		{"typ at+jwt (an OIDC access token)", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidRSA, typ: "at+jwt", claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "typ is not"},
		{"missing kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "no kid"},
		{"crit", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidRSA, typ: signjwt.Type, claims: claims(nil),
				extra: map[jose.HeaderKey]any{"crit": []string{"exp"}}})
		}, nil, signjwt.ErrUnauthenticated, "crit is not part of this profile"},

		// The key.
		{"unknown kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: "nobody", typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "is not registered for tenant"},
		{"kid of another tenant", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES256, key: k.ec, kid: kidTenantB, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "is not registered for tenant"},
		{"key of another module", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaModuleB, kid: kidModuleB, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrForbidden, "registered for another module"},
		{"forged token for a key of another module", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: kidModuleB, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "signature does not verify"},
		{"bad signature: another key, same kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnauthenticated, "signature does not verify"},
		{"tampered payload", func(t testing.TB) string {
			parts := strings.Split(rs256(t, nil), ".")
			p, _ := json.Marshal(claims(set("sub", "mallory")))
			return parts[0] + "." + base64.RawURLEncoding.EncodeToString(p) + "." + parts[2]
		}, nil, signjwt.ErrUnauthenticated, "signature does not verify"},
		{"lookup error", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidDown, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrUnavailable, "key lookup: connection refused"},
		{"registered PEM does not parse", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidBadPEM, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrBadRegistration, "PEM does not decode"},
		{"registered ES256 key on P-384", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES256, key: k.ec, kid: kidBadCurve, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrBadRegistration, "needs curve P-256, not P-384"},
		{"registered as HS256", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: kidHMAC, typ: signjwt.Type, claims: claims(nil)})
		}, nil, signjwt.ErrBadRegistration, "\"HS256\" is not one of"},

		// Times.
		{"expired", func(t testing.TB) string {
			return rs256(t, func(c map[string]any) {
				c["iat"] = t0.Add(-5 * time.Minute).Unix()
				c["exp"] = t0.Add(-61 * time.Second).Unix()
			})
		}, nil, signjwt.ErrUnauthenticated, "expired at"},
		{"nbf in the future", func(t testing.TB) string {
			return rs256(t, set("nbf", t0.Add(61*time.Second).Unix()))
		}, nil, signjwt.ErrUnauthenticated, "not valid before"},
		{"iat in the future", func(t testing.TB) string {
			return rs256(t, func(c map[string]any) {
				c["iat"] = t0.Add(61 * time.Second).Unix()
				c["exp"] = t0.Add(3 * time.Minute).Unix()
			})
		}, nil, signjwt.ErrUnauthenticated, "issued in the future"},
		{"lifetime over 5 minutes", func(t testing.TB) string {
			return rs256(t, set("exp", t0.Add(-10*time.Second+5*time.Minute+time.Second).Unix()))
		}, nil, signjwt.ErrUnauthenticated, "lifetime 5m1s is longer than 5m0s"},
		{"exp before iat", func(t testing.TB) string {
			return rs256(t, set("exp", t0.Add(-20*time.Second).Unix()))
		}, nil, signjwt.ErrUnauthenticated, "expires before it was issued"},
		{"missing exp", func(t testing.TB) string { return rs256(t, del("exp")) }, nil, signjwt.ErrUnauthenticated, "no exp"},
		{"missing iat", func(t testing.TB) string { return rs256(t, del("iat")) }, nil, signjwt.ErrUnauthenticated, "no iat"},
		{"exp as a string", func(t testing.TB) string { return rs256(t, set("exp", fmt.Sprint(t0.Add(time.Minute).Unix()))) }, nil, signjwt.ErrUnauthenticated, "exp is not a NumericDate"},

		// Claims.
		{"missing jti", func(t testing.TB) string { return rs256(t, del("jti")) }, nil, signjwt.ErrUnauthenticated, "no jti"},
		{"jti too long", func(t testing.TB) string { return rs256(t, set("jti", strings.Repeat("j", 129))) }, nil, signjwt.ErrUnauthenticated, "jti longer than 128"},
		{"missing iss", func(t testing.TB) string { return rs256(t, del("iss")) }, nil, signjwt.ErrUnauthenticated, "iss is not the module claim"},
		{"other iss", func(t testing.TB) string { return rs256(t, set("iss", moduleB)) }, nil, signjwt.ErrUnauthenticated, "iss is not the module claim"},
		{"missing aud", func(t testing.TB) string { return rs256(t, del("aud")) }, nil, signjwt.ErrUnauthenticated, "aud does not contain"},
		{"other aud", func(t testing.TB) string { return rs256(t, set("aud", "svc-dss-validator")) }, nil, signjwt.ErrUnauthenticated, "aud does not contain"},
		{"missing tenant claim", func(t testing.TB) string { return rs256(t, del(signjwt.ClaimTenant)) }, nil, signjwt.ErrUnauthenticated, "tenantId is not a UUID"},
		{"tenant claim not a UUID", func(t testing.TB) string { return rs256(t, set(signjwt.ClaimTenant, "tenant-a")) }, nil, signjwt.ErrUnauthenticated, "tenantId is not a UUID"},
		{"tenant claim a number", func(t testing.TB) string { return rs256(t, set(signjwt.ClaimTenant, 42)) }, nil, signjwt.ErrUnauthenticated, "tenantId is not a string"},
		{"missing module claim", func(t testing.TB) string { return rs256(t, del(signjwt.ClaimModule)) }, nil, signjwt.ErrUnauthenticated, "moduleUuid is not a UUID"},
		{"tenant claim of another tenant", func(t testing.TB) string {
			// Tenant B has no kid rsa-pem, and nobody has it but tenant A.
			return rs256(t, set(signjwt.ClaimTenant, tenantB))
		}, nil, signjwt.ErrUnauthenticated, "is not registered for tenant"},
		{"claim name in another case", func(t testing.TB) string {
			return rs256(t, func(c map[string]any) { c["ISS"] = c["iss"]; delete(c, "iss") })
		}, nil, signjwt.ErrUnauthenticated, "iss is not the module claim"},

		// The body.
		{"body hash mismatch", func(t testing.TB) string { return rs256(t, nil) }, []byte(`{"digests":["AAAA"]}`), signjwt.ErrUnauthenticated, "not the digest of the request body"},
		{"body hash missing", func(t testing.TB) string { return rs256(t, del(signjwt.ClaimBodySHA256)) }, nil, signjwt.ErrUnauthenticated, "no urn::svc:bodySha256"},
		{"body hash padded base64", func(t testing.TB) string {
			return rs256(t, set(signjwt.ClaimBodySHA256, signjwt.BodyDigest(body)+"="))
		}, nil, signjwt.ErrUnauthenticated, "not an unpadded base64url SHA-256"},
		{"body hash in hex", func(t testing.TB) string {
			return rs256(t, set(signjwt.ClaimBodySHA256, fmt.Sprintf("%x", body[:32])))
		}, nil, signjwt.ErrUnauthenticated, "not an unpadded base64url SHA-256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			v := newVerifier(t, nil)
			b := tt.body
			if b == nil {
				b = body
			}
			header := tt.header(t)
			_, err := v.Verify(context.Background(), header, b)
			is.True(errors.Is(err, tt.want))               // the error class
			is.True(strings.Contains(err.Error(), tt.why)) // the reason
			classes := 0
			for _, class := range []error{signjwt.ErrUnauthenticated, signjwt.ErrForbidden, signjwt.ErrUnavailable} {
				if errors.Is(err, class) {
					classes++
				}
			}
			is.Equal(classes, 1) // exactly one of 401, 403 and 502
			if tt.want == signjwt.ErrBadRegistration {
				is.True(errors.Is(err, signjwt.ErrUnavailable)) // the control database's fault: 502
			}
			if !errors.Is(err, signjwt.ErrUnavailable) {
				r, ok := errors.AsType[*signjwt.RefusalError](err)
				is.True(ok) // a 401 or 403 carries a reason for the caller
				for _, secret := range []string{kidRSA, kidEC, kidRSAJWK, kidModuleB, kidTenantB, "nobody", tenantA, tenantB, moduleA, moduleB, "RS256", "PS256", "ES256", "ES384"} {
					if strings.Contains(r.Reason, secret) {
						t.Fatalf("reason %q names %q", r.Reason, secret)
					}
				}
			}
			if tok := strings.TrimPrefix(header, "Bearer "); len(tok) > 20 {
				is.True(!strings.Contains(err.Error(), tok)) // the token is not in the error
				if sig := tok[strings.LastIndex(tok, ".")+1:]; sig != "" {
					is.True(!strings.Contains(err.Error(), sig)) // nor its signature
				}
			}
		})
	}
}

// Every token whose signature does not verify with a key registered for
// its tenant and kid gets the same refusal, word for word: an unknown
// kid, a kid of another tenant, an alg other than the registered one, a
// signature by another key. Telling them apart lists a tenant's kids.
func TestVerifyRefusesAlike(t *testing.T) {
	t.Parallel()
	k := keys()
	tokens := []struct {
		name  string
		token func(testing.TB) string
	}{
		{"unknown kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsa, kid: "nobody", typ: signjwt.Type, claims: claims(nil)})
		}},
		{"kid of another tenant", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES256, key: k.ec, kid: kidTenantB, typ: signjwt.Type, claims: claims(nil)})
		}},
		{"tenant claim of another tenant", func(t testing.TB) string { return rs256(t, set(signjwt.ClaimTenant, tenantB)) }},
		{"PS256 for an RS256 kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.PS256, key: k.rsa, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}},
		{"ES256 for an RS256 kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES256, key: k.ec, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}},
		{"bad signature", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}},
		{"forged for a key of another module", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: kidModuleB, typ: signjwt.Type, claims: claims(nil)})
		}},
	}
	v := newVerifier(t, nil)
	for _, tt := range tokens {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := v.Verify(context.Background(), tt.token(t), body)
			r, ok := errors.AsType[*signjwt.RefusalError](err)
			is.True(ok)
			is.Equal(r.Class, signjwt.ErrUnauthenticated)
			is.Equal(r.Reason, signjwt.ReasonSignature)
		})
	}
}

// A duplicated claim is refused even when both values agree with the
// profile: RFC 7519 §4.
func TestVerifyDuplicateClaim(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	k := keys()
	c, _ := json.Marshal(claims(nil))
	payload := append(c[:len(c)-1], []byte(`,"iss":"`+moduleA+`"}`)...)
	s, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: k.rsa}, (&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", kidRSA))
	jws, err := s.Sign(payload)
	is.NoErr(err)
	tok, _ := jws.CompactSerialize()
	_, err = newVerifier(t, nil).Verify(context.Background(), tok, body)
	is.True(errors.Is(err, signjwt.ErrUnauthenticated))
}

func TestVerifyReplay(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	k := keys()
	v := newVerifier(t, nil)
	ctx := context.Background()

	// A forged token does not burn the jti of the real one.
	forged := sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: kidRSA, typ: signjwt.Type, claims: claims(set("jti", "once"))})
	_, err := v.Verify(ctx, forged, body)
	is.True(errors.Is(err, signjwt.ErrUnauthenticated))

	tok := rs256(t, set("jti", "once"))
	_, err = v.Verify(ctx, tok, body)
	is.NoErr(err) // first use
	_, err = v.Verify(ctx, "Bearer "+tok, body)
	is.True(errors.Is(err, signjwt.ErrUnauthenticated)) // second use

	// The same jti under another key is another token.
	_, err = v.Verify(ctx, es256(t, set("jti", "once")), body)
	is.NoErr(err)
}

// failingStore is a replay store that does not answer.
type failingStore struct{}

func (failingStore) Use(context.Context, string, time.Time) (bool, error) { return false, errDown }

// recordingStore remembers what it was asked.
type recordingStore struct {
	id    string
	until time.Time
}

func (s *recordingStore) Use(_ context.Context, id string, until time.Time) (bool, error) {
	s.id, s.until = id, until
	return true, nil
}

func TestVerifyReplayStore(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, err := newVerifier(t, failingStore{}).Verify(context.Background(), rs256(t, nil), body)
	is.True(errors.Is(err, signjwt.ErrUnavailable))
	is.True(errors.Is(err, errDown))

	var rec recordingStore
	exp := t0.Add(2 * time.Minute)
	_, err = newVerifier(t, &rec).Verify(context.Background(), rs256(t, set("jti", "abc")), body)
	is.NoErr(err)
	is.Equal(rec.id, tenantA+"/"+kidRSA+"/abc")
	is.True(rec.until.Equal(exp.Add(signjwt.Skew))) // kept until exp + skew
}

func TestNewVerifierPanics(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		lookup signjwt.Lookup
		store  ports.ReplayStore
	}{
		{"nil lookup", nil, replay.New(1, nil)},
		{"nil store", lookup(t), nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			defer func() { is.True(recover() != nil) }() // panicked
			signjwt.NewVerifier(tt.lookup, tt.store, signjwt.Options{})
		})
	}
}

// nopStore accepts every jti, so that a benchmark can reuse its token.
type nopStore struct{}

func (nopStore) Use(context.Context, string, time.Time) (bool, error) { return true, nil }

func BenchmarkVerify(b *testing.B) {
	for _, bb := range []struct {
		name  string
		token func(testing.TB) string
	}{
		{"ES256", func(t testing.TB) string { return es256(t, nil) }},
		{"RS256", func(t testing.TB) string { return rs256(t, nil) }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			v := newVerifier(b, nopStore{})
			header := "Bearer " + bb.token(b)
			if _, err := v.Verify(context.Background(), header, body); err != nil { // warms the key cache
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.Verify(context.Background(), header, body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkVerifyRefused compares the refusals an outsider can provoke
// before a signature verifies: an unknown kid must cost what a known kid
// with a bad signature costs, or the timing lists a tenant's kids.
func BenchmarkVerifyRefused(b *testing.B) {
	k := keys()
	for _, bb := range []struct {
		name  string
		token func(testing.TB) string
	}{
		{"ES256 unknown kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES256, key: k.ec, kid: "nobody", typ: signjwt.Type, claims: claims(nil)})
		}},
		{"ES256 bad signature", func(t testing.TB) string {
			other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
			return sign(t, token{alg: jose.ES256, key: other, kid: kidEC, typ: signjwt.Type, claims: claims(nil)})
		}},
		{"ES256 for an RS256 kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.ES256, key: k.ec, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}},
		{"RS256 unknown kid", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: "nobody", typ: signjwt.Type, claims: claims(nil)})
		}},
		{"RS256 bad signature", func(t testing.TB) string {
			return sign(t, token{alg: jose.RS256, key: k.rsaOther, kid: kidRSA, typ: signjwt.Type, claims: claims(nil)})
		}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			v := newVerifier(b, nopStore{})
			header := "Bearer " + bb.token(b)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := v.Verify(context.Background(), header, body); !errors.Is(err, signjwt.ErrUnauthenticated) {
					b.Fatal(err)
				}
			}
		})
	}
}
