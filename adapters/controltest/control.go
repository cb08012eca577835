package controltest

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/svc-dss/dss/ports"
)

// Control is every control-data port: what [Run] checks.
type Control interface {
	ports.TenantDirectory
	ports.Licenses
	ports.Permissions
	ports.ClientKeys
	ports.Partitions
	ports.TenantPolicies
}

// A Tenant is one tenant's control data, as the suite asks an
// implementation to provision it.
type Tenant struct {
	// ID is the tenant's UUID. It may be given in upper case.
	ID string
	// Disabled tenants are unknown to every lookup.
	Disabled bool
	// Provider is the tenant's OpenID provider, or nil. Its Tenant field
	// is empty.
	Provider *ports.Provider
	// Licenses are the feature licences, one per feature.
	Licenses []License
	// Permissions are the tenant's permissions.
	Permissions []string
	// Modules are the tenant's DSS module instances.
	Modules []Module
	// Keys are the signing proxies' public keys, one per kid.
	Keys []Key
	// Partition is the tenant's HSM partition, or nil. Its Tenant field is
	// empty.
	Partition *ports.PartitionRegistration
	// ValidationPolicy names the tenant's default validation policy; ""
	// for none.
	ValidationPolicy string
}

// A License is a feature licence valid from From (inclusive) until Until
// (exclusive); a zero time leaves that side open.
type License struct {
	Feature     string
	From, Until time.Time
}

// A Module is a DSS module instance. Its ID may be given in upper case.
type Module struct {
	ID       string
	Disabled bool
}

// A Key is a signing proxy's registered public key on a module of the
// same tenant. Its Module may be given in upper case.
type Key struct {
	Kid, Module, Algorithm, PublicKey string
	Disabled                          bool
}

// The suite's tenants, modules and keys.
const (
	tenantA = "aaaaaaaa-aaaa-4aaa-8aaa-000000000001" // fully provisioned
	tenantB = "bbbbbbbb-bbbb-4bbb-8bbb-000000000002" // a provider with the strict rule, a key under A's kid "shared"
	tenantC = "cccccccc-cccc-4ccc-8ccc-000000000003" // no provider, no licence; a partition by slot 0
	tenantD = "dddddddd-dddd-4ddd-8ddd-000000000004" // disabled, otherwise fully provisioned
	tenantE = "eeeeeeee-eeee-4eee-8eee-000000000005" // enabled, nothing provisioned
	unknown = "99999999-9999-4999-8999-999999999999" // not provisioned

	moduleA  = "a0000000-0000-4000-8000-00000000000a"
	moduleA2 = "a2000000-0000-4000-8000-0000000000a2" // provisioned in upper case
	retired  = "a3000000-0000-4000-8000-0000000000a3" // disabled module of A
	moduleB  = "b0000000-0000-4000-8000-00000000000b"
	moduleD  = "d0000000-0000-4000-8000-00000000000d"

	pemA  = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE05E+q9nbQxU22lec3cFk+xfs/jxr\ngMlVDnIYJYwT/8kOYiJVuB5wJ5HfIpnwQF5MXuN0DbJImOmUoA/S2Isdmw==\n-----END PUBLIC KEY-----\n"
	jwkA2 = `{"kty":"RSA","n":"0vx7","e":"AQAB"}`
)

