// Package ports declares the interfaces the domain and the use cases
// consume (document readers, trusted-list sources and caches, revocation
// sources, tenant directory, licences, client keys, permissions,
// partitions, HSM, token verification, sessions), each where it is
// consumed and named for the capability. Adapters implement them.
//
// Ports import only the standard library and domain packages.
package ports
