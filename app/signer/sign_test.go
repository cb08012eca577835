package signer_test

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
	"io"
	"log/slog"
	"math/big"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/adapters/memcontrol"
	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/fixtures/softhsm"
	"github.com/svc-dss/dss/ports"
)

// The tenants of the signing tests. Each refused one lacks exactly one
// thing tenant A has; the others hold a dss licence, the dss.sign
// permission and a usable partition, so that nothing else refuses them.
const (
	signTenantA           = "11111111-1111-4111-8111-111111111111" // signs
	signTenantNoLicence   = "22222222-2222-4222-8222-222222222222" // dss.validator, not dss
	signTenantNoPerm      = "33333333-3333-4333-8333-333333333333" // no dss.sign
	signTenantExpired     = "44444444-4444-4444-8444-444444444444" // dss expired an hour ago
	signTenantFuture      = "55555555-5555-4555-8555-555555555555" // dss valid in an hour
	signTenantNoPartition = "66666666-6666-4666-8666-666666666666" // no HSM partition
	signTenantOtherType   = "77777777-7777-4777-8777-777777777777" // a partition of another type
	signTenantNoPIN       = "88888888-8888-4888-8888-888888888888" // a PIN reference to an unset variable
	signTenantDisabled    = "dddddddd-dddd-4ddd-8ddd-dddddddddddd" // disabled, otherwise as A
	signTenantUnknown     = "99999999-9999-4999-8999-999999999999" // not in the control data

	signModuleA  = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
	signModuleA2 = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2"
)

// featureValidator is the validation service's license
// (validator.FeatureValidator): it grants no signing.
const featureValidator = "dss.validator"

// A signProxy is a tenant's signing proxy: its key, registered (or not)
// for (tenant, module, kid).
type signProxy struct {
	tenant, module, kid string
	key                 *ecdsa.PrivateKey
}

func newSignProxy(t testing.TB, tenant, module, kid string) signProxy {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return signProxy{tenant: tenant, module: module, kid: kid, key: key}
}

// registered is the proxy's key as the control data holds it.
func (p signProxy) registered(t testing.TB) memcontrol.Key {
	t.Helper()
	spki, err := x509.MarshalPKIXPublicKey(&p.key.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return memcontrol.Key{Kid: p.kid, Module: p.module, Algorithm: "ES256", PublicKey: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: spki}))}
}

// auth is the Authorization header of the proxy's self-issued JWT over
// body.
func (p signProxy) auth(t testing.TB, body []byte) string {
	t.Helper()
	now := time.Now()
	var jti [16]byte
	_, _ = rand.Read(jti[:])
	payload, err := json.Marshal(map[string]any{
		"iss": p.module, "aud": signjwt.Audience, "jti": hex.EncodeToString(jti[:]),
		"iat": now.Unix(), "exp": now.Add(2 * time.Minute).Unix(),
		signjwt.ClaimTenant: p.tenant, signjwt.ClaimModule: p.module, signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	})
	if err != nil {
		t.Fatal(err)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: p.key}, (&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", p.kid))
	if err != nil {
		t.Fatal(err)
	}
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatal(err)
	}
	token, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return "Bearer " + token
}

// body is a sign request of proxy p.
func (p signProxy) body(key, hash, alg, enc string, digests ...[]byte) []byte {
	ds := []string{}
	for _, d := range digests {
		ds = append(ds, base64.StdEncoding.EncodeToString(d))
	}
	req := map[string]any{"tenantId": p.tenant, "moduleUuid": p.module, "keyLabel": key, "hashAlgorithm": hash, "signatureAlgorithm": alg, "digests": ds}
	if enc != "" {
		req["ecdsaEncoding"] = enc
	}
	b, _ := json.Marshal(req)
	return b
}

func sum(h crypto.Hash, s string) []byte {
	x := h.New()
	x.Write([]byte(s))
	return x.Sum(nil)
}

// recordingHSM is the PKCS#11 adapter with a record of the operations
// asked of it.
type recordingHSM struct {
	ports.HSM
	mu  sync.Mutex
	ops []string
}

