// Package sigalg identifies the signature algorithm of an X.509
// AlgorithmIdentifier and verifies signatures with it, for OCSP responses,
// CRLs and the certificates of delegated OCSP responders.
//
// crypto/x509 cannot be used for these checks: it refuses SHA-1 signatures
// outright, while revocation data signed with SHA-1 still exists and the
// decision whether an algorithm was acceptable at a given time belongs to
// the validation policy (ETSI TS 119 312), not to the parser. This package
// therefore verifies every algorithm it recognises and reports which one it
// was; the caller applies the policy. The primitives are the standard
// library's (crypto/rsa, crypto/ecdsa, crypto/ed25519); nothing here does
// arithmetic of its own.
//
// MD2, MD5, DSA and SHA-224 based algorithms are not supported.
package sigalg

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	_ "crypto/sha1" // registers crypto.SHA1
	_ "crypto/sha256"
	_ "crypto/sha512"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/egress/internal/der"
)

// ErrUnsupported is returned for algorithms or parameters this package
// cannot verify.
var ErrUnsupported = errors.New("unsupported signature algorithm")

// ErrInvalid is returned when a signature does not verify.
var ErrInvalid = errors.New("signature invalid")

type scheme int

const (
	pkcs1v15 scheme = iota + 1
	pss
	ecdsaASN1
	pureEd25519
)

// An Algorithm is a recognised signature algorithm.
type Algorithm struct {
	// X509 names the algorithm for callers and policies.
	X509 x509.SignatureAlgorithm
	// Hash is the message digest; 0 for Ed25519.
	Hash       crypto.Hash
	scheme     scheme
	saltLength int
}

var (
	oidSHA1WithRSA       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 5}
	oidSHA1WithRSAOIW    = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 29}
	oidSHA256WithRSA     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidSHA384WithRSA     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 12}
	oidSHA512WithRSA     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 13}
	oidRSASSAPSS         = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
	oidMGF1              = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 8}
	oidECDSAWithSHA1     = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 1}
	oidECDSAWithSHA256   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
	oidECDSAWithSHA384   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 3}
	oidECDSAWithSHA512   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 4}
	oidEd25519           = asn1.ObjectIdentifier{1, 3, 101, 112}
	oidSHA1              = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
	oidSHA256            = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}
	oidSHA384            = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 2}
	oidSHA512            = asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 3}
	defaultPSSSaltLength = 20 // RSASSA-PSS-params saltLength DEFAULT 20
)

var simple = []struct {
	oid asn1.ObjectIdentifier
	alg Algorithm
}{
	{oidSHA1WithRSA, Algorithm{X509: x509.SHA1WithRSA, Hash: crypto.SHA1, scheme: pkcs1v15}},
	{oidSHA1WithRSAOIW, Algorithm{X509: x509.SHA1WithRSA, Hash: crypto.SHA1, scheme: pkcs1v15}},
	{oidSHA256WithRSA, Algorithm{X509: x509.SHA256WithRSA, Hash: crypto.SHA256, scheme: pkcs1v15}},
	{oidSHA384WithRSA, Algorithm{X509: x509.SHA384WithRSA, Hash: crypto.SHA384, scheme: pkcs1v15}},
	{oidSHA512WithRSA, Algorithm{X509: x509.SHA512WithRSA, Hash: crypto.SHA512, scheme: pkcs1v15}},
	{oidECDSAWithSHA1, Algorithm{X509: x509.ECDSAWithSHA1, Hash: crypto.SHA1, scheme: ecdsaASN1}},
	{oidECDSAWithSHA256, Algorithm{X509: x509.ECDSAWithSHA256, Hash: crypto.SHA256, scheme: ecdsaASN1}},
	{oidECDSAWithSHA384, Algorithm{X509: x509.ECDSAWithSHA384, Hash: crypto.SHA384, scheme: ecdsaASN1}},
	{oidECDSAWithSHA512, Algorithm{X509: x509.ECDSAWithSHA512, Hash: crypto.SHA512, scheme: ecdsaASN1}},
	{oidEd25519, Algorithm{X509: x509.PureEd25519, scheme: pureEd25519}},
}

// Parse recognises the DER AlgorithmIdentifier full.
func Parse(full []byte) (Algorithm, error) {
	ai, ok := der.ParseAlgorithmIdentifier(full)
	if !ok {
		return Algorithm{}, errors.New("malformed signature AlgorithmIdentifier")
	}
	for _, s := range simple {
		if ai.Algorithm.Equal(s.oid) {
			// Parameters are NULL or absent for RSA and absent for
			// ECDSA and Ed25519; anything else is tolerated, because
			// it cannot change what is verified.
			return s.alg, nil
		}
	}
	if ai.Algorithm.Equal(oidRSASSAPSS) {
		return parsePSS(ai.Parameters.FullBytes)
	}
	return Algorithm{}, fmt.Errorf("%w %v", ErrUnsupported, ai.Algorithm)
}

