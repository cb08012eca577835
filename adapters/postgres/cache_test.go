package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
)

const ttl = 30 * time.Second

func newCached(f fixture, maxEntries int) (*postgres.CachedControl, *fakeClock) {
	clock := &fakeClock{now: at}
	return postgres.NewCachedControl(postgres.NewControl(f.ro), ttl, maxEntries, clock.Now), clock
}

// TestCachedProvider follows one provider row through the cache: a hit
// does not read the row, a deletion shows after the TTL, and so does a
// re-registration, because "not found" is cached too.
func TestCachedProvider(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 100)

	p, err := c.Provider(ctx, tenantA)
	is.NoErr(err)
	is.Equal(p.Issuer, "http://127.0.0.1/tenant-a")

	_, err = f.admin.ExecContext(ctx, "DELETE FROM oidc_providers WHERE tenant_id = $1", tenantA)
	is.NoErr(err)
	clock.Advance(ttl - time.Second)
	p, err = c.Provider(ctx, tenantA)
	is.NoErr(err) // still cached
	is.Equal(p.Issuer, "http://127.0.0.1/tenant-a")

	clock.Advance(time.Second)
	_, err = c.Provider(ctx, tenantA)
	is.True(errors.Is(err, postgres.ErrNotFound)) // the deletion shows once the TTL is over

	_, err = f.admin.ExecContext(ctx, "INSERT INTO oidc_providers (tenant_id, issuer, client_id) VALUES ($1, 'http://127.0.0.1/new', 'x')", tenantA)
	is.NoErr(err)
	_, err = c.Provider(ctx, tenantA)
	is.True(errors.Is(err, postgres.ErrNotFound)) // not found is cached as well

	clock.Advance(ttl)
	p, err = c.Provider(ctx, tenantA)
	is.NoErr(err)
	is.Equal(p.Issuer, "http://127.0.0.1/new")
}

// TestCachedProviderAccessTokens: the cache keeps a provider's
// access-token rule with the rest of its row, so a rule made stricter
// takes effect once the TTL is over; a rule this release does not know
// is an error, which is not cached.
func TestCachedProviderAccessTokens(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 100)

	p, err := c.Provider(ctx, tenantA)
	is.NoErr(err)
	is.Equal(p.AccessTokens, postgres.AccessTokensByClaims)

	_, err = f.admin.ExecContext(ctx, "UPDATE oidc_providers SET access_tokens = 'at+jwt' WHERE tenant_id = $1", tenantA)
	is.NoErr(err)
	clock.Advance(ttl - time.Second)
	p, err = c.Provider(ctx, tenantA)
	is.NoErr(err)
	is.Equal(p.AccessTokens, postgres.AccessTokensByClaims) // still cached
	clock.Advance(time.Second)
	p, err = c.Provider(ctx, tenantA)
	is.NoErr(err)
	is.Equal(p.AccessTokens, postgres.AccessTokensATJWTOnly)

	_, err = f.admin.ExecContext(ctx, `
		ALTER TABLE oidc_providers DROP CONSTRAINT oidc_providers_access_tokens_check;
		UPDATE oidc_providers SET access_tokens = 'opaque' WHERE tenant_id = '22222222-2222-4222-8222-222222222222'`)
	is.NoErr(err)
	_, err = c.Provider(ctx, tenantB)
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound))
	providers, _ := postgres.CacheLen(c)
	is.Equal(providers, 1) // tenant A only
}

// TestCacheHitAvoidsDatabase closes the pool: only cached answers survive.
func TestCacheHitAvoidsDatabase(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, _ := newCached(f, 100)

	_, err := c.Provider(ctx, tenantA)
	is.NoErr(err)
	_, err = c.Provider(ctx, unknown)
	is.True(errors.Is(err, postgres.ErrNotFound))
	ok, err := c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(ok && err == nil)
	ok, err = c.HasFeature(ctx, tenantC, "dss.validator", at)
	is.True(!ok && err == nil)
	is.NoErr(f.ro.Close())

	p, err := c.Provider(ctx, "11111111-1111-4111-8111-111111111111")
	is.NoErr(err)
	is.Equal(p.Tenant, tenantA)
	_, err = c.Provider(ctx, unknown)
	is.True(errors.Is(err, postgres.ErrNotFound))
	ok, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(ok && err == nil)
	ok, err = c.HasFeature(ctx, tenantC, "dss.validator", at)
	is.True(!ok && err == nil)

	_, err = c.Provider(ctx, tenantB) // not cached: needs the closed pool
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound))
	// The uncached lookups always go to the database.
	_, err = c.ClientKey(ctx, tenantA, devKeyKid)
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound))
}

