// Package verdict holds the public result types of the validation
// service: ValidationSummary, SignatureReport and TrustData, and the
// vocabulary of EN 319 102-1 they carry, Indication and SubIndication,
// declared once here for the process (domain/etsi), the reports
// (domain/report) and the fixtures. Their JSON tags are the published
// contract of the REST API, the CLI and the Go library, spelled as
// validation-service.md names the fields. The members added for people
// (who signed, when, what the signature covers, its chain, a sentence:
// readable.go, sentences.go, snapshot.go) are documented in
// docs/validate-api.md; the sentences are kept in one table keyed by the
// indication and sub-indication codes, so that a translation can render
// the same keys.
package verdict