func (h *recordingHSM) note(op string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ops = append(h.ops, op)
}

// take returns the operations since the last take.
func (h *recordingHSM) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ops := h.ops
	h.ops = nil
	return ops
}

func (h *recordingHSM) PublicKey(ctx context.Context, p ports.Partition, key ports.KeyRef) (crypto.PublicKey, error) {
	h.note("PublicKey")
	return h.HSM.PublicKey(ctx, p, key)
}

func (h *recordingHSM) Approve(ctx context.Context, p ports.Partition, authKey ports.KeyRef, op ports.SignOperation) (ports.Approval, error) {
	h.note("Approve")
	return h.HSM.Approve(ctx, p, authKey, op)
}

func (h *recordingHSM) Sign(ctx context.Context, p ports.Partition, op ports.SignOperation) ([][]byte, error) {
	h.note("Sign")
	return h.HSM.Sign(ctx, p, op)
}

// A signWorld is a Signer on in-memory control data and a SoftHSM2 token
// that every provisioned tenant's partition names.
type signWorld struct {
	signer *signer.Signer
	hsm    *recordingHSM
	logs   *lockedBuffer
	pubs   map[string]crypto.PublicKey // the token's public keys, by label
	// The proxies: a (tenant A, module A), a2 (tenant A, module A2),
	// revoked (tenant A, disabled key), one for each refused tenant, and
	// stranger, of a tenant the control data does not hold.
	a, a2, revoked                                              signProxy
	noLicence, noPerm, expired, future                          signProxy
	noPartition, otherType, noPIN, disabled, stranger, unlisted signProxy
}

// lockedBuffer is a log sink safe for concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

// lastRecord is the last sign-ska audit record logged.
func (b *lockedBuffer) lastRecord(t testing.TB) map[string]any {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	var last map[string]any
	for _, line := range strings.Split(b.b.String(), "\n") {
		var r map[string]any
		if json.Unmarshal([]byte(line), &r) == nil && r["msg"] == "sign-ska" {
			last = r
		}
	}
	if last == nil {
		t.Fatal("no sign-ska audit record")
	}
	return last
}