// at is the instant the licence periods are placed around.
var at = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func date(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// Tenants returns the data every run of [Run] provisions: a new
// copy each time.
func Tenants() []Tenant {
	slot0 := uint(0)
	slot7 := uint(7)
	return []Tenant{
		{
			ID: tenantA,
			Provider: &ports.Provider{Issuer: "https://idp.example.test/a", ClientID: "dss-validator-a", ClientSecretRef: "env:SECRET_A",
				Audience: "aud-a", RedirectBaseURL: "https://a.example.test/dss", AccessTokens: ports.AccessTokensByClaims},
			Licenses: []License{
				{Feature: "dss.validator"},
				{Feature: "dss"},
				{Feature: "expired", Until: date(2025, 1, 1)},
				{Feature: "future", From: date(2027, 1, 1)},
				{Feature: "window", From: date(2025, 6, 1), Until: date(2026, 6, 1)},
			},
			Permissions: []string{"dss.sign", "dss.audit"},
			Modules:     []Module{{ID: moduleA}, {ID: strings.ToUpper(moduleA2)}, {ID: retired, Disabled: true}},
			Keys: []Key{
				{Kid: "proxy-a", Module: moduleA, Algorithm: "ES256", PublicKey: pemA},
				{Kid: "proxy-a2", Module: strings.ToUpper(moduleA2), Algorithm: "RS256", PublicKey: jwkA2},
				{Kid: "shared", Module: moduleA, Algorithm: "ES384", PublicKey: "{}"},
				{Kid: "revoked", Module: moduleA, Algorithm: "ES256", PublicKey: pemA, Disabled: true},
				{Kid: "on-retired-module", Module: retired, Algorithm: "ES256", PublicKey: pemA},
			},
			Partition: &ports.PartitionRegistration{Type: "pkcs11-ska", Library: "/usr/lib/softhsm/libsofthsm2.so",
				TokenLabel: "tenant-a", User: "user", PINRef: "env:PIN_A"},
			ValidationPolicy: "strict",
		},
		{
			ID:       tenantB,
			Provider: &ports.Provider{Issuer: "https://idp.example.test/b", ClientID: "dss-validator-b", AccessTokens: ports.AccessTokensATJWTOnly},
			Licenses: []License{{Feature: "dss.validator"}},
			Modules:  []Module{{ID: moduleB}},
			Keys:     []Key{{Kid: "shared", Module: moduleB, Algorithm: "PS256", PublicKey: jwkA2}},
		},
		{
			ID:          tenantC,
			Permissions: []string{"dss.sign"},
			Partition: &ports.PartitionRegistration{Type: "luna", Library: "/opt/hsm/lib.so", Host: "hsm.example.test:1792",
				Slot: &slot0, User: "co", PINRef: "vault:hsm/c"},
		},
		{
			ID: tenantD, Disabled: true,
			Provider:    &ports.Provider{Issuer: "https://idp.example.test/d", ClientID: "dss-validator-d", AccessTokens: ports.AccessTokensByClaims},
			Licenses:    []License{{Feature: "dss.validator"}, {Feature: "dss"}},
			Permissions: []string{"dss.sign"},
			Modules:     []Module{{ID: moduleD}},
			Keys:        []Key{{Kid: "tenant-d-key", Module: moduleD, Algorithm: "ES256", PublicKey: pemA}},
			Partition: &ports.PartitionRegistration{Type: "pkcs11-ska", Library: "/opt/hsm/lib.so", Slot: &slot7,
				TokenLabel: "tenant-d", User: "user", PINRef: "pin:1234"},
			ValidationPolicy: "lax",
		},
		{ID: tenantE},
	}
}

// malformed are tenant strings that are not UUIDs in the 8-4-4-4-12 form.
var malformed = []struct{ name, tenant string }{
	{"empty", ""},
	{"a name", "tenant-a"},
	{"braces", "{" + tenantA + "}"},
	{"no hyphens", strings.ReplaceAll(tenantA, "-", "")},
	{"SQL", "' OR '1'='1' -- 1111111111111111111111"},
	{"non-hex digit", "g" + tenantA[1:]},
	{"trailing space", tenantA[:35] + " "},
	{"NUL", "\x00" + tenantA[1:]},
	{"not UTF-8", "\xff" + tenantA[1:]},
	{"urn form", "urn:uuid:" + tenantA},
}

// Run checks an implementation of the control-data ports against their
// documentation (ports/control.go and the package documentation of
// ports). open provisions tenants (always [Tenants]) in a new, empty store
// and returns the implementation reading it; it is called once, and fails
// the test when it cannot provision.
//
// The suite covers, for every method: a result read back whole; a tenant
// ID in upper case, answered in lower case; unknown, disabled and
// malformed tenants (not found, or false, never an infrastructure error);
// and the refusals of each lookup: a provider, partition or key the tenant
// lacks, an expired or not yet valid licence and the bounds of its period,
// names matched exactly, a key disabled, on a disabled module or of
// another tenant, a kid no key can have. Results must be values.
func Run(t *testing.T, open func(t *testing.T, tenants []Tenant) Control) {
	t.Helper()
	c := open(t, Tenants())
	t.Run("Provider", func(t *testing.T) { t.Parallel(); providerSuite(t, c) })
	t.Run("HasFeature", func(t *testing.T) { t.Parallel(); featureSuite(t, c) })
	t.Run("HasPermission", func(t *testing.T) { t.Parallel(); permissionSuite(t, c) })
	t.Run("ClientKey", func(t *testing.T) { t.Parallel(); clientKeySuite(t, c) })
	t.Run("Partition", func(t *testing.T) { t.Parallel(); partitionSuite(t, c) })
	t.Run("ValidationPolicy", func(t *testing.T) { t.Parallel(); policySuite(t, c) })
}

// notFound fails the test unless err wraps ports.ErrNotFound and got is
// the zero value.
func notFound[V any](t *testing.T, got V, err error) {
	t.Helper()
	if !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("err = %v; want one wrapping ports.ErrNotFound", err)
	}
	var zero V
	if !reflect.DeepEqual(got, zero) {
		t.Fatalf("got %+v with the error; want the zero value", got)
	}
}

