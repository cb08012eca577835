package postgres_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"database/sql"
	"encoding/pem"
	"errors"
	"net"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/fixtures/pgtest"
)

// The seeded tenants and module (seed/dev.sql).
const (
	tenantA = "11111111-1111-4111-8111-111111111111"
	tenantB = "22222222-2222-4222-8222-222222222222"
	tenantC = "33333333-3333-4333-8333-333333333333"
	moduleA = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
)

// Rows the tests add to the seed (see extras).
const (
	tenantD   = "44444444-4444-4444-8444-444444444444" // disabled, otherwise fully provisioned
	tenantE   = "55555555-5555-4555-8555-555555555555" // enabled, nothing provisioned
	unknown   = "99999999-9999-4999-8999-999999999999" // not in the database
	devKeyKid = "tenant-a-dev"
)

// at is the instant the licence periods in extras are placed around.
var at = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const extras = `
INSERT INTO tenants (id, name, enabled) VALUES
	('44444444-4444-4444-8444-444444444444', 'Tenant D', false),
	('55555555-5555-4555-8555-555555555555', 'Tenant E', true);
INSERT INTO oidc_providers (tenant_id, issuer, client_id) VALUES
	('44444444-4444-4444-8444-444444444444', 'http://127.0.0.1/tenant-d', 'dss-validator-d');
INSERT INTO tenant_features (tenant_id, feature, valid_from, valid_until) VALUES
	('44444444-4444-4444-8444-444444444444', 'dss.validator', NULL, NULL),
	('11111111-1111-4111-8111-111111111111', 'expired', NULL, '2025-01-01T00:00:00Z'),
	('11111111-1111-4111-8111-111111111111', 'future', '2027-01-01T00:00:00Z', NULL),
	('11111111-1111-4111-8111-111111111111', 'window', '2025-06-01T00:00:00Z', '2026-06-01T00:00:00Z');
INSERT INTO tenant_permissions (tenant_id, permission) VALUES
	('44444444-4444-4444-8444-444444444444', 'dss.sign');
INSERT INTO dss_modules (id, tenant_id, name, enabled) VALUES
	('bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', '11111111-1111-4111-8111-111111111111', 'retired', false),
	('dddddddd-dddd-4ddd-8ddd-dddddddddddd', '44444444-4444-4444-8444-444444444444', '', true);
INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key, enabled) VALUES
	('11111111-1111-4111-8111-111111111111', 'revoked', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'RS256', '{"kty":"RSA"}', false),
	('11111111-1111-4111-8111-111111111111', 'on-retired-module', 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb', 'ES256', '{"kty":"EC"}', true),
	('44444444-4444-4444-8444-444444444444', 'tenant-d-key', 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', 'PS256', '{"kty":"RSA"}', true);
INSERT INTO hsm_partitions (tenant_id, partition_type, pkcs11_module, slot, user_name, pin_ref) VALUES
	('33333333-3333-4333-8333-333333333333', 'luna', '/opt/hsm/lib.so', 0, 'co', 'vault:hsm/c'),
	('44444444-4444-4444-8444-444444444444', 'luna', '/opt/hsm/lib.so', 1, 'co', 'vault:hsm/d');
`

// fixture is a migrated and seeded database with the test rows added.
type fixture struct {
	url   string
	admin *sqlx.DB // writable, for changing rows during a test
	ro    *sqlx.DB // the service's read-only pool
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	ctx := context.Background()
	url := pgtest.NewDatabaseURL(t)
	admin, err := postgres.OpenWritable(postgres.Options{URL: url, MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.Close() })
	if err := postgres.Migrate(ctx, admin); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Seed(ctx, admin); err != nil {
		t.Fatal(err)
	}
	if _, err := admin.ExecContext(ctx, extras); err != nil {
		t.Fatalf("test rows: %v", err)
	}
	ro, err := postgres.Open(postgres.Options{URL: url, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ro.Close() })
	return fixture{url: url, admin: admin, ro: ro}
}

