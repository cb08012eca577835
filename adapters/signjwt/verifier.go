package signjwt

import (
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/svc-dss/dss/ports"
)

// The token's profile (see the package documentation).
const (
	// Type is the typ header of the token; [MediaType] is accepted too.
	Type = "svc-dss-sign+jwt"
	// MediaType is the full media type of the token (RFC 8725 §3.11).
	MediaType = "application/" + Type
	// Audience is the aud the token must contain: this server.
	Audience = "urn:svc-dss:server-signing"

	// ClaimTenant holds the tenant's UUID.
	ClaimTenant = "urn::svc:tenantId"
	// ClaimModule holds the UUID of the tenant's DSS module instance.
	ClaimModule = "urn::svc:moduleUuid"
	// ClaimBodySHA256 holds [BodyDigest] of the request body.
	ClaimBodySHA256 = "urn::svc:bodySha256"

	// MaxLifetime bounds exp − iat.
	MaxLifetime = 5 * time.Minute
	// Skew is the clock difference tolerated on exp, nbf and iat.
	Skew = 60 * time.Second
	// MaxJTILength bounds the jti, which the replay store keeps.
	MaxJTILength = 128
	// MaxTokenBytes bounds the token parsed: a compact JWS of this
	// profile is well under 2 KiB even with an RSA-4096 signature.
	MaxTokenBytes = 8 << 10
	// MinRSABits is the smallest RSA modulus accepted for RS and PS keys.
	MinRSABits = 2048
)

var (
	// ErrUnauthenticated is a token that does not authenticate its bearer:
	// 401. Errors wrapping it are [*RefusalError]s.
	ErrUnauthenticated = errors.New("signjwt: not authenticated")
	// ErrForbidden is a token that verified with a key registered for
	// another module of the tenant than the one it claims: 403. Errors
	// wrapping it are [*RefusalError]s.
	ErrForbidden = errors.New("signjwt: key of another module")
	// ErrUnavailable is a key lookup or replay store that failed, or a
	// registered key that cannot be used: 502.
	ErrUnavailable = errors.New("signjwt: control database or replay store unavailable")
	// ErrBadRegistration is a registered key that does not parse or does
	// not fit its registered algorithm. Errors wrapping it also wrap
	// ErrUnavailable: the caller is not at fault, the control database is.
	ErrBadRegistration = errors.New("signjwt: registered key unusable")
	// ErrUnknownKey is what a [Lookup] returns for a (tenant, kid) it does
	// not know.
	ErrUnknownKey = errors.New("signjwt: unknown key")
)

// A Key is a caller's registered public key.
type Key struct {
	Tenant string // the tenant's UUID
	// Module is the UUID of the DSS module instance the key is registered
	// for.
	Module string
	Kid    string
	// Algorithm is the JWS algorithm registered with the key: RS256 …
	// PS512, ES256 … ES512.
	Algorithm string
	// PublicKey is the key as registered: PEM ("-----BEGIN PUBLIC
	// KEY-----", SubjectPublicKeyInfo) or a JWK as JSON.
	PublicKey string
}

// Lookup returns the enabled key registered as kid for tenant. It returns
// an error wrapping [ErrUnknownKey] when there is none; any other error
// is an infrastructure failure (502). The kid comes from an unverified
// token: Lookup must treat it as untrusted input.
type Lookup func(ctx context.Context, tenant, kid string) (Key, error)

// Identity is an authenticated proxy.
type Identity struct {
	Tenant  string // the tenant's UUID, lower case
	Module  string // the module instance's UUID, lower case
	Kid     string
	JTI     string
	Subject string // the sub claim, "" when absent
}

// Options tune a Verifier; zero values take the defaults.
type Options struct {
	// Clock is time.Now when nil.
	Clock func() time.Time
	// Skew is the clock difference tolerated on exp, nbf and iat: [Skew].
	Skew time.Duration
	// MaxLifetime bounds exp − iat: [MaxLifetime].
	MaxLifetime time.Duration
	// Audience is the aud the token must contain: [Audience].
	Audience string
	// ParsedKeyCacheSize bounds how many parsed public keys are kept:
	// 1024.
	ParsedKeyCacheSize int
}

