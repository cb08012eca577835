package cert

import (
	"crypto"
	_ "crypto/md5" // registers the hashes ParseSignatureAlgorithm may name
	_ "crypto/sha1"
	_ "crypto/sha256"
	_ "crypto/sha3"
	_ "crypto/sha512"
	"crypto/x509"
	"encoding/asn1"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

// A Scheme is a family of signature algorithms.
type Scheme int

const (
	// SchemeUnknown is the zero Scheme.
	SchemeUnknown Scheme = iota
	// PKCS1v15 is RSASSA-PKCS1-v1_5 (RFC 8017, section 8.2).
	PKCS1v15
	// PSS is RSASSA-PSS (RFC 8017, section 8.1) with MGF1.
	PSS
	// ECDSA is ECDSA with the signature as a DER Ecdsa-Sig-Value.
	ECDSA
	// ECDSAPlain is ECDSA with the signature as r||s, each as long as the
	// curve order (BSI TR-03111, ecdsa-plain-signatures).
	ECDSAPlain
	// Ed25519 is pure Ed25519 (RFC 8410): it signs the message, not a digest.
	Ed25519
)

func (s Scheme) String() string {
	switch s {
	case PKCS1v15:
		return "RSA PKCS#1 v1.5"
	case PSS:
		return "RSASSA-PSS"
	case ECDSA:
		return "ECDSA"
	case ECDSAPlain:
		return "ECDSA (plain)"
	case Ed25519:
		return "Ed25519"
	}
	return "unknown scheme"
}

// A SignatureAlgorithm says how to check a signature value.
type SignatureAlgorithm struct {
	Scheme Scheme

	// Hash is the digest the scheme signs; for PSS also the MGF1 hash.
	// It is 0 for Ed25519.
	Hash crypto.Hash

	// SaltLength is the PSS salt length in bytes.
	SaltLength int

	// HashFromDigest reports that the algorithm identifier named no hash
	// (rsaEncryption, id-ecPublicKey) and Hash is the digest algorithm the
	// caller supplied.
	HashFromDigest bool
}

func (a SignatureAlgorithm) String() string {
	if a.Scheme == Ed25519 {
		return a.Scheme.String()
	}
	if a.Scheme == PSS {
		return fmt.Sprintf("%v with %v, salt %d", a.Scheme, a.Hash, a.SaltLength)
	}
	return fmt.Sprintf("%v with %v", a.Scheme, a.Hash)
}

// Hash algorithm OIDs (RFC 3279, RFC 5754, NIST CSOR).
var (
	OIDMD5        = asn1.ObjectIdentifier{1, 2, 840, 113549, 2, 5}
	OIDSHA1       = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
	OIDSHA224     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 4}
	OIDSHA256     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	OIDSHA384     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}
	OIDSHA512     = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
	OIDSHA512_224 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 5}
	OIDSHA512_256 = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 6}
	OIDSHA3_224   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 7}
	OIDSHA3_256   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 8}
	OIDSHA3_384   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 9}
	OIDSHA3_512   = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 10}
	OIDRIPEMD160  = asn1.ObjectIdentifier{1, 3, 36, 3, 2, 1}
)

// Signature and key algorithm OIDs.
var (
	OIDRSAEncryption = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	OIDRSASSAPSS     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	OIDMGF1          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}
	OIDECPublicKey   = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}
	OIDEd25519       = asn1.ObjectIdentifier{1, 3, 101, 112}
	// OIDEd448 is named, not verified: Go has no Ed448.
	OIDEd448 = asn1.ObjectIdentifier{1, 3, 101, 113}
)

// AlgorithmOID is the OID of a DER AlgorithmIdentifier.
func AlgorithmOID(der []byte) (asn1.ObjectIdentifier, error) {
	oid, _, err := readAlgorithmIdentifier(der)
	return oid, err
}

