// Package report writes the two XML validation reports of a validated
// document: the detailed report (the building blocks of ETSI EN 319 102-1
// as the process ran them, in the project's own namespace, schema
// docs/detailed-report.xsd) and the ETSI TS 119 102-2 validation report.
//
// Both are built from a [Validation], which holds the
// [verdict.ValidationSummary] that POST /api/validate returns for the same
// document: indications, sub-indications, formats, qualifications and
// messages come from it and are never recomputed.
//
// # Non-goals
//
// No validation, no I/O, no clock: every time in a report is in the
// Validation. The simple summary stays JSON (domain/verdict).
// docs/decisions/0025-validation-reports.md describes both documents.
package report
