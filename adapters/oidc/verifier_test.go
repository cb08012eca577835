package oidc_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/oidc"
	op "github.com/svc-dss/dss/fixtures/oidc"
)

const (
	tenantA  = "11111111-1111-4111-8111-111111111111"
	tenantB  = "22222222-2222-4222-8222-222222222222"
	audience = "svc-dss-validator"
)

// setup starts two tenants' providers, with keys of their own, and a
// Verifier that knows both.
func setup(t *testing.T) (a, b *op.Provider, v *oidc.Verifier) {
	t.Helper()
	return setupWith(t, oidc.Options{})
}

// setupWith is setup with a Verifier of options o.
func setupWith(t *testing.T, o oidc.Options) (a, b *op.Provider, v *oidc.Verifier) {
	t.Helper()
	a = op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
	b = op.Start(t, op.Options{Name: "tenant-b", DistinctKeys: true})
	providers := func(_ context.Context, tenant string) (oidc.Provider, error) {
		switch tenant {
		case tenantA:
			return oidc.Provider{Issuer: a.Issuer, Audience: audience, AccessTokens: oidc.AccessTokensByClaims}, nil
		case tenantB:
			return oidc.Provider{Issuer: b.Issuer, Audience: audience, AccessTokens: oidc.AccessTokensByClaims}, nil
		}
		return oidc.Provider{}, fmt.Errorf("tenant %s: %w", tenant, oidc.ErrUnknownTenant)
	}
	return a, b, oidc.NewVerifier(providers, o)
}

// clock is a verifier's clock that stands still until a test moves it,
// from the instant it was made; safe for concurrent use. Tokens take
// their times from the wall clock, within the verifier's skew of it.
type clock struct {
	start  time.Time
	offset atomic.Int64
}

func newClock() *clock { return &clock{start: time.Now()} }

func (c *clock) Now() time.Time          { return c.start.Add(time.Duration(c.offset.Load())) }
func (c *clock) Advance(d time.Duration) { c.offset.Add(int64(d)) }

// reasonOf is the Reason of a refusal, 0 for anything else.
func reasonOf(err error) oidc.Reason {
	if e, ok := errors.AsType[*oidc.TokenError](err); ok {
		return e.Reason
	}
	return 0
}

func TestVerify(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	a, _, v := setup(t)
	tok := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, Subject: "alice"})
	id, err := v.Verify(context.Background(), tok)
	is.NoErr(err)
	is.Equal(id.Tenant, tenantA)
	is.Equal(id.Subject, "alice")
	is.Equal(id.Issuer, a.Issuer)
	is.Equal(id.ClientID, op.DefaultClientID)
	// Cached keys: the second token verifies as well.
	_, err = v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
	is.NoErr(err)
}