// newSignWorld builds the world; wrap, when not nil, stands between the
// Signer and the control data.
func newSignWorld(t testing.TB, wrap func(signer.SignControl) signer.SignControl) *signWorld {
	t.Helper()
	tok := softhsm.New(t)
	w := &signWorld{pubs: map[string]crypto.PublicKey{}, logs: &lockedBuffer{}}
	for _, k := range []struct {
		label string
		rsa   bool
	}{{"sign-rsa", true}, {"sign-rsa-ska", false}, {"sign-p256", false}, {"sign-p256-ska", false}, {"no-ska", false}} {
		var (
			kp  softhsm.KeyPair
			err error
		)
		if k.rsa {
			kp, err = tok.GenerateRSAKey(k.label, []byte(k.label), 2048)
		} else {
			kp, err = tok.GenerateECKey(k.label, []byte(k.label))
		}
		if err != nil {
			t.Fatal(err)
		}
		if w.pubs[k.label], err = tok.PublicKey(kp.Public); err != nil {
			t.Fatal(err)
		}
	}
	partition := func(typ, pinRef string) *ports.PartitionRegistration {
		return &ports.PartitionRegistration{Type: typ, Library: tok.ModulePath(), TokenLabel: tok.Label(), User: "user", PINRef: pinRef}
	}
	good := partition(signer.PartitionType, "pin:"+tok.UserPIN())
	dss := []memcontrol.License{{Feature: signer.FeatureSigner}}
	sign := []string{signer.PermissionSign}
	// tenant is a tenant holding what A holds, with one proxy of its own
	// on a module of its own, changed by change.
	moduleOf := func(tenant string) string { return "eeeeeeee-eeee-4eee-8eee-" + tenant[24:] }
	tenant := func(id string, change func(*memcontrol.Tenant)) (memcontrol.Tenant, signProxy) {
		p := newSignProxy(t, id, moduleOf(id), "proxy-"+id[:8])
		m := memcontrol.Tenant{ID: id, Licenses: dss, Permissions: sign, Modules: []memcontrol.Module{{ID: p.module}},
			Keys: []memcontrol.Key{p.registered(t)}, Partition: good}
		if change != nil {
			change(&m)
		}
		return m, p
	}
	w.a = newSignProxy(t, signTenantA, signModuleA, "proxy-a")
	w.a2 = newSignProxy(t, signTenantA, signModuleA2, "proxy-a2")
	w.revoked = newSignProxy(t, signTenantA, signModuleA, "proxy-a-revoked")
	revoked := w.revoked.registered(t)
	revoked.Disabled = true
	tenants := []memcontrol.Tenant{{
		ID: signTenantA, Licenses: append(slices.Clone(dss), memcontrol.License{Feature: featureValidator}), Permissions: sign,
		Modules:   []memcontrol.Module{{ID: signModuleA}, {ID: signModuleA2}},
		Keys:      []memcontrol.Key{w.a.registered(t), w.a2.registered(t), revoked},
		Partition: good,
	}}
	now := time.Now()
	for _, r := range []struct {
		id     string
		proxy  *signProxy
		change func(*memcontrol.Tenant)
	}{
		{signTenantNoLicence, &w.noLicence, func(m *memcontrol.Tenant) { m.Licenses = []memcontrol.License{{Feature: featureValidator}} }},
		{signTenantNoPerm, &w.noPerm, func(m *memcontrol.Tenant) { m.Permissions = []string{"dss.audit"} }},
		{signTenantExpired, &w.expired, func(m *memcontrol.Tenant) {
			m.Licenses = []memcontrol.License{{Feature: signer.FeatureSigner, From: now.Add(-48 * time.Hour), Until: now.Add(-time.Hour)}}
		}},
		{signTenantFuture, &w.future, func(m *memcontrol.Tenant) {
			m.Licenses = []memcontrol.License{{Feature: signer.FeatureSigner, From: now.Add(time.Hour)}}
		}},
		{signTenantNoPartition, &w.noPartition, func(m *memcontrol.Tenant) { m.Partition = nil }},
		{signTenantOtherType, &w.otherType, func(m *memcontrol.Tenant) { m.Partition = partition("pkcs11-internal-test", "pin:"+tok.UserPIN()) }},
		{signTenantNoPIN, &w.noPIN, func(m *memcontrol.Tenant) {
			m.Partition = partition(signer.PartitionType, "env:SVC_DSS_TEST_NO_SUCH_PIN")
		}},
		{signTenantDisabled, &w.disabled, func(m *memcontrol.Tenant) { m.Disabled = true }},
	} {
		m, p := tenant(r.id, r.change)
		tenants = append(tenants, m)
		*r.proxy = p
	}
	// A stranger's tenant is not in the control data at all; an unlisted
	// proxy of tenant A never registered its key.
	w.stranger = newSignProxy(t, signTenantUnknown, moduleOf(signTenantUnknown), "proxy-stranger")
	w.unlisted = newSignProxy(t, signTenantA, signModuleA, "proxy-unlisted")

	control, err := memcontrol.New(tenants...)
	if err != nil {
		t.Fatal(err)
	}
	var sc signer.SignControl = control
	if wrap != nil {
		sc = wrap(control)
	}
	cfg, err := config.LoadSigner(nil, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	// The adapter the signer builds itself, recorded: the authorization
	// key of a key profile is its label with "-ska".
	w.hsm = &recordingHSM{HSM: hsm.New(hsm.Options{Timeout: cfg.SigningTimeout,
		AuthorizationKey: func(_ context.Context, _ ports.Partition, k ports.KeyRef) (ports.KeyRef, error) {
			return ports.KeyRef{Label: k.Label + "-ska"}, nil
		}})}
	w.signer, err = signer.New(cfg, slog.New(slog.NewJSONHandler(w.logs, nil)), signer.WithControl(sc), signer.WithHSM(w.hsm))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.signer.Close() })
	return w
}

