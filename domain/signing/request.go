// Package signing holds the rules of hash-only signing (signing-server.md;
// docs/decisions/0023): what a sign request may ask, the bytes handed to
// the HSM for each algorithm (a DigestInfo the server builds, never raw
// RSA), the pinned parameters, and the check of every signature against
// the public key before it leaves. It is pure.
package signing

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// ErrBadRequest is a request the server cannot sign: 400. Errors wrapping
// it are [*RequestError]s.
var ErrBadRequest = errors.New("signing: bad request")

// A RequestError is a request the server cannot sign. Reason says what is
// wrong with it, for the caller.
type RequestError struct {
	Reason string
}

func (e *RequestError) Error() string { return ErrBadRequest.Error() + ": " + e.Reason }

func (e *RequestError) Unwrap() error { return ErrBadRequest }

func bad(format string, args ...any) error {
	return &RequestError{Reason: fmt.Sprintf(format, args...)}
}

// MaxDigests bounds a batch: one approval and one token per call, as CSC
// signHash signs several hashes under one authorization.
const MaxDigests = 16

// Algorithm is a signature algorithm a request may ask for.
type Algorithm string

const (
	RSAPKCS1 Algorithm = "RSA_PKCS1_V1_5"
	RSAPSS   Algorithm = "RSA_PSS"
	ECDSA    Algorithm = "ECDSA"
)

// Encoding is the output form of an ECDSA signature: DER ECDSA-Sig-Value
// (CMS, CAdES, PAdES) or raw r||s (XMLDSig, JWS).
type Encoding string

const (
	EncodingDER Encoding = "DER"
	EncodingRaw Encoding = "RAW"
)

// Request is the JSON body of /api/server-signing/sign-ska.
type Request struct {
	TenantID   string `json:"tenantId"`
	ModuleUUID string `json:"moduleUuid"`
	// KeyLabel names the signing key of the tenant's partition.
	KeyLabel string `json:"keyLabel"`
	// HashAlgorithm is SHA-256, SHA-384 or SHA-512.
	HashAlgorithm string `json:"hashAlgorithm"`
	// SignatureAlgorithm is RSA_PKCS1_V1_5, RSA_PSS or ECDSA.
	SignatureAlgorithm string `json:"signatureAlgorithm"`
	// ECDSAEncoding is DER (the default) or RAW; only for ECDSA.
	ECDSAEncoding string `json:"ecdsaEncoding,omitempty"`
	// Digests are standard base64 of raw digests, 1 to MaxDigests.
	Digests []string `json:"digests"`
}

// ParseRequest reads body, the exact bytes of a sign request, strictly
// (see [Members]): one JSON object, nothing after it; member names
// exactly as [Request] spells them, none twice, none unknown; each value
// a string, digests an array of strings. A body the token's bodySha256
// covers must mean one thing to every reader.
func ParseRequest(body []byte) (Request, error) {
	m, err := Members(body)
	switch {
	case errors.Is(err, ErrDuplicateMember):
		return Request{}, bad("the body gives a member name twice")
	case err != nil:
		return Request{}, bad("the body is not exactly one JSON object")
	}
	var r Request
	fields := map[string]*string{
		"tenantId": &r.TenantID, "moduleUuid": &r.ModuleUUID, "keyLabel": &r.KeyLabel,
		"hashAlgorithm": &r.HashAlgorithm, "signatureAlgorithm": &r.SignatureAlgorithm, "ecdsaEncoding": &r.ECDSAEncoding,
	}
	for name, v := range m {
		if name == "digests" {
			var items []json.RawMessage
			if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &items) != nil {
				return Request{}, bad("digests is not an array of strings")
			}
			for _, item := range items {
				d, ok := String(item)
				if !ok {
					return Request{}, bad("digests is not an array of strings")
				}
				r.Digests = append(r.Digests, d)
			}
			continue
		}
		f, known := fields[name]
		if !known {
			return Request{}, bad("the body has a member that is not part of a sign request (names are case-sensitive: tenantId, moduleUuid, keyLabel, hashAlgorithm, signatureAlgorithm, ecdsaEncoding, digests)")
		}
		if *f, known = String(v); !known {
			return Request{}, bad("%s is not a string", name)
		}
	}
	return r, nil
}