// found fails the test unless err is nil and got is want.
func found[V any](t *testing.T, got V, err error, want V) {
	t.Helper()
	if err != nil {
		t.Fatalf("err = %v; want none", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

func providerSuite(t *testing.T, c Control) {
	ctx := context.Background()
	wantA := ports.Provider{Tenant: tenantA, Issuer: "https://idp.example.test/a", ClientID: "dss-validator-a", ClientSecretRef: "env:SECRET_A",
		Audience: "aud-a", RedirectBaseURL: "https://a.example.test/dss", AccessTokens: ports.AccessTokensByClaims}
	tests := []struct {
		name   string
		tenant string
		want   *ports.Provider // nil: not found
	}{
		{"every field", tenantA, &wantA},
		{"the strict access-token rule, empty optional fields", tenantB, &ports.Provider{Tenant: tenantB, Issuer: "https://idp.example.test/b",
			ClientID: "dss-validator-b", AccessTokens: ports.AccessTokensATJWTOnly}},
		{"tenant ID in upper case", strings.ToUpper(tenantA), &wantA},
		{"tenant without provider", tenantC, nil},
		{"tenant with nothing", tenantE, nil},
		{"disabled tenant", tenantD, nil},
		{"unknown tenant", unknown, nil},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name   string
			tenant string
			want   *ports.Provider
		}{"malformed: " + m.name, m.tenant, nil})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.Provider(ctx, tt.tenant)
			if tt.want == nil {
				notFound(t, got, err)
				return
			}
			found(t, got, err, *tt.want)
		})
	}
}

