package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/ports"
)

// The lookup outcomes callers branch on with errors.Is. They are always
// returned wrapped, with the lookup and the tenant in the message.
var (
	// ErrNotFound is [ports.ErrNotFound]: the tenant, its provider, key,
	// module or partition is not registered, or the tenant is disabled.
	// Callers answer 401 or 403, never 502.
	ErrNotFound = ports.ErrNotFound

	// ErrInvalidTenant: the tenant ID is not a UUID. Every error wrapping
	// it also wraps ErrNotFound, so callers that only tell found from not
	// found need no extra case.
	ErrInvalidTenant error = invalidTenant{}
)

type invalidTenant struct{}

func (invalidTenant) Error() string        { return "tenant id is not a UUID" }
func (invalidTenant) Is(target error) bool { return target == ErrNotFound }

// The rows the lookups return are the ports' values.
type (
	// A Provider is a tenant's OpenID provider, a row of oidc_providers
	// (validation-service.md §5).
	Provider = ports.Provider
	// An AccessTokenRule is the access_tokens column of a provider
	// (docs/decisions/0022, point 7). Its String is the column's spelling.
	AccessTokenRule = ports.AccessTokenRule
	// A ClientKey is a signing-server caller's registered public key, a
	// row of client_keys (signing-server.md §2 and §5).
	ClientKey = ports.ClientKey
	// A Partition is a tenant's HSM partition, a row of hsm_partitions
	// (signing-server.md §1). It holds where to find the PIN, not the PIN.
	Partition = ports.PartitionRegistration
)

// The rules of the access_tokens column.
const (
	// AccessTokensByClaims ('claims', the column's default).
	AccessTokensByClaims = ports.AccessTokensByClaims
	// AccessTokensATJWTOnly ('at+jwt').
	AccessTokensATJWTOnly = ports.AccessTokensATJWTOnly
)

// ParseAccessTokenRule reads the column's spelling of a rule. Anything
// else, such as a value a newer release allowed, is an error: a provider
// must never fall back to the more lenient rule.
func ParseAccessTokenRule(s string) (AccessTokenRule, error) {
	switch s {
	case "claims":
		return AccessTokensByClaims, nil
	case "at+jwt":
		return AccessTokensATJWTOnly, nil
	}
	return 0, fmt.Errorf("access_tokens %q is not a rule this release knows", s)
}

// Control implements the control-data ports; [CachedControl] does too.
var (
	_ ports.TenantDirectory = (*Control)(nil)
	_ ports.Licenses        = (*Control)(nil)
	_ ports.Permissions     = (*Control)(nil)
	_ ports.ClientKeys      = (*Control)(nil)
	_ ports.Partitions      = (*Control)(nil)
	_ ports.TenantDirectory = (*CachedControl)(nil)
	_ ports.Licenses        = (*CachedControl)(nil)
	_ ports.Permissions     = (*CachedControl)(nil)
	_ ports.ClientKeys      = (*CachedControl)(nil)
	_ ports.Partitions      = (*CachedControl)(nil)
)

// Control answers the control-database lookups over a pool, normally the
// read-only one from [Open]. It is safe for concurrent use and caches
// nothing; see [CachedControl].
type Control struct {
	db *sqlx.DB
}

// NewControl returns a Control reading db. It panics if db is nil: that is
// a wiring mistake, better found at start-up than on the first request.
func NewControl(db *sqlx.DB) *Control {
	if db == nil {
		panic("postgres: NewControl: nil db")
	}
	return &Control{db: db}
}

// Provider returns the OpenID provider of an enabled tenant. A row whose
// access_tokens this release does not know is an error that is not
// ErrNotFound: an infrastructure failure, never the default rule.
func (c *Control) Provider(ctx context.Context, tenant string) (Provider, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return Provider{}, fmt.Errorf("postgres: provider: %w", ErrInvalidTenant)
	}
	p := Provider{Tenant: id}
	var rule string
	err := c.db.QueryRowxContext(ctx, `
		SELECT p.issuer, p.client_id, p.client_secret_ref, p.audience, p.redirect_base_url, p.access_tokens
		FROM oidc_providers p
		JOIN tenants t ON t.id = p.tenant_id
		WHERE p.tenant_id = $1 AND t.enabled`, id).
		Scan(&p.Issuer, &p.ClientID, &p.ClientSecretRef, &p.Audience, &p.RedirectBaseURL, &rule)
	if err != nil {
		return Provider{}, lookupError("provider", id, err)
	}
	if p.AccessTokens, err = ParseAccessTokenRule(rule); err != nil {
		return Provider{}, fmt.Errorf("postgres: provider of tenant %s: %w", id, err)
	}
	return p, nil
}