// Job is a request checked and decoded.
type Job struct {
	Tenant, Module, KeyLabel string
	Hash                     crypto.Hash
	Algorithm                Algorithm
	Encoding                 Encoding
	Digests                  [][]byte
}

var (
	hashes = map[string]crypto.Hash{"SHA-256": crypto.SHA256, "SHA-384": crypto.SHA384, "SHA-512": crypto.SHA512}
)

// isUUID reports whether s is a UUID in its canonical text form:
// 8-4-4-4-12 hexadecimal digits of either case. A loop rather than a
// regular expression: every command of the binaries that link this
// package would pay for compiling one at start-up, and the domain keeps
// no lazily built state.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// isLabel reports whether s is a key label: 1 to 64 ASCII letters,
// digits, '.', '_' or '-'.
func isLabel(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Check decodes r or says, in ErrBadRequest, what is wrong with it.
func Check(r Request) (Job, error) {
	j := Job{Tenant: r.TenantID, Module: r.ModuleUUID, KeyLabel: r.KeyLabel}
	switch {
	case !isUUID(r.TenantID):
		return Job{}, bad("tenantId must be a UUID")
	case !isUUID(r.ModuleUUID):
		return Job{}, bad("moduleUuid must be a UUID")
	case !isLabel(r.KeyLabel):
		return Job{}, bad("keyLabel must be 1 to 64 letters, digits, '.', '_' or '-'")
	}
	h, ok := hashes[r.HashAlgorithm]
	if !ok {
		return Job{}, bad("hashAlgorithm %q is not one of SHA-256, SHA-384, SHA-512", clip(r.HashAlgorithm))
	}
	j.Hash = h
	switch a := Algorithm(r.SignatureAlgorithm); a {
	case RSAPKCS1, RSAPSS, ECDSA:
		j.Algorithm = a
	default:
		return Job{}, bad("signatureAlgorithm %q is not one of RSA_PKCS1_V1_5, RSA_PSS, ECDSA", clip(r.SignatureAlgorithm))
	}
	switch e := Encoding(r.ECDSAEncoding); {
	case e == "" && j.Algorithm == ECDSA:
		j.Encoding = EncodingDER
	case e == "":
	case j.Algorithm != ECDSA:
		return Job{}, bad("ecdsaEncoding applies to ECDSA only")
	case e == EncodingDER || e == EncodingRaw:
		j.Encoding = e
	default:
		return Job{}, bad("ecdsaEncoding %q is not DER or RAW", clip(r.ECDSAEncoding))
	}
	if len(r.Digests) == 0 || len(r.Digests) > MaxDigests {
		return Job{}, bad("digests must hold 1 to %d values, not %d", MaxDigests, len(r.Digests))
	}
	for i, d := range r.Digests {
		// One spelling per digest: padded, zero padding bits (Strict) and
		// no line breaks, which the decoder would otherwise skip.
		raw, err := base64.StdEncoding.Strict().DecodeString(d)
		if err != nil || strings.ContainsAny(d, "\r\n") {
			return Job{}, bad("digests[%d] is not standard base64 (padded, no line breaks, zero padding bits)", i)
		}
		if len(raw) != h.Size() {
			return Job{}, bad("digests[%d] has %d bytes; a %s digest has %d", i, len(raw), r.HashAlgorithm, h.Size())
		}
		j.Digests = append(j.Digests, raw)
	}
	return j, nil
}

func clip(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// digestInfoPrefixes are the DER DigestInfo headers of RFC 8017, 9.2,
// note 1: AlgorithmIdentifier with NULL parameters, then the OCTET STRING
// header of the digest.
var digestInfoPrefixes = map[crypto.Hash][]byte{
	crypto.SHA256: {0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20},
	crypto.SHA384: {0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04, 0x30},
	crypto.SHA512: {0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04, 0x40},
}

// TokenInput is exactly what the HSM signs for digest: the DigestInfo the
// server builds for PKCS#1 v1.5 (a caller never supplies one, and raw RSA
// is never offered), the digest itself for PSS and ECDSA.
func TokenInput(a Algorithm, h crypto.Hash, digest []byte) []byte {
	if a == RSAPKCS1 {
		return append(append([]byte(nil), digestInfoPrefixes[h]...), digest...)
	}
	return digest
}

// CheckKey refuses a key the request cannot be signed with: RSA below
// 2048 bits or asked for ECDSA, EC asked for RSA, and an EC curve not
// pinned to the hash (P-256 with SHA-256, P-384 with SHA-384, P-521 with
// SHA-512: ECDSA would silently truncate a longer digest).
func CheckKey(a Algorithm, h crypto.Hash, pub crypto.PublicKey) error {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		if a == ECDSA {
			return bad("the key is an RSA key; ask for RSA_PKCS1_V1_5 or RSA_PSS")
		}
		if k.N.BitLen() < 2048 {
			return bad("the RSA key has %d bits; at least 2048 are required", k.N.BitLen())
		}
	case *ecdsa.PublicKey:
		if a != ECDSA {
			return bad("the key is an EC key; ask for ECDSA")
		}
		want := map[elliptic.Curve]crypto.Hash{elliptic.P256(): crypto.SHA256, elliptic.P384(): crypto.SHA384, elliptic.P521(): crypto.SHA512}[k.Curve]
		if want != h {
			return bad("an ECDSA key on %s signs %s digests only", k.Curve.Params().Name, want)
		}
	default:
		return bad("the key is a %T, which this service does not sign with", pub)
	}
	return nil
}

// Finish turns what the HSM returned into the signature the caller gets
// and verifies it with the public key first: a signature that does not
// verify is never returned (reference A.6 item 2). ECDSA r||s becomes DER
// unless the request asked for RAW.
func Finish(j Job, pub crypto.PublicKey, digest, fromToken []byte) ([]byte, error) {
	sig := fromToken
	switch j.Algorithm {
	case RSAPKCS1:
		// crypto/rsa, not the validator's faster cert.VerifyPKCS1v15: the
		// domain imports no adapter, and a check of the HSM's own output,
		// once a signature, is worth more made by the standard library.
		if err := rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), j.Hash, digest, sig); err != nil {
			return nil, fmt.Errorf("signing: the HSM's PKCS#1 v1.5 signature does not verify: %w", err)
		}
	case RSAPSS:
		if err := rsa.VerifyPSS(pub.(*rsa.PublicKey), j.Hash, digest, sig, &rsa.PSSOptions{SaltLength: j.Hash.Size(), Hash: j.Hash}); err != nil {
			return nil, fmt.Errorf("signing: the HSM's PSS signature does not verify: %w", err)
		}
	case ECDSA:
		k := pub.(*ecdsa.PublicKey)
		size := (k.Curve.Params().BitSize + 7) / 8
		if len(sig) != 2*size {
			return nil, fmt.Errorf("signing: the HSM returned %d bytes for an ECDSA signature on %s", len(sig), k.Curve.Params().Name)
		}
		r, s := new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:])
		if !ecdsa.Verify(k, digest, r, s) {
			return nil, errors.New("signing: the HSM's ECDSA signature does not verify")
		}
		if j.Encoding == EncodingDER {
			der, err := RawToDER(sig)
			if err != nil {
				return nil, err
			}
			sig = der
		}
	}
	return sig, nil
}

