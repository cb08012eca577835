// Package verdict holds the public result types of the validation
// service: ValidationSummary, SignatureReport and TrustData. Their JSON
// tags are the published contract of the REST API, the CLI and the Go
// library, spelled as validation-service.md names the fields.
package verdict
