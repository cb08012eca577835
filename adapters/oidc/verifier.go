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
//   - the signature verifies with a key of that provider's JWKS, fetched
//     again when the key ID is unknown (at most once per RefreshInterval);
//   - iss is the provider's issuer, aud holds its audience (zitadel's
//     access-token verifier does not check the audience: this does);
//   - exp, nbf and iat hold, with at most Skew of clock difference.
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
	"github.com/zitadel/oidc/v3/pkg/client"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"
)

// TenantClaim holds the tenant's UUID (validation-service.md §5).
const TenantClaim = "urn::svc:tenantId"

var (
	// ErrUnauthenticated is a token that does not authenticate its bearer:
	// 401. The wrapped message says why, for logs; it never holds the
	// token.
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
	// RefreshInterval bounds how often an unknown key ID makes the JWKS be
	// fetched again (the first time always): 30 s, so that garbage key
	// IDs cannot turn every request into a request to the provider.
	RefreshInterval time.Duration
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
	issuers   map[string]*issuer
}

// algorithms are the signature algorithms accepted: asymmetric only.
var algorithms = []jose.SignatureAlgorithm{jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512, jose.ES256, jose.ES384, jose.ES512}

// NewVerifier returns a Verifier resolving providers with p.
func NewVerifier(p Providers, o Options) *Verifier {
	return &Verifier{providers: p, o: o.withDefaults(), issuers: map[string]*issuer{}}
}

