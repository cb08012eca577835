package oidc

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/zitadel/oidc/v3/pkg/client"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"
)

// keySet is one provider's discovery document and JWKS, as a Verifier or a
// ResourceServer caches them (docs/decisions/0022). It implements
// zitadel's oidc.KeySet and is safe for concurrent use.
//
//   - The keys live KeySetTTL (1 h), or less when the JWKS response's
//     Cache-Control max-age (or Expires) says so, but never less than
//     RefreshInterval. Once that has passed, the next token fetches them
//     again, so a key the provider withdrew stops verifying.
//   - An unknown key ID fetches them again before its lifetime is up
//     (the provider may have rotated).
//   - Whatever the trigger and whatever the outcome, the JWKS (and
//     discovery) is fetched at most once per RefreshInterval, and callers
//     that need a fetch while one is under way wait for it instead of
//     starting another: garbage key IDs cannot make requests requests to
//     the provider, even while it fails.
//   - When a fetch fails after the lifetime has passed, the expired keys
//     still verify for KeySetGrace (5 min), so that a provider's short
//     outage at the hour is not an outage of the API; after that, tokens
//     are ErrUnavailable (502), never verified with keys the provider may
//     have withdrawn long ago.
type keySet struct {
	// name is the issuer, or the JWKS URI of a fixed set.
	name string
	o    Options
	// fixed is a key set named directly (a JWKS URI), not discovered.
	fixed bool

	mu         sync.Mutex
	jwksURI    string
	discovered time.Time
	keys       []jose.JSONWebKey // nil until a fetch succeeds
	expires    time.Time         // the end of keys' lifetime
	attempted  time.Time         // the last fetch, whatever its outcome
	failure    error             // the last fetch's error; nil after a success
	fetching   chan struct{}     // closed when the fetch under way ends
}

var _ zoidc.KeySet = (*keySet)(nil)

func newKeySet(name string, o Options) *keySet { return &keySet{name: name, o: o} }

func newFixedKeySet(jwksURI string, o Options) *keySet {
	return &keySet{name: jwksURI, o: o, fixed: true, jwksURI: jwksURI}
}

// VerifySignature verifies jws with the provider's keys.
func (s *keySet) VerifySignature(ctx context.Context, jws *jose.JSONWebSignature) ([]byte, error) {
	kid, alg := zoidc.GetKeyIDAndAlg(jws)
	keys, err := s.get(ctx, false)
	if err != nil {
		return nil, err
	}
	key, err := zoidc.FindMatchingKey(kid, zoidc.KeyUseSignature, alg, keys...)
	if err != nil {
		// An unknown key ID: perhaps the provider rotated its keys.
		if keys, err = s.get(ctx, true); err != nil {
			return nil, err
		}
		if key, err = zoidc.FindMatchingKey(kid, zoidc.KeyUseSignature, alg, keys...); err != nil {
			return nil, refused(ReasonUnknownKey)
		}
	}
	payload, err := jws.Verify(&key)
	if err != nil {
		return nil, refused(ReasonSignature)
	}
	return payload, nil
}

// get returns the keys to verify with: the cached ones while their
// lifetime lasts and no fetch is wanted (unknownKid asks for one), else
// those of a fetch when RefreshInterval allows one, else what the last
// fetch left: its keys when it succeeded, the expired keys within
// KeySetGrace when it failed and no fetch was wanted, otherwise its
// error.
func (s *keySet) get(ctx context.Context, unknownKid bool) ([]jose.JSONWebKey, error) {
	for {
		s.mu.Lock()
		now := s.o.Clock()
		if s.keys != nil && now.Before(s.expires) && !unknownKid {
			keys := s.keys
			s.mu.Unlock()
			return keys, nil
		}
		if done := s.fetching; done != nil {
			s.mu.Unlock()
			select {
			case <-done:
				continue
			case <-ctx.Done():
				return nil, fmt.Errorf("%w: keys of %s: %w", ErrUnavailable, s.name, ctx.Err())
			}
		}
		if s.attempted.IsZero() || now.Sub(s.attempted) >= s.o.RefreshInterval {
			done := make(chan struct{})
			s.fetching, s.attempted = done, now
			s.mu.Unlock()
			// The fetch serves every caller waiting for it, so the
			// first caller's cancellation must not end it; the
			// client's timeout does.
			s.fetch(context.WithoutCancel(ctx), now)
			close(done)
			continue
		}
		keys, failure := s.keys, s.failure
		stale := keys != nil && now.Before(s.expires.Add(s.o.KeySetGrace))
		s.mu.Unlock()
		if failure == nil || (stale && !unknownKid) {
			return keys, nil
		}
		return nil, failure
	}
}