// RawToDER turns an ECDSA signature r||s, as PKCS#11's CKM_ECDSA returns
// it (halves of equal length), into the DER Ecdsa-Sig-Value of RFC 3279
// section 2.2.3, which CMS and crypto/ecdsa.VerifyASN1 read.
func RawToDER(rs []byte) ([]byte, error) {
	if len(rs) == 0 || len(rs)%2 != 0 {
		return nil, errors.New("signing: an ECDSA signature is not r||s of equal halves")
	}
	half := len(rs) / 2
	return asn1.Marshal(struct{ R, S *big.Int }{new(big.Int).SetBytes(rs[:half]), new(big.Int).SetBytes(rs[half:])})
}

// PSSParameters are the pinned RSASSA-PSS parameters of h, as returned to
// the caller: a verifier assuming another salt length fails.
type PSSParameters struct {
	SaltLength int    `json:"saltLength"`
	MGF        string `json:"mgf"`
	MGFHash    string `json:"mgfHash"`
}

// PSSFor returns the parameters used with h.
func PSSFor(h crypto.Hash) PSSParameters {
	name := map[crypto.Hash]string{crypto.SHA256: "SHA-256", crypto.SHA384: "SHA-384", crypto.SHA512: "SHA-512"}[h]
	return PSSParameters{SaltLength: h.Size(), MGF: "MGF1", MGFHash: name}
}