// Every algorithm signs on tenant A's partition, and each signature
// verifies with the key's public half.
func TestSignSigns(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t, nil)
	d256, d384 := sum(crypto.SHA256, "document"), sum(crypto.SHA384, "document")
	tests := []struct {
		name, key, hash, alg, enc string
		digests                   [][]byte
		h                         crypto.Hash
		oid                       string
	}{
		{"ECDSA P-256, DER", "sign-p256", "SHA-256", "ECDSA", "", [][]byte{d256}, crypto.SHA256, "1.2.840.10045.4.3.2"},
		{"ECDSA P-256, r||s", "sign-p256", "SHA-256", "ECDSA", "RAW", [][]byte{d256}, crypto.SHA256, "1.2.840.10045.4.3.2"},
		{"RSA PKCS#1 v1.5, SHA-256", "sign-rsa", "SHA-256", "RSA_PKCS1_V1_5", "", [][]byte{d256}, crypto.SHA256, "1.2.840.113549.1.1.11"},
		{"RSA PKCS#1 v1.5, SHA-384", "sign-rsa", "SHA-384", "RSA_PKCS1_V1_5", "", [][]byte{d384}, crypto.SHA384, "1.2.840.113549.1.1.12"},
		{"RSA-PSS, SHA-256", "sign-rsa", "SHA-256", "RSA_PSS", "", [][]byte{d256}, crypto.SHA256, "1.2.840.113549.1.1.10"},
		{"a batch of three, in order", "sign-p256", "SHA-256", "ECDSA", "DER",
			[][]byte{d256, sum(crypto.SHA256, "b"), sum(crypto.SHA256, "c")}, crypto.SHA256, "1.2.840.10045.4.3.2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := w.a.body(tt.key, tt.hash, tt.alg, tt.enc, tt.digests...)
			res, err := w.signer.Sign(context.Background(), w.a.auth(t, b), b)
			if err != nil {
				t.Fatalf("Sign: %v", err)
			}
			pub := w.pubs[tt.key]
			spki, _ := x509.MarshalPKIXPublicKey(pub)
			fp := sha256.Sum256(spki)
			if res.KeyLabel != tt.key || res.PublicKeySHA256 != hex.EncodeToString(fp[:]) || res.HashAlgorithm != tt.hash ||
				res.SignatureAlgorithm != tt.alg || res.AlgorithmOID != tt.oid {
				t.Fatalf("result %+v", res)
			}
			if res.Identity.Tenant != signTenantA || res.Identity.Module != signModuleA || res.Identity.Kid != "proxy-a" || res.Identity.JTI == "" {
				t.Fatalf("identity %+v", res.Identity)
			}
			if len(res.Signatures) != len(tt.digests) {
				t.Fatalf("%d signatures for %d digests", len(res.Signatures), len(tt.digests))
			}
			for i, sig := range res.Signatures {
				var ok bool
				switch tt.alg {
				case "ECDSA":
					if tt.enc == "RAW" {
						if len(sig) != 64 {
							t.Fatalf("r||s of %d bytes", len(sig))
						}
						sig = rawToDER(t, sig)
					}
					ok = ecdsa.VerifyASN1(pub.(*ecdsa.PublicKey), tt.digests[i], sig)
				case "RSA_PKCS1_V1_5":
					ok = rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), tt.h, tt.digests[i], sig) == nil
				case "RSA_PSS":
					ok = rsa.VerifyPSS(pub.(*rsa.PublicKey), tt.h, tt.digests[i], sig, &rsa.PSSOptions{SaltLength: tt.h.Size(), Hash: tt.h}) == nil
					ok = ok && res.PSS != nil && res.PSS.SaltLength == tt.h.Size()
				}
				if !ok {
					t.Fatalf("signature %d does not verify", i)
				}
			}
		})
	}
	t.Run("tenant and module in upper case", func(t *testing.T) {
		t.Parallel()
		p := w.a
		p.tenant, p.module = strings.ToUpper(p.tenant), strings.ToUpper(p.module)
		b := p.body("sign-p256", "SHA-256", "ECDSA", "", d256)
		res, err := w.signer.Sign(context.Background(), p.auth(t, b), b)
		if err != nil {
			t.Fatalf("Sign: %v", err)
		}
		if res.Identity.Tenant != signTenantA || !ecdsa.VerifyASN1(w.pubs["sign-p256"].(*ecdsa.PublicKey), d256, res.Signatures[0]) {
			t.Fatalf("result %+v", res)
		}
	})
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

