package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/jmoiron/sqlx"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/signsetup"
	"github.com/svc-dss/dss/fixtures/softhsm"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// The seed's tenants and tenant A's module; the tests add module M2 and
// tenant C's signing set-up.
const (
	tenantA  = "11111111-1111-4111-8111-111111111111"
	tenantB  = "22222222-2222-4222-8222-222222222222"
	tenantC  = "33333333-3333-4333-8333-333333333333"
	moduleA  = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
	moduleA2 = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2"
	moduleB  = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb"
	moduleC  = "cccccccc-cccc-4ccc-8ccc-cccccccccccc"
)

// proxy is a signing proxy: its key, registered for (tenant, module, kid).
type proxy struct {
	tenant, module, kid string
	key                 *ecdsa.PrivateKey
}

// token is the proxy's self-issued JWT over body; mod changes claims.
func (p proxy) token(t testing.TB, body []byte, mod func(map[string]any)) string {
	t.Helper()
	return signES256(t, p.key, p.kid, p.claims(body, mod))
}

// claims are the claims of the proxy's token over body, changed by mod.
func (p proxy) claims(body []byte, mod func(map[string]any)) map[string]any {
	now := time.Now()
	claims := map[string]any{
		"iss": p.module, "aud": signjwt.Audience, "jti": fmt.Sprintf("%d-%d", now.UnixNano(), randUint()),
		"iat": now.Unix(), "exp": now.Add(2 * time.Minute).Unix(),
		signjwt.ClaimTenant: p.tenant, signjwt.ClaimModule: p.module, signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	}
	if mod != nil {
		mod(claims)
	}
	return claims
}

func randUint() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

func signES256(t testing.TB, key *ecdsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	return signJWT(t, jose.ES256, key, kid, claims)
}