// TestCachedLicenceRevocation: a licence deleted in the database still
// holds until the TTL is over, and not after.
func TestCachedLicenceRevocation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 100)

	ok, err := c.HasFeature(ctx, tenantB, "dss.validator", at)
	is.NoErr(err)
	is.True(ok)
	_, err = f.admin.ExecContext(ctx, "DELETE FROM tenant_features WHERE tenant_id = $1 AND feature = 'dss.validator'", tenantB)
	is.NoErr(err)

	clock.Advance(ttl - time.Nanosecond)
	ok, err = c.HasFeature(ctx, tenantB, "dss.validator", at)
	is.NoErr(err)
	is.True(ok) // within the TTL

	clock.Advance(time.Nanosecond)
	ok, err = c.HasFeature(ctx, tenantB, "dss.validator", at)
	is.NoErr(err)
	is.True(!ok) // revoked

	// Disabling the tenant revokes its licences the same way.
	ok, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(ok && err == nil)
	_, err = f.admin.ExecContext(ctx, "UPDATE tenants SET enabled = false WHERE id = $1", tenantA)
	is.NoErr(err)
	ok, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(ok && err == nil) // within the TTL
	clock.Advance(ttl)
	ok, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(!ok && err == nil)
}

// TestCachedLicencePeriodIsExact: the cache keeps the period, so a
// licence ends at valid_until even while its entry is fresh.
func TestCachedLicencePeriodIsExact(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, _ := newCached(f, 100)
	end := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC) // the "window" licence

	ok, err := c.HasFeature(ctx, tenantA, "window", end.Add(-time.Second))
	is.NoErr(err)
	is.True(ok)
	is.NoErr(f.ro.Close()) // from here on only the cache answers
	ok, err = c.HasFeature(ctx, tenantA, "window", end)
	is.NoErr(err)
	is.True(!ok)
}

// TestCacheKeepsNoErrors: a failed lookup is repeated on the next call,
// with no need to wait for the TTL.
func TestCacheKeepsNoErrors(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, _ := newCached(f, 100)

	// Renaming the tables makes the lookups fail in the database, the
	// way a broken schema or a revoked grant would.
	_, err := f.admin.ExecContext(ctx, `
		ALTER TABLE oidc_providers RENAME TO oidc_providers_away;
		ALTER TABLE tenant_features RENAME TO tenant_features_away`)
	is.NoErr(err)
	_, err = c.Provider(ctx, tenantA)
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound))
	_, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(err != nil)
	providers, features := postgres.CacheLen(c)
	is.Equal(providers+features, 0)

	_, err = f.admin.ExecContext(ctx, `
		ALTER TABLE oidc_providers_away RENAME TO oidc_providers;
		ALTER TABLE tenant_features_away RENAME TO tenant_features`)
	is.NoErr(err)
	_, err = c.Provider(ctx, tenantA)
	is.NoErr(err)
	ok, err := c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.NoErr(err)
	is.True(ok)
}

// TestCacheKeepsNoCancellation: a cancelled request must not leave a
// "not found" behind for the next one.
func TestCacheKeepsNoCancellation(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newFixture(t)
	c, _ := newCached(f, 100)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()

	_, err := c.Provider(ctx, tenantA)
	is.True(errors.Is(err, context.Canceled))
	_, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(errors.Is(err, context.Canceled))
	providers, features := postgres.CacheLen(c)
	is.Equal(providers+features, 0)
}

// TestCacheIsBounded fills a two-entry cache with three tenants: the
// oldest answer is dropped, the newer ones stay.
func TestCacheIsBounded(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 2)

	for _, tenant := range []string{tenantA, tenantB, tenantC} {
		_, err := c.Provider(ctx, tenant)
		is.NoErr(err)
		_, err = c.HasFeature(ctx, tenant, "dss.validator", at)
		is.NoErr(err)
		clock.Advance(time.Second)
	}
	providers, features := postgres.CacheLen(c)
	is.Equal(providers, 2)
	is.Equal(features, 2)

	is.NoErr(f.ro.Close())
	_, err := c.Provider(ctx, tenantA)
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound)) // evicted: asked the closed pool
	_, err = c.HasFeature(ctx, tenantA, "dss.validator", at)
	is.True(err != nil)
	for _, tenant := range []string{tenantB, tenantC} {
		_, err := c.Provider(ctx, tenant)
		is.NoErr(err)
		_, err = c.HasFeature(ctx, tenant, "dss.validator", at)
		is.NoErr(err)
	}
}

