package jades

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"errors"
	"fmt"
	"strings"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// jwsAlgorithm is a JWS "alg" this reader verifies (RFC 7518 section 3).
type jwsAlgorithm struct {
	alg  cert.SignatureAlgorithm
	name string // as ades.Check names it: RSA-SHA256...
	// curve is, for ES*, the curve the key must be on: the function,
	// called when a key is checked, since building the curves at package
	// initialisation costs every process start (docs/decisions/0044).
	curve func() elliptic.Curve
}

// algorithms are RS, PS and ES with SHA-256, 384 and 512. PS uses MGF1
// with the same hash and a salt as long as the hash (RFC 7518 3.5); ES
// an r||s value of twice the curve's size (3.4).
var algorithms = map[string]jwsAlgorithm{}

func init() {
	for _, h := range []struct {
		bits  string
		hash  crypto.Hash
		curve func() elliptic.Curve
	}{{"256", crypto.SHA256, elliptic.P256}, {"384", crypto.SHA384, elliptic.P384}, {"512", crypto.SHA512, elliptic.P521}} {
		n := cert.HashName(h.hash)
		algorithms["RS"+h.bits] = jwsAlgorithm{alg: cert.SignatureAlgorithm{Scheme: cert.PKCS1v15, Hash: h.hash}, name: "RSA-" + n}
		algorithms["PS"+h.bits] = jwsAlgorithm{alg: cert.SignatureAlgorithm{Scheme: cert.PSS, Hash: h.hash, SaltLength: h.hash.Size()}, name: "RSASSA-PSS-" + n}
		algorithms["ES"+h.bits] = jwsAlgorithm{alg: cert.SignatureAlgorithm{Scheme: cert.ECDSAPlain, Hash: h.hash}, name: "ECDSA-" + n, curve: h.curve}
	}
}

// registeredUnsupported are JWS algorithms of the IANA registry that are
// signatures, which this reader does not verify: the value is then not
// checked (INDETERMINATE), not a format failure.
var registeredUnsupported = map[string]bool{"EdDSA": true, "Ed25519": true, "Ed448": true, "ES256K": true, "RS1": true}

// errAlgorithmRefused: "none", a MAC, or no JWS algorithm at all.
var errAlgorithmRefused = errors.New("jades: algorithm refused")

// lookupAlgorithm returns the algorithm alg names. ok false and err nil
// is a signature algorithm this reader does not verify.
func lookupAlgorithm(alg string) (a jwsAlgorithm, ok bool, err error) {
	if a, ok := algorithms[alg]; ok {
		return a, true, nil
	}
	switch {
	case alg == "none":
		return a, false, fmt.Errorf("%w: alg \"none\" is an unsecured JWS, no signature", errAlgorithmRefused)
	case strings.HasPrefix(alg, "HS"):
		return a, false, fmt.Errorf("%w: alg %q is a MAC with a shared key, not a signature", errAlgorithmRefused, alg)
	case registeredUnsupported[alg]:
		return a, false, nil
	}
	return a, false, fmt.Errorf("%w: alg %q names no JWS signature algorithm (RFC 7518, 3.1)", errAlgorithmRefused, alg)
}

// keyMatches reports whether pub is a key of the type (and, for ECDSA,
// the curve) a requires.
func (a jwsAlgorithm) keyMatches(pub crypto.PublicKey) bool {
	switch a.alg.Scheme {
	case cert.PKCS1v15, cert.PSS:
		_, ok := pub.(*rsa.PublicKey)
		return ok
	case cert.ECDSAPlain:
		k, ok := pub.(*ecdsa.PublicKey)
		return ok && k.Curve == a.curve()
	}
	return false
}

// digestAlgorithm returns the hash a JAdES digest-algorithm name gives:
// the JWS-style names of TS 119 182-1 (S256, S384, S512) and the XML
// Signature URIs some writers use in x5t#o and sigX5ts.
func digestAlgorithm(name string) (crypto.Hash, bool) {
	switch name {
	case "S256", "http://www.w3.org/2001/04/xmlenc#sha256":
		return crypto.SHA256, true
	case "S384", "http://www.w3.org/2001/04/xmldsig-more#sha384":
		return crypto.SHA384, true
	case "S512", "http://www.w3.org/2001/04/xmlenc#sha512":
		return crypto.SHA512, true
	}
	return 0, false
}