func signJWT(t testing.TB, alg jose.SignatureAlgorithm, key any, kid string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", kid)
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := json.Marshal(claims)
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	out, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// signWorld is a running signer on a real control database and real
// SoftHSM2 partitions.
type signWorld struct {
	url      string
	a, a2, c proxy
	b        proxy
	tokA     *softhsm.Token
	pubs     map[string]crypto.PublicKey // the partition A keys' public halves, by label
	pairs    map[string]softhsm.KeyPair  // their handles in the token
	logs     *servertest.Buffer
	admin    string
}

// newSignWorld starts the signer of a new world with env added to its
// environment.
func newSignWorld(t testing.TB, env ...string) *signWorld {
	t.Helper()
	return newSignWorldOn(t, pgtest.NewDatabaseURL(t), env...)
}

// newSignWorldOn is newSignWorld on the control database at admin, a new
// empty one.
func newSignWorldOn(t testing.TB, admin string, env ...string) *signWorld {
	t.Helper()
	w := seedSignWorld(t, admin)
	srv := servertest.Run(t, run, nil, append([]string{"SERVER_PORT=0", "SVC_DSS_CONTROL_DB_URL=" + w.admin}, env...))
	w.url, w.logs = srv.URL, srv.Logs
	return w
}

// seedSignWorld fills the new empty control database at admin with the
// world newSignWorld serves, without starting a signer: the schema and
// seed, tenant A's partition on a new SoftHSM2 token with its keys, and
// the proxies' registered keys. The fault tests start the signer binary
// on it instead.
func seedSignWorld(t testing.TB, admin string) *signWorld {
	t.Helper()
	w := &signWorld{admin: admin}
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := signsetup.Prepare(ctx, db); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Tenant A's partition: a SoftHSM2 token with RSA and P-256 signing
	// keys, each with its authorization key, and a key without one.
	w.tokA = softhsm.New(t)
	part, err := signsetup.NewPartition(ctx, db, w.tokA, tenantA, slices.Concat(
		signsetup.SigningKeys("sign-rsa", true), signsetup.SigningKeys("sign-p256", false), []signsetup.Key{{Label: "no-ska"}})...)
	if err != nil {
		t.Fatal(err)
	}
	w.pubs, w.pairs = part.Public, part.Pairs
	// Proxies: A on its module; A2 on a second module of A; B (licensed
	// for validation only); C (licensed dss, no dss.sign permission).
	exec(`INSERT INTO dss_modules (id, tenant_id, name, enabled) VALUES ($1, $2, 'second', true), ($3, $4, 'b', true), ($5, $6, 'c', true)`,
		moduleA2, tenantA, moduleB, tenantB, moduleC, tenantC)
	exec(`INSERT INTO tenant_features (tenant_id, feature) VALUES ($1, 'dss')`, tenantC)
	w.a = register(t, db, tenantA, moduleA, "proxy-a")
	w.a2 = register(t, db, tenantA, moduleA2, "proxy-a2")
	w.b = register(t, db, tenantB, moduleB, "proxy-b")
	w.c = register(t, db, tenantC, moduleC, "proxy-c")
	return w
}

// noInternals fails the test when detail names where the HSM is (the
// library's path, its directory, the token's label) or the kids of the
// world: a detail says what the caller did wrong and nothing else.
func (w *signWorld) noInternals(t testing.TB, detail string) {
	t.Helper()
	for _, internal := range []string{w.tokA.ModulePath(), filepath.Dir(w.tokA.ModulePath()), w.tokA.Label(), "softhsm", ".so", "proxy-", "slot", "127.0.0.1", "localhost"} {
		if strings.Contains(strings.ToLower(detail), strings.ToLower(internal)) {
			t.Fatalf("detail %q names %q", detail, internal)
		}
	}
}

// register makes a proxy key and records it in the control database.
func register(t testing.TB, db *sqlx.DB, tenant, module, kid string) proxy {
	t.Helper()
	key, err := signsetup.Register(context.Background(), db, tenant, module, kid)
	if err != nil {
		t.Fatal(err)
	}
	return proxy{tenant: tenant, module: module, kid: kid, key: key}
}

// body is a sign request of proxy p.
func body(p proxy, key, hash, alg, enc string, digests ...[]byte) []byte {
	var ds []string
	for _, d := range digests {
		ds = append(ds, base64.StdEncoding.EncodeToString(d))
	}
	b, _ := json.Marshal(map[string]any{"tenantId": p.tenant, "moduleUuid": p.module, "keyLabel": key, "hashAlgorithm": hash,
		"signatureAlgorithm": alg, "ecdsaEncoding": enc, "digests": ds})
	if enc == "" {
		b = bytes.Replace(b, []byte(`"ecdsaEncoding":"",`), nil, 1)
	}
	return b
}

type signed struct {
	RequestID          string                    `json:"requestId"`
	KeyLabel           string                    `json:"keyLabel"`
	PublicKeySHA256    string                    `json:"publicKeySha256"`
	SignatureAlgorithm string                    `json:"signatureAlgorithm"`
	AlgorithmOID       string                    `json:"signatureAlgorithmOid"`
	PSS                *struct{ SaltLength int } `json:"pss"`
	ECDSAEncoding      string                    `json:"ecdsaEncoding"`
	Signatures         [][]byte                  `json:"signatures"`
}

// post sends body with the Authorization header auth ("" none).
func post(t testing.TB, url, auth string, body []byte) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+signPath, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func digest(h crypto.Hash, s string) []byte {
	x := h.New()
	x.Write([]byte(s))
	return x.Sum(nil)
}

// Every algorithm signs, and each signature verifies with the key's
// public half: crypto/rsa and crypto/ecdsa for all, openssl pkeyutl for
// one of each kind.
func TestSignSKA(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	d256, d384 := digest(crypto.SHA256, "document"), digest(crypto.SHA384, "document")
	tests := []struct {
		name, key, hash, alg, enc string
		digests                   [][]byte
		h                         crypto.Hash
		openssl                   []string // pkeyutl options; nil: not checked with openssl
	}{
		{"ECDSA P-256, DER", "sign-p256", "SHA-256", "ECDSA", "", [][]byte{d256}, crypto.SHA256, []string{}},
		{"ECDSA P-256, r||s", "sign-p256", "SHA-256", "ECDSA", "RAW", [][]byte{d256}, crypto.SHA256, nil},
		{"RSA PKCS#1 v1.5, SHA-256", "sign-rsa", "SHA-256", "RSA_PKCS1_V1_5", "", [][]byte{d256}, crypto.SHA256, []string{"-pkeyopt", "digest:sha256"}},
		{"RSA PKCS#1 v1.5, SHA-384", "sign-rsa", "SHA-384", "RSA_PKCS1_V1_5", "", [][]byte{d384}, crypto.SHA384, nil},
		{"RSA-PSS, SHA-256", "sign-rsa", "SHA-256", "RSA_PSS", "", [][]byte{d256}, crypto.SHA256,
			[]string{"-pkeyopt", "digest:sha256", "-pkeyopt", "rsa_padding_mode:pss", "-pkeyopt", "rsa_pss_saltlen:32", "-pkeyopt", "rsa_mgf1_md:sha256"}},
		{"a batch of three", "sign-p256", "SHA-256", "ECDSA", "DER", [][]byte{d256, digest(crypto.SHA256, "b"), digest(crypto.SHA256, "c")}, crypto.SHA256, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			b := body(w.a, tt.key, tt.hash, tt.alg, tt.enc, tt.digests...)
			status, raw := post(t, w.url, "Bearer "+w.a.token(t, b, nil), b)
			is.Equal(status, 200) // string(raw)
			var res signed
			is.NoErr(json.Unmarshal(raw, &res))
			is.Equal(len(res.Signatures), len(tt.digests))
			is.True(res.RequestID != "")
			pub := w.pubs[tt.key]
			spki, _ := x509.MarshalPKIXPublicKey(pub)
			sum := sha256.Sum256(spki)
			is.Equal(res.PublicKeySHA256, hex.EncodeToString(sum[:]))
			for i, sig := range res.Signatures {
				switch tt.alg {
				case "ECDSA":
					if tt.enc == "RAW" {
						is.Equal(len(sig), 64)
						sig = rawToDER(t, sig)
					}
					is.True(ecdsa.VerifyASN1(pub.(*ecdsa.PublicKey), tt.digests[i], sig))
				case "RSA_PKCS1_V1_5":
					is.NoErr(rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), tt.h, tt.digests[i], sig))
				case "RSA_PSS":
					is.NoErr(rsa.VerifyPSS(pub.(*rsa.PublicKey), tt.h, tt.digests[i], sig, &rsa.PSSOptions{SaltLength: tt.h.Size()}))
					is.Equal(res.PSS.SaltLength, 32)
				}
			}
			if tt.openssl != nil {
				opensslVerify(t, pub, tt.digests[0], res.Signatures[0], tt.openssl)
			}
		})
	}
}

