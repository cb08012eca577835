// Package oidc verifies the bearer tokens of the API (validation-service.md
// §5 item 2): an OIDC access token, as a JWT, carrying the tenant's UUID in
// the claim urn::svc:tenantId. The tenant's provider comes from the
// control database; its keys from the provider's discovery document and
// JWKS, fetched with zitadel/oidc and cached per issuer.
//
// Checks, in order, each a 401 when it fails:
//
//   - the token is a compact JWS with one signature, of an asymmetric
//     algorithm (RS, PS or ES; "none" and HMAC are refused before any key
//     is looked at: the key-confusion attack has nothing to work with);
//   - it names a tenant, and the tenant has a provider;
//   - the signature verifies with a key of that provider's JWKS, kept for
//     at most KeySetTTL and fetched again when the key ID is unknown, at
//     most once per RefreshInterval whatever the outcome;
//   - iss is the provider's issuer, aud holds its audience (zitadel's
//     access-token verifier does not check the audience: this does);
//   - it is an access token, not the ID token of a browser login, by
//     the provider's AccessTokenRule: its typ is at+jwt, or (by default)
//     it is typed JWT or not at all and carries no claim only ID tokens
//     carry;
//   - exp, nbf and iat hold, with at most Skew of clock difference.
//
// A refusal is a *TokenError whose Reason is a fixed sentence: it never
// echoes what the token claims before its signature is verified.
//
// Because the tenant's own provider must have signed a token naming the
// tenant, a token of tenant A carrying tenant B's UUID fails the
// signature (or the issuer) check of B's provider.
//
// A provider or control database that does not answer is ErrUnavailable
// (502), never a 401: the caller's token may be perfectly good.
package oidc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"
)

// TenantClaim holds the tenant's UUID (validation-service.md §5).
const TenantClaim = "urn::svc:tenantId"

var (
	// ErrUnauthenticated is a token that does not authenticate its bearer:
	// 401. A bearer token's refusal is a *TokenError, which matches it.
	ErrUnauthenticated = errors.New("oidc: not authenticated")
	// ErrUnavailable is a provider or control database that did not
	// answer: 502.
	ErrUnavailable = errors.New("oidc: identity provider or control database unavailable")
	// ErrUnknownTenant is what a Providers returns for a tenant it does
	// not know: the token is then unauthenticated.
	ErrUnknownTenant = errors.New("oidc: unknown tenant")
)

// A Provider is a tenant's OpenID provider, as the control database
// registers it.
type Provider struct {
	Issuer   string
	Audience string
	// AccessTokens is how the provider's access tokens are told from its
	// ID tokens and other JWTs. It has no default: with the zero value,
	// every token of the provider is ErrUnavailable, since a Providers
	// that leaves it out is a wiring mistake and must not fall back to
	// either rule.
	AccessTokens AccessTokenRule
}

// An AccessTokenRule is how a provider's access tokens are told from its
// ID tokens and other JWTs (see accessToken; docs/decisions/0022, point
// 7). The zero value is no rule.
type AccessTokenRule uint8

const (
	// AccessTokensByClaims: typ at+jwt is an access token; typ JWT, or
	// none, is one unless it carries a claim only ID tokens carry (nonce,
	// at_hash, c_hash, s_hash); any other typ is not. The control
	// database's default.
	AccessTokensByClaims AccessTokenRule = iota + 1
	// AccessTokensATJWTOnly: only typ at+jwt (RFC 9068 §2.1) is an access
	// token. For a provider that types every access token so: its ID
	// tokens are then refused whatever claims they carry.
	AccessTokensATJWTOnly
)

// valid reports whether r is one of the rules.
func (r AccessTokenRule) valid() bool {
	return r == AccessTokensByClaims || r == AccessTokensATJWTOnly
}

// Providers resolves a tenant's provider. It returns an error wrapping
// ErrUnknownTenant for a tenant it does not know; any other error is an
// infrastructure failure.
type Providers func(ctx context.Context, tenant string) (Provider, error)

// Identity is an authenticated caller.
type Identity struct {
	Tenant  string
	Subject string
	Issuer  string
	// ClientID is the token's client_id (or azp) when it has one.
	ClientID string
	Expiry   time.Time
}

// Options tune a Verifier; zero values take the defaults.
type Options struct {
	// Skew is the clock difference tolerated on exp, nbf and iat: 30 s.
	Skew time.Duration
	// RefreshInterval bounds how often a provider's JWKS (and discovery
	// document) is fetched, whatever the trigger (an unknown key ID, keys
	// past their lifetime) and whatever the outcome: 30 s, so that
	// garbage key IDs cannot turn requests into requests to the provider,
	// even while it fails. It is also the shortest lifetime of a key set.
	RefreshInterval time.Duration
	// KeySetTTL is how long a JWKS is used before it is fetched again: 1
	// h, or less when the response's Cache-Control max-age or Expires
	// says so (never less than RefreshInterval). A key the provider
	// withdrew stops verifying when it has passed.
	KeySetTTL time.Duration
	// KeySetGrace is how long past its lifetime a key set still verifies
	// while its provider's JWKS cannot be fetched: 5 min. After that,
	// tokens are ErrUnavailable.
	KeySetGrace time.Duration
	// DiscoveryTTL is how long a discovery document is used: 1 h.
	DiscoveryTTL time.Duration
	// Client fetches discovery documents and key sets: a 5 s timeout.
	Client *http.Client
	// Clock is time.Now when nil.
	Clock func() time.Time
}

