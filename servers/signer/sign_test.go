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
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/fixtures/pgtest"
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
	now := time.Now()
	claims := map[string]any{
		"iss": p.module, "aud": signjwt.Audience, "jti": fmt.Sprintf("%d-%d", now.UnixNano(), randUint()),
		"iat": now.Unix(), "exp": now.Add(2 * time.Minute).Unix(),
		signjwt.ClaimTenant: p.tenant, signjwt.ClaimModule: p.module, signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	}
	if mod != nil {
		mod(claims)
	}
	return signES256(t, p.key, p.kid, claims)
}

func randUint() uint64 {
	var b [8]byte
	rand.Read(b[:])
	return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 | uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
}

func signES256(t testing.TB, key *ecdsa.PrivateKey, kid string, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", kid)
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, opts)
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

func newSignWorld(t testing.TB) *signWorld {
	t.Helper()
	w := &signWorld{admin: pgtest.NewDatabaseURL(t), pubs: map[string]crypto.PublicKey{}, pairs: map[string]softhsm.KeyPair{}}
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := postgres.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Seed(ctx, db); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := db.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Tenant A's partition: a SoftHSM2 token with RSA and P-256 signing
	// keys, each with its authorization key.
	w.tokA = softhsm.New(t)
	for _, k := range []struct {
		label string
		rsa   bool
	}{{"sign-rsa", true}, {"sign-rsa-ska", false}, {"sign-p256", false}, {"sign-p256-ska", false}, {"no-ska", false}} {
		var kp softhsm.KeyPair
		if k.rsa {
			kp, err = w.tokA.GenerateRSAKey(k.label, []byte(k.label), 2048)
		} else {
			kp, err = w.tokA.GenerateECKey(k.label, []byte(k.label))
		}
		if err != nil {
			t.Fatal(err)
		}
		if w.pubs[k.label], err = w.tokA.PublicKey(kp.Public); err != nil {
			t.Fatal(err)
		}
		w.pairs[k.label] = kp
	}
	exec(`UPDATE hsm_partitions SET pkcs11_module = $1, token_label = $2, slot = NULL, user_name = 'user', pin_ref = $3 WHERE tenant_id = $4`,
		w.tokA.ModulePath(), w.tokA.Label(), "pin:"+w.tokA.UserPIN(), tenantA)
	// Proxies: A on its module; A2 on a second module of A; B (licensed
	// for validation only); C (licensed dss, no dss.sign permission).
	exec(`INSERT INTO dss_modules (id, tenant_id, name, enabled) VALUES ($1, $2, 'second', true), ($3, $4, 'b', true), ($5, $6, 'c', true)`,
		moduleA2, tenantA, moduleB, tenantB, moduleC, tenantC)
	exec(`INSERT INTO tenant_features (tenant_id, feature) VALUES ($1, 'dss')`, tenantC)
	w.a = w.register(t, exec, tenantA, moduleA, "proxy-a")
	w.a2 = w.register(t, exec, tenantA, moduleA2, "proxy-a2")
	w.b = w.register(t, exec, tenantB, moduleB, "proxy-b")
	w.c = w.register(t, exec, tenantC, moduleC, "proxy-c")
	srv := servertest.Run(t, run, nil, []string{"SERVER_PORT=0", "SVC_DSS_CONTROL_DB_URL=" + w.admin})
	w.url, w.logs = srv.URL, srv.Logs
	return w
}