var hashOIDs = []struct {
	oid  asn1.ObjectIdentifier
	hash crypto.Hash
}{
	// MD5 is read and computed so that the validation process can say
	// that it is no longer acceptable (domain/algorithm), rather than
	// that it is unknown.
	{OIDMD5, crypto.MD5},
	{OIDSHA1, crypto.SHA1},
	{OIDSHA224, crypto.SHA224},
	{OIDSHA256, crypto.SHA256},
	{OIDSHA384, crypto.SHA384},
	{OIDSHA512, crypto.SHA512},
	{OIDSHA512_224, crypto.SHA512_224},
	{OIDSHA512_256, crypto.SHA512_256},
	{OIDSHA3_224, crypto.SHA3_224},
	{OIDSHA3_256, crypto.SHA3_256},
	{OIDSHA3_384, crypto.SHA3_384},
	{OIDSHA3_512, crypto.SHA3_512},
}

// HashFromOID returns the hash a digest algorithm OID names, or an error
// wrapping ErrUnsupported (RIPEMD-160 and unknown OIDs), or
// ErrMalformed for a signature algorithm where a digest algorithm
// belongs: that signature is broken, not beyond what we implement (a
// real Hungarian PDF names sha256WithRSAEncryption as its digest; DSS
// finds it not intact).
func HashFromOID(oid asn1.ObjectIdentifier) (crypto.Hash, error) {
	for _, h := range hashOIDs {
		if h.oid.Equal(oid) {
			return h.hash, nil
		}
	}
	for _, s := range signatureOIDs {
		if s.oid.Equal(oid) {
			return 0, fmt.Errorf("%w: %v is a signature algorithm, not a digest algorithm", ErrMalformed, oid)
		}
	}
	return 0, fmt.Errorf("%w: digest algorithm %v", ErrUnsupported, oid)
}

// OIDFromHash returns the digest algorithm OID of h, or nil.
func OIDFromHash(h crypto.Hash) asn1.ObjectIdentifier {
	for _, e := range hashOIDs {
		if e.hash == h {
			return e.oid
		}
	}
	return nil
}

// HashFromAlgorithmIdentifier reads a DER DigestAlgorithmIdentifier and
// returns the hash it names. Parameters, absent or NULL for every hash
// supported, are not looked at.
func HashFromAlgorithmIdentifier(der []byte) (crypto.Hash, error) {
	oid, _, err := readAlgorithmIdentifier(der)
	if err != nil {
		return 0, err
	}
	return HashFromOID(oid)
}

// signatureOIDs maps the signature algorithm OIDs that fix the hash.
var signatureOIDs = []struct {
	oid    asn1.ObjectIdentifier
	scheme Scheme
	hash   crypto.Hash
}{
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 4}, PKCS1v15, crypto.MD5},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 5}, PKCS1v15, crypto.SHA1},
	{asn1.ObjectIdentifier{1, 3, 14, 3, 2, 29}, PKCS1v15, crypto.SHA1}, // OIW sha1WithRSASignature
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 14}, PKCS1v15, crypto.SHA224},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}, PKCS1v15, crypto.SHA256},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 12}, PKCS1v15, crypto.SHA384},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 13}, PKCS1v15, crypto.SHA512},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 15}, PKCS1v15, crypto.SHA512_224},
	{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 16}, PKCS1v15, crypto.SHA512_256},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 13}, PKCS1v15, crypto.SHA3_224},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 14}, PKCS1v15, crypto.SHA3_256},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 15}, PKCS1v15, crypto.SHA3_384},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 16}, PKCS1v15, crypto.SHA3_512},
	{asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 1}, ECDSA, crypto.SHA1},
	{asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 1}, ECDSA, crypto.SHA224},
	{asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}, ECDSA, crypto.SHA256},
	{asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 3}, ECDSA, crypto.SHA384},
	{asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 4}, ECDSA, crypto.SHA512},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 9}, ECDSA, crypto.SHA3_224},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 10}, ECDSA, crypto.SHA3_256},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 11}, ECDSA, crypto.SHA3_384},
	{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 12}, ECDSA, crypto.SHA3_512},
	// BSI TR-03111 ecdsa-plain-SHA*, used by German signature cards.
	{asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 1}, ECDSAPlain, crypto.SHA1},
	{asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 2}, ECDSAPlain, crypto.SHA224},
	{asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 3}, ECDSAPlain, crypto.SHA256},
	{asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 4}, ECDSAPlain, crypto.SHA384},
	{asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 5}, ECDSAPlain, crypto.SHA512},
}