// Each refusal of the signing use case is a *RefusalError of its kind
// (401, 403 or 400) with its fixed detail, it is audited with its outcome,
// and the HSM is asked nothing it need not be: a refusal for who the
// caller is or what the tenant holds comes before any HSM operation, and
// no refusal reaches Sign.
func TestSignRefusals(t *testing.T) {
	t.Parallel()
	w := newSignWorld(t, nil)
	d := sum(crypto.SHA256, "document")
	good := func(p signProxy) []byte { return p.body("sign-p256", "SHA-256", "ECDSA", "", d) }
	const (
		badSignature = signjwt.ReasonSignature
		notTheTokens = "the body's tenantId and moduleUuid are not the token's"
		noKey        = "keyLabel names no signing key of the tenant's partition"
		noApproval   = `keyLabel's key profile has no authorization key (keyLabel + "-ska") in the tenant's partition`
	)
	type request struct{ auth, body []byte }
	signed := func(p signProxy, b []byte) request { return request{[]byte(p.auth(t, b)), b} }
	tests := []struct {
		name    string
		req     request
		kind    error
		outcome string
		detail  string
		hsm     []string // the HSM operations asked for
	}{
		// Who the caller is (the token and the client keys: 401, 403).
		{"no Authorization header", request{nil, good(w.a)}, signer.ErrSignUnauthenticated, "unauthenticated", "no Authorization header", nil},
		{"unknown tenant", signed(w.stranger, good(w.stranger)), signer.ErrSignUnauthenticated, "unauthenticated", badSignature, nil},
		{"disabled tenant", signed(w.disabled, good(w.disabled)), signer.ErrSignUnauthenticated, "unauthenticated", badSignature, nil},
		{"unknown key", signed(w.unlisted, good(w.unlisted)), signer.ErrSignUnauthenticated, "unauthenticated", badSignature, nil},
		{"revoked key", signed(w.revoked, good(w.revoked)), signer.ErrSignUnauthenticated, "unauthenticated", badSignature, nil},
		{"token signed by another key than the kid's", signed(signProxy{tenant: signTenantA, module: signModuleA, kid: "proxy-a", key: w.a2.key}, good(w.a)),
			signer.ErrSignUnauthenticated, "unauthenticated", badSignature, nil},
		{"key of another module than the token claims", signed(signProxy{tenant: signTenantA, module: signModuleA, kid: "proxy-a2", key: w.a2.key}, good(w.a)),
			signer.ErrSignForbidden, "forbidden", "the token's key is registered for another module than its module claim", nil},
		{"body of another tenant", signed(w.a, good(w.noLicence)), signer.ErrSignForbidden, "forbidden", notTheTokens, nil},
		{"body of another module", signed(w.a, good(w.a2)), signer.ErrSignForbidden, "forbidden", notTheTokens, nil},
		// What the tenant holds (licences and permissions: 403).
		{"no licence", signed(w.noLicence, good(w.noLicence)), signer.ErrSignForbidden, "forbidden", "the tenant does not hold the dss license", nil},
		{"expired licence", signed(w.expired, good(w.expired)), signer.ErrSignForbidden, "forbidden", "the tenant does not hold the dss license", nil},
		{"licence not yet valid", signed(w.future, good(w.future)), signer.ErrSignForbidden, "forbidden", "the tenant does not hold the dss license", nil},
		{"no permission", signed(w.noPerm, good(w.noPerm)), signer.ErrSignForbidden, "forbidden", "the tenant does not hold the dss.sign permission", nil},
		// The tenant's partition (400).
		{"no partition", signed(w.noPartition, good(w.noPartition)), signer.ErrSignBadRequest, "bad-request", "the tenant has no HSM partition", nil},
		{"partition of another type", signed(w.otherType, good(w.otherType)), signer.ErrSignBadRequest, "bad-request",
			"the tenant's HSM partition is not of type pkcs11-ska, the one this service signs on", nil},
		{"partition PIN from an unset variable", signed(w.noPIN, good(w.noPIN)), signer.ErrSignBadRequest, "bad-request",
			"the tenant's HSM partition has no usable PIN reference", nil},
		// What the request asks (400).
		{"body that is no request", signed(w.a, []byte("{not json")), signer.ErrSignBadRequest, "bad-request", "the body is not exactly one JSON object", nil},
		{"unknown algorithm", signed(w.a, w.a.body("sign-rsa", "SHA-256", "RSA_RAW", "", d)), signer.ErrSignBadRequest, "bad-request",
			`signatureAlgorithm "RSA_RAW" is not one of RSA_PKCS1_V1_5, RSA_PSS, ECDSA`, nil},
		{"no such key in the partition", signed(w.a, w.a.body("nope", "SHA-256", "ECDSA", "", d)), signer.ErrSignBadRequest, "bad-request", noKey, []string{"PublicKey"}},
		{"a key not fit for the algorithm", signed(w.a, w.a.body("sign-rsa", "SHA-256", "ECDSA", "", d)), signer.ErrSignBadRequest, "bad-request",
			"the key is an RSA key; ask for RSA_PKCS1_V1_5 or RSA_PSS", []string{"PublicKey"}},
		{"a key profile without its authorization key", signed(w.a, w.a.body("no-ska", "SHA-256", "ECDSA", "", d)), signer.ErrSignBadRequest, "bad-request",
			noApproval, []string{"PublicKey", "Approve"}},
		{"the authorization key as keyLabel", signed(w.a, w.a.body("sign-p256-ska", "SHA-256", "ECDSA", "", d)), signer.ErrSignBadRequest, "bad-request",
			noApproval, []string{"PublicKey", "Approve"}},
	}
	// Sequential: the HSM's record is the world's.
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w.hsm.take()
			res, err := w.signer.Sign(context.Background(), string(tt.req.auth), tt.req.body)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("err = %v; want %v", err, tt.kind)
			}
			r, ok := errors.AsType[*signer.RefusalError](err)
			if !ok {
				t.Fatalf("err = %v (%T); want a *signer.RefusalError", err, err)
			}
			if r.Kind != tt.kind || r.Detail != tt.detail {
				t.Fatalf("refusal %q, %q; want %q, %q", r.Kind, r.Detail, tt.kind, tt.detail)
			}
			if errors.Is(err, signer.ErrSignUnavailable) {
				t.Fatalf("a refusal is also an outage: %v", err)
			}
			if len(res.Signatures) != 0 {
				t.Fatal("a refused request has signatures")
			}
			if ops := w.hsm.take(); !slices.Equal(ops, tt.hsm) {
				t.Fatalf("HSM operations %v; want %v", ops, tt.hsm)
			}
			if got := w.logs.lastRecord(t)["outcome"]; got != tt.outcome {
				t.Fatalf("audit outcome %v; want %s", got, tt.outcome)
			}
		})
	}

	t.Run("the same token twice", func(t *testing.T) {
		b := good(w.a)
		auth := w.a.auth(t, b)
		if _, err := w.signer.Sign(context.Background(), auth, b); err != nil {
			t.Fatalf("first: %v", err)
		}
		_, err := w.signer.Sign(context.Background(), auth, b)
		r, ok := errors.AsType[*signer.RefusalError](err)
		if !ok || r.Kind != signer.ErrSignUnauthenticated || r.Detail != "the token's jti was used before" {
			t.Fatalf("second: %v", err)
		}
	})
}