// ValidationPolicy returns the name of an enabled tenant's default
// validation policy (tenants.validation_policy), "" for none.
func (c *Control) ValidationPolicy(ctx context.Context, tenant string) (string, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return "", fmt.Errorf("postgres: validation policy: %w", ErrInvalidTenant)
	}
	var name string
	err := c.db.GetContext(ctx, &name, `SELECT validation_policy FROM tenants WHERE id = $1 AND enabled`, id)
	if err != nil {
		return "", lookupError("validation policy", id, err)
	}
	return name, nil
}

// HasFeature reports whether an enabled tenant holds the feature licence
// at the given time: valid_from <= at < valid_until, an open side always
// holding. It answers false without an error for an unknown, disabled or
// malformed tenant; an error is an infrastructure failure.
func (c *Control) HasFeature(ctx context.Context, tenant, feature string, at time.Time) (bool, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return false, nil
	}
	v, err := c.licence(ctx, id, feature)
	if err != nil {
		return false, err
	}
	return v.covers(at), nil
}

// HasPermission reports whether an enabled tenant holds the permission. It
// answers false without an error for an unknown, disabled or malformed
// tenant; an error is an infrastructure failure.
func (c *Control) HasPermission(ctx context.Context, tenant, permission string) (bool, error) {
	id, ok := canonicalUUID(tenant)
	if !ok || !storable(permission) {
		return false, nil
	}
	var held bool
	err := c.db.GetContext(ctx, &held, `
		SELECT EXISTS (
			SELECT 1 FROM tenant_permissions p
			JOIN tenants t ON t.id = p.tenant_id
			WHERE p.tenant_id = $1 AND p.permission = $2 AND t.enabled)`, id, permission)
	if err != nil {
		return false, fmt.Errorf("postgres: permission %q of tenant %s: %w", permission, id, err)
	}
	return held, nil
}

// ClientKey returns the enabled key registered as kid for an enabled
// tenant, on an enabled module of that tenant. A key of another tenant
// with the same kid is not found. ClientKey does not check the module the
// request names; the caller compares it with ClientKey.Module.
func (c *Control) ClientKey(ctx context.Context, tenant, kid string) (ClientKey, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return ClientKey{}, fmt.Errorf("postgres: client key: %w", ErrInvalidTenant)
	}
	if kid == "" || !storable(kid) {
		// The kid comes from an unverified JWT header.
		return ClientKey{}, fmt.Errorf("postgres: client key of tenant %s: unusable kid: %w", id, ErrNotFound)
	}
	k := ClientKey{Tenant: id, Kid: kid}
	err := c.db.QueryRowxContext(ctx, `
		SELECT k.module_id, k.algorithm, k.public_key
		FROM client_keys k
		JOIN tenants t ON t.id = k.tenant_id
		JOIN dss_modules m ON m.tenant_id = k.tenant_id AND m.id = k.module_id
		WHERE k.tenant_id = $1 AND k.kid = $2 AND k.enabled AND m.enabled AND t.enabled`, id, kid).
		Scan(&k.Module, &k.Algorithm, &k.PublicKey)
	if err != nil {
		return ClientKey{}, lookupError(fmt.Sprintf("client key %q", kid), id, err)
	}
	return k, nil
}

