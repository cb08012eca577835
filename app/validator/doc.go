// Package validator is the validation service's application: the use
// cases of servers/validator. [New] wires a [Validator] from the typed
// configuration: the document readers of the formats registry, the trust
// store and its refresh schedule, certificate-driven egress (revocation,
// AIA), tenant authentication and licensing against the control database,
// and the browser UI's login and sessions.
//
// [Validator.Validate] and [Validator.ValidateReport] validate a document
// against one trust snapshot (validation-service.md §1); [TrustStore]
// holds the trusted lists and rebuilds their snapshot on refresh.
//
// # Non-goals
//
// Signing is [github.com/svc-dss/dss/app/signer]'s; what both programs
// share (control database, health, bearer token) is
// [github.com/svc-dss/dss/app/control]'s. The signer never imports this
// package.
package validator
