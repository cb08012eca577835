// Package validation is the validation use case: reading a document's
// signatures with the readers of the formats registry, and deciding each
// against one trust snapshot with the ETSI EN 319 102-1 process, its
// qualification and its reports (validation-service.md §1).
//
// [New] wires a [Service] from the validation service's configuration:
// the trust store ([TrustStore], the EU and Swiss trusted lists and the
// private CA anchors, rebuilt into a new immutable snapshot on each
// refresh), the document readers and the certificate-driven egress
// (revocation data, AIA issuers). [Service.Validate] and
// [Service.ValidateReport] validate one document; a failed signature is a
// result, not an error.
//
// # Non-goals
//
// Validation knows no tenant, session, licence nor schedule: the
// validation service ([github.com/svc-dss/dss/app/validator])
// authenticates the caller, keeps the browser UI's sessions and
// refreshes the trust store on its schedule. This package links none of
// that (TestLinksNoService), nor does the signer link this package.
package validation