// The attack matrix: every token is refused as unauthenticated, for its
// reason, and the message is that reason's fixed sentence: never the
// token, nor anything it claims.
func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	a, b, v := setup(t)
	good := func(mod func(map[string]any)) map[string]any {
		c := a.ClaimSet(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
		if mod != nil {
			mod(c)
		}
		return c
	}
	now := time.Now()
	huge := strings.Repeat("<script>alert(1)</script>\x00", 400) // 10 KB of markup and NULs
	tests := []struct {
		name   string
		token  string
		reason oidc.Reason
	}{
		{"empty", "", oidc.ReasonMissing},
		{"garbage", "not.a.jwt", oidc.ReasonMalformed},
		{"alg none", a.Unsigned(t, good(nil)), oidc.ReasonMalformed},
		{"HS256 keyed with the public key", a.HS256WithPublicKey(t, good(nil)), oidc.ReasonMalformed},
		{"JSON serialization", `{"payload":"e30","protected":"eyJhbGciOiJSUzI1NiJ9","signature":"AA"}`, oidc.ReasonMalformed},
		{"unknown kid", a.UnknownKid(t, good(nil)), oidc.ReasonUnknownKey},
		{"no tenant claim", a.Token(t, op.Claims{Audience: []string{audience}}), oidc.ReasonNoTenant},
		{"unknown tenant", a.Token(t, op.Claims{TenantID: "33333333-3333-4333-8333-333333333333", Audience: []string{audience}}), oidc.ReasonUnknownTenant},
		{"a 10 KB tenant of markup and NULs", a.Sign(t, nil, good(func(c map[string]any) { c[oidc.TenantClaim] = huge })), oidc.ReasonUnknownTenant},
		{"tenant A's token naming tenant B", a.Token(t, op.Claims{TenantID: tenantB, Audience: []string{audience}}), oidc.ReasonUnknownKey},
		{"tenant B's key, tenant A's claim", b.Sign(t, nil, good(nil)), oidc.ReasonUnknownKey},
		{"tenant B's key under tenant A's kid", b.Sign(t, map[string]any{"kid": a.KeyID()}, good(nil)), oidc.ReasonSignature},
		{"wrong audience", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"another-service"}}), oidc.ReasonAudience},
		{"expired", a.Sign(t, nil, good(func(c map[string]any) { c["exp"] = now.Add(-time.Hour).Unix() })), oidc.ReasonExpired},
		{"not yet valid", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, NotBefore: now.Add(time.Hour), Expiry: now.Add(2 * time.Hour)}), oidc.ReasonNotYetValid},
		{"issued in the future", a.Sign(t, nil, good(func(c map[string]any) { c["iat"] = now.Add(time.Hour).Unix() })), oidc.ReasonIssuedInFuture},
		{"no expiry", a.Sign(t, nil, good(func(c map[string]any) { delete(c, "exp") })), oidc.ReasonNoExpiry},
		{"another issuer's name", a.Sign(t, nil, good(func(c map[string]any) { c["iss"] = b.Issuer })), oidc.ReasonIssuer},
		{"tenant claim not a string", a.Sign(t, nil, good(func(c map[string]any) { c[oidc.TenantClaim] = 42 })), oidc.ReasonNoTenant},
		{"two tokens glued", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}) + ".x", oidc.ReasonMalformed},
		{"an ID token: nonce", a.Sign(t, nil, good(func(c map[string]any) { c["nonce"] = "n-0S6_WzA2Mj" })), oidc.ReasonNotAccessToken},
		{"an ID token: at_hash", a.Sign(t, nil, good(func(c map[string]any) { c["at_hash"] = "77QmUPtjPfzWtF2AnpK9RQ" })), oidc.ReasonNotAccessToken},
		{"an ID token: c_hash", a.Sign(t, nil, good(func(c map[string]any) { c["c_hash"] = "LDktKdoQak3Pk0cnXxCltA" })), oidc.ReasonNotAccessToken},
		{"an ID token typed JWT", a.Sign(t, map[string]any{"typ": "JWT"}, good(func(c map[string]any) { c["nonce"] = "n" })), oidc.ReasonNotAccessToken},
		{"a logout token", a.Sign(t, map[string]any{"typ": "logout+jwt"}, good(nil)), oidc.ReasonNotAccessToken},
		{"an empty typ", a.Sign(t, map[string]any{"typ": ""}, good(nil)), oidc.ReasonNotAccessToken},
		{"a typ that is no string", a.Sign(t, map[string]any{"typ": 1}, good(nil)), oidc.ReasonNotAccessToken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := v.Verify(context.Background(), tt.token)
			is.True(errors.Is(err, oidc.ErrUnauthenticated))
			is.Equal(reasonOf(err), tt.reason)
			is.Equal(err.Error(), "oidc: not authenticated: "+tt.reason.String())
		})
	}
}

// Access tokens are accepted by their typ (RFC 9068) or, typed JWT or not
// at all, when they carry no claim only ID tokens carry.
func TestVerifyAccessTokenTypes(t *testing.T) {
	t.Parallel()
	a, _, v := setup(t)
	claims := func() map[string]any {
		return a.ClaimSet(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
	}
	idLike := claims()
	idLike["nonce"] = "n-0S6_WzA2Mj"
	tests := []struct {
		name  string
		token string
	}{
		{"from the token endpoint (typ JWT)", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})},
		{"typ at+jwt", a.Sign(t, map[string]any{"typ": "at+jwt"}, claims())},
		{"typ application/at+jwt", a.Sign(t, map[string]any{"typ": "application/at+jwt"}, claims())},
		{"typ AT+JWT", a.Sign(t, map[string]any{"typ": "AT+JWT"}, claims())},
		{"typ at+jwt, even with a nonce", a.Sign(t, map[string]any{"typ": "at+jwt"}, idLike)},
		{"typ application/jwt", a.Sign(t, map[string]any{"typ": "application/jwt"}, claims())},
		{"no typ", a.Sign(t, map[string]any{"typ": nil}, claims())},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), tt.token)
			is.New(t).NoErr(err)
		})
	}
}