// parsePSS reads RSASSA-PSS-params (RFC 4055, section 3.1). The standard
// library's PSS uses the message digest for MGF1 as well, so other
// combinations are unsupported.
func parsePSS(params []byte) (Algorithm, error) {
	in := cryptobyte.String(params)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return Algorithm{}, fmt.Errorf("%w: RSASSA-PSS without parameters", ErrUnsupported)
	}
	hashOID, mgfHashOID := oidSHA1, oidSHA1
	salt := defaultPSSSaltLength
	var field cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(0).ContextSpecific().Constructed()) {
		return Algorithm{}, errors.New("malformed RSASSA-PSS hashAlgorithm")
	}
	if present {
		ai, _, ok := der.ReadAlgorithmIdentifier(&field)
		if !ok {
			return Algorithm{}, errors.New("malformed RSASSA-PSS hashAlgorithm")
		}
		hashOID = ai.Algorithm
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(1).ContextSpecific().Constructed()) {
		return Algorithm{}, errors.New("malformed RSASSA-PSS maskGenAlgorithm")
	}
	if present {
		var mgf, mgfHash cryptobyte.String
		var mgfOID asn1.ObjectIdentifier
		if !field.ReadASN1(&mgf, cbasn1.SEQUENCE) || !mgf.ReadASN1ObjectIdentifier(&mgfOID) ||
			!mgf.ReadASN1Element(&mgfHash, cbasn1.SEQUENCE) {
			return Algorithm{}, errors.New("malformed RSASSA-PSS maskGenAlgorithm")
		}
		if !mgfOID.Equal(oidMGF1) {
			return Algorithm{}, fmt.Errorf("%w: RSASSA-PSS mask generation %v", ErrUnsupported, mgfOID)
		}
		ai, ok := der.ParseAlgorithmIdentifier(mgfHash)
		if !ok {
			return Algorithm{}, errors.New("malformed RSASSA-PSS MGF1 hash")
		}
		mgfHashOID = ai.Algorithm
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(2).ContextSpecific().Constructed()) {
		return Algorithm{}, errors.New("malformed RSASSA-PSS saltLength")
	}
	if present {
		if !field.ReadASN1Integer(&salt) || salt < 0 || salt > 1024 {
			return Algorithm{}, errors.New("malformed RSASSA-PSS saltLength")
		}
	}
	if !seq.ReadOptionalASN1(&field, &present, cbasn1.Tag(3).ContextSpecific().Constructed()) {
		return Algorithm{}, errors.New("malformed RSASSA-PSS trailerField")
	}
	if present {
		var trailer int
		if !field.ReadASN1Integer(&trailer) || trailer != 1 {
			return Algorithm{}, fmt.Errorf("%w: RSASSA-PSS trailer field", ErrUnsupported)
		}
	}
	if !hashOID.Equal(mgfHashOID) {
		return Algorithm{}, fmt.Errorf("%w: RSASSA-PSS with MGF1 hash %v differing from hash %v", ErrUnsupported, mgfHashOID, hashOID)
	}
	a := Algorithm{scheme: pss, saltLength: salt}
	switch {
	case hashOID.Equal(oidSHA256):
		a.Hash, a.X509 = crypto.SHA256, x509.SHA256WithRSAPSS
	case hashOID.Equal(oidSHA384):
		a.Hash, a.X509 = crypto.SHA384, x509.SHA384WithRSAPSS
	case hashOID.Equal(oidSHA512):
		a.Hash, a.X509 = crypto.SHA512, x509.SHA512WithRSAPSS
	default:
		return Algorithm{}, fmt.Errorf("%w: RSASSA-PSS with hash %v", ErrUnsupported, hashOID)
	}
	return a, nil
}

// Verify checks that signature is a's signature over signed by pub.
func (a Algorithm) Verify(pub crypto.PublicKey, signed, signature []byte) error {
	var digest []byte
	if a.Hash != 0 {
		h := a.Hash.New()
		h.Write(signed)
		digest = h.Sum(nil)
	}
	switch a.scheme {
	case pkcs1v15, pss:
		key, ok := pub.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("%w: %v needs an RSA key, have %T", ErrInvalid, a.X509, pub)
		}
		var err error
		if a.scheme == pss {
			// A declared salt length of 0 reaches crypto/rsa as
			// PSSSaltLengthAuto (also 0), which accepts any salt
			// length: more lenient than the parameters, never less.
			err = rsa.VerifyPSS(key, a.Hash, digest, signature, &rsa.PSSOptions{SaltLength: a.saltLength, Hash: a.Hash})
		} else {
			err = rsa.VerifyPKCS1v15(key, a.Hash, digest, signature)
		}
		if err != nil {
			return fmt.Errorf("%w: %v", ErrInvalid, err)
		}
		return nil
	case ecdsaASN1:
		key, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return fmt.Errorf("%w: %v needs an ECDSA key, have %T", ErrInvalid, a.X509, pub)
		}
		if !ecdsa.VerifyASN1(key, digest, signature) {
			return ErrInvalid
		}
		return nil
	case pureEd25519:
		key, ok := pub.(ed25519.PublicKey)
		if !ok {
			return fmt.Errorf("%w: Ed25519 needs an Ed25519 key, have %T", ErrInvalid, pub)
		}
		if !ed25519.Verify(key, signed, signature) {
			return ErrInvalid
		}
		return nil
	}
	return ErrUnsupported
}

// CheckCertificate verifies the signature on cert with parent's public key,
// with cert's own signature algorithm, SHA-1 included. It checks nothing
// else: not the names, not the validity, not the key usage.
func CheckCertificate(cert, parent *x509.Certificate) error {
	in := cryptobyte.String(cert.Raw)
	var seq, tbs cryptobyte.String
	var bits asn1.BitString
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1Element(&tbs, cbasn1.SEQUENCE) {
		return errors.New("malformed certificate")
	}
	_, algDER, ok := der.ReadAlgorithmIdentifier(&seq)
	if !ok || !seq.ReadASN1BitString(&bits) || bits.BitLength%8 != 0 {
		return errors.New("malformed certificate")
	}
	alg, err := Parse(algDER)
	if err != nil {
		return err
	}
	return alg.Verify(parent.PublicKey, tbs, bits.Bytes)
}
