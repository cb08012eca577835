package memcontrol

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/svc-dss/dss/ports"
)

// A Tenant is one tenant's control data.
type Tenant struct {
	// ID is the tenant's UUID, in either case.
	ID string
	// Disabled makes the tenant unknown to every lookup.
	Disabled bool
	// Provider is the tenant's OpenID provider, or nil. Its Tenant field
	// is ignored: lookups fill it in.
	Provider *ports.Provider
	// Licenses are the tenant's feature licences, one per feature.
	Licenses []License
	// Permissions are the tenant's permissions.
	Permissions []string
	// Modules are the tenant's DSS module instances.
	Modules []Module
	// Keys are the public keys of the tenant's signing proxies, one per
	// kid.
	Keys []Key
	// Partition is the tenant's HSM partition, or nil. Its Tenant field is
	// ignored: lookups fill it in.
	Partition *ports.PartitionRegistration
	// ValidationPolicy names the tenant's default validation policy; ""
	// for none.
	ValidationPolicy string
}

// A License is a feature licence, valid from From (inclusive) until Until
// (exclusive); a zero time leaves that side open.
type License struct {
	Feature     string
	From, Until time.Time
}

// A Module is a DSS module instance of a tenant.
type Module struct {
	ID       string // a UUID, in either case
	Disabled bool
}

// A Key is a signing proxy's registered public key.
type Key struct {
	Kid string
	// Module is the UUID of a module of the same tenant.
	Module string
	// Algorithm is one of RS256 … PS512, ES256 … ES512.
	Algorithm string
	// PublicKey is PEM or a JWK as JSON; it is not parsed.
	PublicKey string
	// Disabled makes the key unknown.
	Disabled bool
}

// Control is control data in memory. It implements the control-data
// ports and is safe for concurrent use: nothing changes after [New].
type Control struct {
	tenants map[string]tenant // by canonical UUID; enabled tenants only
}

var (
	_ ports.TenantDirectory = (*Control)(nil)
	_ ports.Licenses        = (*Control)(nil)
	_ ports.Permissions     = (*Control)(nil)
	_ ports.ClientKeys      = (*Control)(nil)
	_ ports.Partitions      = (*Control)(nil)
)

// tenant is an enabled tenant as the lookups see it.
type tenant struct {
	provider    *ports.Provider
	licenses    map[string]License
	permissions map[string]bool
	keys        map[string]ports.ClientKey // enabled keys on enabled modules
	partition   *ports.PartitionRegistration
	policy      string
}

// algorithms are the JWS algorithms a client key may be registered with
// (the client_keys check constraint).
var algorithms = map[string]bool{
	"RS256": true, "RS384": true, "RS512": true, "PS256": true, "PS384": true, "PS512": true,
	"ES256": true, "ES384": true, "ES512": true,
}

// New returns a Control holding tenants. It fails, naming the tenant and
// what is wrong, when the data breaks a rule of the control database's
// schema: an ID that is not a UUID, a tenant or module given twice, a
// provider without issuer or client ID or access-token rule, a licence
// given twice or ending before it starts, an empty feature or permission,
// a key with an empty or repeated kid, on a module of no such tenant's, of
// another algorithm, or without public key, a partition without type,
// library, PIN reference, or both slot and token label.
func New(tenants ...Tenant) (*Control, error) {
	c := &Control{tenants: map[string]tenant{}}
	seen := map[string]bool{}
	modules := map[string]bool{}
	for _, in := range tenants {
		id, ok := canonicalUUID(in.ID)
		if !ok {
			return nil, fmt.Errorf("memcontrol: tenant %q: the ID is not a UUID", in.ID)
		}
		if seen[id] {
			return nil, fmt.Errorf("memcontrol: tenant %s given twice", id)
		}
		seen[id] = true
		t, err := build(id, in, modules)
		if err != nil {
			return nil, fmt.Errorf("memcontrol: tenant %s: %w", id, err)
		}
		if !in.Disabled {
			c.tenants[id] = t
		}
	}
	return c, nil
}