// Under AccessTokensATJWTOnly only typ at+jwt is an access token: a
// token typed JWT or not typed is refused, whatever its claims, as "the
// token is not an access token", and the other checks still apply to
// at+jwt. Each token also goes to a verifier of the same provider under
// the default AccessTokensByClaims, whose outcome is unchanged.
func TestVerifyATJWTOnly(t *testing.T) {
	t.Parallel()
	a := op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
	verifier := func(rule oidc.AccessTokenRule) *oidc.Verifier {
		return oidc.NewVerifier(func(_ context.Context, tenant string) (oidc.Provider, error) {
			if tenant != tenantA {
				return oidc.Provider{}, fmt.Errorf("tenant %s: %w", tenant, oidc.ErrUnknownTenant)
			}
			return oidc.Provider{Issuer: a.Issuer, Audience: audience, AccessTokens: rule}, nil
		}, oidc.Options{})
	}
	strict, byClaims := verifier(oidc.AccessTokensATJWTOnly), verifier(oidc.AccessTokensByClaims)
	claims := func(mod func(map[string]any)) map[string]any {
		c := a.ClaimSet(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
		if mod != nil {
			mod(c)
		}
		return c
	}
	// An ID token with neither nonce nor hashes: what the claims rule
	// cannot tell from an access token.
	plainIDToken := func(c map[string]any) {
		delete(c, "client_id")
		delete(c, "scope")
		c["azp"], c["auth_time"] = audience, time.Now().Unix()
	}
	const notAT = oidc.ReasonNotAccessToken
	tests := []struct {
		name     string
		token    string
		strict   oidc.Reason // 0: accepted
		byClaims oidc.Reason
	}{
		{"typ at+jwt", a.Sign(t, map[string]any{"typ": "at+jwt"}, claims(nil)), 0, 0},
		{"typ application/at+jwt", a.Sign(t, map[string]any{"typ": "application/at+jwt"}, claims(nil)), 0, 0},
		{"typ AT+JWT", a.Sign(t, map[string]any{"typ": "AT+JWT"}, claims(nil)), 0, 0},
		{"typ at+jwt, even with a nonce", a.Sign(t, map[string]any{"typ": "at+jwt"}, claims(func(c map[string]any) { c["nonce"] = "n" })), 0, 0},
		{"from the token endpoint (typ JWT)", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}), notAT, 0},
		{"typ JWT", a.Sign(t, map[string]any{"typ": "JWT"}, claims(nil)), notAT, 0},
		{"typ application/jwt", a.Sign(t, map[string]any{"typ": "application/jwt"}, claims(nil)), notAT, 0},
		{"no typ", a.Sign(t, map[string]any{"typ": nil}, claims(nil)), notAT, 0},
		{"an ID token (nonce, at_hash)", a.Sign(t, map[string]any{"typ": "JWT"}, claims(func(c map[string]any) {
			c["nonce"], c["at_hash"] = "n-0S6_WzA2Mj", "77QmUPtjPfzWtF2AnpK9RQ"
		})), notAT, notAT},
		{"an ID token without nonce or hashes", a.Sign(t, map[string]any{"typ": "JWT"}, claims(plainIDToken)), notAT, 0},
		{"a logout token", a.Sign(t, map[string]any{"typ": "logout+jwt"}, claims(nil)), notAT, notAT},
		{"typ at+jwt, wrong audience", a.Sign(t, map[string]any{"typ": "at+jwt"}, claims(func(c map[string]any) { c["aud"] = "another-service" })), oidc.ReasonAudience, oidc.ReasonAudience},
		{"typ at+jwt, expired", a.Sign(t, map[string]any{"typ": "at+jwt"}, claims(func(c map[string]any) { c["exp"] = time.Now().Add(-time.Hour).Unix() })), oidc.ReasonExpired, oidc.ReasonExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, r := range []struct {
				v    *oidc.Verifier
				want oidc.Reason
			}{{strict, tt.strict}, {byClaims, tt.byClaims}} {
				is := is.New(t)
				id, err := r.v.Verify(context.Background(), tt.token)
				if r.want == 0 {
					is.NoErr(err)
					is.Equal(id.Tenant, tenantA)
					continue
				}
				is.True(errors.Is(err, oidc.ErrUnauthenticated))
				is.Equal(reasonOf(err), r.want)
				is.Equal(err.Error(), "oidc: not authenticated: "+r.want.String())
			}
		})
	}
}