func rawToDER(t *testing.T, rs []byte) []byte {
	t.Helper()
	r, s := new(big.Int).SetBytes(rs[:32]), new(big.Int).SetBytes(rs[32:])
	der, err := asn1.Marshal(struct{ R, S *big.Int }{r, s})
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// opensslVerify checks a signature with `openssl pkeyutl -verify`.
func opensslVerify(t *testing.T, pub crypto.PublicKey, digest, sig []byte, opts []string) {
	t.Helper()
	dir := t.TempDir()
	spki, _ := x509.MarshalPKIXPublicKey(pub)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	args := append([]string{"pkeyutl", "-verify", "-pubin", "-inkey", write("pub.pem", pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})),
		"-in", write("digest.bin", digest), "-sigfile", write("sig.bin", sig)}, opts...)
	out, err := exec.Command("openssl", args...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Signature Verified Successfully") {
		t.Fatalf("openssl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// The status matrix of signing-server.md §7, each asserted with its
// problem type; a replayed token and a token over another body are
// refused.
func TestSignSKAStatuses(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	d := digest(crypto.SHA256, "document")
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d)
	now := time.Now()
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	const (
		badSignature = signjwt.ReasonSignature
		notTheTokens = "the body's tenantId and moduleUuid are not the token's"
	)
	tests := []struct {
		name   string
		auth   func() string
		body   []byte
		status int
		kind   string
		detail string
	}{
		{"no header", func() string { return "" }, good, 401, "unauthenticated", "no Authorization header"},
		{"malformed header", func() string { return "Bearer not.a.jwt" }, good, 401, "unauthenticated", "not a compact JWS signed with an asymmetric algorithm"},
		{"bad signature", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-a", key: other}.token(t, good, nil)
		}, good, 401, "unauthenticated", badSignature},
		{"expired", func() string {
			return "Bearer " + w.a.token(t, good, func(c map[string]any) {
				c["iat"], c["exp"] = now.Add(-10*time.Minute).Unix(), now.Add(-8*time.Minute).Unix()
			})
		}, good, 401, "unauthenticated", "expired at " + now.Add(-8*time.Minute).UTC().Format(time.RFC3339)},
		{"future", func() string {
			return "Bearer " + w.a.token(t, good, func(c map[string]any) {
				c["nbf"], c["exp"] = now.Add(3*time.Minute).Unix(), now.Add(4*time.Minute).Unix()
			})
		}, good, 401, "unauthenticated", "not valid before " + now.Add(3*time.Minute).UTC().Format(time.RFC3339)},
		{"bad claims: audience", func() string {
			return "Bearer " + w.a.token(t, good, func(c map[string]any) { c["aud"] = "urn:svc-dss:validator" })
		}, good, 401, "unauthenticated", "aud does not contain " + signjwt.Audience},
		{"unknown kid", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-zz", key: w.a.key}.token(t, good, nil)
		}, good, 401, "unauthenticated", badSignature},
		{"kid of another tenant", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-b", key: w.b.key}.token(t, good, nil)
		}, good, 401, "unauthenticated", badSignature},
		{"alg other than the kid's", func() string {
			rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
			if err != nil {
				t.Fatal(err)
			}
			return "Bearer " + signJWT(t, jose.RS256, rsaKey, "proxy-a", w.a.claims(good, nil))
		}, good, 401, "unauthenticated", badSignature},
		{"token over another body", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-p256", "SHA-256", "ECDSA", "", digest(crypto.SHA256, "other")), nil)
		}, good, 401, "unauthenticated", signjwt.ClaimBodySHA256 + " is not the digest of the request body"},
		{"tenant mismatch", func() string { return "Bearer " + w.a.token(t, body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d), nil) },
			body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden", notTheTokens},
		{"module mismatch", func() string {
			return "Bearer " + w.a.token(t, body(w.a2, "sign-p256", "SHA-256", "ECDSA", "", d), nil)
		},
			body(w.a2, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden", notTheTokens},
		{"key of another module", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-a2", key: w.a2.key}.token(t, good, nil)
		}, good, 403, "forbidden", "the token's key is registered for another module than its module claim"},
		{"forged token for a key of another module", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-a2", key: other}.token(t, good, nil)
		}, good, 401, "unauthenticated", badSignature},
		{"no license (tenant B: validation only)", func() string {
			b := body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d)
			return "Bearer " + w.b.token(t, b, nil)
		}, body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden", "the tenant does not hold the dss license"},
		{"no permission (tenant C: dss without dss.sign)", func() string {
			b := body(w.c, "sign-p256", "SHA-256", "ECDSA", "", d)
			return "Bearer " + w.c.token(t, b, nil)
		}, body(w.c, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden", "the tenant does not hold the dss.sign permission"},
		{"bad body", func() string { return "Bearer " + w.a.token(t, []byte("{not json"), nil) }, []byte("{not json"), 400, "bad-request", "the body is not exactly one JSON object"},
		{"wrong digest length", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d[:20]), nil)
		}, body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d[:20]), 400, "bad-request", "digests[0] has 20 bytes; a SHA-256 digest has 32"},
		{"unknown algorithm", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-rsa", "SHA-256", "RSA_RAW", "", d), nil)
		}, body(w.a, "sign-rsa", "SHA-256", "RSA_RAW", "", d), 400, "bad-request", `signatureAlgorithm "RSA_RAW" is not one of RSA_PKCS1_V1_5, RSA_PSS, ECDSA`},
		{"no such key in the partition", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "nope", "SHA-256", "ECDSA", "", d), nil)
		}, body(w.a, "nope", "SHA-256", "ECDSA", "", d), 400, "bad-request", "keyLabel names no signing key of the tenant's partition"},
		{"the authorization key as keyLabel", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-p256-ska", "SHA-256", "ECDSA", "", d), nil)
		}, body(w.a, "sign-p256-ska", "SHA-256", "ECDSA", "", d), 400, "bad-request", `keyLabel's key profile has no authorization key (keyLabel + "-ska") in the tenant's partition`},
		{"a key profile without its authorization key", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "no-ska", "SHA-256", "ECDSA", "", d), nil)
		}, body(w.a, "no-ska", "SHA-256", "ECDSA", "", d), 400, "bad-request", `keyLabel's key profile has no authorization key (keyLabel + "-ska") in the tenant's partition`},
		{"a key not fit for the algorithm", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-rsa", "SHA-256", "ECDSA", "", d), nil)
		}, body(w.a, "sign-rsa", "SHA-256", "ECDSA", "", d), 400, "bad-request", "the key is an RSA key; ask for RSA_PKCS1_V1_5 or RSA_PSS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			auth := tt.auth()
			status, raw := post(t, w.url, auth, tt.body)
			is.Equal(status, tt.status) // string(raw)
			var p servertest.Problem
			is.NoErr(json.Unmarshal(raw, &p))
			is.Equal(p.Type, "urn:svc-dss:problem:"+tt.kind)
			is.Equal(p.Detail, tt.detail)
			w.noInternals(t, p.Detail)
		})
	}

	t.Run("replay", func(t *testing.T) {
		is := is.New(t)
		auth := "Bearer " + w.a.token(t, good, nil)
		status, _ := post(t, w.url, auth, good)
		is.Equal(status, 200)
		status, raw := post(t, w.url, auth, good)
		is.Equal(status, 401)
		is.True(strings.Contains(string(raw), "urn:svc-dss:problem:unauthenticated"))
	})

	t.Run("413: declared and undeclared", func(t *testing.T) {
		is := is.New(t)
		big := bytes.Repeat([]byte(" "), 65<<10)
		status, _ := post(t, w.url, "", big) // declared: bytes.Reader sets Content-Length
		is.Equal(status, 413)
		req, _ := http.NewRequest(http.MethodPost, w.url+signPath, io.MultiReader(bytes.NewReader(big))) // chunked
		res, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		res.Body.Close()
		is.Equal(res.StatusCode, 413)
	})
}

