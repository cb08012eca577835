package signing

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
)

const (
	tenant = "11111111-1111-4111-8111-111111111111"
	module = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
)

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func request(mod func(*Request)) Request {
	d := sha256.Sum256([]byte("document"))
	r := Request{TenantID: tenant, ModuleUUID: module, KeyLabel: "sign-p256", HashAlgorithm: "SHA-256", SignatureAlgorithm: "ECDSA", Digests: []string{b64(d[:])}}
	if mod != nil {
		mod(&r)
	}
	return r
}

func TestCheck(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	j, err := Check(request(nil))
	is.NoErr(err)
	_, err = Check(request(func(r *Request) { r.ModuleUUID, r.KeyLabel = strings.ToUpper(module), "a.b_C-9" }))
	is.NoErr(err)                     // upper-case hexadecimal; every label character
	is.Equal(j.Encoding, EncodingDER) // the default
	is.Equal(j.Hash, crypto.SHA256)

	d384 := sha512.Sum384([]byte("document"))
	tests := []struct {
		name string
		mod  func(*Request)
		why  string
	}{
		{"tenant not a UUID", func(r *Request) { r.TenantID = "tenant-a" }, "tenantId must be a UUID"},
		{"module not a UUID", func(r *Request) { r.ModuleUUID = "" }, "moduleUuid must be a UUID"},
		{"tenant UUID with a dash moved", func(r *Request) { r.TenantID = "0123456-78901-2345-6789-0123456789ab" }, "tenantId must be a UUID"},
		{"tenant UUID not hexadecimal", func(r *Request) { r.TenantID = "0123456g-7890-1234-5678-90123456789a" }, "tenantId must be a UUID"},
		{"tenant UUID one digit long", func(r *Request) { r.TenantID = "01234567-8901-2345-6789-0123456789abc" }, "tenantId must be a UUID"},
		{"no key label", func(r *Request) { r.KeyLabel = "" }, "keyLabel"},
		{"key label of 65 characters", func(r *Request) { r.KeyLabel = strings.Repeat("k", 65) }, "keyLabel"},
		{"key label beyond ASCII", func(r *Request) { r.KeyLabel = "clé" }, "keyLabel"},
		{"key label with a slash", func(r *Request) { r.KeyLabel = "../x" }, "keyLabel"},
		{"SHA-1", func(r *Request) { r.HashAlgorithm = "SHA-1" }, `hashAlgorithm "SHA-1" is not one of`},
		{"raw RSA", func(r *Request) { r.SignatureAlgorithm = "RSA_RAW" }, `signatureAlgorithm "RSA_RAW" is not one of`},
		{"encoding for RSA", func(r *Request) { r.SignatureAlgorithm, r.ECDSAEncoding = "RSA_PSS", "RAW" }, "ecdsaEncoding applies to ECDSA only"},
		{"unknown encoding", func(r *Request) { r.ECDSAEncoding = "P1363" }, `ecdsaEncoding "P1363" is not DER or RAW`},
		{"no digest", func(r *Request) { r.Digests = nil }, "digests must hold 1 to 16 values, not 0"},
		{"too many digests", func(r *Request) { r.Digests = make([]string, 17) }, "digests must hold 1 to 16 values, not 17"},
		{"not base64", func(r *Request) { r.Digests = []string{"!!!"} }, "digests[0] is not standard base64"},
		{"base64 with a line break", func(r *Request) { r.Digests[0] = r.Digests[0][:20] + "\n" + r.Digests[0][20:] }, "digests[0] is not standard base64"},
		{"base64 with a CR LF at the end", func(r *Request) { r.Digests[0] += "\r\n" }, "digests[0] is not standard base64"},
		{"base64 with non-zero padding bits", func(r *Request) { r.Digests[0] = nonZeroPadding(r.Digests[0]) }, "digests[0] is not standard base64"},
		{"base64 without padding", func(r *Request) { r.Digests[0] = strings.TrimRight(r.Digests[0], "=") }, "digests[0] is not standard base64"},
		{"base64url", func(r *Request) { r.Digests[0] = base64.URLEncoding.EncodeToString(bytes.Repeat([]byte{0xfb}, 32)) }, "digests[0] is not standard base64"},
		{"a SHA-384 digest for SHA-256", func(r *Request) { r.Digests = []string{b64(d384[:])} }, "digests[0] has 48 bytes; a SHA-256 digest has 32"},
		{"a document instead of a digest", func(r *Request) { r.Digests = []string{b64([]byte(strings.Repeat("x", 100)))} }, "has 100 bytes"},
	}
	for _, tt := range tests {
		_, err := Check(request(tt.mod))
		if !errors.Is(err, ErrBadRequest) || !strings.Contains(err.Error(), tt.why) {
			t.Errorf("%s: %v, want ErrBadRequest saying %q", tt.name, err, tt.why)
		}
	}
}

// nonZeroPadding sets the padding bits of the last character before the
// "=" of b, a base64 spelling with padding: a lenient decoder reads the
// same bytes, a strict one refuses.
func nonZeroPadding(b string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	i := strings.IndexByte(b, '=') - 1
	return b[:i] + string(alphabet[strings.IndexByte(alphabet, b[i])|1]) + b[i+1:]
}