// A provider that rotated its key: the unknown kid makes the key set be
// fetched again, once the refresh interval since the last fetch has
// passed.
func TestVerifyAfterRotation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	c := newClock()
	a, _, v := setupWith(t, oidc.Options{Clock: c.Now})
	_, err := v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
	is.NoErr(err)
	a.Rotate(t)
	c.Advance(30 * time.Second)
	_, err = v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
	is.NoErr(err)
	is.Equal(a.JWKSRequests(), 2)
}

// Garbage key IDs do not make every request a request to the provider:
// the key set is fetched at most once per refresh interval, the first
// fetch included, and an unknown kid is refused from the cache until the
// interval has passed.
func TestUnknownKidRefreshIsRateLimited(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	c := newClock()
	a, _, v := setupWith(t, oidc.Options{Clock: c.Now, RefreshInterval: time.Minute})
	token := func() string {
		return a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, Expiry: time.Now().Add(time.Hour)})
	}
	_, err := v.Verify(context.Background(), token())
	is.NoErr(err) // keys fetched
	a.Rotate(t)
	rotated := token()
	_, err = v.Verify(context.Background(), rotated)
	is.Equal(reasonOf(err), oidc.ReasonUnknownKey) // within the interval: not fetched again
	for range 20 {
		_, err = v.Verify(context.Background(), a.UnknownKid(t, a.ClaimSet(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})))
		is.Equal(reasonOf(err), oidc.ReasonUnknownKey)
	}
	is.Equal(a.JWKSRequests(), 1)
	c.Advance(time.Minute)
	_, err = v.Verify(context.Background(), rotated)
	is.NoErr(err)
	is.Equal(a.JWKSRequests(), 2)
}

// While a provider's JWKS endpoint fails, tokens with unknown key IDs,
// however many and however concurrent, cost it at most one request per
// refresh interval; they are unavailable (502), not refused, since the
// keys could not be checked. Known keys still verify from the cache.
func TestRefetchLimitedWhileJWKSFails(t *testing.T) {
	t.Parallel()
	c := newClock()
	a, _, v := setupWith(t, oidc.Options{Clock: c.Now})
	good := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
	garbage := func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make([]error, 50)
		for i := range errs {
			token := a.UnknownKid(t, a.ClaimSet(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
			wg.Go(func() { _, errs[i] = v.Verify(context.Background(), token) })
		}
		wg.Wait()
		for _, err := range errs {
			if !errors.Is(err, oidc.ErrUnavailable) {
				t.Fatalf("garbage while the JWKS fails: %v, want unavailable", err)
			}
		}
	}

	t.Run("failing from the start", func(t *testing.T) {
		is := is.New(t)
		a.FailJWKS(true)
		garbage(t)
		_, err := v.Verify(context.Background(), good)
		is.True(errors.Is(err, oidc.ErrUnavailable))
		is.Equal(a.JWKSRequests(), 1)
	})
	t.Run("failing after a fetch", func(t *testing.T) {
		is := is.New(t)
		a.FailJWKS(false)
		c.Advance(30 * time.Second)
		_, err := v.Verify(context.Background(), good)
		is.NoErr(err)
		is.Equal(a.JWKSRequests(), 2)
		a.FailJWKS(true)
		c.Advance(30 * time.Second)
		garbage(t)
		is.Equal(a.JWKSRequests(), 3) // one failed fetch for fifty tokens
		garbage(t)
		is.Equal(a.JWKSRequests(), 3) // and none more within the interval
		_, err = v.Verify(context.Background(), good)
		is.NoErr(err) // a known key, from keys still within their lifetime
		c.Advance(30 * time.Second)
		garbage(t)
		is.Equal(a.JWKSRequests(), 4)
	})
}

// A key the provider withdrew from its JWKS keeps verifying only while the
// cached key set lives: 1 h by default, less by the JWKS response's cache
// headers, never less than the refresh interval. Then it is unknown.
func TestWithdrawnKeyAfterKeySetLifetime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		header   http.Header
		lifetime time.Duration
	}{
		{"no cache headers: one hour", nil, time.Hour},
		{"max-age shorter", http.Header{"Cache-Control": {"public, max-age=600"}}, 10 * time.Minute},
		{"max-age longer: one hour still", http.Header{"Cache-Control": {"max-age=86400"}}, time.Hour},
		{"max-age below the refresh interval", http.Header{"Cache-Control": {"max-age=5"}}, 30 * time.Second},
		{"no-store", http.Header{"Cache-Control": {"no-store"}}, 30 * time.Second},
		{"the smallest of several", http.Header{"Cache-Control": {"max-age=900", "max-age=300"}}, 5 * time.Minute},
		{"Expires, from Date", http.Header{"Date": {httpTime(0)}, "Expires": {httpTime(20 * time.Minute)}}, 20 * time.Minute},
		{"max-age wins over Expires", http.Header{"Cache-Control": {"max-age=120"}, "Date": {httpTime(0)}, "Expires": {httpTime(20 * time.Minute)}}, 2 * time.Minute},
		{"an Expires that does not parse has passed", http.Header{"Expires": {"0"}}, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			c := newClock()
			a, _, v := setupWith(t, oidc.Options{Clock: c.Now})
			a.SetJWKSHeader(tt.header)
			// Tokens of the old key, valid for longer than the test moves
			// the clock.
			old := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, Expiry: time.Now().Add(3 * time.Hour)})
			oldKid := a.KeyID()
			_, err := v.Verify(context.Background(), old)
			is.NoErr(err)
			a.Rotate(t)
			a.Withdraw(t, oldKid)

			c.Advance(tt.lifetime - time.Second)
			_, err = v.Verify(context.Background(), old)
			is.NoErr(err) // the cached key set still lives
			is.Equal(a.JWKSRequests(), 1)

			c.Advance(time.Second)
			_, err = v.Verify(context.Background(), old)
			is.Equal(reasonOf(err), oidc.ReasonUnknownKey) // fetched again: withdrawn
			is.Equal(a.JWKSRequests(), 2)
			_, err = v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, Expiry: time.Now().Add(3 * time.Hour)}))
			is.NoErr(err) // the current key is there
		})
	}
}