// Module returns the UUIDs of an enabled tenant's enabled DSS module
// instances, in ascending order; an empty slice when it has none. An
// unknown or disabled tenant is ErrNotFound.
func (c *Control) Module(ctx context.Context, tenant string) ([]string, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return nil, fmt.Errorf("postgres: modules: %w", ErrInvalidTenant)
	}
	// The outer join tells a tenant without modules (one NULL row) from
	// an unknown one (no row).
	var rows []sql.NullString
	err := c.db.SelectContext(ctx, &rows, `
		SELECT m.id
		FROM tenants t
		LEFT JOIN dss_modules m ON m.tenant_id = t.id AND m.enabled
		WHERE t.id = $1 AND t.enabled
		ORDER BY m.id`, id)
	if err != nil {
		return nil, fmt.Errorf("postgres: modules of tenant %s: %w", id, err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("postgres: modules of tenant %s: %w", id, ErrNotFound)
	}
	modules := []string{}
	for _, r := range rows {
		if r.Valid {
			modules = append(modules, r.String)
		}
	}
	return modules, nil
}

// Partition returns the HSM partition of an enabled tenant.
func (c *Control) Partition(ctx context.Context, tenant string) (Partition, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return Partition{}, fmt.Errorf("postgres: partition: %w", ErrInvalidTenant)
	}
	p := Partition{Tenant: id}
	var slot sql.NullInt64
	err := c.db.QueryRowxContext(ctx, `
		SELECT p.partition_type, p.pkcs11_module, p.host, p.slot, p.token_label, p.user_name, p.pin_ref
		FROM hsm_partitions p
		JOIN tenants t ON t.id = p.tenant_id
		WHERE p.tenant_id = $1 AND t.enabled`, id).
		Scan(&p.Type, &p.Library, &p.Host, &slot, &p.TokenLabel, &p.User, &p.PINRef)
	if err != nil {
		return Partition{}, lookupError("partition", id, err)
	}
	if slot.Valid {
		s := uint(slot.Int64) // the schema keeps it >= 0
		p.Slot = &s
	}
	return p, nil
}

// A validity is what the database says about one licence of one tenant.
type validity struct {
	held        bool // a row exists and the tenant is enabled
	from, until sql.NullTime
}

// covers tells whether the licence holds at t; the period is half-open.
func (v validity) covers(t time.Time) bool {
	return v.held &&
		(!v.from.Valid || !t.Before(v.from.Time)) &&
		(!v.until.Valid || t.Before(v.until.Time))
}

// licence reads the validity of a feature licence of the tenant with the
// canonical UUID id. It reads the period rather than asking the database
// about one instant, so that CachedControl can answer for any instant.
func (c *Control) licence(ctx context.Context, id, feature string) (validity, error) {
	if !storable(feature) {
		return validity{}, nil
	}
	var v validity
	err := c.db.QueryRowxContext(ctx, `
		SELECT f.valid_from, f.valid_until
		FROM tenant_features f
		JOIN tenants t ON t.id = f.tenant_id
		WHERE f.tenant_id = $1 AND f.feature = $2 AND t.enabled`, id, feature).
		Scan(&v.from, &v.until)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return validity{}, nil
	case err != nil:
		return validity{}, fmt.Errorf("postgres: licence %q of tenant %s: %w", feature, id, err)
	}
	v.held = true
	return v, nil
}

// lookupError wraps the error of a single-row lookup: no row is
// ErrNotFound, anything else an infrastructure failure.
func lookupError(what, id string, err error) error {
	if errors.Is(err, sql.ErrNoRows) {
		err = ErrNotFound
	}
	return fmt.Errorf("postgres: %s of tenant %s: %w", what, id, err)
}

// canonicalUUID returns s in lower case if it is a UUID in the 8-4-4-4-12
// hex form. PostgreSQL would accept more spellings, and reject anything
// else with a query error; checking here keeps a bad tenant ID from a
// request out of the database and gives the cache one key per tenant.
func canonicalUUID(s string) (string, bool) {
	if len(s) != 36 {
		return "", false
	}
	b := []byte(s)
	for i, c := range b {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return "", false
			}
		case '0' <= c && c <= '9', 'a' <= c && c <= 'f':
		case 'A' <= c && c <= 'F':
			b[i] = c + ('a' - 'A')
		default:
			return "", false
		}
	}
	return string(b), true
}

// storable tells whether PostgreSQL can compare s with a text column;
// invalid UTF-8 and NUL are query errors there, and cannot match a row.
func storable(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}
