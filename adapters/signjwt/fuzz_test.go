package signjwt_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/adapters/signjwt"
)

// The fuzz targets' key set, fixed so that a corpus entry means the same
// in every run: two ES256 keys of tenant A, one registered for module A
// and one for module B, and a third key registered nowhere. Test keys,
// public by being here.
const (
	fuzzKidA = "fuzz-a" // tenant A, module A
	fuzzKidB = "fuzz-b" // tenant A, module B

	fuzzKeyA = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgEKIlWhSnMOwLugat
eKpOyYBV+eM7PcSu1v3ZWLQI+YChRANCAAQa5IzEjScZxezW9iuVrmy2m09mbqBY
e9kdbKEyxTVf84SZYhoE7Bx8Kzdfx9G9aopvPuU7CiwPdSUu5pnNuMC0
-----END PRIVATE KEY-----`
	fuzzKeyB = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgfJzzT2t0RilaX30O
ZQCfSGT3QJfF6JdgAW8h52F5oWahRANCAASle8yt4EAGJ/n+xWSQ+9KfubRZG3ON
FwgQpL52BbfyAWYTXIChd2f18N8YI5RAu77GVJAicMZ37HMYpl4g5aWy
-----END PRIVATE KEY-----`
	fuzzKeyNone = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdJ62Qf+A46e2ppCB
jlbdhpqSxjd7mAF5CEyT4wwxjLqhRANCAARyQQ5sKRKW5LBrKLl41gmZ7cj1A/zY
oJwNgu5txjGRlSC6slUSozDx3vRVZUdxPhW4M9ZZcobj8N6ixw4zC9/W
-----END PRIVATE KEY-----`
)

func fuzzKey(tb testing.TB, text string) *ecdsa.PrivateKey {
	tb.Helper()
	block, _ := pem.Decode([]byte(text))
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		tb.Fatal(err)
	}
	return k.(*ecdsa.PrivateKey)
}

// fuzzRegistry is the fixed key set: module A's and module B's keys of
// tenant A, by kid.
type fuzzRegistry map[string]signjwt.Key

func newFuzzRegistry(tb testing.TB, a, b *ecdsa.PrivateKey) fuzzRegistry {
	return fuzzRegistry{
		fuzzKidA: {Tenant: tenantA, Module: moduleA, Kid: fuzzKidA, Algorithm: "ES256", PublicKey: pemOf(tb, &a.PublicKey)},
		fuzzKidB: {Tenant: tenantA, Module: moduleB, Kid: fuzzKidB, Algorithm: "ES256", PublicKey: pemOf(tb, &b.PublicKey)},
	}
}

func (r fuzzRegistry) lookup(_ context.Context, tenant, kid string) (signjwt.Key, error) {
	k, ok := r[kid]
	if !ok || k.Tenant != tenant {
		return signjwt.Key{}, signjwt.ErrUnknownKey
	}
	return k, nil
}

// verifier returns a fresh Verifier of r at t0, with a replay store of
// its own, so that each input is judged alone.
func (r fuzzRegistry) verifier() *signjwt.Verifier {
	clock := func() time.Time { return t0 }
	return signjwt.NewVerifier(r.lookup, replay.New(16, clock), signjwt.Options{Clock: clock})
}

// fuzzPayload is valid claims over body for module, as JSON.
func fuzzPayload(tb testing.TB, module, jti string, body []byte) []byte {
	b, err := json.Marshal(map[string]any{
		"iss": module, "aud": signjwt.Audience, "jti": jti, "sub": "proxy",
		"iat": t0.Add(-time.Second).Unix(), "exp": t0.Add(time.Minute).Unix(),
		signjwt.ClaimTenant: tenantA, signjwt.ClaimModule: module, signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	})
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// fuzzSign signs payload as a compact JWS with key, under the given
// header values; "" leaves one out.
func fuzzSign(tb testing.TB, key *ecdsa.PrivateKey, kid, typ string, payload []byte) string {
	o := &jose.SignerOptions{}
	if kid != "" {
		o.WithHeader("kid", kid)
	}
	if typ != "" {
		o.WithType(jose.ContentType(typ))
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, o)
	if err != nil {
		tb.Fatal(err)
	}
	jws, err := s.Sign(payload)
	if err != nil {
		tb.Fatal(err)
	}
	compact, err := jws.CompactSerialize()
	if err != nil {
		tb.Fatal(err)
	}
	return compact
}

// checkRefusal fails t unless err is what Verify documents for a token
// refused: a *RefusalError of class ErrUnauthenticated or ErrForbidden
// whose Reason does not quote the token. The registry never fails, so
// ErrUnavailable is a bug too.
func checkRefusal(t *testing.T, err error, token string) {
	t.Helper()
	r, ok := errors.AsType[*signjwt.RefusalError](err)
	if !ok {
		t.Fatalf("not a refusal: %v", err)
	}
	if !errors.Is(err, signjwt.ErrUnauthenticated) && !errors.Is(err, signjwt.ErrForbidden) {
		t.Fatalf("neither 401 nor 403: %v", err)
	}
	if r.Reason == "" {
		t.Fatal("refused without a reason")
	}
	if len(token) >= 16 && strings.Contains(r.Reason, token) {
		t.Fatalf("the reason quotes the token: %q", r.Reason)
	}
}

// checkAccepted fails t unless the token Verify accepted as id is signed
// by the key registered for its kid, for the module it claims, over body.
// It checks with go-jose directly, not through the verifier.
func checkAccepted(t *testing.T, reg fuzzRegistry, pubs map[string]*ecdsa.PublicKey, id signjwt.Identity, token string, body []byte) {
	t.Helper()
	key, ok := reg[id.Kid]
	if !ok || id.Tenant != key.Tenant || id.Module != key.Module {
		t.Fatalf("accepted %+v, not a registered key's", id)
	}
	jws, err := jose.ParseSignedCompact(token, []jose.SignatureAlgorithm{jose.ES256})
	if err != nil {
		t.Fatalf("accepted a token go-jose does not parse: %v", err)
	}
	payload, err := jws.Verify(pubs[id.Kid])
	if err != nil {
		t.Fatalf("accepted a token not signed by the key registered as %q: %v", id.Kid, err)
	}
	var c map[string]any
	if err := json.Unmarshal(payload, &c); err != nil {
		t.Fatalf("accepted claims that are not JSON: %v", err)
	}
	if !strings.EqualFold(c[signjwt.ClaimModule].(string), key.Module) || c["iss"] != c[signjwt.ClaimModule] ||
		c[signjwt.ClaimBodySHA256] != signjwt.BodyDigest(body) || c["jti"] != id.JTI {
		t.Fatalf("accepted claims %v as %+v over another body or for another module", c, id)
	}
}

// FuzzVerify gives Verify arbitrary Authorization headers and bodies,
// against the fixed key set. It never panics, refuses with a
// *RefusalError that does not quote the token, accepts only a token
// go-jose verifies with the key registered for its kid and module, and
// accepts a token once.
func FuzzVerify(f *testing.F) {
	a, b, none := fuzzKey(f, fuzzKeyA), fuzzKey(f, fuzzKeyB), fuzzKey(f, fuzzKeyNone)
	reg := newFuzzRegistry(f, a, b)
	pubs := map[string]*ecdsa.PublicKey{fuzzKidA: &a.PublicKey, fuzzKidB: &b.PublicKey}
	good := fuzzSign(f, a, fuzzKidA, signjwt.Type, fuzzPayload(f, moduleA, "j1", body))
	for _, h := range []string{
		"Bearer " + good,
		"bearer  " + good + " ",
		good,
		"Bearer " + fuzzSign(f, a, fuzzKidA, signjwt.MediaType, fuzzPayload(f, moduleA, "j2", body)),
		"Bearer " + fuzzSign(f, b, fuzzKidA, signjwt.Type, fuzzPayload(f, moduleA, "j3", body)),     // another key under A's kid
		"Bearer " + fuzzSign(f, b, fuzzKidB, signjwt.Type, fuzzPayload(f, moduleA, "j4", body)),     // B's key, A's module
		"Bearer " + fuzzSign(f, none, "nowhere", signjwt.Type, fuzzPayload(f, moduleA, "j5", body)), // unregistered
		"Bearer " + fuzzSign(f, a, fuzzKidA, "JWT", fuzzPayload(f, moduleA, "j6", body)),
		"Bearer " + fuzzSign(f, a, fuzzKidA, signjwt.Type, []byte(`{"iss":"x","iss":"y"}`)),
		"Bearer eyJhbGciOiJub25lIiwia2lkIjoiZnV6ei1hIiwidHlwIjoic3ZjLWRzcy1zaWduK2p3dCJ9.e30.",
		"Basic dXNlcjpwYXNz",
		"",
	} {
		f.Add(h, body)
	}
	f.Add("Bearer "+good, []byte(`{}`))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		ctx := context.Background()
		v := reg.verifier()
		id, err := v.Verify(ctx, header, body)
		token := strings.TrimSpace(header)
		if scheme, rest, ok := strings.Cut(token, " "); ok && strings.EqualFold(scheme, "Bearer") {
			token = strings.TrimSpace(rest)
		}
		// The same input gives the same answer to a verifier that has not
		// seen it.
		id2, err2 := reg.verifier().Verify(ctx, header, body)
		if id != id2 || (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
			t.Fatalf("two answers: %+v %v, then %+v %v", id, err, id2, err2)
		}
		if err != nil {
			checkRefusal(t, err, token)
			return
		}
		checkAccepted(t, reg, pubs, id, token, body)
		if _, err := v.Verify(ctx, header, body); err == nil {
			t.Fatal("accepted the same token twice")
		}
	})
}

// FuzzVerifyClaims signs arbitrary claims under arbitrary kid and typ
// values with a key of the fixed set or with one registered nowhere, so
// that the checks after the signature see fuzzed input too. Whatever the
// token says, Verify accepts it only when it was signed by the key
// registered for its kid, and only with claims that satisfy the profile.
func FuzzVerifyClaims(f *testing.F) {
	a, b, none := fuzzKey(f, fuzzKeyA), fuzzKey(f, fuzzKeyB), fuzzKey(f, fuzzKeyNone)
	reg := newFuzzRegistry(f, a, b)
	pubs := map[string]*ecdsa.PublicKey{fuzzKidA: &a.PublicKey, fuzzKidB: &b.PublicKey}
	signers := []*ecdsa.PrivateKey{a, b, none}
	f.Add(uint8(0), fuzzKidA, signjwt.Type, fuzzPayload(f, moduleA, "j1", body), body)
	f.Add(uint8(1), fuzzKidB, signjwt.Type, fuzzPayload(f, moduleB, "j2", body), body)
	f.Add(uint8(1), fuzzKidB, signjwt.MediaType, fuzzPayload(f, moduleA, "j3", body), body)
	f.Add(uint8(1), fuzzKidA, signjwt.Type, fuzzPayload(f, moduleA, "j4", body), body)
	f.Add(uint8(2), fuzzKidA, signjwt.Type, fuzzPayload(f, moduleA, "j5", body), body)
	f.Add(uint8(0), fuzzKidA, signjwt.Type, []byte(`{"iss":"`+moduleA+`","aud":["`+signjwt.Audience+`"],"exp":1748779260.5,"iat":1748779199,"jti":"j","`+
		signjwt.ClaimTenant+`":"`+strings.ToUpper(tenantA)+`","`+signjwt.ClaimModule+`":"`+moduleA+`","`+signjwt.ClaimBodySHA256+`":"`+signjwt.BodyDigest(nil)+`"}`), []byte{})
	f.Fuzz(func(t *testing.T, signer uint8, kid, typ string, payload, body []byte) {
		key := signers[int(signer)%len(signers)]
		token := fuzzSign(t, key, kid, typ, payload)
		id, err := reg.verifier().Verify(context.Background(), "Bearer "+token, body)
		if err != nil {
			checkRefusal(t, err, token)
			return
		}
		if reg[id.Kid].PublicKey != pemOf(t, &key.PublicKey) {
			t.Fatalf("accepted a token signed by another key than the one registered as %q", id.Kid)
		}
		checkAccepted(t, reg, pubs, id, token, body)
		var c map[string]any
		if err := json.Unmarshal(payload, &c); err != nil {
			t.Fatalf("accepted claims that are not JSON: %v", err)
		}
		e, _ := c["exp"].(float64)
		i, _ := c["iat"].(float64)
		exp, iat := time.Unix(int64(e), 0), time.Unix(int64(i), 0)
		if exp.Sub(iat) > signjwt.MaxLifetime || exp.Before(iat) || t0.After(exp.Add(signjwt.Skew)) || iat.After(t0.Add(signjwt.Skew)) {
			t.Fatalf("accepted exp %v, iat %v at %v", exp, iat, t0)
		}
	})
}
