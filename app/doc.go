// Package app is the application layer of the two programs: it wires the
// adapters to the domain and holds their use cases. It has no code of its
// own; each program's use cases stand apart, so that neither links what
// only the other needs:
//
//   - [github.com/svc-dss/dss/app/validation]: validating documents
//     against the trust store (document readers, trusted lists, the ETSI
//     process, reports), free of tenancy, sessions and scheduling.
//   - [github.com/svc-dss/dss/app/validator]: the validation service
//     (servers/validator) around it: the trusted-list refresh and its
//     schedule, tenant authentication and licensing, the browser UI's
//     login and sessions.
//   - [github.com/svc-dss/dss/app/signer]: the hash-only signing server
//     (servers/signer): sign-ska, its token, licence, permission and HSM
//     partition checks.
//   - [github.com/svc-dss/dss/app/control]: what both share, and nothing
//     of validation: the control database, the health roll-up, the
//     bearer token.
//   - [github.com/svc-dss/dss/app/config]: the typed configuration of both.
//
// The servers call these packages and nothing else of the application.
// The signer must not link validation (no document reader, no trusted
// list, no scheduler): servers/signer's TestLinksNoValidation checks it.
// Validation must not link the service (no tenant, session, control
// database nor scheduler): app/validation's TestLinksNoService checks it.
package app
