// Package ports declares the interfaces the domain and the use cases
// consume, each where it is consumed and named for the capability.
// Adapters implement them.
//
//   - Validation: [DocumentReader] (and [ContentsReader], for documents
//     that hold time-stamps of their own), [RevocationSource],
//     [CertificateSource].
//   - Trusted lists: [TrustListSource], [TrustListCache].
//   - Control data (the control database): [TenantDirectory] (tenants and
//     their OpenID providers), [Licenses], [Permissions], [ClientKeys],
//     [Partitions]; adapters/postgres implements them over the database,
//     adapters/memcontrol in memory.
//   - Token verification: [SignTokenVerifier] (the signing proxies'
//     self-issued JWTs, adapters/signjwt), [BearerVerifier] (bearer
//     tokens, adapters/oidc).
//   - Signing: [HSM], [ReplayStore].
//   - The browser UI: [SessionStore].
//
// Ports import only the standard library and domain packages.
//
// # Control data
//
// Every implementation of the control-data ports keeps these rules, which
// the contract suite in adapters/controltest checks on each of them:
//
//   - Tenant IDs are UUIDs in the 8-4-4-4-12 hex form, matched whatever
//     the case of their letters; results carry the lower-case form. Any
//     other tenant string is unknown, never an infrastructure error:
//     input from a request must not become a 502.
//   - A disabled tenant is unknown to every lookup.
//   - A lookup of something not held returns the zero value and an error
//     wrapping [ErrNotFound]. The predicates ([Licenses.HasFeature],
//     [Permissions.HasPermission]) answer false without an error instead:
//     a tenant nobody knows holds nothing.
//   - Any other error is an infrastructure failure (a 502), never a
//     refusal of the caller.
//   - Names (features, permissions, kids) match exactly, case included.
//   - Results are values: changing one changes nothing the implementation
//     holds.
//
// # Token verification
//
// A verifier refuses a token with a [*TokenRefusedError], whose Reason a
// response may carry; any other error of a verifier is an outage.
package ports