// A body the token signed is still read strictly: one JSON object and
// nothing after it, names exactly as spelled, none twice or unknown, and
// digests in strict base64. Each refusal is a 400 with its detail.
func TestSignSKABodyStrict(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	d := digest(crypto.SHA256, "document")
	good := string(body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d))
	b64 := base64.StdEncoding.EncodeToString(d)
	const (
		notObject = "the body is not exactly one JSON object"
		twice     = "the body gives a member name twice"
		unknown   = "the body has a member that is not part of a sign request (names are case-sensitive: tenantId, moduleUuid, keyLabel, hashAlgorithm, signatureAlgorithm, ecdsaEncoding, digests)"
		notBase64 = "digests[0] is not standard base64 (padded, no line breaks, zero padding bits)"
	)
	// The last character before "=" carries two padding bits: "g" has
	// them zero, "h" does not, and a lenient decoder reads both alike.
	if !strings.HasSuffix(b64, "g=") {
		t.Fatalf("the test digest %s does not end in g=", b64)
	}
	tests := []struct {
		name, body, detail string
	}{
		{"a stray ] after the object", good + "]", notObject},
		{"a stray } after the object", good + "}", notObject},
		{"a second object", good + good, notObject},
		{"an array of the request", "[" + good + "]", notObject},
		{"TENANTID for tenantId", strings.Replace(good, `"tenantId"`, `"TENANTID"`, 1), unknown},
		{"TENANTID beside tenantId", strings.Replace(good, "{", `{"TENANTID":"`+tenantB+`",`, 1), unknown},
		{"tenantId twice", strings.Replace(good, "{", `{"tenantId":"`+tenantB+`",`, 1), twice},
		{"keyLabel twice, once escaped", strings.Replace(good, "{", `{"key\u004cabel":"sign-rsa",`, 1), twice},
		{"an unknown member", strings.Replace(good, "{", `{"slot":0,`, 1), unknown},
		{"keyLabel null", strings.Replace(good, `"keyLabel":"sign-p256"`, `"keyLabel":null`, 1), "keyLabel is not a string"},
		{"a digest with a line break", strings.Replace(good, b64, b64[:20]+`\n`+b64[20:], 1), notBase64},
		{"a digest with a trailing CR LF", strings.Replace(good, b64, b64+`\r\n`, 1), notBase64},
		{"a digest with non-zero padding bits", strings.Replace(good, b64, strings.TrimSuffix(b64, "g=")+"h=", 1), notBase64},
		{"a digest without padding", strings.Replace(good, b64, strings.TrimSuffix(b64, "="), 1), notBase64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			b := []byte(tt.body)
			status, raw := post(t, w.url, "Bearer "+w.a.token(t, b, nil), b)
			is.Equal(status, 400) // string(raw)
			var p servertest.Problem
			is.NoErr(json.Unmarshal(raw, &p))
			is.Equal(p.Type, "urn:svc-dss:problem:bad-request")
			is.Equal(p.Detail, tt.detail)
		})
	}
	t.Run("the good body, with white space after it", func(t *testing.T) {
		is := is.New(t)
		b := []byte(good + "\r\n")
		status, _ := post(t, w.url, "Bearer "+w.a.token(t, b, nil), b)
		is.Equal(status, 200)
	})
}