// httpTime is a fixed instant plus d as an HTTP date.
func httpTime(d time.Duration) string {
	return time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC).Add(d).Format(http.TimeFormat)
}

// When the JWKS cannot be fetched once the key set's lifetime has passed,
// its keys verify for a grace of 5 minutes, then no more: the provider's
// outage never makes a withdrawn key trusted for long.
func TestExpiredKeySetWhileJWKSFails(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	c := newClock()
	a, _, v := setupWith(t, oidc.Options{Clock: c.Now})
	token := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, Expiry: time.Now().Add(3 * time.Hour)})
	_, err := v.Verify(context.Background(), token)
	is.NoErr(err)
	a.FailJWKS(true)
	c.Advance(time.Hour)
	_, err = v.Verify(context.Background(), token)
	is.NoErr(err) // expired, fetch failed: within the grace
	c.Advance(4*time.Minute + 59*time.Second)
	_, err = v.Verify(context.Background(), token)
	is.NoErr(err)
	c.Advance(time.Second)
	_, err = v.Verify(context.Background(), token)
	is.True(errors.Is(err, oidc.ErrUnavailable)) // the grace is over
	is.True(!errors.Is(err, oidc.ErrUnauthenticated))
	a.FailJWKS(false)
	c.Advance(30 * time.Second)
	_, err = v.Verify(context.Background(), token)
	is.NoErr(err) // the provider is back
}

// A control database or provider that does not answer is unavailable,
// not unauthenticated.
func TestVerifyUnavailable(t *testing.T) {
	t.Parallel()
	a := op.Start(t, op.Options{Name: "tenant-a"})
	tok := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
	tests := []struct {
		name      string
		providers oidc.Providers
	}{
		{"control database down", func(context.Context, string) (oidc.Provider, error) {
			return oidc.Provider{}, errors.New("dial tcp: connection refused")
		}},
		{"provider down", func(context.Context, string) (oidc.Provider, error) {
			return oidc.Provider{Issuer: "http://127.0.0.1:9/down", Audience: audience, AccessTokens: oidc.AccessTokensByClaims}, nil
		}},
		// A Providers that leaves the rule out falls back to neither.
		{"provider without an access-token rule", func(context.Context, string) (oidc.Provider, error) {
			return oidc.Provider{Issuer: a.Issuer, Audience: audience}, nil
		}},
		{"provider with a rule out of range", func(context.Context, string) (oidc.Provider, error) {
			return oidc.Provider{Issuer: a.Issuer, Audience: audience, AccessTokens: 7}, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := oidc.NewVerifier(tt.providers, oidc.Options{}).Verify(context.Background(), tok)
			is.True(errors.Is(err, oidc.ErrUnavailable))
			is.True(!errors.Is(err, oidc.ErrUnauthenticated))
		})
	}
}