// A Verifier authenticates signing requests. It is safe for concurrent
// use.
type Verifier struct {
	lookup Lookup
	replay ports.ReplayStore
	o      Options
	keys   *keyCache
}

// algorithms are the JWS algorithms parsed at all: asymmetric only. The
// registered key then narrows them to one.
var algorithms = []jose.SignatureAlgorithm{
	jose.RS256, jose.RS384, jose.RS512,
	jose.PS256, jose.PS384, jose.PS512,
	jose.ES256, jose.ES384, jose.ES512,
}

// NewVerifier returns a Verifier that looks keys up with lookup and
// records each jti in replay. It panics when either is nil: a wiring
// mistake should fail at startup, not on the first request.
func NewVerifier(lookup Lookup, replay ports.ReplayStore, o Options) *Verifier {
	if lookup == nil {
		panic("signjwt: nil Lookup")
	}
	if replay == nil {
		panic("signjwt: nil ReplayStore")
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Skew <= 0 {
		o.Skew = Skew
	}
	if o.MaxLifetime <= 0 {
		o.MaxLifetime = MaxLifetime
	}
	if o.Audience == "" {
		o.Audience = Audience
	}
	if o.ParsedKeyCacheSize <= 0 {
		o.ParsedKeyCacheSize = 1024
	}
	return &Verifier{lookup: lookup, replay: replay, o: o, keys: newKeyCache(o.ParsedKeyCacheSize)}
}

// A RefusalError is a token refused: 401 or 403. Reason is in fixed words
// and may be shown to the caller; Detail, for the log only, says more.
type RefusalError struct {
	// Class is ErrUnauthenticated or ErrForbidden.
	Class error
	// Reason says what is wrong with the token. It never holds the token,
	// nor anything read from it before its signature verified (the kid,
	// the tenant claim, the alg), nor what the control database holds.
	Reason string
	// Detail is "" or what the log needs beyond Reason, such as the kid
	// and tenant claimed. It is not for the caller.
	Detail string
}

func (e *RefusalError) Error() string {
	if e.Detail == "" {
		return e.Class.Error() + ": " + e.Reason
	}
	return e.Class.Error() + ": " + e.Reason + " (" + e.Detail + ")"
}

func (e *RefusalError) Unwrap() error { return e.Class }

// ReasonSignature is the one Reason of every token whose signature does
// not verify with a key registered for its tenant claim and kid: an
// unknown kid, a kid of another tenant, an alg other than the registered
// one, a signature by another key. Telling them apart would let anyone
// list a tenant's kids and their algorithms.
const ReasonSignature = "the token's signature does not verify with a key registered for its tenant and kid"

// unauthenticated is a 401 whose reason says it all.
func unauthenticated(reason string) error {
	return &RefusalError{Class: ErrUnauthenticated, Reason: reason}
}

// badSignature is the 401 of ReasonSignature, with what happened for the
// log.
func badSignature(format string, args ...any) error {
	return &RefusalError{Class: ErrUnauthenticated, Reason: ReasonSignature, Detail: fmt.Sprintf(format, args...)}
}

// Verify authenticates a request to sign-ska from its Authorization
// header value and its exact body bytes. It returns an error wrapping
// ErrUnauthenticated or ErrForbidden, each a [*RefusalError], or
// ErrUnavailable.
//
// A token verifies once: Verify records its jti, so the same request sent
// twice fails the second time. Verify does not compare the body's
// tenantId and moduleUuid with the Identity; the caller must.
func (v *Verifier) Verify(ctx context.Context, header string, body []byte) (Identity, error) {
	token, err := bearer(header)
	if err != nil {
		return Identity{}, err
	}
	// 1. Parse, trusting nothing yet.
	jws, err := jose.ParseSignedCompact(token, algorithms)
	if err != nil {
		return Identity{}, unauthenticated("not a compact JWS signed with an asymmetric algorithm")
	}
	if len(jws.Signatures) != 1 {
		return Identity{}, unauthenticated("a token needs exactly one signature")
	}
	h := jws.Signatures[0].Protected
	if err := checkHeader(h); err != nil {
		return Identity{}, err
	}
	c, err := readClaims(jws.UnsafePayloadWithoutVerification())
	if err != nil {
		return Identity{}, err
	}
	tenant, ok := canonicalUUID(c.tenant)
	if !ok {
		return Identity{}, unauthenticated(fmt.Sprintf("claim %s is not a UUID", ClaimTenant))
	}
	module, ok := canonicalUUID(c.module)
	if !ok {
		return Identity{}, unauthenticated(fmt.Sprintf("claim %s is not a UUID", ClaimModule))
	}

	// 2. The registered key, and 3. the signature. Whatever the registry
	// holds for (tenant, kid), one signature of the token's alg is
	// verified, and every failure is ReasonSignature: neither the answer
	// nor its timing tells an unknown kid from a known one.
	kid := h.KeyID
	key, err := v.key(ctx, tenant, kid)
	if err != nil && !errors.Is(err, ErrUnknownKey) {
		return Identity{}, err
	}
	known := err == nil
	var pub crypto.PublicKey
	if known {
		if pub, err = v.keys.get(key); err != nil {
			return Identity{}, fmt.Errorf("%w: %w: tenant %s, kid %q: %w", ErrUnavailable, ErrBadRegistration, tenant, kid, err)
		}
	}
	usable := known && h.Algorithm == key.Algorithm
	if !usable {
		pub = standIn(jose.SignatureAlgorithm(h.Algorithm))
	}
	_, verr := jws.Verify(pub)
	switch {
	case !known:
		return Identity{}, badSignature("kid %q is not registered for tenant %s", kid, tenant)
	case !usable:
		return Identity{}, badSignature("alg %s is not the %s registered for kid %q", h.Algorithm, key.Algorithm, kid)
	case verr != nil:
		return Identity{}, badSignature("the signature does not verify with kid %q", kid)
	}
	// The claims read above are the payload this signature covers.

	// 4. The claims.
	if err := v.checkClaims(c, body); err != nil {
		return Identity{}, err
	}

	// 5. Authenticated; now authorised for the module it claims?
	if !strings.EqualFold(key.Module, module) {
		return Identity{}, &RefusalError{Class: ErrForbidden, Reason: "the token's key is registered for another module than its module claim",
			Detail: fmt.Sprintf("kid %q is registered for module %s, not %s", kid, key.Module, module)}
	}

	// 6. Single use, recorded last so that only a token that passed every
	// other check can use up a jti.
	ok, err = v.replay.Use(ctx, tenant+"/"+kid+"/"+c.jti, c.exp.Add(v.o.Skew))
	switch {
	case err != nil:
		return Identity{}, fmt.Errorf("%w: replay store: %w", ErrUnavailable, err)
	case !ok:
		return Identity{}, &RefusalError{Class: ErrUnauthenticated, Reason: "the token's jti was used before", Detail: fmt.Sprintf("kid %q", kid)}
	}
	return Identity{Tenant: tenant, Module: module, Kid: kid, JTI: c.jti, Subject: c.sub}, nil
}

// bearer returns the token of an Authorization header value: "Bearer
// <token>" or the bare token.
func bearer(header string) (string, error) {
	header = strings.TrimSpace(header)
	if header == "" {
		return "", unauthenticated("no Authorization header")
	}
	token := header
	if scheme, rest, ok := strings.Cut(header, " "); ok {
		if !strings.EqualFold(scheme, "Bearer") {
			return "", unauthenticated("Authorization scheme is not Bearer")
		}
		token = strings.TrimSpace(rest)
	}
	switch {
	case token == "":
		return "", unauthenticated("no bearer token")
	case len(token) > MaxTokenBytes:
		return "", unauthenticated(fmt.Sprintf("token longer than %d bytes", MaxTokenBytes))
	case strings.ContainsAny(token, " \t"):
		return "", unauthenticated("malformed Authorization header")
	}
	return token, nil
}

// checkHeader checks the protected header: typ, kid, no extensions.
func checkHeader(h jose.Header) error {
	typ, _ := h.ExtraHeaders[jose.HeaderType].(string)
	if !strings.EqualFold(typ, Type) && !strings.EqualFold(typ, MediaType) {
		// RFC 8725 §3.11: explicit typing keeps other kinds of JWT out.
		return unauthenticated("typ is not " + Type)
	}
	if h.KeyID == "" {
		return unauthenticated("no kid")
	}
	for _, k := range []jose.HeaderKey{"crit", "b64"} {
		if _, ok := h.ExtraHeaders[k]; ok {
			return unauthenticated(fmt.Sprintf("header parameter %s is not part of this profile", k))
		}
	}
	return nil
}

// checkClaims checks everything in the verified claims but the module
// and the replay.
func (v *Verifier) checkClaims(c claims, body []byte) error {
	now := v.o.Clock()
	switch {
	case c.iss == "" || c.iss != c.module:
		return unauthenticated("iss is not the module claim")
	case !c.aud.Contains(v.o.Audience):
		return unauthenticated("aud does not contain " + v.o.Audience)
	case c.exp.IsZero():
		return unauthenticated("no exp")
	case c.iat.IsZero():
		return unauthenticated("no iat")
	case now.After(c.exp.Add(v.o.Skew)):
		return unauthenticated("expired at " + c.exp.UTC().Format(time.RFC3339))
	case !c.nbf.IsZero() && now.Add(v.o.Skew).Before(c.nbf):
		return unauthenticated("not valid before " + c.nbf.UTC().Format(time.RFC3339))
	case now.Add(v.o.Skew).Before(c.iat):
		return unauthenticated("issued in the future, at " + c.iat.UTC().Format(time.RFC3339))
	case c.exp.Before(c.iat):
		return unauthenticated("expires before it was issued")
	case c.exp.Sub(c.iat) > v.o.MaxLifetime:
		return unauthenticated(fmt.Sprintf("lifetime %s is longer than %s", c.exp.Sub(c.iat), v.o.MaxLifetime))
	case c.jti == "":
		return unauthenticated("no jti")
	case len(c.jti) > MaxJTILength:
		return unauthenticated(fmt.Sprintf("jti longer than %d characters", MaxJTILength))
	}
	if c.bodySHA256 == "" {
		return unauthenticated("no " + ClaimBodySHA256)
	}
	got, err := base64.RawURLEncoding.Strict().DecodeString(c.bodySHA256)
	if err != nil || len(got) != sha256.Size {
		return unauthenticated(ClaimBodySHA256 + " is not an unpadded base64url SHA-256")
	}
	want := sha256.Sum256(body)
	if subtle.ConstantTimeCompare(got, want[:]) != 1 {
		return unauthenticated(ClaimBodySHA256 + " is not the digest of the request body")
	}
	return nil
}

// BodyDigest is the value of [ClaimBodySHA256] for a request body: the
// unpadded base64url SHA-256 of body.
func BodyDigest(body []byte) string {
	sum := sha256.Sum256(body)
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// key looks up the key registered as kid for tenant. An unknown kid is an
// error wrapping ErrUnknownKey; any other error wraps ErrUnavailable.
func (v *Verifier) key(ctx context.Context, tenant, kid string) (Key, error) {
	key, err := v.lookup(ctx, tenant, kid)
	switch {
	case errors.Is(err, ErrUnknownKey):
		return Key{}, err
	case err != nil:
		return Key{}, fmt.Errorf("%w: key lookup: %w", ErrUnavailable, err)
	}
	// A Lookup answering for another (tenant, kid) is a bug in it; fail
	// closed rather than trust its key.
	if !strings.EqualFold(key.Tenant, tenant) || key.Kid != kid {
		return Key{}, fmt.Errorf("%w: %w: lookup of tenant %s, kid %q returned another key", ErrUnavailable, ErrBadRegistration, tenant, kid)
	}
	return key, nil
}

// canonicalUUID returns s in lower case when it is a UUID in its textual
// form (8-4-4-4-12 hexadecimal digits).
func canonicalUUID(s string) (string, bool) {
	if len(s) != 36 {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return "", false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f', 'A' <= c && c <= 'F':
		default:
			return "", false
		}
	}
	return strings.ToLower(s), true
}
