package signjwt

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"strings"
	"sync"

	jose "github.com/go-jose/go-jose/v4"
)

// keyCache keeps parsed public keys, so that PEM and JWK parsing is not
// done per request. It is keyed by the registration's text as well as by
// (tenant, kid): a key replaced in the control database is parsed afresh,
// and the old entry is simply never asked for again. Only keys the
// lookup returned enter it, so its size is bounded by the registrations,
// not by what callers send; maxSize bounds it regardless.
type keyCache struct {
	mu      sync.RWMutex
	keys    map[cacheKey]crypto.PublicKey
	maxSize int
}

type cacheKey struct {
	tenant, kid, alg, publicKey string
}

func newKeyCache(maxSize int) *keyCache {
	return &keyCache{keys: map[cacheKey]crypto.PublicKey{}, maxSize: maxSize}
}

// get returns k's parsed public key, checked against its algorithm.
func (c *keyCache) get(k Key) (crypto.PublicKey, error) {
	ck := cacheKey{tenant: k.Tenant, kid: k.Kid, alg: k.Algorithm, publicKey: k.PublicKey}
	c.mu.RLock()
	pub, ok := c.keys[ck]
	c.mu.RUnlock()
	if ok {
		return pub, nil
	}
	pub, err := parseKey(k.Algorithm, k.PublicKey)
	if err != nil {
		return nil, err // not cached: a fixed registration is picked up at once
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.keys) >= c.maxSize {
		// Drop an arbitrary entry. More registered keys than maxSize in
		// active use only costs parsing, never correctness.
		for old := range c.keys {
			delete(c.keys, old)
			break
		}
	}
	c.keys[ck] = pub
	return pub, nil
}

// parseKey parses a registered public key, PEM or JWK, and checks that it
// fits alg: RSA of at least MinRSABits for RS and PS, EC on the curve
// that ES256, ES384 or ES512 names.
func parseKey(alg, text string) (crypto.PublicKey, error) {
	text = strings.TrimSpace(text)
	var (
		pub crypto.PublicKey
		err error
	)
	switch {
	case strings.HasPrefix(text, "-----BEGIN"):
		pub, err = parsePEM(text)
	case strings.HasPrefix(text, "{"):
		pub, err = parseJWK(alg, text)
	default:
		err = errors.New("neither PEM nor a JWK")
	}
	if err != nil {
		return nil, err
	}
	if err := fits(alg, pub); err != nil {
		return nil, err
	}
	return pub, nil
}

func parsePEM(text string) (crypto.PublicKey, error) {
	b, rest := pem.Decode([]byte(text))
	switch {
	case b == nil:
		return nil, errors.New("PEM does not decode")
	case b.Type != "PUBLIC KEY":
		return nil, fmt.Errorf("PEM block %q is not a PUBLIC KEY", b.Type)
	case strings.TrimSpace(string(rest)) != "":
		return nil, errors.New("data after the PEM block")
	}
	pub, err := x509.ParsePKIXPublicKey(b.Bytes)
	if err != nil {
		return nil, fmt.Errorf("SubjectPublicKeyInfo: %w", err)
	}
	return pub, nil
}

// parseJWK parses a JWK (RFC 7517). Its optional alg and use must agree
// with the registration: a key marked for another use or algorithm was
// registered by mistake.
func parseJWK(alg, text string) (crypto.PublicKey, error) {
	var jwk jose.JSONWebKey
	if err := jwk.UnmarshalJSON([]byte(text)); err != nil {
		return nil, fmt.Errorf("JWK: %w", err)
	}
	switch {
	case !jwk.IsPublic() || !jwk.Valid():
		return nil, errors.New("JWK is not a valid public key")
	case jwk.Algorithm != "" && jwk.Algorithm != alg:
		return nil, fmt.Errorf("JWK alg %s differs from the registered %s", jwk.Algorithm, alg)
	case jwk.Use != "" && jwk.Use != "sig":
		return nil, fmt.Errorf("JWK use %q is not sig", jwk.Use)
	}
	return jwk.Key, nil
}

// fits checks that pub is a key for alg.
func fits(alg string, pub crypto.PublicKey) error {
	switch alg {
	case "RS256", "RS384", "RS512", "PS256", "PS384", "PS512":
		k, ok := pub.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("%s needs an RSA key, not %T", alg, pub)
		}
		if k.N.BitLen() < MinRSABits {
			return fmt.Errorf("RSA key of %d bits, fewer than %d", k.N.BitLen(), MinRSABits)
		}
		return nil
	case "ES256", "ES384", "ES512":
		k, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return fmt.Errorf("%s needs an EC key, not %T", alg, pub)
		}
		want := map[string]elliptic.Curve{"ES256": elliptic.P256(), "ES384": elliptic.P384(), "ES512": elliptic.P521()}[alg]
		if k.Curve != want {
			return fmt.Errorf("%s needs curve %s, not %s", alg, want.Params().Name, k.Curve.Params().Name)
		}
		return nil
	}
	// HS*, none, EdDSA or a typo: nothing the profile allows.
	return fmt.Errorf("algorithm %q is not one of RS, PS or ES 256/384/512", alg)
}