// fetch fetches the discovery document when due and the JWKS, and records
// the outcome of the attempt begun at now.
func (s *keySet) fetch(ctx context.Context, now time.Time) {
	jwksURI, discovered := s.jwksURI, s.discovered // only fetch writes them, one at a time
	var keys []jose.JSONWebKey
	var header http.Header
	err := func() error {
		if !s.fixed && (jwksURI == "" || now.Sub(discovered) > s.o.DiscoveryTTL) {
			cfg, err := client.Discover(ctx, s.name, s.o.Client)
			if err != nil {
				return fmt.Errorf("%w: discovery of %s: %w", ErrUnavailable, s.name, err)
			}
			if cfg.Issuer != s.name || cfg.JwksURI == "" {
				return fmt.Errorf("%w: %s's discovery document names issuer %q and key set %q", ErrUnavailable, s.name, cfg.Issuer, cfg.JwksURI)
			}
			jwksURI, discovered = cfg.JwksURI, now
		}
		var err error
		if keys, header, err = fetchKeys(ctx, s.o.Client, jwksURI); err != nil {
			return fmt.Errorf("%w: keys of %s: %w", ErrUnavailable, s.name, err)
		}
		return nil
	}()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fetching = nil
	s.jwksURI, s.discovered = jwksURI, discovered
	s.failure = err
	if err == nil {
		s.keys, s.expires = keys, now.Add(s.lifetime(header, now))
	}
}

// lifetime is how long keys fetched at now with the response header h are
// used: KeySetTTL, or less when the response's cache headers say so, but
// at least RefreshInterval, since they cannot be fetched sooner.
func (s *keySet) lifetime(h http.Header, now time.Time) time.Duration {
	ttl := s.o.KeySetTTL
	if d, ok := freshness(h, now); ok {
		ttl = min(ttl, d)
	}
	return max(ttl, s.o.RefreshInterval)
}

// freshness is how long a response may be reused by its headers (RFC 9111
// §4.2.1): the smallest Cache-Control max-age, zero for no-store or
// no-cache, else Expires less Date (or less now without a Date); an
// Expires that does not parse has passed. ok is false when neither header
// says anything.
func freshness(h http.Header, now time.Time) (d time.Duration, ok bool) {
	for _, v := range h.Values("Cache-Control") {
		for directive := range strings.SplitSeq(v, ",") {
			name, value, _ := strings.Cut(strings.TrimSpace(directive), "=")
			var age time.Duration
			switch strings.ToLower(strings.TrimSpace(name)) {
			case "no-store", "no-cache":
			case "max-age":
				n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(value), `"`), 10, 64)
				if err == nil && n > 0 {
					age = time.Duration(min(n, maxAgeSeconds)) * time.Second
				}
			default:
				continue
			}
			if !ok || age < d {
				d, ok = age, true
			}
		}
	}
	if ok {
		return d, true
	}
	expires := h.Get("Expires")
	if expires == "" {
		return 0, false
	}
	t, err := http.ParseTime(expires)
	if err != nil {
		return 0, true
	}
	if date, err := http.ParseTime(h.Get("Date")); err == nil {
		now = date
	}
	return max(t.Sub(now), 0), true
}

// maxAgeSeconds caps a max-age before it becomes a Duration: a year is
// more than any KeySetTTL.
const maxAgeSeconds = 365 * 24 * 3600

// fetchKeys reads a JWKS document (RFC 7517) and the response's header.
func fetchKeys(ctx context.Context, c *http.Client, url string) ([]jose.JSONWebKey, http.Header, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, nil, err
	}
	res, err := c.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, nil, fmt.Errorf("status %s", res.Status)
	}
	var set jose.JSONWebKeySet
	if err := json.NewDecoder(http.MaxBytesReader(nil, res.Body, 1<<20)).Decode(&set); err != nil {
		return nil, nil, fmt.Errorf("key set: %w", err)
	}
	keys := make([]jose.JSONWebKey, 0, len(set.Keys))
	for _, k := range set.Keys {
		if k.IsPublic() && k.Valid() {
			keys = append(keys, k)
		}
	}
	return keys, res.Header, nil
}
