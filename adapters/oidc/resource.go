package oidc

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// A KeySource is where a ResourceServer finds the keys of the client-signed
// JWTs it accepts: exactly one of its fields is set (signing-server.md §5
// rule 4).
type KeySource struct {
	// JWKSetURI is a JWKS endpoint; keys rotate by kid.
	JWKSetURI string
	// PublicKeys are keys read from a public-key file ([ReadPublicKeys]).
	PublicKeys []crypto.PublicKey
	// IssuerURI is an OpenID issuer: its discovery document names the
	// JWKS, and tokens must carry it as iss.
	IssuerURI string
}

// ErrNoKeySource is a KeySource with no source, or with more than one.
var ErrNoKeySource = errors.New("oidc: a resource server needs exactly one key source")

// A ResourceServer checks the client-signed JWTs of paths that are neither
// public nor self-authenticating: the signature with a key of its one key
// source, by an asymmetric algorithm (RS, PS, ES), then exp (required),
// nbf and iat with Options.Skew of clock difference and, for an issuer
// source, iss. It does not check an audience: no setting names one.
// A ResourceServer is safe for concurrent use.
type ResourceServer struct {
	o      Options
	static []crypto.PublicKey
	keys   *keySet
	iss    string
}

// NewResourceServer returns a ResourceServer for src.
func NewResourceServer(src KeySource, o Options) (*ResourceServer, error) {
	n := 0
	for _, set := range []bool{src.JWKSetURI != "", len(src.PublicKeys) > 0, src.IssuerURI != ""} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, fmt.Errorf("%w, got %d", ErrNoKeySource, n)
	}
	o = o.withDefaults()
	r := &ResourceServer{o: o, static: src.PublicKeys}
	switch {
	case src.JWKSetURI != "":
		r.keys = newFixedKeySet(src.JWKSetURI, o)
	case src.IssuerURI != "":
		r.keys = newKeySet(src.IssuerURI, o)
		r.iss = src.IssuerURI
	}
	return r, nil
}

// Subject is the caller a ResourceServer authenticated.
type Subject struct {
	Subject string
	Issuer  string
	Expiry  time.Time
}

// Verify authenticates token (without "Bearer "). A refused token is a
// *TokenError (ErrUnauthenticated, 401); a key source that does not
// answer is ErrUnavailable (502). A key set is kept and fetched as the
// Verifier's are (KeySetTTL, RefreshInterval, KeySetGrace).
func (r *ResourceServer) Verify(ctx context.Context, token string) (Subject, error) {
	jws, err := parse(token)
	if err != nil {
		return Subject{}, err
	}
	var payload []byte
	if r.keys != nil {
		payload, err = r.keys.VerifySignature(ctx, jws)
	} else {
		payload, err = verifyStatic(jws, r.static)
	}
	if err != nil {
		return Subject{}, err
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return Subject{}, refused(ReasonClaims)
	}
	if r.iss != "" && c.Issuer != r.iss {
		return Subject{}, refused(ReasonIssuer)
	}
	if err := c.checkTimes(r.o.Clock(), r.o.Skew); err != nil {
		return Subject{}, err
	}
	return Subject{Subject: c.Subject, Issuer: c.Issuer, Expiry: c.Expiry.AsTime()}, nil
}

// verifyStatic verifies jws with the first of keys of the algorithm's key
// type that verifies it. A public-key file names no key IDs, so the
// token's kid is not used.
func verifyStatic(jws *jose.JSONWebSignature, keys []crypto.PublicKey) ([]byte, error) {
	alg := jose.SignatureAlgorithm(jws.Signatures[0].Header.Algorithm)
	for _, k := range keys {
		if !fits(alg, k) {
			continue
		}
		if payload, err := jws.Verify(k); err == nil {
			return payload, nil
		}
	}
	return nil, refused(ReasonSignature)
}

// fits reports whether alg is an algorithm of k's type, so that an RSA key
// is never tried with ES256 and the reverse.
func fits(alg jose.SignatureAlgorithm, k crypto.PublicKey) bool {
	switch k.(type) {
	case *rsa.PublicKey:
		return alg == jose.RS256 || alg == jose.RS384 || alg == jose.RS512 || alg == jose.PS256 || alg == jose.PS384 || alg == jose.PS512
	case *ecdsa.PublicKey:
		return alg == jose.ES256 || alg == jose.ES384 || alg == jose.ES512
	}
	return false
}

// ReadPublicKeys reads a public-key file: PEM blocks "PUBLIC KEY" (RSA or
// EC, PKIX), "RSA PUBLIC KEY" (PKCS #1) or "CERTIFICATE" (the key of the
// certificate). Other blocks, and a file with no key, are errors.
func ReadPublicKeys(path string) ([]crypto.PublicKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("oidc: public-key file: %w", err)
	}
	var keys []crypto.PublicKey
	for n := 1; ; n++ {
		var b *pem.Block
		b, raw = pem.Decode(raw)
		if b == nil {
			break
		}
		var k any
		switch b.Type {
		case "PUBLIC KEY":
			k, err = x509.ParsePKIXPublicKey(b.Bytes)
		case "RSA PUBLIC KEY":
			k, err = x509.ParsePKCS1PublicKey(b.Bytes)
		case "CERTIFICATE":
			var c *x509.Certificate
			if c, err = x509.ParseCertificate(b.Bytes); err == nil {
				k = c.PublicKey
			}
		default:
			return nil, fmt.Errorf("oidc: public-key file %s: block %d is a %q, not a public key or certificate", path, n, b.Type)
		}
		if err != nil {
			return nil, fmt.Errorf("oidc: public-key file %s: block %d: %w", path, n, err)
		}
		switch k.(type) {
		case *rsa.PublicKey, *ecdsa.PublicKey:
			keys = append(keys, k)
		default:
			return nil, fmt.Errorf("oidc: public-key file %s: block %d: a %T; only RSA and EC keys are accepted", path, n, k)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("oidc: public-key file %s holds no PEM public key", path)
	}
	return keys, nil
}