func TestMigrateIsIdempotent(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	db, err := postgres.OpenWritable(postgres.Options{URL: pgtest.NewDatabaseURL(t)})
	is.NoErr(err)
	defer db.Close()

	for range 2 {
		is.NoErr(postgres.Migrate(ctx, db))
	}
	for range 2 {
		is.NoErr(postgres.Seed(ctx, db))
	}
	var versions []int
	is.NoErr(db.SelectContext(ctx, &versions, "SELECT version FROM schema_migrations ORDER BY version"))
	is.Equal(versions, []int{1, 2, 3}) // each version recorded once
	var tenants int
	is.NoErr(db.GetContext(ctx, &tenants, "SELECT count(*) FROM tenants"))
	is.Equal(tenants, 3) // the seed added nothing the second time
}

// TestMigrateConcurrently starts replicas at once: the advisory lock must
// serialise them.
func TestMigrateConcurrently(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	db, err := postgres.OpenWritable(postgres.Options{URL: pgtest.NewDatabaseURL(t)})
	is.NoErr(err)
	defer db.Close()

	const replicas = 4
	errs := make(chan error, replicas)
	for range replicas {
		go func() { errs <- postgres.Migrate(ctx, db) }()
	}
	for range replicas {
		is.NoErr(<-errs)
	}
	var n int
	is.NoErr(db.GetContext(ctx, &n, "SELECT count(*) FROM schema_migrations"))
	is.Equal(n, 3)
}

func TestMigrateNeedsWritableConnection(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	ro, err := postgres.Open(postgres.Options{URL: pgtest.NewDatabaseURL(t)})
	is.NoErr(err)
	defer ro.Close()

	is.True(errors.Is(postgres.Migrate(ctx, ro), postgres.ErrReadOnly))
	is.True(errors.Is(postgres.Seed(ctx, ro), postgres.ErrReadOnly))
}

// TestMigrateIntoSchema runs the whole path with a configured schema: the
// tables land there, and the read-only pool finds them through the search
// path.
func TestMigrateIntoSchema(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	url := pgtest.NewDatabaseURL(t)
	o := postgres.Options{URL: url, Schema: "ctl"}
	admin, err := postgres.OpenWritable(o)
	is.NoErr(err)
	defer admin.Close()
	_, err = admin.ExecContext(ctx, "CREATE SCHEMA ctl")
	is.NoErr(err)
	is.NoErr(postgres.Migrate(ctx, admin))
	is.NoErr(postgres.Seed(ctx, admin))

	var schema string
	is.NoErr(admin.GetContext(ctx, &schema, "SELECT table_schema FROM information_schema.tables WHERE table_name = 'client_keys'"))
	is.Equal(schema, "ctl")

	ro, err := postgres.Open(o)
	is.NoErr(err)
	defer ro.Close()
	p, err := postgres.NewControl(ro).Provider(ctx, tenantA)
	is.NoErr(err)
	is.Equal(p.Issuer, "http://127.0.0.1/tenant-a")
}

// TestReadOnlyPoolCannotWrite checks on the real schema that the service's
// pool refuses a write with SQLSTATE 25006 (read_only_sql_transaction),
// inside a transaction too: lib/pq begins transactions READ WRITE unless
// told otherwise, which would override the session default.
func TestReadOnlyPoolCannotWrite(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	const insert = "INSERT INTO tenants (id, name) VALUES ('66666666-6666-4666-8666-666666666666', 'intruder')"
	tests := []struct {
		name  string
		write func() error
	}{
		{"statement", func() error {
			_, err := f.ro.ExecContext(ctx, insert)
			return err
		}},
		{"transaction", func() error {
			tx, err := f.ro.BeginTxx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, insert); err != nil {
				return err
			}
			return tx.Commit()
		}},
		{"transaction asking for READ WRITE", func() error {
			tx, err := f.ro.BeginTxx(ctx, &sql.TxOptions{ReadOnly: false})
			if err != nil {
				return err
			}
			defer tx.Rollback()
			_, err = tx.ExecContext(ctx, insert)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var pqErr *pq.Error
			is.True(errors.As(tt.write(), &pqErr))
			is.Equal(string(pqErr.Code), "25006")
		})
	}

	// Reading in a transaction still works.
	is := is.New(t)
	tx, err := f.ro.BeginTxx(ctx, nil)
	is.NoErr(err)
	defer tx.Rollback()
	var n int
	is.NoErr(tx.GetContext(ctx, &n, "SELECT count(*) FROM tenants"))
	is.Equal(n, 5)
}