// The padding trick of the test above does spell the same digest for a
// lenient decoder: the strict check is what refuses it.
func TestNonZeroPaddingIsAnotherSpelling(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	d := sha256.Sum256([]byte("document"))
	other := nonZeroPadding(b64(d[:]))
	is.True(other != b64(d[:]))
	lenient, err := base64.StdEncoding.DecodeString(other)
	is.NoErr(err)
	is.Equal(lenient, d[:])
}

// ParseRequest reads a body only when every reader of JSON would read it
// alike; each refusal has its reason, word for word.
func TestParseRequest(t *testing.T) {
	t.Parallel()
	const good = `{"tenantId":"` + tenant + `","moduleUuid":"` + module + `","keyLabel":"sign-p256","hashAlgorithm":"SHA-256","signatureAlgorithm":"ECDSA","ecdsaEncoding":"RAW","digests":["AAAA","BBBB"]}`
	t.Run("good", func(t *testing.T) {
		is := is.New(t)
		r, err := ParseRequest([]byte(" \n" + good + "\r\n\t "))
		is.NoErr(err)
		is.Equal(r, Request{TenantID: tenant, ModuleUUID: module, KeyLabel: "sign-p256", HashAlgorithm: "SHA-256", SignatureAlgorithm: "ECDSA", ECDSAEncoding: "RAW", Digests: []string{"AAAA", "BBBB"}})
	})
	const (
		notObject = "the body is not exactly one JSON object"
		twice     = "the body gives a member name twice"
		unknown   = "the body has a member that is not part of a sign request (names are case-sensitive: tenantId, moduleUuid, keyLabel, hashAlgorithm, signatureAlgorithm, ecdsaEncoding, digests)"
	)
	tests := []struct {
		name, body, reason string
	}{
		{"empty", ``, notObject},
		{"not JSON", `{not json`, notObject},
		{"an array", `[` + good + `]`, notObject},
		{"a string", `"x"`, notObject},
		{"null", `null`, notObject},
		{"truncated", good[:len(good)-1], notObject},
		{"a stray ] after the object", good + `]`, notObject},
		{"a stray } after the object", good + `}`, notObject},
		{"a second object", good + good, notObject},
		{"a value after the object", good + ` 1`, notObject},
		{"a trailing comma", strings.TrimSuffix(good, `}`) + `,}`, notObject},
		{"a name in upper case", strings.Replace(good, `"tenantId"`, `"TENANTID"`, 1), unknown},
		{"a name in another case beside the right one", strings.Replace(good, `{`, `{"TENANTID":"`+tenant+`",`, 1), unknown},
		{"a member twice", strings.Replace(good, `{`, `{"keyLabel":"sign-rsa",`, 1), twice},
		{"a member twice, the second escaped", strings.Replace(good, `{`, `{"key\u004cabel":"sign-rsa",`, 1), twice},
		{"an unknown member", strings.Replace(good, `{`, `{"pin":"1234",`, 1), unknown},
		{"keyLabel null", strings.Replace(good, `"keyLabel":"sign-p256"`, `"keyLabel":null`, 1), "keyLabel is not a string"},
		{"tenantId a number", strings.Replace(good, `"tenantId":"`+tenant+`"`, `"tenantId":1`, 1), "tenantId is not a string"},
		{"hashAlgorithm an array", strings.Replace(good, `"hashAlgorithm":"SHA-256"`, `"hashAlgorithm":["SHA-256"]`, 1), "hashAlgorithm is not a string"},
		{"keyLabel not UTF-8", strings.Replace(good, `"keyLabel":"sign-p256"`, "\"keyLabel\":\"sign-\xff\"", 1), "keyLabel is not a string"},
		{"digests a string", strings.Replace(good, `["AAAA","BBBB"]`, `"AAAA"`, 1), "digests is not an array of strings"},
		{"digests null", strings.Replace(good, `["AAAA","BBBB"]`, `null`, 1), "digests is not an array of strings"},
		{"a digest null", strings.Replace(good, `["AAAA","BBBB"]`, `["AAAA",null]`, 1), "digests is not an array of strings"},
		{"a digest a number", strings.Replace(good, `["AAAA","BBBB"]`, `[1]`, 1), "digests is not an array of strings"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := ParseRequest([]byte(tt.body))
			r, ok := errors.AsType[*RequestError](err)
			is.True(ok) // a RequestError
			is.Equal(r.Reason, tt.reason)
			is.True(errors.Is(err, ErrBadRequest))
		})
	}
}