// failingControl is control data whose one lookup named fail does not
// answer.
type failingControl struct {
	signer.SignControl
	fail string
}

var errControlDown = errors.New("test: the control data does not answer")

func (c failingControl) ClientKey(ctx context.Context, tenant, kid string) (ports.ClientKey, error) {
	if c.fail == "ClientKey" {
		return ports.ClientKey{}, errControlDown
	}
	return c.SignControl.ClientKey(ctx, tenant, kid)
}

func (c failingControl) HasFeature(ctx context.Context, tenant, feature string, at time.Time) (bool, error) {
	if c.fail == "HasFeature" {
		return false, errControlDown
	}
	return c.SignControl.HasFeature(ctx, tenant, feature, at)
}

func (c failingControl) HasPermission(ctx context.Context, tenant, permission string) (bool, error) {
	if c.fail == "HasPermission" {
		return false, errControlDown
	}
	return c.SignControl.HasPermission(ctx, tenant, permission)
}

func (c failingControl) Partition(ctx context.Context, tenant string) (ports.PartitionRegistration, error) {
	if c.fail == "Partition" {
		return ports.PartitionRegistration{}, errControlDown
	}
	return c.SignControl.Partition(ctx, tenant)
}

// A control-data lookup that fails is an outage (502), never a refusal
// of the caller, whichever lookup it is; the HSM is not asked.
func TestSignControlOutage(t *testing.T) {
	t.Parallel()
	for _, lookup := range []string{"ClientKey", "HasFeature", "HasPermission", "Partition"} {
		t.Run(lookup, func(t *testing.T) {
			t.Parallel()
			w := newSignWorld(t, func(c signer.SignControl) signer.SignControl { return failingControl{c, lookup} })
			b := w.a.body("sign-p256", "SHA-256", "ECDSA", "", sum(crypto.SHA256, "document"))
			_, err := w.signer.Sign(context.Background(), w.a.auth(t, b), b)
			if !errors.Is(err, signer.ErrSignUnavailable) || !errors.Is(err, errControlDown) {
				t.Fatalf("err = %v; want ErrSignUnavailable wrapping the lookup's error", err)
			}
			if _, ok := errors.AsType[*signer.RefusalError](err); ok {
				t.Fatalf("an outage is a refusal: %v", err)
			}
			if ops := w.hsm.take(); len(ops) != 0 {
				t.Fatalf("HSM operations %v", ops)
			}
			if got := w.logs.lastRecord(t)["outcome"]; got != "failed" {
				t.Fatalf("audit outcome %v", got)
			}
		})
	}
}

