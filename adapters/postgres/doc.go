// Package postgres is the control-database adapter of the validation
// service and the signing server: a read-only PostgreSQL pool through sqlx
// and lib/pq, the versioned schema, a development seed, and the lookups
// both programs make per request (validation-service.md §5 and the
// "Control database" configuration; signing-server.md §1, §2 and §5).
//
// # Read-only
//
// Both programs only read the control database. Every connection that
// [Open] makes is opened with default_transaction_read_only=on, and every
// transaction on it is begun READ ONLY, so a write fails in the database
// even if a bug tried one. Provisioning tenants,
// licences, keys and partitions is somebody else's job; this package only
// defines the tables they write.
//
// [OpenWritable] opens the same database without that default. It exists
// for [Migrate], [Seed] and tests, and the services never call it. The
// read-only default is a guard against bugs, not an access control: the
// account the services use should also be granted SELECT only.
//
// # Schema
//
// The tables live in the schema the connection's search_path names
// (Options.Schema, svc.dss.control-db.schema); the SQL never qualifies a
// table name. The schema must exist before [Migrate] runs. Tables of
// version 1 (migrations/0001_control.sql), with the column version 2
// (0002_access_tokens.sql) adds:
//
//   - tenants (id uuid, name, enabled): a disabled tenant is treated as
//     unknown by every lookup.
//   - oidc_providers (tenant_id, issuer, client_id, client_secret_ref,
//     audience, redirect_base_url, access_tokens): one provider per
//     tenant. client_secret_ref names where the secret is kept; the
//     secret itself is never stored. access_tokens is 'claims' (the
//     default) or 'at+jwt': how bearer tokens are told to be access
//     tokens ([AccessTokenRule]).
//   - tenant_features (tenant_id, feature, valid_from, valid_until):
//     feature licences such as "dss.validator" and "dss", valid from
//     valid_from (inclusive) until valid_until (exclusive); NULL leaves
//     that side open. One row per tenant and feature.
//   - tenant_permissions (tenant_id, permission): permissions such as
//     "dss.sign".
//   - dss_modules (id uuid, tenant_id, name, enabled): the tenant's DSS
//     module instances.
//   - client_keys (tenant_id, kid, module_id, algorithm, public_key,
//     enabled): public keys of signing-server callers, unique per
//     (tenant_id, kid). A composite foreign key ties module_id to a module
//     of the same tenant. public_key is PEM or JWK text; algorithm is a
//     JWS RSA or EC algorithm name (RS256 … ES512).
//   - hsm_partitions (tenant_id, partition_type, pkcs11_module, host, slot,
//     token_label, user_name, pin_ref): the tenant's one HSM partition.
//     pin_ref names where the PIN is kept, never the PIN.
//   - schema_migrations (version, name, applied_at): created by Migrate
//     itself, one row per applied version.
//
// # Migrations and seed
//
// [Migrate] applies the embedded versions the database lacks, in order,
// each in its own transaction together with its schema_migrations row.
// Concurrent calls (two replicas starting at once) are serialised with a
// transaction-scoped advisory lock, so running it at every start is safe.
// A published migration is never edited; a change is a new version.
//
// [Seed] inserts the development data of seed/dev.sql: tenants A
// (11111111-1111-4111-8111-111111111111), B
// (22222222-2222-4222-8222-222222222222) and C
// (33333333-3333-4333-8333-333333333333), each with a placeholder
// provider; A and B hold dss.validator, C no licence. A also holds dss
// and dss.sign, module aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa, client key
// "tenant-a-dev" (ES256; its private key is
// testdata/dev-client-key-tenant-a.pem, a published development key)
// and a SoftHSM2 partition. Tests that need a real issuer change the row
// with plain SQL:
//
//	UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = $2
//
// # Lookups and errors
//
// [Control] answers the lookups; it and [CachedControl] implement the
// control-data ports [ports.TenantDirectory], [ports.Licenses],
// [ports.Permissions], [ports.ClientKeys] and [ports.Partitions], whose
// contract suite (adapters/controltest) the tests run on both. The rows
// are the ports' values ([Provider] is [ports.Provider], and so on).
// Every method takes the context first and returns one of three outcomes,
// which callers map to statuses:
//
//   - a result;
//   - an error wrapping [ErrNotFound], which is [ports.ErrNotFound]: the
//     tenant, provider, key, module or partition is unknown, or the tenant
//     is disabled (401 or 403);
//   - any other error: the database did not answer or failed (502).
//
// The predicates [Control.HasFeature] and [Control.HasPermission] answer
// false, not ErrNotFound, for a tenant that is unknown, disabled or not a
// UUID: no tenant holds nothing.
//
// Tenant IDs are UUIDs in the 8-4-4-4-12 hex form, in either case. Any
// other tenant string is refused with an error wrapping both
// [ErrInvalidTenant] and ErrNotFound, before any query: input from a
// request must not turn into a database error (and a 502). Text that
// PostgreSQL cannot store (invalid UTF-8, NUL) is likewise not found
// without a query.
//
// # Caching
//
// [CachedControl] puts a bounded TTL cache in front of the two lookups made
// on every validation request, [CachedControl.Provider] and
// [CachedControl.HasFeature]. Found and not-found answers are kept for the
// TTL; errors are not. A licence revoked or a provider changed in the
// database therefore takes effect within one TTL. The recommended TTL is
// [DefaultCacheTTL], 30 seconds: short enough for a revocation to bite
// quickly, long enough that a busy tenant costs two queries per 30 seconds
// instead of two per request. Licence validity periods are cached as
// periods, so a licence whose valid_until passes ends exactly then, not up
// to one TTL later.
//
// Client keys, permissions, modules and partitions are not cached: the
// signing server reads them per request (signing-server.md §1), and a
// revoked key must stop working at once.
//
// # Non-goals
//
// The package does not resolve secret references, parse public keys,
// decide which status an error becomes, or write anything outside
// Migrate and Seed.
package postgres