func featureSuite(t *testing.T, c Control) {
	ctx := context.Background()
	tests := []struct {
		name    string
		tenant  string
		feature string
		at      time.Time
		want    bool
	}{
		{"licensed without period", tenantA, "dss.validator", at, true},
		{"licensed without period, far in the past", tenantA, "dss", date(1970, 1, 1), true},
		{"tenant ID in upper case", strings.ToUpper(tenantA), "dss", at, true},
		{"other tenant licensed", tenantB, "dss.validator", at, true},
		{"licence held only by another tenant", tenantB, "dss", at, false},
		{"tenant without licence", tenantC, "dss.validator", at, false},
		{"tenant with nothing", tenantE, "dss.validator", at, false},
		{"unknown tenant", unknown, "dss.validator", at, false},
		{"disabled tenant", tenantD, "dss.validator", at, false},
		{"unknown feature", tenantA, "dss.other", at, false},
		{"feature names are exact", tenantA, "DSS.VALIDATOR", at, false},
		{"no prefix match", tenantA, "dss.valid", at, false},
		{"empty feature", tenantA, "", at, false},
		{"feature with NUL", tenantA, "dss\x00", at, false},
		{"feature not UTF-8", tenantA, "dss\xff", at, false},
		{"expired", tenantA, "expired", at, false},
		{"expiry is exclusive", tenantA, "expired", date(2025, 1, 1), false},
		{"before expiry", tenantA, "expired", date(2025, 1, 1).Add(-time.Nanosecond), true},
		{"not yet valid", tenantA, "future", at, false},
		{"valid from its first instant", tenantA, "future", date(2027, 1, 1), true},
		{"inside period", tenantA, "window", at, true},
		{"period start is inclusive", tenantA, "window", date(2025, 6, 1), true},
		{"period end is exclusive", tenantA, "window", date(2026, 6, 1), false},
		{"before period", tenantA, "window", date(2025, 5, 31), false},
		{"time zone does not matter", tenantA, "window", time.Date(2026, 6, 1, 1, 59, 0, 0, time.FixedZone("CEST", 2*3600)), true},
		{"time zone does not matter, past the end", tenantA, "window", time.Date(2026, 6, 1, 2, 0, 0, 0, time.FixedZone("CEST", 2*3600)), false},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name    string
			tenant  string
			feature string
			at      time.Time
			want    bool
		}{"malformed: " + m.name, m.tenant, "dss.validator", at, false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.HasFeature(ctx, tt.tenant, tt.feature, tt.at)
			if err != nil {
				t.Fatalf("err = %v; want none: no tenant holds nothing", err)
			}
			if got != tt.want {
				t.Fatalf("HasFeature = %v; want %v", got, tt.want)
			}
		})
	}
}

func permissionSuite(t *testing.T, c Control) {
	ctx := context.Background()
	tests := []struct {
		name       string
		tenant     string
		permission string
		want       bool
	}{
		{"granted", tenantA, "dss.sign", true},
		{"another granted", tenantA, "dss.audit", true},
		{"tenant ID in upper case", strings.ToUpper(tenantA), "dss.sign", true},
		{"granted without licence", tenantC, "dss.sign", true},
		{"not granted", tenantB, "dss.sign", false},
		{"tenant with nothing", tenantE, "dss.sign", false},
		{"unknown permission", tenantA, "dss.admin", false},
		{"permission names are exact", tenantA, "DSS.SIGN", false},
		{"no prefix match", tenantA, "dss", false},
		{"empty permission", tenantA, "", false},
		{"unknown tenant", unknown, "dss.sign", false},
		{"disabled tenant", tenantD, "dss.sign", false},
		{"permission with NUL", tenantA, "dss.sign\x00", false},
		{"permission not UTF-8", tenantA, "dss.sign\xff", false},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name       string
			tenant     string
			permission string
			want       bool
		}{"malformed: " + m.name, m.tenant, "dss.sign", false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.HasPermission(ctx, tt.tenant, tt.permission)
			if err != nil {
				t.Fatalf("err = %v; want none: no tenant holds nothing", err)
			}
			if got != tt.want {
				t.Fatalf("HasPermission = %v; want %v", got, tt.want)
			}
		})
	}
}

func clientKeySuite(t *testing.T, c Control) {
	ctx := context.Background()
	proxyA := ports.ClientKey{Tenant: tenantA, Module: moduleA, Kid: "proxy-a", Algorithm: "ES256", PublicKey: pemA}
	tests := []struct {
		name   string
		tenant string
		kid    string
		want   *ports.ClientKey // nil: not found
	}{
		{"every field", tenantA, "proxy-a", &proxyA},
		{"tenant ID in upper case", strings.ToUpper(tenantA), "proxy-a", &proxyA},
		{"module in lower case", tenantA, "proxy-a2", &ports.ClientKey{Tenant: tenantA, Module: moduleA2, Kid: "proxy-a2", Algorithm: "RS256", PublicKey: jwkA2}},
		{"a kid two tenants use: the tenant's own", tenantA, "shared", &ports.ClientKey{Tenant: tenantA, Module: moduleA, Kid: "shared", Algorithm: "ES384", PublicKey: "{}"}},
		{"a kid two tenants use: the other's", tenantB, "shared", &ports.ClientKey{Tenant: tenantB, Module: moduleB, Kid: "shared", Algorithm: "PS256", PublicKey: jwkA2}},
		{"kid of another tenant", tenantB, "proxy-a", nil},
		{"unknown kid", tenantA, "nobody", nil},
		{"kids are exact", tenantA, "PROXY-A", nil},
		{"no prefix match", tenantA, "proxy", nil},
		{"kid with a trailing space", tenantA, "proxy-a ", nil},
		{"disabled key", tenantA, "revoked", nil},
		{"key on a disabled module", tenantA, "on-retired-module", nil},
		{"disabled tenant", tenantD, "tenant-d-key", nil},
		{"tenant without keys", tenantE, "proxy-a", nil},
		{"unknown tenant", unknown, "proxy-a", nil},
		{"empty kid", tenantA, "", nil},
		{"kid with NUL", tenantA, "proxy-a\x00", nil},
		{"kid not UTF-8", tenantA, "\xfe\xff", nil},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name   string
			tenant string
			kid    string
			want   *ports.ClientKey
		}{"malformed: " + m.name, m.tenant, "proxy-a", nil})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.ClientKey(ctx, tt.tenant, tt.kid)
			if tt.want == nil {
				notFound(t, got, err)
				return
			}
			found(t, got, err, *tt.want)
		})
	}
}

