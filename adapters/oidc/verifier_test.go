package oidc_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
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
	a = op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
	b = op.Start(t, op.Options{Name: "tenant-b", DistinctKeys: true})
	providers := func(_ context.Context, tenant string) (oidc.Provider, error) {
		switch tenant {
		case tenantA:
			return oidc.Provider{Issuer: a.Issuer, Audience: audience}, nil
		case tenantB:
			return oidc.Provider{Issuer: b.Issuer, Audience: audience}, nil
		}
		return oidc.Provider{}, fmt.Errorf("tenant %s: %w", tenant, oidc.ErrUnknownTenant)
	}
	return a, b, oidc.NewVerifier(providers, oidc.Options{})
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

// The attack matrix: every token is refused as unauthenticated, and the
// reason never holds the token.
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
	tests := []struct {
		name  string
		token string
		why   string // in the error
	}{
		{"empty", "", "no bearer token"},
		{"garbage", "not.a.jwt", "not a JWT"},
		{"alg none", a.Unsigned(t, good(nil)), "not a JWT signed with an accepted algorithm"},
		{"HS256 keyed with the public key", a.HS256WithPublicKey(t, good(nil)), "not a JWT signed with an accepted algorithm"},
		{"unknown kid", a.UnknownKid(t, good(nil)), "is not one of"},
		{"no tenant claim", a.Token(t, op.Claims{Audience: []string{audience}}), "names no tenant"},
		{"unknown tenant", a.Token(t, op.Claims{TenantID: "33333333-3333-4333-8333-333333333333", Audience: []string{audience}}), "has no identity provider"},
		{"tenant A's token naming tenant B", a.Token(t, op.Claims{TenantID: tenantB, Audience: []string{audience}}), "is not one of"},
		{"tenant B's key, tenant A's claim", b.Sign(t, nil, good(nil)), "is not one of"},
		{"wrong audience", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"another-service"}}), "audience"},
		{"expired", a.Sign(t, nil, good(func(c map[string]any) { c["exp"] = now.Add(-time.Hour).Unix() })), "expired"},
		{"not yet valid", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}, NotBefore: now.Add(time.Hour), Expiry: now.Add(2 * time.Hour)}), "not valid before"},
		{"issued in the future", a.Sign(t, nil, good(func(c map[string]any) { c["iat"] = now.Add(time.Hour).Unix() })), "issued in the future"},
		{"no expiry", a.Sign(t, nil, good(func(c map[string]any) { delete(c, "exp") })), "no expiry"},
		{"another issuer's name", a.Sign(t, nil, good(func(c map[string]any) { c["iss"] = b.Issuer })), "is not tenant"},
		{"tenant claim not a string", a.Sign(t, nil, good(func(c map[string]any) { c[oidc.TenantClaim] = 42 })), "names no tenant"},
		{"two tokens glued", a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}) + ".x", "not a JWT"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := v.Verify(context.Background(), tt.token)
			is.True(errors.Is(err, oidc.ErrUnauthenticated))
			is.True(strings.Contains(err.Error(), tt.why))
			if tt.token != "" {
				is.True(!strings.Contains(err.Error(), tt.token))
			}
		})
	}
}

// A provider that rotated its key: the unknown kid makes the key set be
// fetched again, once.
func TestVerifyAfterRotation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	a, _, v := setup(t)
	_, err := v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
	is.NoErr(err)
	a.Rotate(t)
	_, err = v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
	is.NoErr(err)
}

// Garbage key IDs do not make every request a request to the provider:
// after a refresh, an unknown kid is refused from the cache until the
// refresh interval has passed.
func TestUnknownKidRefreshIsRateLimited(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	a := op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
	now := time.Now()
	v := oidc.NewVerifier(func(context.Context, string) (oidc.Provider, error) {
		return oidc.Provider{Issuer: a.Issuer, Audience: audience}, nil
	}, oidc.Options{Clock: func() time.Time { return now }, RefreshInterval: time.Minute})
	_, err := v.Verify(context.Background(), a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}}))
	is.NoErr(err) // keys fetched
	a.Rotate(t)
	rotated := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
	_, err = v.Verify(context.Background(), rotated)
	is.NoErr(err) // the first unknown kid since the fetch: refetched
	a.Rotate(t)
	rotated = a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{audience}})
	_, err = v.Verify(context.Background(), rotated)
	is.True(errors.Is(err, oidc.ErrUnauthenticated)) // within the interval: not refetched
	now = now.Add(2 * time.Minute)
	_, err = v.Verify(context.Background(), rotated)
	is.NoErr(err)
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
			return oidc.Provider{Issuer: "http://127.0.0.1:9/down", Audience: audience}, nil
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
