// Package configured turns the validation service's configuration into
// what the validation library takes: the options of validation.New
// (ValidationOptions) and the validation policies (LoadPolicies).
//
// It is apart from app/validator, which wires the whole service (control
// database, sessions, metrics, the browser UI), so that the validate
// command can be built without any of that: the validator executable
// runs validate itself and hands the service to validator-server
// (servers/validatorcli, docs/decisions/0044).
package configured
