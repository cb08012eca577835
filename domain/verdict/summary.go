package verdict

import (
	"crypto/sha256"
	"encoding/hex"
)

// Indications of ETSI EN 319 102-1 §5.1.3, as signatures report them.
const (
	TotalPassed   = "TOTAL_PASSED"
	Indeterminate = "INDETERMINATE"
	TotalFailed   = "TOTAL_FAILED"
)

// Trust frameworks of validation-service.md §2, SignatureReport.
const (
	FrameworkEUEIDAS  = "EU_EIDAS"
	FrameworkCHZertES = "CH_ZERTES"
	FrameworkUnknown  = "UNKNOWN"
)

// ValidationSummary is the response of POST /api/validate and of the
// validate command (validation-service.md §2).
type ValidationSummary struct {
	// Valid is true when the document holds at least one signature and
	// every signature is TOTAL_PASSED (docs/decisions/0017).
	Valid          bool              `json:"valid"`
	DocumentName   string            `json:"documentName"`
	DocumentSHA256 string            `json:"documentSha256"`
	SignatureCount int               `json:"signatureCount"`
	Signatures     []SignatureReport `json:"signatures"`
	TrustData      TrustData         `json:"trustData"`
}

// SignatureReport is the verdict on one signature (validation-service.md
// §2). Qualification fields are null outside their framework.
type SignatureReport struct {
	SignatureID     string `json:"signatureId"`
	SignatureFormat string `json:"signatureFormat"`
	Indication      string `json:"indication"`
	// SubIndication is the ETSI sub-indication; null when TOTAL_PASSED.
	SubIndication  *string `json:"subIndication"`
	TrustFramework string  `json:"trustFramework"`
	// AnchorCountry is the country of the trusted list that ended the
	// path; null when the signature reached no list anchor.
	AnchorCountry         *string `json:"anchorCountry"`
	EIDASQualification    *string `json:"eidasQualification"`
	SwissQualification    *string `json:"swissQualification"`
	HandwrittenEquivalent *bool   `json:"handwrittenEquivalent"`
	// AnchorDataAuthenticated is false when the list the anchor came from
	// was not positively authenticated (validation-service.md §2).
	AnchorDataAuthenticated bool      `json:"anchorDataAuthenticated"`
	Errors                  []Message `json:"errors"`
	Warnings                []Message `json:"warnings"`
}

// A Message is one error or warning on a signature: a stable code for
// programs and an English sentence for people (docs/decisions/0017).
type Message struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Summarize builds the summary of one validated document. It derives
// signatureCount and valid from the reports and never fails: a document
// without signatures is a normal result (signatureCount 0, valid false).
// Empty message lists are written as [] rather than null, so that clients
// can iterate without a check.
func Summarize(name string, document []byte, reports []SignatureReport, td TrustData) ValidationSummary {
	sum := sha256.Sum256(document)
	s := ValidationSummary{
		DocumentName:   name,
		DocumentSHA256: hex.EncodeToString(sum[:]),
		SignatureCount: len(reports),
		Signatures:     make([]SignatureReport, len(reports)),
		TrustData:      td,
		Valid:          len(reports) > 0,
	}
	for i, r := range reports {
		if r.Errors == nil {
			r.Errors = []Message{}
		}
		if r.Warnings == nil {
			r.Warnings = []Message{}
		}
		if r.Indication != TotalPassed {
			s.Valid = false
		}
		s.Signatures[i] = r
	}
	return s
}