// TestCacheSweepsExpired: expired answers do not count against the bound.
func TestCacheSweepsExpired(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 10)

	for _, tenant := range []string{tenantA, tenantB, tenantC} {
		_, err := c.Provider(ctx, tenant)
		is.NoErr(err)
	}
	clock.Advance(ttl)
	_, err := c.Provider(ctx, unknown)
	is.True(errors.Is(err, postgres.ErrNotFound))
	providers, _ := postgres.CacheLen(c)
	is.Equal(providers, 1)
}

// TestCacheClockStepsBack: a clock set back must not keep an answer alive
// for longer than the TTL from now.
func TestCacheClockStepsBack(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 10)

	_, err := c.Provider(ctx, tenantA)
	is.NoErr(err)
	_, err = f.admin.ExecContext(ctx, "DELETE FROM oidc_providers WHERE tenant_id = $1", tenantA)
	is.NoErr(err)
	clock.Advance(-time.Hour)
	_, err = c.Provider(ctx, tenantA)
	is.True(errors.Is(err, postgres.ErrNotFound))
}

// TestCacheConcurrentUse is meant for go test -race.
func TestCacheConcurrentUse(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c, clock := newCached(f, 3)
	tenants := []string{tenantA, tenantB, tenantC, tenantD, unknown, "bad"}
	ctx := context.Background()

	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for i := range 50 {
				tenant := tenants[(g+i)%len(tenants)]
				if _, err := c.Provider(ctx, tenant); err != nil && !errors.Is(err, postgres.ErrNotFound) {
					errs <- fmt.Errorf("Provider(%s): %w", tenant, err)
					return
				}
				if _, err := c.HasFeature(ctx, tenant, "dss.validator", at); err != nil {
					errs <- fmt.Errorf("HasFeature(%s): %w", tenant, err)
					return
				}
				if i%10 == 0 {
					clock.Advance(ttl / 3)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	providers, features := postgres.CacheLen(c)
	if providers > 3 || features > 3 {
		t.Errorf("cache holds %d providers and %d licences; want at most 3 each", providers, features)
	}
}

func TestNewCachedControlRefusesBadWiring(t *testing.T) {
	t.Parallel()
	db, err := postgres.Open(postgres.Options{URL: "postgres://127.0.0.1:1/none"}) // never connects
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	c := postgres.NewControl(db)
	tests := []struct {
		name       string
		control    *postgres.Control
		ttl        time.Duration
		maxEntries int
		clock      func() time.Time
	}{
		{"nil control", nil, ttl, 1, time.Now},
		{"nil clock", c, ttl, 1, nil},
		{"zero ttl", c, 0, 1, time.Now},
		{"negative ttl", c, -time.Second, 1, time.Now},
		{"no entries", c, ttl, 0, time.Now},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			postgres.NewCachedControl(tt.control, tt.ttl, tt.maxEntries, tt.clock)
		})
	}
}

// TestCachedValidationPolicy: a tenant's default policy is read once a
// TTL, like its provider and licence, so a tenant served from the cache
// keeps being served while the database is away; a changed default
// shows once the TTL is over.
func TestCachedValidationPolicy(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	f := newFixture(t)
	c, clock := newCached(f, 100)

	_, err := f.admin.ExecContext(ctx, "UPDATE tenants SET validation_policy = 'strict' WHERE id = $1", tenantA)
	is.NoErr(err)
	name, err := c.ValidationPolicy(ctx, tenantA)
	is.NoErr(err)
	is.Equal(name, "strict")

	_, err = f.admin.ExecContext(ctx, "UPDATE tenants SET validation_policy = 'lax' WHERE id = $1", tenantA)
	is.NoErr(err)
	clock.Advance(ttl - time.Second)
	name, err = c.ValidationPolicy(ctx, tenantA)
	is.NoErr(err)
	is.Equal(name, "strict") // still cached
	clock.Advance(time.Second)
	name, err = c.ValidationPolicy(ctx, tenantA)
	is.NoErr(err)
	is.Equal(name, "lax") // the change shows once the TTL is over

	_, err = c.ValidationPolicy(ctx, unknown)
	is.True(errors.Is(err, postgres.ErrNotFound))
	is.NoErr(f.ro.Close())
	name, err = c.ValidationPolicy(ctx, tenantA) // the database is away
	is.NoErr(err)
	is.Equal(name, "lax")
	_, err = c.ValidationPolicy(ctx, unknown)
	is.True(errors.Is(err, postgres.ErrNotFound)) // not found is cached as well
	_, err = c.ValidationPolicy(ctx, tenantB)     // not cached: needs the closed pool
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound))
}