// TestSchemaConstraints: provisioning mistakes the lookups rely on never
// seeing are refused by the schema itself.
func TestSchemaConstraints(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		name  string
		sql   string
		state string // SQLSTATE
	}{
		{"key on another tenant's module",
			`INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key)
			 VALUES ('22222222-2222-4222-8222-222222222222', 'k', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ES256', '{}')`,
			"23503"},
		{"same kid twice for a tenant",
			`INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key)
			 VALUES ('11111111-1111-4111-8111-111111111111', 'tenant-a-dev', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'ES256', '{}')`,
			"23505"},
		{"symmetric algorithm",
			`INSERT INTO client_keys (tenant_id, kid, module_id, algorithm, public_key)
			 VALUES ('11111111-1111-4111-8111-111111111111', 'k', 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', 'HS256', 'secret')`,
			"23514"},
		{"partition without slot or token label",
			`INSERT INTO hsm_partitions (tenant_id, partition_type, pkcs11_module, pin_ref)
			 VALUES ('22222222-2222-4222-8222-222222222222', 'luna', '/lib.so', 'env:PIN')`,
			"23514"},
		{"licence ending before it starts",
			`INSERT INTO tenant_features (tenant_id, feature, valid_from, valid_until)
			 VALUES ('33333333-3333-4333-8333-333333333333', 'dss', '2026-01-01', '2025-01-01')`,
			"23514"},
		{"access-token rule of another spelling",
			`UPDATE oidc_providers SET access_tokens = 'AT+JWT' WHERE tenant_id = '11111111-1111-4111-8111-111111111111'`,
			"23514"},
		{"no access-token rule",
			`UPDATE oidc_providers SET access_tokens = NULL WHERE tenant_id = '22222222-2222-4222-8222-222222222222'`,
			"23502"},
		{"second provider for a tenant",
			`INSERT INTO oidc_providers (tenant_id, issuer, client_id)
			 VALUES ('11111111-1111-4111-8111-111111111111', 'http://127.0.0.1/other', 'x')`,
			"23505"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := f.admin.ExecContext(context.Background(), tt.sql)
			var pqErr *pq.Error
			is.True(errors.As(err, &pqErr))
			is.Equal(string(pqErr.Code), tt.state)
		})
	}
}

// TestSeedKeyMatchesTestdata keeps the published development key and the
// seeded public key together.
func TestSeedKeyMatchesTestdata(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newFixture(t)
	k, err := postgres.NewControl(f.ro).ClientKey(context.Background(), tenantA, devKeyKid)
	is.NoErr(err)

	block, _ := pem.Decode([]byte(k.PublicKey))
	is.True(block != nil)
	pub, err := x509.ParsePKIXPublicKey(block.Bytes)
	is.NoErr(err)
	raw, err := os.ReadFile("testdata/dev-client-key-tenant-a.pem")
	is.NoErr(err)
	block, _ = pem.Decode(raw)
	is.True(block != nil)
	priv, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	is.NoErr(err)
	ec, ok := priv.(*ecdsa.PrivateKey)
	is.True(ok) // ES256 needs a P-256 key
	is.True(ec.PublicKey.Equal(pub))
}

// malformed are tenant strings that are not UUIDs in the 8-4-4-4-12 form.
var malformed = []struct{ name, tenant string }{
	{"empty", ""},
	{"a name", "tenant-a"},
	{"braces", "{" + tenantA + "}"},
	{"no hyphens", "11111111111141118111111111111111"},
	{"SQL", "' OR '1'='1' -- 1111111111111111111111"},
	{"non-hex digit", "g1111111-1111-4111-8111-111111111111"},
	{"NUL", "\x001111111-1111-4111-8111-111111111111"},
}