// SignatureAlgorithmOID returns the OID of the signature algorithm that
// combines scheme and h (sha256WithRSAEncryption, ecdsa-with-SHA256, ...),
// or nil. PSS and Ed25519 have one OID each: OIDRSASSAPSS and OIDEd25519.
func SignatureAlgorithmOID(scheme Scheme, h crypto.Hash) asn1.ObjectIdentifier {
	switch scheme {
	case PSS:
		return OIDRSASSAPSS
	case Ed25519:
		return OIDEd25519
	}
	for _, e := range signatureOIDs {
		if e.scheme == scheme && e.hash == h {
			return e.oid
		}
	}
	return nil
}

// ParseSignatureAlgorithm reads a DER AlgorithmIdentifier of a signature
// algorithm. digest is the digest algorithm that goes with it (the CMS
// SignerInfo digestAlgorithm, 0 if none): it supplies the hash when the
// identifier names only the key type (rsaEncryption, id-ecPublicKey). When
// the identifier names a hash, that hash is used whatever digest says.
func ParseSignatureAlgorithm(der []byte, digest crypto.Hash) (SignatureAlgorithm, error) {
	oid, params, err := readAlgorithmIdentifier(der)
	if err != nil {
		return SignatureAlgorithm{}, err
	}
	for _, e := range signatureOIDs {
		if e.oid.Equal(oid) {
			return SignatureAlgorithm{Scheme: e.scheme, Hash: e.hash}, nil
		}
	}
	switch {
	case oid.Equal(OIDRSAEncryption), oid.Equal(OIDECPublicKey):
		if digest == 0 {
			return SignatureAlgorithm{}, fmt.Errorf("%w: %v names no hash and no digest algorithm goes with it", ErrMalformed, oid)
		}
		s := PKCS1v15
		if oid.Equal(OIDECPublicKey) {
			s = ECDSA
		}
		return SignatureAlgorithm{Scheme: s, Hash: digest, HashFromDigest: true}, nil
	case oid.Equal(OIDRSASSAPSS):
		return parsePSSParams(params)
	case oid.Equal(OIDEd25519):
		return SignatureAlgorithm{Scheme: Ed25519}, nil
	}
	return SignatureAlgorithm{}, fmt.Errorf("%w: signature algorithm %v", ErrUnsupported, oid)
}

// parsePSSParams reads RSASSA-PSS-params (RFC 8017, appendix A.2.3). The
// defaults are SHA-1, MGF1 with SHA-1 and a 20-byte salt. crypto/rsa uses
// the signature hash for MGF1, so a different MGF1 hash is unsupported.
func parsePSSParams(params []byte) (SignatureAlgorithm, error) {
	alg := SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA1, SaltLength: 20}
	mgfHash := crypto.SHA1
	if len(params) == 0 {
		return alg, nil
	}
	in := cryptobyte.String(params)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return alg, fmt.Errorf("%w: RSASSA-PSS parameters", ErrMalformed)
	}
	var field cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(0).ContextSpecific().Constructed()) {
		return alg, fmt.Errorf("%w: RSASSA-PSS hashAlgorithm", ErrMalformed)
	}
	if present {
		h, err := HashFromAlgorithmIdentifier(field)
		if err != nil {
			return alg, fmt.Errorf("RSASSA-PSS hashAlgorithm: %w", err)
		}
		alg.Hash = h
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(1).ContextSpecific().Constructed()) {
		return alg, fmt.Errorf("%w: RSASSA-PSS maskGenAlgorithm", ErrMalformed)
	}
	if present {
		oid, mgfParams, err := readAlgorithmIdentifier(field)
		if err != nil {
			return alg, fmt.Errorf("RSASSA-PSS maskGenAlgorithm: %w", err)
		}
		if !oid.Equal(OIDMGF1) {
			return alg, fmt.Errorf("%w: mask generation function %v", ErrUnsupported, oid)
		}
		h, err := HashFromAlgorithmIdentifier(mgfParams)
		if err != nil {
			return alg, fmt.Errorf("RSASSA-PSS MGF1 hash: %w", err)
		}
		mgfHash = h
	}
	var n int64
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(2).ContextSpecific().Constructed()) {
		return alg, fmt.Errorf("%w: RSASSA-PSS saltLength", ErrMalformed)
	}
	if present {
		if !field.ReadASN1Int64WithTag(&n, cbasn1.INTEGER) || n < 0 || n > 1024 {
			return alg, fmt.Errorf("%w: RSASSA-PSS saltLength", ErrMalformed)
		}
		alg.SaltLength = int(n)
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(3).ContextSpecific().Constructed()) {
		return alg, fmt.Errorf("%w: RSASSA-PSS trailerField", ErrMalformed)
	}
	if present {
		if !field.ReadASN1Int64WithTag(&n, cbasn1.INTEGER) {
			return alg, fmt.Errorf("%w: RSASSA-PSS trailerField", ErrMalformed)
		}
		if n != 1 {
			return alg, fmt.Errorf("%w: RSASSA-PSS trailer field %d", ErrUnsupported, n)
		}
	}
	if !seq.Empty() {
		return alg, fmt.Errorf("%w: trailing data in RSASSA-PSS parameters", ErrMalformed)
	}
	if mgfHash != alg.Hash {
		return alg, fmt.Errorf("%w: RSASSA-PSS with MGF1 hash %v and message hash %v", ErrUnsupported, mgfHash, alg.Hash)
	}
	return alg, nil
}