func partitionSuite(t *testing.T, c Control) {
	ctx := context.Background()
	slot0 := uint(0)
	wantA := ports.PartitionRegistration{Tenant: tenantA, Type: "pkcs11-ska", Library: "/usr/lib/softhsm/libsofthsm2.so",
		TokenLabel: "tenant-a", User: "user", PINRef: "env:PIN_A"}
	wantC := ports.PartitionRegistration{Tenant: tenantC, Type: "luna", Library: "/opt/hsm/lib.so", Host: "hsm.example.test:1792",
		Slot: &slot0, User: "co", PINRef: "vault:hsm/c"}
	tests := []struct {
		name   string
		tenant string
		want   *ports.PartitionRegistration // nil: not found
	}{
		{"by token label, no slot", tenantA, &wantA},
		{"tenant ID in upper case", strings.ToUpper(tenantA), &wantA},
		{"by slot 0, with a host", tenantC, &wantC},
		{"tenant without partition", tenantB, nil},
		{"tenant with nothing", tenantE, nil},
		{"disabled tenant", tenantD, nil},
		{"unknown tenant", unknown, nil},
	}
	for _, m := range malformed {
		tests = append(tests, struct {
			name   string
			tenant string
			want   *ports.PartitionRegistration
		}{"malformed: " + m.name, m.tenant, nil})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := c.Partition(ctx, tt.tenant)
			if tt.want == nil {
				notFound(t, got, err)
				return
			}
			found(t, got, err, *tt.want)
		})
	}
	t.Run("results are values", func(t *testing.T) {
		t.Parallel()
		p, err := c.Partition(ctx, tenantC)
		if err != nil || p.Slot == nil {
			t.Fatalf("Partition = %+v, %v", p, err)
		}
		*p.Slot, p.PINRef = 9, "pin:changed"
		again, err := c.Partition(ctx, tenantC)
		found(t, again, err, wantC)
	})
}

func policySuite(t *testing.T, c Control) {
	ctx := context.Background()
	t.Run("the tenant's policy", func(t *testing.T) {
		got, err := c.ValidationPolicy(ctx, tenantA)
		found(t, got, err, "strict")
	})
	t.Run("upper case ID", func(t *testing.T) {
		got, err := c.ValidationPolicy(ctx, strings.ToUpper(tenantA))
		found(t, got, err, "strict")
	})
	t.Run("none: empty", func(t *testing.T) {
		got, err := c.ValidationPolicy(ctx, tenantE)
		found(t, got, err, "")
	})
	for _, id := range []string{tenantD, unknown} {
		t.Run("disabled or unknown "+id, func(t *testing.T) {
			got, err := c.ValidationPolicy(ctx, id)
			notFound(t, got, err)
		})
	}
	for _, m := range malformed {
		t.Run("malformed: "+m.name, func(t *testing.T) {
			got, err := c.ValidationPolicy(ctx, m.tenant)
			notFound(t, got, err)
		})
	}
}
