// Package validator is the validation service's application: the use
// cases of servers/validator around validation
// ([github.com/svc-dss/dss/app/validation]). [New] wires a [Validator]
// from the typed configuration: validation, the trusted-list refresh and
// its schedule ([Validator.Start], gocron), tenant authentication and
// licensing against the control database ([Validator.Authorize]), the
// browser UI's login and sessions, and the health probe.
//
// # Non-goals
//
// Validating a document is [github.com/svc-dss/dss/app/validation]'s
// ([Validator.Validate] hands it over once the caller is let in). Signing
// is [github.com/svc-dss/dss/app/signer]'s; what both programs share
// (control database, health, bearer token) is
// [github.com/svc-dss/dss/app/control]'s. The signer never imports this
// package.
package validator
