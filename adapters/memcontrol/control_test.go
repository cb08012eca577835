package memcontrol_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/controltest"
	"github.com/svc-dss/dss/adapters/memcontrol"
	"github.com/svc-dss/dss/ports"
)

func TestContract(t *testing.T) {
	t.Parallel()
	controltest.Run(t, func(t *testing.T, tenants []controltest.Tenant) controltest.Control {
		c, err := memcontrol.New(convert(tenants)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	})
}

// convert is the suite's data as memcontrol takes it.
func convert(in []controltest.Tenant) []memcontrol.Tenant {
	var out []memcontrol.Tenant
	for _, t := range in {
		m := memcontrol.Tenant{ID: t.ID, Disabled: t.Disabled, Provider: t.Provider, Permissions: t.Permissions, Partition: t.Partition, ValidationPolicy: t.ValidationPolicy}
		for _, l := range t.Licenses {
			m.Licenses = append(m.Licenses, memcontrol.License(l))
		}
		for _, mod := range t.Modules {
			m.Modules = append(m.Modules, memcontrol.Module(mod))
		}
		for _, k := range t.Keys {
			m.Keys = append(m.Keys, memcontrol.Key(k))
		}
		out = append(out, m)
	}
	return out
}

// TestNewRefusesWhatTheSchemaRefuses: data the control database's schema
// would not store is an error naming the tenant and the fault.
func TestNewRefusesWhatTheSchemaRefuses(t *testing.T) {
	t.Parallel()
	const (
		tenant = "11111111-1111-4111-8111-111111111111"
		module = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa"
	)
	slot := uint(0)
	valid := func() memcontrol.Tenant {
		return memcontrol.Tenant{
			ID:        tenant,
			Provider:  &ports.Provider{Issuer: "https://idp.example.test", ClientID: "c", AccessTokens: ports.AccessTokensByClaims},
			Licenses:  []memcontrol.License{{Feature: "dss", From: time.Unix(0, 0), Until: time.Unix(1, 0)}},
			Modules:   []memcontrol.Module{{ID: module}},
			Keys:      []memcontrol.Key{{Kid: "k", Module: module, Algorithm: "ES256", PublicKey: "{}"}},
			Partition: &ports.PartitionRegistration{Type: "pkcs11-ska", Library: "/lib.so", Slot: &slot, PINRef: "pin:1"},
		}
	}
	if _, err := memcontrol.New(valid()); err != nil {
		t.Fatalf("the valid tenant: %v", err)
	}
	tests := []struct {
		name   string
		change func(*memcontrol.Tenant) []memcontrol.Tenant
		want   string
	}{
		{"tenant ID not a UUID", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.ID = "tenant-a"; return nil }, "the ID is not a UUID"},
		{"tenant twice, in two cases", func(m *memcontrol.Tenant) []memcontrol.Tenant {
			return []memcontrol.Tenant{{ID: strings.ToUpper(tenant)}}
		}, "given twice"},
		{"provider without issuer", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Provider.Issuer = ""; return nil }, "issuer and a client ID"},
		{"provider without rule", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Provider.AccessTokens = 0; return nil }, "is not a rule"},
		{"licence twice", func(m *memcontrol.Tenant) []memcontrol.Tenant {
			m.Licenses = append(m.Licenses, memcontrol.License{Feature: "dss"})
			return nil
		}, `licence "dss" given twice`},
		{"licence ending before it starts", func(m *memcontrol.Tenant) []memcontrol.Tenant {
			m.Licenses[0].From, m.Licenses[0].Until = m.Licenses[0].Until, m.Licenses[0].From
			return nil
		}, "ends before it starts"},
		{"licence ending as it starts", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Licenses[0].Until = m.Licenses[0].From; return nil }, "ends before it starts"},
		{"empty permission", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Permissions = []string{""}; return nil }, "a permission needs a name"},
		{"module not a UUID", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Modules[0].ID = "m"; return nil }, `module "m"`},
		{"module of another tenant's", func(m *memcontrol.Tenant) []memcontrol.Tenant {
			return []memcontrol.Tenant{{ID: "22222222-2222-4222-8222-222222222222", Modules: []memcontrol.Module{{ID: module}}}}
		}, "given twice"},
		{"key on another tenant's module", func(m *memcontrol.Tenant) []memcontrol.Tenant {
			m.Keys = nil
			return []memcontrol.Tenant{{ID: "22222222-2222-4222-8222-222222222222", Keys: []memcontrol.Key{{Kid: "k", Module: module, Algorithm: "ES256", PublicKey: "{}"}}}}
		}, "is not one of the tenant's"},
		{"kid twice", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Keys = append(m.Keys, m.Keys[0]); return nil }, `kid "k" given twice`},
		{"empty kid", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Keys[0].Kid = ""; return nil }, "a key needs a kid"},
		{"symmetric algorithm", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Keys[0].Algorithm = "HS256"; return nil }, "not an RSA or EC"},
		{"no public key", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Keys[0].PublicKey = ""; return nil }, "has no public key"},
		{"partition without slot or label", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Partition.Slot = nil; return nil }, "a slot or a token label"},
		{"partition without PIN reference", func(m *memcontrol.Tenant) []memcontrol.Tenant { m.Partition.PINRef = ""; return nil }, "a PIN reference"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := valid()
			more := tt.change(&m)
			_, err := memcontrol.New(append([]memcontrol.Tenant{m}, more...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want one saying %q", err, tt.want)
			}
		})
	}
}

// TestInputIsCopied: changing what New was given changes nothing it
// holds.
func TestInputIsCopied(t *testing.T) {
	t.Parallel()
	slot := uint(3)
	p := &ports.PartitionRegistration{Type: "pkcs11-ska", Library: "/lib.so", Slot: &slot, PINRef: "pin:1"}
	prov := &ports.Provider{Issuer: "https://idp.example.test", ClientID: "c", AccessTokens: ports.AccessTokensByClaims}
	const tenant = "11111111-1111-4111-8111-111111111111"
	c, err := memcontrol.New(memcontrol.Tenant{ID: tenant, Partition: p, Provider: prov})
	if err != nil {
		t.Fatal(err)
	}
	slot, p.PINRef, prov.Issuer = 4, "pin:2", "https://other.example.test"
	got, err := c.Partition(t.Context(), tenant)
	if err != nil || *got.Slot != 3 || got.PINRef != "pin:1" {
		t.Fatalf("Partition = %+v, %v", got, err)
	}
	pr, err := c.Provider(t.Context(), tenant)
	if err != nil || pr.Issuer != "https://idp.example.test" {
		t.Fatalf("Provider = %+v, %v", pr, err)
	}
}