// A Verifier checks bearer tokens. It is safe for concurrent use.
type Verifier struct {
	providers Providers
	o         Options
	mu        sync.Mutex
	issuers   map[string]*keySet
}

// algorithms are the signature algorithms accepted: asymmetric only.
var algorithms = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512, jose.ES256, jose.ES384, jose.ES512}

// NewVerifier returns a Verifier resolving providers with p.
func NewVerifier(p Providers, o Options) *Verifier {
	return &Verifier{providers: p, o: o.withDefaults(), issuers: map[string]*keySet{}}
}

// withDefaults is o with each zero value replaced by its default.
func (o Options) withDefaults() Options {
	if o.Skew == 0 {
		o.Skew = 30 * time.Second
	}
	if o.RefreshInterval == 0 {
		o.RefreshInterval = 30 * time.Second
	}
	if o.KeySetTTL == 0 {
		o.KeySetTTL = time.Hour
	}
	if o.KeySetGrace == 0 {
		o.KeySetGrace = 5 * time.Minute
	}
	if o.DiscoveryTTL == 0 {
		o.DiscoveryTTL = time.Hour
	}
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 5 * time.Second}
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	return o
}

// claims are the registered claims read, and the tenant.
type claims struct {
	Issuer    string          `json:"iss"`
	Subject   string          `json:"sub"`
	Audience  zoidc.Audience  `json:"aud"`
	Expiry    *zoidc.Time     `json:"exp"`
	NotBefore *zoidc.Time     `json:"nbf"`
	IssuedAt  *zoidc.Time     `json:"iat"`
	ClientID  string          `json:"client_id"`
	AZP       string          `json:"azp"`
	Tenant    json.RawMessage `json:"urn::svc:tenantId"`
	idTokenClaims
}

// Verify authenticates token (without "Bearer "). A refused token is a
// *TokenError (ErrUnauthenticated); a provider or control database that
// does not answer is ErrUnavailable.
func (v *Verifier) Verify(ctx context.Context, token string) (Identity, error) {
	jws, err := parse(token)
	if err != nil {
		return Identity{}, err
	}
	var unverified claims
	if err := json.Unmarshal(jws.UnsafePayloadWithoutVerification(), &unverified); err != nil {
		return Identity{}, refused(ReasonClaims)
	}
	tenant, ok := tenantOf(unverified.Tenant)
	if !ok {
		return Identity{}, refused(ReasonNoTenant)
	}
	p, err := v.providers(ctx, tenant)
	switch {
	case errors.Is(err, ErrUnknownTenant):
		return Identity{}, refused(ReasonUnknownTenant)
	case err != nil:
		return Identity{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	case !p.AccessTokens.valid():
		return Identity{}, fmt.Errorf("%w: the tenant's provider has no access-token rule (%d)", ErrUnavailable, p.AccessTokens)
	}
	payload, err := v.keySet(p.Issuer).VerifySignature(ctx, jws)
	if err != nil {
		return Identity{}, err
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return Identity{}, refused(ReasonClaims)
	}
	if t, _ := tenantOf(c.Tenant); t != tenant {
		return Identity{}, refused(ReasonClaims) // cannot happen: the same bytes, now verified
	}
	switch {
	case c.Issuer != p.Issuer:
		return Identity{}, refused(ReasonIssuer)
	case p.Audience == "" || !slices.Contains([]string(c.Audience), p.Audience):
		return Identity{}, refused(ReasonAudience)
	case !accessToken(p.AccessTokens, jws.Signatures[0].Protected, c):
		return Identity{}, refused(ReasonNotAccessToken)
	}
	if err := c.checkTimes(v.o.Clock(), v.o.Skew); err != nil {
		return Identity{}, err
	}
	id := Identity{Tenant: tenant, Subject: c.Subject, Issuer: c.Issuer, ClientID: c.ClientID, Expiry: c.Expiry.AsTime()}
	if id.ClientID == "" {
		id.ClientID = c.AZP
	}
	return id, nil
}

// tenantOf reads the tenant claim: a non-empty string.
func tenantOf(raw json.RawMessage) (string, bool) {
	var s string
	if len(raw) == 0 || json.Unmarshal(raw, &s) != nil || s == "" {
		return "", false
	}
	return s, true
}

// keySet returns the key set of an issuer, creating it on first use.
func (v *Verifier) keySet(iss string) *keySet {
	v.mu.Lock()
	defer v.mu.Unlock()
	s, ok := v.issuers[iss]
	if !ok {
		if len(v.issuers) >= maxIssuers {
			clear(v.issuers) // a bounded cache: issuers come from the control database
		}
		s = newKeySet(iss, v.o)
		v.issuers[iss] = s
	}
	return s
}

// maxIssuers bounds the issuers whose keys are kept.
const maxIssuers = 1024
