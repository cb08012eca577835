// Package memcontrol holds control data in memory: tenants, their OpenID
// providers, feature licences, permissions, DSS modules, the client keys of
// their signing proxies and their HSM partitions. [Control] implements the
// control-data ports ([ports.TenantDirectory], [ports.Licenses],
// [ports.Permissions], [ports.ClientKeys], [ports.Partitions]) as
// adapters/postgres does over the control database, and passes the same
// contract suite (adapters/controltest). It serves tests of the use
// cases, which then need no database.
//
// # Data
//
// [New] takes the tenants as values and checks them as the control
// database's schema would (UUIDs, one licence per feature, a key's module
// belongs to its tenant, a partition names a slot or a token label, …), so
// that a test cannot build data the database would refuse. The data is
// fixed once New returns: a test that needs other data builds another
// Control.
//
// # Non-goals
//
// The package persists nothing, caches nothing (there is nothing to cache)
// and is not meant for production: the services read the control database
// through adapters/postgres.
package memcontrol