// withDefaults is o with each zero value replaced by its default.
func (o Options) withDefaults() Options {
	if o.Skew == 0 {
		o.Skew = 30 * time.Second
	}
	if o.RefreshInterval == 0 {
		o.RefreshInterval = 30 * time.Second
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

func unauthenticated(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUnauthenticated, fmt.Sprintf(format, args...))
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
}

// Verify authenticates token (without "Bearer ").
func (v *Verifier) Verify(ctx context.Context, token string) (Identity, error) {
	if token == "" {
		return Identity{}, unauthenticated("no bearer token")
	}
	jws, err := jose.ParseSigned(token, algorithms)
	if err != nil {
		return Identity{}, unauthenticated("not a JWT signed with an accepted algorithm")
	}
	if len(jws.Signatures) != 1 {
		return Identity{}, unauthenticated("a JWT needs exactly one signature")
	}
	var unverified claims
	if err := json.Unmarshal(jws.UnsafePayloadWithoutVerification(), &unverified); err != nil {
		return Identity{}, unauthenticated("the token's claims do not read")
	}
	tenant, ok := tenantOf(unverified.Tenant)
	if !ok {
		return Identity{}, unauthenticated("the token names no tenant (claim %s)", TenantClaim)
	}
	p, err := v.providers(ctx, tenant)
	switch {
	case errors.Is(err, ErrUnknownTenant):
		return Identity{}, unauthenticated("tenant %s has no identity provider", tenant)
	case err != nil:
		return Identity{}, fmt.Errorf("%w: %w", ErrUnavailable, err)
	}
	keys, err := v.issuer(p.Issuer)
	if err != nil {
		return Identity{}, err
	}
	payload, err := keys.VerifySignature(ctx, jws)
	if err != nil {
		return Identity{}, err
	}
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil {
		return Identity{}, unauthenticated("the token's claims do not read")
	}
	if t, _ := tenantOf(c.Tenant); t != tenant {
		return Identity{}, unauthenticated("the signed tenant claim differs")
	}
	now := v.o.Clock()
	switch {
	case c.Issuer != p.Issuer:
		return Identity{}, unauthenticated("issuer %q is not tenant %s's provider", c.Issuer, tenant)
	case p.Audience == "" || !slices.Contains([]string(c.Audience), p.Audience):
		return Identity{}, unauthenticated("the token is not for this service (audience)")
	case c.Expiry == nil:
		return Identity{}, unauthenticated("the token has no expiry")
	case now.Add(-v.o.Skew).After(c.Expiry.AsTime()):
		return Identity{}, unauthenticated("the token expired at %s", c.Expiry.AsTime().UTC().Format(time.RFC3339))
	case c.NotBefore != nil && now.Add(v.o.Skew).Before(c.NotBefore.AsTime()):
		return Identity{}, unauthenticated("the token is not valid before %s", c.NotBefore.AsTime().UTC().Format(time.RFC3339))
	case c.IssuedAt != nil && now.Add(v.o.Skew).Before(c.IssuedAt.AsTime()):
		return Identity{}, unauthenticated("the token was issued in the future")
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

// issuer returns the key set of an issuer, creating it on first use.
func (v *Verifier) issuer(iss string) (*issuer, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	i, ok := v.issuers[iss]
	if !ok {
		if len(v.issuers) >= maxIssuers {
			clear(v.issuers) // a bounded cache: issuers come from the control database
		}
		i = &issuer{name: iss, o: v.o}
		v.issuers[iss] = i
	}
	return i, nil
}

// maxIssuers bounds the issuers whose keys are kept.
const maxIssuers = 1024

// issuer is one provider's discovery document and key set. It implements
// zitadel's oidc.KeySet.
type issuer struct {
	name string
	o    Options

	mu      sync.Mutex
	jwksURI string
	// fixed is a key set named directly (a JWKS URI), not discovered.
	fixed      bool
	discovered time.Time
	keys       []jose.JSONWebKey
	// refreshed is when an unknown key ID last made the keys be fetched
	// again.
	refreshed time.Time
}

var _ zoidc.KeySet = (*issuer)(nil)

// VerifySignature verifies jws with the issuer's keys, fetching them when
// none is known yet or the token's key ID is unknown (rate-limited).
func (i *issuer) VerifySignature(ctx context.Context, jws *jose.JSONWebSignature) ([]byte, error) {
	kid, alg := zoidc.GetKeyIDAndAlg(jws)
	keys, err := i.keySet(ctx, false)
	if err != nil {
		return nil, err
	}
	key, err := zoidc.FindMatchingKey(kid, zoidc.KeyUseSignature, alg, keys...)
	if err != nil {
		// An unknown key ID: perhaps the provider rotated its keys.
		if keys, err = i.keySet(ctx, true); err != nil {
			return nil, err
		}
		if key, err = zoidc.FindMatchingKey(kid, zoidc.KeyUseSignature, alg, keys...); err != nil {
			return nil, unauthenticated("key %q is not one of %s's", kid, i.name)
		}
	}
	payload, err := jws.Verify(&key)
	if err != nil {
		return nil, unauthenticated("the signature does not verify")
	}
	return payload, nil
}

// keySet returns the cached keys, fetching them (and the discovery
// document when due) when there are none, or when refresh is asked and
// the last fetch is older than RefreshInterval.
func (i *issuer) keySet(ctx context.Context, refresh bool) ([]jose.JSONWebKey, error) {
	i.mu.Lock()
	defer i.mu.Unlock()
	now := i.o.Clock()
	if i.keys != nil && (!refresh || (!i.refreshed.IsZero() && now.Sub(i.refreshed) < i.o.RefreshInterval)) {
		return i.keys, nil
	}
	if !i.fixed && (i.jwksURI == "" || now.Sub(i.discovered) > i.o.DiscoveryTTL) {
		cfg, err := client.Discover(ctx, i.name, i.o.Client)
		if err != nil {
			return nil, fmt.Errorf("%w: discovery of %s: %w", ErrUnavailable, i.name, err)
		}
		if cfg.Issuer != i.name || cfg.JwksURI == "" {
			return nil, fmt.Errorf("%w: %s's discovery document names issuer %q and key set %q", ErrUnavailable, i.name, cfg.Issuer, cfg.JwksURI)
		}
		i.jwksURI, i.discovered = cfg.JwksURI, now
	}
	keys, err := fetchKeys(ctx, i.o.Client, i.jwksURI)
	if err != nil {
		return nil, fmt.Errorf("%w: keys of %s: %w", ErrUnavailable, i.name, err)
	}
	i.keys = keys
	if refresh {
		i.refreshed = now
	}
	return keys, nil
}

// fetchKeys reads a JWKS document (RFC 7517).
func fetchKeys(ctx context.Context, c *http.Client, url string) ([]jose.JSONWebKey, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	res, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("status %s", res.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(http.MaxBytesReader(nil, res.Body, 1<<20)).Decode(&set); err != nil {
		return nil, fmt.Errorf("key set: %w", err)
	}
	keys := set.Keys[:0:0]
	for _, k := range set.Keys {
		if k.IsPublic() && k.Valid() {
			keys = append(keys, k)
		}
	}
	return keys, nil
}