// The DigestInfo built for PKCS#1 v1.5 is the one RFC 8017 defines: a
// signature over it, made without any hash knowledge, verifies as a
// signature of the digest.
func TestTokenInputDigestInfo(t *testing.T) {
	t.Parallel()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []crypto.Hash{crypto.SHA256, crypto.SHA384, crypto.SHA512} {
		hh := h.New()
		hh.Write([]byte("document"))
		digest := hh.Sum(nil)
		in := TokenInput(RSAPKCS1, h, digest)
		sig, err := rsa.SignPKCS1v15(nil, key, crypto.Hash(0), in) // as CKM_RSA_PKCS does
		if err != nil {
			t.Fatal(err)
		}
		if err := rsa.VerifyPKCS1v15(&key.PublicKey, h, digest, sig); err != nil {
			t.Errorf("%v: DigestInfo wrong: %v", h, err)
		}
		if got := TokenInput(RSAPSS, h, digest); string(got) != string(digest) {
			t.Errorf("%v: PSS signs the digest itself", h)
		}
	}
}

func TestCheckKey(t *testing.T) {
	t.Parallel()
	rsa1024, _ := rsa.GenerateKey(rand.Reader, 1024)
	rsa2048, _ := rsa.GenerateKey(rand.Reader, 2048)
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	tests := []struct {
		name string
		a    Algorithm
		h    crypto.Hash
		pub  crypto.PublicKey
		ok   bool
	}{
		{"RSA-2048 PKCS#1", RSAPKCS1, crypto.SHA256, &rsa2048.PublicKey, true},
		{"RSA-2048 PSS SHA-512", RSAPSS, crypto.SHA512, &rsa2048.PublicKey, true},
		{"RSA-1024", RSAPKCS1, crypto.SHA256, &rsa1024.PublicKey, false},
		{"RSA key asked for ECDSA", ECDSA, crypto.SHA256, &rsa2048.PublicKey, false},
		{"P-256 with SHA-256", ECDSA, crypto.SHA256, &p256.PublicKey, true},
		{"P-256 with SHA-384", ECDSA, crypto.SHA384, &p256.PublicKey, false},
		{"P-384 with SHA-384", ECDSA, crypto.SHA384, &p384.PublicKey, true},
		{"EC key asked for RSA", RSAPSS, crypto.SHA256, &p256.PublicKey, false},
	}
	for _, tt := range tests {
		if err := CheckKey(tt.a, tt.h, tt.pub); (err == nil) != tt.ok {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// Finish verifies before it returns, and encodes ECDSA as asked.
func TestFinish(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	digest := sha256.Sum256([]byte("document"))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	is.NoErr(err)
	raw := append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
	der, err := Finish(Job{Algorithm: ECDSA, Hash: crypto.SHA256, Encoding: EncodingDER}, &key.PublicKey, digest[:], raw)
	is.NoErr(err)
	is.True(ecdsa.VerifyASN1(&key.PublicKey, digest[:], der))
	same, err := Finish(Job{Algorithm: ECDSA, Hash: crypto.SHA256, Encoding: EncodingRaw}, &key.PublicKey, digest[:], raw)
	is.NoErr(err)
	is.Equal(same, raw)
	// A signature of another digest never leaves.
	other := sha256.Sum256([]byte("other"))
	_, err = Finish(Job{Algorithm: ECDSA, Hash: crypto.SHA256, Encoding: EncodingDER}, &key.PublicKey, other[:], raw)
	is.True(err != nil)
	_, err = Finish(Job{Algorithm: ECDSA, Hash: crypto.SHA256}, &key.PublicKey, digest[:], raw[:63])
	is.True(err != nil)
	is.Equal(PSSFor(crypto.SHA384), PSSParameters{SaltLength: 48, MGF: "MGF1", MGFHash: "SHA-384"})

}

// An approval payload changes with every field it binds.
func TestApprovalPayload(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	base := ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digest")}, at, []byte("nonce"))
	for i, other := range [][]byte{
		ApprovalPayload("sign2", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digest")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{2}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digest")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "RSA_PSS", crypto.SHA256, [][]byte{[]byte("digest")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA384, [][]byte{[]byte("digest")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digesT")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digest")}, at.Add(time.Nanosecond), []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digest")}, at, []byte("nonc3")),
		ApprovalPayload("sig", []byte("n\x01"), "ECDSA", crypto.SHA256, [][]byte{[]byte("digest")}, at, []byte("nonce")), // no field boundary shifts
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("digest"), []byte("digest")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, [][]byte{[]byte("dig"), []byte("est")}, at, []byte("nonce")),
		ApprovalPayload("sign", []byte{1}, "ECDSA", crypto.SHA256, nil, at, []byte("nonce")),
	} {
		if string(other) == string(base) {
			t.Errorf("variant %d gives the same payload", i)
		}
	}
}

// r||s becomes the DER that crypto/ecdsa reads; anything but two equal
// halves is refused.
func TestRawToDER(t *testing.T) {
	t.Parallel()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	digest := sha256.Sum256([]byte("document"))
	r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	rs := make([]byte, 64)
	r.FillBytes(rs[:32])
	s.FillBytes(rs[32:])
	der, err := RawToDER(rs)
	if err != nil || !ecdsa.VerifyASN1(&key.PublicKey, digest[:], der) {
		t.Fatalf("RawToDER: %v", err)
	}
	for _, bad := range [][]byte{nil, rs[:63]} {
		if _, err := RawToDER(bad); err == nil {
			t.Errorf("%d bytes accepted", len(bad))
		}
	}
}
