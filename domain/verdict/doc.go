// Package verdict holds the public result types of the validation
// service: ValidationSummary, SignatureReport and TrustData, and the
// vocabulary of EN 319 102-1 they carry, Indication and SubIndication,
// declared once here for the process (domain/etsi), the reports
// (domain/report) and the fixtures. Their JSON tags are the published
// contract of the REST API, the CLI and the Go library, spelled as
// validation-service.md names the fields.
package verdict