func TestProvider(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := postgres.NewControl(f.ro)
	tests := []struct {
		name    string
		tenant  string
		want    postgres.Provider
		wantErr error
	}{
		{"found", tenantA, postgres.Provider{
			Tenant: tenantA, Issuer: "http://127.0.0.1/tenant-a", ClientID: "dss-validator-a",
			ClientSecretRef: "env:SVC_DSS_DEV_OIDC_SECRET_A", Audience: "dss-validator-a",
			AccessTokens: postgres.AccessTokensByClaims,
		}, nil},
		{"unlicensed tenant still logs in", tenantC, postgres.Provider{
			Tenant: tenantC, Issuer: "http://127.0.0.1/tenant-c", ClientID: "dss-validator-c",
			ClientSecretRef: "env:SVC_DSS_DEV_OIDC_SECRET_C", Audience: "dss-validator-c",
			AccessTokens: postgres.AccessTokensByClaims,
		}, nil},
		{"tenant without provider", tenantE, postgres.Provider{}, postgres.ErrNotFound},
		{"unknown tenant", unknown, postgres.Provider{}, postgres.ErrNotFound},
		{"disabled tenant", tenantD, postgres.Provider{}, postgres.ErrNotFound},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name    string
			tenant  string
			want    postgres.Provider
			wantErr error
		}{"malformed: " + m.name, m.tenant, postgres.Provider{}, postgres.ErrInvalidTenant})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got, err := c.Provider(context.Background(), tt.tenant)
			is.True(errors.Is(err, tt.wantErr)) // err
			if tt.wantErr != nil {
				is.True(errors.Is(err, postgres.ErrNotFound)) // every refusal is not-found
			}
			is.Equal(got, tt.want)
		})
	}
}

// TestProviderAccessTokens reads the access_tokens column: the default a
// row gets when it does not name a rule, both rules set by SQL, and a
// value this release does not know (as a newer release's schema might
// allow), which is an infrastructure error, never the lenient default.
func TestProviderAccessTokens(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	// Tenant C's row becomes the unknown value, past a dropped constraint.
	_, err := f.admin.ExecContext(ctx, `
		UPDATE oidc_providers SET access_tokens = 'at+jwt' WHERE tenant_id = '22222222-2222-4222-8222-222222222222';
		UPDATE oidc_providers SET access_tokens = 'claims' WHERE tenant_id = '11111111-1111-4111-8111-111111111111';
		ALTER TABLE oidc_providers DROP CONSTRAINT oidc_providers_access_tokens_check;
		UPDATE oidc_providers SET access_tokens = 'opaque' WHERE tenant_id = '33333333-3333-4333-8333-333333333333';
		INSERT INTO tenants (id, name) VALUES ('66666666-6666-4666-8666-666666666666', 'Tenant F');
		INSERT INTO oidc_providers (tenant_id, issuer, client_id) VALUES ('66666666-6666-4666-8666-666666666666', 'http://127.0.0.1/f', 'f')`)
	if err != nil {
		t.Fatal(err)
	}
	c := postgres.NewControl(f.ro)
	tests := []struct {
		name    string
		tenant  string
		want    postgres.AccessTokenRule
		wantErr bool
	}{
		{"row inserted without a rule: the default", "66666666-6666-4666-8666-666666666666", postgres.AccessTokensByClaims, false},
		{"claims, set", tenantA, postgres.AccessTokensByClaims, false},
		{"at+jwt", tenantB, postgres.AccessTokensATJWTOnly, false},
		{"a value this release does not know", tenantC, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p, err := c.Provider(ctx, tt.tenant)
			if tt.wantErr {
				is.True(err != nil)
				is.True(!errors.Is(err, postgres.ErrNotFound)) // an infrastructure failure, not an unknown tenant
				is.Equal(p, postgres.Provider{})
				return
			}
			is.NoErr(err)
			is.Equal(p.AccessTokens, tt.want)
		})
	}
}

func TestParseAccessTokenRule(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    postgres.AccessTokenRule
		wantErr bool
	}{
		{"claims", postgres.AccessTokensByClaims, false},
		{"at+jwt", postgres.AccessTokensATJWTOnly, false},
		{"", 0, true},
		{"AT+JWT", 0, true},
		{"application/at+jwt", 0, true},
		{"opaque", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			is := is.New(t)
			got, err := postgres.ParseAccessTokenRule(tt.in)
			is.Equal(err != nil, tt.wantErr)
			is.Equal(got, tt.want)
			if !tt.wantErr {
				is.Equal(got.String(), tt.in) // the column's spelling round-trips
			}
		})
	}
}

func TestProviderIgnoresCase(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newFixture(t)
	// The seeded UUIDs have no letters, so register one that does.
	_, err := f.admin.Exec(`
		INSERT INTO tenants (id, name) VALUES ('abcdef01-2345-4678-9abc-def012345678', 'Tenant F');
		INSERT INTO oidc_providers (tenant_id, issuer, client_id) VALUES ('abcdef01-2345-4678-9abc-def012345678', 'http://127.0.0.1/f', 'f')`)
	is.NoErr(err)
	p, err := postgres.NewControl(f.ro).Provider(context.Background(), "ABCDEF01-2345-4678-9ABC-DEF012345678")
	is.NoErr(err)
	is.Equal(p.Tenant, "abcdef01-2345-4678-9abc-def012345678")
}

func TestClientKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := postgres.NewControl(f.ro)
	tests := []struct {
		name    string
		tenant  string
		kid     string
		wantErr error
	}{
		{"found", tenantA, devKeyKid, nil},
		{"kid of another tenant", tenantB, devKeyKid, postgres.ErrNotFound},
		{"unknown kid", tenantA, "nobody", postgres.ErrNotFound},
		{"kids are exact", tenantA, "TENANT-A-DEV", postgres.ErrNotFound},
		{"disabled key", tenantA, "revoked", postgres.ErrNotFound},
		{"key on disabled module", tenantA, "on-retired-module", postgres.ErrNotFound},
		{"disabled tenant", tenantD, "tenant-d-key", postgres.ErrNotFound},
		{"unknown tenant", unknown, devKeyKid, postgres.ErrNotFound},
		{"empty kid", tenantA, "", postgres.ErrNotFound},
		{"kid with NUL", tenantA, "tenant-a-dev\x00", postgres.ErrNotFound},
		{"kid not UTF-8", tenantA, "\xfe\xff", postgres.ErrNotFound},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name    string
			tenant  string
			kid     string
			wantErr error
		}{"malformed: " + m.name, m.tenant, devKeyKid, postgres.ErrInvalidTenant})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got, err := c.ClientKey(context.Background(), tt.tenant, tt.kid)
			if tt.wantErr != nil {
				is.True(errors.Is(err, tt.wantErr))
				is.True(errors.Is(err, postgres.ErrNotFound))
				is.Equal(got, postgres.ClientKey{})
				return
			}
			is.NoErr(err)
			is.Equal(got.Tenant, tenantA)
			is.Equal(got.Module, moduleA)
			is.Equal(got.Kid, devKeyKid)
			is.Equal(got.Algorithm, "ES256")
			block, _ := pem.Decode([]byte(got.PublicKey))
			is.True(block != nil)
			is.Equal(block.Type, "PUBLIC KEY")
		})
	}
}

func TestModule(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := postgres.NewControl(f.ro)
	tests := []struct {
		name    string
		tenant  string
		want    []string
		wantErr error
	}{
		{"enabled modules only", tenantA, []string{moduleA}, nil},
		{"tenant without modules", tenantB, []string{}, nil},
		{"unknown tenant", unknown, nil, postgres.ErrNotFound},
		{"disabled tenant", tenantD, nil, postgres.ErrNotFound},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name    string
			tenant  string
			want    []string
			wantErr error
		}{"malformed: " + m.name, m.tenant, nil, postgres.ErrInvalidTenant})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got, err := c.Module(context.Background(), tt.tenant)
			is.True(errors.Is(err, tt.wantErr))
			is.Equal(got, tt.want)
		})
	}
}

func TestModuleOrder(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newFixture(t)
	_, err := f.admin.Exec(`INSERT INTO dss_modules (id, tenant_id) VALUES
		('00000000-0000-4000-8000-00000000000a', '11111111-1111-4111-8111-111111111111'),
		('ffffffff-ffff-4fff-8fff-ffffffffffff', '11111111-1111-4111-8111-111111111111')`)
	is.NoErr(err)
	got, err := postgres.NewControl(f.ro).Module(context.Background(), tenantA)
	is.NoErr(err)
	// Sorted, and tenant A's disabled module (bbbbbbbb-…) stays out.
	is.Equal(got, []string{"00000000-0000-4000-8000-00000000000a", moduleA, "ffffffff-ffff-4fff-8fff-ffffffffffff"})
}

