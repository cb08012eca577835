package postgres_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/controltest"
	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/fixtures/pgtest"
)

// TestContract runs the control-data ports' contract suite on a real
// database, through Control and through CachedControl: both are what the
// services read.
func TestContract(t *testing.T) {
	t.Parallel()
	t.Run("Control", func(t *testing.T) {
		t.Parallel()
		controltest.Run(t, func(t *testing.T, tenants []controltest.Tenant) controltest.Control {
			return postgres.NewControl(provision(t, tenants))
		})
	})
	t.Run("CachedControl", func(t *testing.T) {
		t.Parallel()
		controltest.Run(t, func(t *testing.T, tenants []controltest.Tenant) controltest.Control {
			clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
			return postgres.NewCachedControl(postgres.NewControl(provision(t, tenants)), ttl, 100, clock.Now)
		})
	})
}

// provision writes tenants into a new, migrated database (without the
// development seed) and returns the services' read-only pool on it.
func provision(t *testing.T, tenants []controltest.Tenant) *sqlx.DB {
	t.Helper()
	ctx := context.Background()
	url := pgtest.NewDatabaseURL(t)
	admin, err := postgres.OpenWritable(postgres.Options{URL: url, MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	if err := postgres.Migrate(ctx, admin); err != nil {
		t.Fatal(err)
	}
	exec := func(q string, args ...any) {
		t.Helper()
		if _, err := admin.ExecContext(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// NULL for a zero time or a nil slot: an open side, no slot.
	instant := func(v time.Time) sql.NullTime { return sql.NullTime{Time: v, Valid: !v.IsZero()} }
	for _, tn := range tenants {
		exec(`INSERT INTO tenants (id, name, enabled, validation_policy) VALUES ($1, 'contract', $2, $3)`, tn.ID, !tn.Disabled, tn.ValidationPolicy)
		if p := tn.Provider; p != nil {
			exec(`INSERT INTO oidc_providers (tenant_id, issuer, client_id, client_secret_ref, audience, redirect_base_url, access_tokens)
				VALUES ($1, $2, $3, $4, $5, $6, $7)`, tn.ID, p.Issuer, p.ClientID, p.ClientSecretRef, p.Audience, p.RedirectBaseURL, p.AccessTokens.String())
		}
		for _, l := range tn.Licenses {
			exec(`INSERT INTO tenant_features (tenant_id, feature, valid_from, valid_until) VALUES ($1, $2, $3, $4)`,
				tn.ID, l.Feature, instant(l.From), instant(l.Until))
		}
		for _, p := range tn.Permissions {
			exec(`INSERT INTO tenant_permissions (tenant_id, permission) VALUES ($1, $2)`, tn.ID, p)
		}
		for _, m := range tn.Modules {
			exec(`INSERT INTO dss_modules (id, tenant_id, enabled) VALUES ($1, $2, $3)`, m.ID, tn.ID, !m.Disabled)
		}
		for _, k := range tn.Keys {
			exec(`INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key, enabled) VALUES ($1, $2, $3, $4, $5, $6)`,
				tn.ID, k.Kid, k.Module, k.Algorithm, k.PublicKey, !k.Disabled)
		}
		if p := tn.Partition; p != nil {
			var slot sql.NullInt64
			if p.Slot != nil {
				slot = sql.NullInt64{Int64: int64(*p.Slot), Valid: true}
			}
			exec(`INSERT INTO hsm_partitions (tenant_id, partition_type, pkcs11_module, host, slot, token_label, user_name, pin_ref)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, tn.ID, p.Type, p.Library, p.Host, slot, p.TokenLabel, p.User, p.PINRef)
		}
	}
	ro, err := postgres.Open(postgres.Options{URL: url, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ro.Close() })
	return ro
}