// Without control data, signing is unavailable (503) and says so before
// reading anything.
func TestSignWithoutControl(t *testing.T) {
	t.Parallel()
	cfg, err := config.LoadSigner(nil, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	s, err := signer.New(cfg, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !errors.Is(s.Available(), signer.ErrNoControlDatabase) {
		t.Fatalf("Available = %v", s.Available())
	}
	if _, err := s.Sign(context.Background(), "Bearer x", []byte("{}")); !errors.Is(err, signer.ErrNoControlDatabase) {
		t.Fatalf("Sign: %v", err)
	}
	if !strings.Contains(logs.String(), "answers 503") {
		t.Fatalf("no start-up warning:\n%s", logs.String())
	}

	// With control data, signing is available and the warning is not
	// given.
	logs.Reset()
	c, err := memcontrol.New()
	if err != nil {
		t.Fatal(err)
	}
	s2, err := signer.New(cfg, slog.New(slog.NewTextHandler(&logs, nil)), signer.WithControl(c))
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if err := s2.Available(); err != nil {
		t.Fatalf("Available = %v", err)
	}
	if strings.Contains(logs.String(), "answers 503") {
		t.Fatalf("a warning of no control data:\n%s", logs.String())
	}
	_, err = s2.Sign(context.Background(), "", []byte("{}"))
	if r, ok := errors.AsType[*signer.RefusalError](err); !ok || r.Kind != signer.ErrSignUnauthenticated {
		t.Fatalf("Sign: %v", err)
	}
}