// A tenant's partition that cannot serve is a 400 whose detail says so in
// fixed words: neither the PIN's environment variable nor the partition's
// library, token or type.
func TestSignSKAPartitionDetails(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", digest(crypto.SHA256, "document"))
	tests := []struct {
		name, set, detail string
	}{
		{"PIN from an unset variable", `pin_ref = 'env:SVC_DSS_TEST_NO_SUCH_PIN'`, "the tenant's HSM partition has no usable PIN reference"},
		{"PIN reference of no scheme", `pin_ref = '1234'`, "the tenant's HSM partition has no usable PIN reference"},
		{"partition of another type", `partition_type = 'pkcs11-internal-test'`, "the tenant's HSM partition is not of type pkcs11-ska, the one this service signs on"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := db.Exec(`UPDATE hsm_partitions SET `+tt.set+` WHERE tenant_id = $1`, tenantA)
			is.NoErr(err)
			defer db.Exec(`UPDATE hsm_partitions SET pin_ref = $1, partition_type = 'pkcs11-ska' WHERE tenant_id = $2`, "pin:"+w.tokA.UserPIN(), tenantA)
			status, raw := post(t, w.url, "Bearer "+w.a.token(t, good, nil), good)
			is.Equal(status, 400) // string(raw)
			var p servertest.Problem
			is.NoErr(json.Unmarshal(raw, &p))
			is.Equal(p.Detail, tt.detail)
			w.noInternals(t, p.Detail)
			is.True(!strings.Contains(p.Detail, "SVC_DSS_TEST_NO_SUCH_PIN"))
			is.True(!strings.Contains(p.Detail, "pkcs11-internal-test"))
		})
	}
}