// readAlgorithmIdentifier splits a DER AlgorithmIdentifier into its OID and
// the encoding of its parameters (nil when absent).
func readAlgorithmIdentifier(elem []byte) (asn1.ObjectIdentifier, []byte, error) {
	oid, params, err := der.SplitAlgorithmIdentifier(elem)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return oid, params, nil
}

// X509 names a in crypto/x509's terms, for callers and policies that
// speak them; x509.UnknownSignatureAlgorithm when it has no name there
// (plain ECDSA, or a hash x509 does not pair with the scheme).
func (a SignatureAlgorithm) X509() x509.SignatureAlgorithm {
	type key struct {
		s Scheme
		h crypto.Hash
	}
	switch (key{a.Scheme, a.Hash}) {
	case key{PKCS1v15, crypto.SHA1}:
		return x509.SHA1WithRSA
	case key{PKCS1v15, crypto.SHA256}:
		return x509.SHA256WithRSA
	case key{PKCS1v15, crypto.SHA384}:
		return x509.SHA384WithRSA
	case key{PKCS1v15, crypto.SHA512}:
		return x509.SHA512WithRSA
	case key{PSS, crypto.SHA256}:
		return x509.SHA256WithRSAPSS
	case key{PSS, crypto.SHA384}:
		return x509.SHA384WithRSAPSS
	case key{PSS, crypto.SHA512}:
		return x509.SHA512WithRSAPSS
	case key{ECDSA, crypto.SHA1}:
		return x509.ECDSAWithSHA1
	case key{ECDSA, crypto.SHA256}:
		return x509.ECDSAWithSHA256
	case key{ECDSA, crypto.SHA384}:
		return x509.ECDSAWithSHA384
	case key{ECDSA, crypto.SHA512}:
		return x509.ECDSAWithSHA512
	case key{Ed25519, 0}:
		return x509.PureEd25519
	}
	return x509.UnknownSignatureAlgorithm
}

// HashName is h's name as the readers name a digest in their evidence
// (ades.Check.Algorithm): SHA1, SHA256, SHA3-256; empty for no hash.
// The domain reads both spellings (algorithm.NormalizeDigest).
func HashName(h crypto.Hash) string {
	switch h {
	case 0:
		return ""
	case crypto.SHA1:
		return "SHA1"
	case crypto.SHA224:
		return "SHA224"
	case crypto.SHA256:
		return "SHA256"
	case crypto.SHA384:
		return "SHA384"
	case crypto.SHA512:
		return "SHA512"
	}
	return h.String() // MD5, SHA3-256...
}