func TestPartition(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	c := postgres.NewControl(f.ro)
	slot0 := uint(0)
	tests := []struct {
		name    string
		tenant  string
		want    postgres.Partition
		wantErr error
	}{
		{"by token label", tenantA, postgres.Partition{
			Tenant: tenantA, Type: "pkcs11-ska", Library: "/usr/lib/softhsm/libsofthsm2.so",
			TokenLabel: "tenant-a", User: "user", PINRef: "env:SVC_DSS_DEV_HSM_PIN_A",
		}, nil},
		{"by slot 0", tenantC, postgres.Partition{
			Tenant: tenantC, Type: "luna", Library: "/opt/hsm/lib.so", Slot: &slot0,
			User: "co", PINRef: "vault:hsm/c",
		}, nil},
		{"tenant without partition", tenantB, postgres.Partition{}, postgres.ErrNotFound},
		{"unknown tenant", unknown, postgres.Partition{}, postgres.ErrNotFound},
		{"disabled tenant", tenantD, postgres.Partition{}, postgres.ErrNotFound},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name    string
			tenant  string
			want    postgres.Partition
			wantErr error
		}{"malformed: " + m.name, m.tenant, postgres.Partition{}, postgres.ErrInvalidTenant})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got, err := c.Partition(context.Background(), tt.tenant)
			is.True(errors.Is(err, tt.wantErr))
			is.Equal(got, tt.want)
		})
	}
}

// TestMalformedTenantIsNotQueried uses a closed pool: any query would fail
// with an infrastructure error instead of the not-found answers.
func TestMalformedTenantIsNotQueried(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	db, err := postgres.Open(postgres.Options{URL: "postgres://127.0.0.1:1/none?sslmode=disable"})
	is.NoErr(err)
	is.NoErr(db.Close())
	c := postgres.NewControl(db)

	for _, m := range malformed {
		_, err := c.Provider(ctx, m.tenant)
		is.True(errors.Is(err, postgres.ErrInvalidTenant))
		_, err = c.ClientKey(ctx, m.tenant, devKeyKid)
		is.True(errors.Is(err, postgres.ErrInvalidTenant))
		_, err = c.Module(ctx, m.tenant)
		is.True(errors.Is(err, postgres.ErrInvalidTenant))
		_, err = c.Partition(ctx, m.tenant)
		is.True(errors.Is(err, postgres.ErrInvalidTenant))
		ok, err := c.HasFeature(ctx, m.tenant, "dss.validator", at)
		is.True(!ok && err == nil)
		ok, err = c.HasPermission(ctx, m.tenant, "dss.sign")
		is.True(!ok && err == nil)
	}
	// And the closed pool does fail a well-formed lookup.
	_, err = c.Provider(ctx, tenantA)
	is.True(err != nil && !errors.Is(err, postgres.ErrNotFound))
}

// TestUnreachableDatabase: a database that does not answer is an
// infrastructure error (502), never "not found" (401/403), and it comes
// quickly.
func TestUnreachableDatabase(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	port := closedPort(t)
	db, err := postgres.Open(postgres.Options{URL: "postgres://127.0.0.1:" + port + "/control?sslmode=disable&connect_timeout=1"})
	is.NoErr(err)
	defer db.Close()
	c := postgres.NewControl(db)
	cached := postgres.NewCachedControl(c, time.Minute, 10, time.Now)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	lookups := []struct {
		name string
		call func() error
	}{
		{"Provider", func() error { _, err := c.Provider(ctx, tenantA); return err }},
		{"HasFeature", func() error { _, err := c.HasFeature(ctx, tenantA, "dss.validator", at); return err }},
		{"HasPermission", func() error { _, err := c.HasPermission(ctx, tenantA, "dss.sign"); return err }},
		{"ClientKey", func() error { _, err := c.ClientKey(ctx, tenantA, devKeyKid); return err }},
		{"Module", func() error { _, err := c.Module(ctx, tenantA); return err }},
		{"Partition", func() error { _, err := c.Partition(ctx, tenantA); return err }},
		{"cached Provider", func() error { _, err := cached.Provider(ctx, tenantA); return err }},
		{"cached HasFeature", func() error { _, err := cached.HasFeature(ctx, tenantA, "dss.validator", at); return err }},
		{"Ping", func() error { return postgres.Ping(ctx, db) }},
	}
	for _, l := range lookups {
		err := l.call()
		if err == nil || errors.Is(err, postgres.ErrNotFound) {
			t.Errorf("%s: err = %v; want an infrastructure error", l.name, err)
		}
	}
	is.True(time.Since(start) < 4*time.Second) // refused connections fail fast
	providers, features := postgres.CacheLen(cached)
	is.Equal(providers+features, 0) // failures were not cached
}

// closedPort returns a local TCP port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa(port)
}

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
