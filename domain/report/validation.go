package report

import "github.com/svc-dss/dss/domain/verdict"

// Validation is what the reports of one validated document are written
// from.
type Validation struct {
	// Summary is exactly what POST /api/validate returns for the
	// document; the reports take their verdicts from it.
	Summary verdict.ValidationSummary
}