// register makes a proxy key and records it in the control database.
func (w *signWorld) register(t testing.TB, exec func(string, ...any), tenant, module, kid string) proxy {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	spki, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pemKey := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki})
	exec(`INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key, enabled) VALUES ($1, $2, $3, 'ES256', $4, true)`, tenant, kid, module, string(pemKey))
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
	tests := []struct {
		name   string
		auth   func() string
		body   []byte
		status int
		kind   string
	}{
		{"no header", func() string { return "" }, good, 401, "unauthenticated"},
		{"malformed header", func() string { return "Bearer not.a.jwt" }, good, 401, "unauthenticated"},
		{"bad signature", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-a", key: other}.token(t, good, nil)
		}, good, 401, "unauthenticated"},
		{"expired", func() string {
			return "Bearer " + w.a.token(t, good, func(c map[string]any) {
				c["iat"], c["exp"] = now.Add(-10*time.Minute).Unix(), now.Add(-8*time.Minute).Unix()
			})
		}, good, 401, "unauthenticated"},
		{"future", func() string {
			return "Bearer " + w.a.token(t, good, func(c map[string]any) {
				c["nbf"], c["exp"] = now.Add(3*time.Minute).Unix(), now.Add(4*time.Minute).Unix()
			})
		}, good, 401, "unauthenticated"},
		{"bad claims: audience", func() string {
			return "Bearer " + w.a.token(t, good, func(c map[string]any) { c["aud"] = "urn:svc-dss:validator" })
		}, good, 401, "unauthenticated"},
		{"unknown kid", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-zz", key: w.a.key}.token(t, good, nil)
		}, good, 401, "unauthenticated"},
		{"token over another body", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-p256", "SHA-256", "ECDSA", "", digest(crypto.SHA256, "other")), nil)
		}, good, 401, "unauthenticated"},
		{"tenant mismatch", func() string { return "Bearer " + w.a.token(t, body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d), nil) },
			body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden"},
		{"module mismatch", func() string {
			return "Bearer " + w.a.token(t, body(w.a2, "sign-p256", "SHA-256", "ECDSA", "", d), nil)
		},
			body(w.a2, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden"},
		{"key of another module", func() string {
			return "Bearer " + proxy{tenant: tenantA, module: moduleA, kid: "proxy-a2", key: w.a2.key}.token(t, good, nil)
		}, good, 403, "forbidden"},
		{"no license (tenant B: validation only)", func() string {
			b := body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d)
			return "Bearer " + w.b.token(t, b, nil)
		}, body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden"},
		{"no permission (tenant C: dss without dss.sign)", func() string {
			b := body(w.c, "sign-p256", "SHA-256", "ECDSA", "", d)
			return "Bearer " + w.c.token(t, b, nil)
		}, body(w.c, "sign-p256", "SHA-256", "ECDSA", "", d), 403, "forbidden"},
		{"bad body", func() string { return "Bearer " + w.a.token(t, []byte("{not json"), nil) }, []byte("{not json"), 400, "bad-request"},
		{"wrong digest length", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d[:20]), nil)
		}, body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d[:20]), 400, "bad-request"},
		{"unknown algorithm", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "sign-rsa", "SHA-256", "RSA_RAW", "", d), nil)
		}, body(w.a, "sign-rsa", "SHA-256", "RSA_RAW", "", d), 400, "bad-request"},
		{"no such key in the partition", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "nope", "SHA-256", "ECDSA", "", d), nil)
		}, body(w.a, "nope", "SHA-256", "ECDSA", "", d), 400, "bad-request"},
		{"a key profile without its authorization key", func() string {
			return "Bearer " + w.a.token(t, body(w.a, "no-ska", "SHA-256", "ECDSA", "", d), nil)
		}, body(w.a, "no-ska", "SHA-256", "ECDSA", "", d), 400, "bad-request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			auth := tt.auth()
			status, raw := post(t, w.url, auth, tt.body)
			is.Equal(status, tt.status) // string(raw)
			is.True(strings.Contains(string(raw), `"type":"urn:svc-dss:problem:`+tt.kind))
			if tok := strings.TrimPrefix(auth, "Bearer "); len(tok) > 20 {
				is.True(!strings.Contains(string(raw), tok)) // never echoed
			}
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
		a, err := app.NewSigner(cfg, slog.New(slog.NewJSONHandler(&logs, nil)), app.WithHSM(slowHSM{}))
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