// Infrastructure failures are 502: the control database down, the HSM
// unreachable.
func TestSignSKAInfrastructure(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	d := digest(crypto.SHA256, "document")
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d)

	t.Run("control database down", func(t *testing.T) {
		is := is.New(t)
		down := servertest.Run(t, run, nil, []string{"SERVER_PORT=0", "SVC_DSS_CONTROL_DB_URL=postgres://127.0.0.1:1/x?sslmode=disable&connect_timeout=1"}).URL
		status, raw := post(t, down, "Bearer "+w.a.token(t, good, nil), good)
		is.Equal(status, 502)
		is.True(strings.Contains(string(raw), "urn:svc-dss:problem:infrastructure-failure"))
	})

	t.Run("HSM unavailable", func(t *testing.T) {
		is := is.New(t)
		db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
		is.NoErr(err)
		defer db.Close()
		_, err = db.Exec(`UPDATE hsm_partitions SET token_label = 'no-such-token' WHERE tenant_id = $1`, tenantA)
		is.NoErr(err)
		defer db.Exec(`UPDATE hsm_partitions SET token_label = $1 WHERE tenant_id = $2`, w.tokA.Label(), tenantA)
		status, raw := post(t, w.url, "Bearer "+w.a.token(t, good, nil), good)
		is.Equal(status, 502)
		is.True(strings.Contains(string(raw), "urn:svc-dss:problem:infrastructure-failure"))
	})
	t.Run("HSM slower than the signing timeout", func(t *testing.T) {
		is := is.New(t)
		cfg, err := config.LoadSigner(nil, []string{"SVC_DSS_CONTROL_DB_URL=" + w.admin, "SVC_DSS_SIGNING_TIMEOUT_SECONDS=1"}, io.Discard)
		is.NoErr(err)
		var logs servertest.Buffer
		a, err := signer.New(cfg, slog.New(slog.NewJSONHandler(&logs, nil)), signer.WithHSM(slowHSM{}))
		is.NoErr(err)
		defer a.Close()
		e, err := newServer(a, slog.New(slog.NewJSONHandler(&logs, nil)))
		is.NoErr(err)
		srv := httptest.NewServer(e)
		defer srv.Close()
		status, raw := post(t, srv.URL, "Bearer "+w.a.token(t, good, nil), good)
		is.Equal(status, 502)
		is.True(strings.Contains(string(raw), "urn:svc-dss:problem:infrastructure-failure"))
		// Only the signing timeout sets a deadline on this request: the
		// log shows it is what ended the wait for the HSM.
		is.True(strings.Contains(logs.String(), "context deadline exceeded"))
	})
}