// build checks the data of the tenant with the canonical UUID id and
// indexes it; modules collects the module IDs of every tenant.
func build(id string, in Tenant, modules map[string]bool) (tenant, error) {
	t := tenant{licenses: map[string]License{}, permissions: map[string]bool{}, keys: map[string]ports.ClientKey{}, policy: in.ValidationPolicy}
	if p := in.Provider; p != nil {
		switch {
		case p.Issuer == "" || p.ClientID == "":
			return tenant{}, errors.New("the provider needs an issuer and a client ID")
		case p.AccessTokens != ports.AccessTokensByClaims && p.AccessTokens != ports.AccessTokensATJWTOnly:
			return tenant{}, fmt.Errorf("the provider's access-token rule %v is not a rule", p.AccessTokens)
		}
		cp := *p
		cp.Tenant = id
		t.provider = &cp
	}
	for _, l := range in.Licenses {
		switch _, dup := t.licenses[l.Feature]; {
		case l.Feature == "":
			return tenant{}, errors.New("a licence needs a feature")
		case dup:
			return tenant{}, fmt.Errorf("licence %q given twice", l.Feature)
		case !l.From.IsZero() && !l.Until.IsZero() && !l.From.Before(l.Until):
			return tenant{}, fmt.Errorf("licence %q ends before it starts", l.Feature)
		}
		t.licenses[l.Feature] = l
	}
	for _, p := range in.Permissions {
		if p == "" {
			return tenant{}, errors.New("a permission needs a name")
		}
		t.permissions[p] = true
	}
	enabled := map[string]bool{} // this tenant's modules: enabled or not
	for _, m := range in.Modules {
		mid, ok := canonicalUUID(m.ID)
		switch {
		case !ok:
			return tenant{}, fmt.Errorf("module %q: the ID is not a UUID", m.ID)
		case modules[mid]:
			return tenant{}, fmt.Errorf("module %s given twice", mid)
		}
		modules[mid] = true
		enabled[mid] = !m.Disabled
	}
	kids := map[string]bool{}
	for _, k := range in.Keys {
		mid, _ := canonicalUUID(k.Module)
		on, ours := enabled[mid]
		switch {
		case k.Kid == "":
			return tenant{}, errors.New("a key needs a kid")
		case kids[k.Kid]:
			return tenant{}, fmt.Errorf("kid %q given twice", k.Kid)
		case !ours:
			return tenant{}, fmt.Errorf("key %q: module %q is not one of the tenant's", k.Kid, k.Module)
		case !algorithms[k.Algorithm]:
			return tenant{}, fmt.Errorf("key %q: algorithm %q is not an RSA or EC JWS algorithm", k.Kid, k.Algorithm)
		case k.PublicKey == "":
			return tenant{}, fmt.Errorf("key %q has no public key", k.Kid)
		}
		kids[k.Kid] = true
		if on && !k.Disabled {
			t.keys[k.Kid] = ports.ClientKey{Tenant: id, Module: mid, Kid: k.Kid, Algorithm: k.Algorithm, PublicKey: k.PublicKey}
		}
	}
	if p := in.Partition; p != nil {
		switch {
		case p.Type == "" || p.Library == "" || p.PINRef == "":
			return tenant{}, errors.New("the partition needs a type, a library and a PIN reference")
		case p.Slot == nil && p.TokenLabel == "":
			return tenant{}, errors.New("the partition needs a slot or a token label")
		}
		t.partition = copyPartition(*p)
		t.partition.Tenant = id
	}
	return t, nil
}

// Provider returns the OpenID provider of an enabled tenant.
func (c *Control) Provider(_ context.Context, tenant string) (ports.Provider, error) {
	id, t, err := c.tenant("provider", tenant)
	switch {
	case err != nil:
		return ports.Provider{}, err
	case t.provider == nil:
		return ports.Provider{}, fmt.Errorf("memcontrol: provider of tenant %s: %w", id, ports.ErrNotFound)
	}
	return *t.provider, nil
}

// ValidationPolicy returns the name of an enabled tenant's default
// validation policy, "" for none.
func (c *Control) ValidationPolicy(_ context.Context, tenant string) (string, error) {
	_, t, err := c.tenant("validation policy", tenant)
	if err != nil {
		return "", err
	}
	return t.policy, nil
}

// HasFeature reports whether an enabled tenant holds the feature licence
// at the instant at.
func (c *Control) HasFeature(_ context.Context, tenant, feature string, at time.Time) (bool, error) {
	_, t, err := c.tenant("licence", tenant)
	if err != nil {
		return false, nil
	}
	l, ok := t.licenses[feature]
	return ok && (l.From.IsZero() || !at.Before(l.From)) && (l.Until.IsZero() || at.Before(l.Until)), nil
}

// HasPermission reports whether an enabled tenant holds the permission.
func (c *Control) HasPermission(_ context.Context, tenant, permission string) (bool, error) {
	_, t, err := c.tenant("permission", tenant)
	if err != nil {
		return false, nil
	}
	return t.permissions[permission], nil
}

// ClientKey returns the enabled key registered as kid for an enabled
// tenant, on an enabled module of that tenant.
func (c *Control) ClientKey(_ context.Context, tenant, kid string) (ports.ClientKey, error) {
	id, t, err := c.tenant("client key", tenant)
	if err != nil {
		return ports.ClientKey{}, err
	}
	k, ok := t.keys[kid]
	if !ok {
		return ports.ClientKey{}, fmt.Errorf("memcontrol: client key %q of tenant %s: %w", kid, id, ports.ErrNotFound)
	}
	return k, nil
}

// Partition returns the HSM partition of an enabled tenant.
func (c *Control) Partition(_ context.Context, tenant string) (ports.PartitionRegistration, error) {
	id, t, err := c.tenant("partition", tenant)
	switch {
	case err != nil:
		return ports.PartitionRegistration{}, err
	case t.partition == nil:
		return ports.PartitionRegistration{}, fmt.Errorf("memcontrol: partition of tenant %s: %w", id, ports.ErrNotFound)
	}
	return *copyPartition(*t.partition), nil
}

// tenant returns the enabled tenant s names and its canonical UUID, or an
// error wrapping ports.ErrNotFound for the lookup what.
func (c *Control) tenant(what, s string) (string, tenant, error) {
	id, ok := canonicalUUID(s)
	if !ok {
		return "", tenant{}, fmt.Errorf("memcontrol: %s: tenant id is not a UUID: %w", what, ports.ErrNotFound)
	}
	t, ok := c.tenants[id]
	if !ok {
		return "", tenant{}, fmt.Errorf("memcontrol: %s of tenant %s: %w", what, id, ports.ErrNotFound)
	}
	return id, t, nil
}

// copyPartition returns p with a slot of its own.
func copyPartition(p ports.PartitionRegistration) *ports.PartitionRegistration {
	if p.Slot != nil {
		s := *p.Slot
		p.Slot = &s
	}
	return &p
}

// canonicalUUID returns s in lower case if it is a UUID in the 8-4-4-4-12
// hex form.
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
