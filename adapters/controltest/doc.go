// Package controltest is the contract suite of the control-data ports
// ([ports.TenantDirectory], [ports.Licenses], [ports.Permissions],
// [ports.ClientKeys], [ports.Partitions]): [Run] takes a constructor and
// checks everything the ports' documentation promises. Every
// implementation's tests run it: adapters/postgres on a real PostgreSQL
// database (Control and CachedControl), adapters/memcontrol in memory.
//
//	func TestContract(t *testing.T) {
//		controltest.Run(t, func(t *testing.T, tenants []controltest.Tenant) controltest.Control {
//			// provision tenants in a new, empty store; return the implementation
//		})
//	}
//
// # Non-goals
//
// The suite checks what callers may rely on, not how an implementation
// gets there: caching, connection handling and the errors of an outage
// are each implementation's own tests. It is test tooling and must not be
// imported by production code.
package controltest