// slowHSM is an HSM port that answers nothing before an hour has passed,
// or its caller gives up.
type slowHSM struct{}

func (slowHSM) wait(ctx context.Context) error {
	select {
	case <-time.After(time.Hour):
		return errors.New("slowHSM: answered after an hour")
	case <-ctx.Done():
		return fmt.Errorf("slowHSM: %w", ctx.Err())
	}
}

func (h slowHSM) PublicKey(ctx context.Context, _ ports.Partition, _ ports.KeyRef) (crypto.PublicKey, error) {
	return nil, h.wait(ctx)
}

func (h slowHSM) Approve(ctx context.Context, _ ports.Partition, _ ports.KeyRef, _ ports.SignOperation) (ports.Approval, error) {
	return ports.Approval{}, h.wait(ctx)
}

func (h slowHSM) Sign(ctx context.Context, _ ports.Partition, _ ports.SignOperation) ([][]byte, error) {
	return nil, h.wait(ctx)
}

// Each sign-ska call leaves one audit record: who, which key and
// algorithm, how many digests and the SHA-256 of their concatenation (not
// the digests), the outcome and the request id.
func TestSignSKAAudit(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t)
	d1, d2 := digest(crypto.SHA256, "one"), digest(crypto.SHA256, "two")
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d1, d2)
	status, _ := post(t, w.url, "Bearer "+w.a.token(t, good, nil), good)
	if status != 200 {
		t.Fatalf("status %d", status)
	}
	foreign := body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d1)
	status, _ = post(t, w.url, "Bearer "+w.a.token(t, foreign, nil), foreign)
	if status != 403 {
		t.Fatalf("status %d", status)
	}
	status, _ = post(t, w.url, "Bearer not-a-token", good)
	if status != 401 {
		t.Fatalf("status %d", status)
	}

	var records []map[string]any
	for _, line := range strings.Split(w.logs.String(), "\n") {
		var r map[string]any
		if json.Unmarshal([]byte(line), &r) == nil && r["msg"] == "sign-ska" {
			records = append(records, r)
		}
	}
	if len(records) != 3 {
		t.Fatalf("%d audit records, want 3:\n%s", len(records), w.logs.String())
	}
	all := sha256.Sum256(append(bytes.Clone(d1), d2...))
	is := is.New(t)
	signed, forbidden, unauthenticated := records[0], records[1], records[2]
	is.Equal(signed["outcome"], "signed")
	is.Equal(signed["tenant"], tenantA)
	is.Equal(signed["module"], moduleA)
	is.Equal(signed["kid"], "proxy-a")
	is.Equal(signed["key"], "sign-p256")
	is.Equal(signed["algorithm"], "ECDSA")
	is.Equal(signed["hash"], "SHA-256")
	is.Equal(signed["digests"], 2.0)
	is.Equal(signed["digests_sha256"], hex.EncodeToString(all[:]))
	id, _ := signed["request_id"].(string)
	is.True(id != "")
	is.Equal(forbidden["outcome"], "forbidden")
	is.Equal(forbidden["tenant"], tenantA) // the token's, not the body's
	is.True(strings.Contains(forbidden["reason"].(string), "not the token's"))
	is.Equal(unauthenticated["outcome"], "unauthenticated")
	is.Equal(unauthenticated["tenant"], nil)
	for _, d := range [][]byte{d1, d2} {
		is.True(!strings.Contains(w.logs.String(), base64.StdEncoding.EncodeToString(d)))
		is.True(!strings.Contains(w.logs.String(), hex.EncodeToString(d)))
	}
}
