package verdict

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
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
	// PDF places a PDF signature in its document (not in the
	// specification's table; omitted for other formats): which field,
	// which revision, and the signer's claimed reason and location, so
	// that a reader can tell the signatures of one document apart.
	PDF *PDFSignature `json:"pdf,omitempty"`
}

// PDFSignature is where a signature sits in a PDF (docs/validate-api.md).
type PDFSignature struct {
	Field               string `json:"field"`
	Revision            int    `json:"revision"`
	CoversWholeDocument bool   `json:"coversWholeDocument"`
	Reason              string `json:"reason,omitempty"`
	Location            string `json:"location,omitempty"`
	ContactInfo         string `json:"contactInfo,omitempty"`
}

// A Message is one error or warning on a signature: a stable code for
// programs and an English sentence for people (docs/decisions/0017).
type Message struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Summarize builds the summary of one validated document, whose SHA-256
// is documentSHA256 (the caller hashes it, alongside the validation). It derives
// signatureCount and valid from the reports and never fails: a document
// without signatures is a normal result (signatureCount 0, valid false).
// Empty message lists are written as [] rather than null, so that clients
// can iterate without a check.
func Summarize(name string, documentSHA256 [sha256.Size]byte, reports []SignatureReport, td TrustData) ValidationSummary {
	s := ValidationSummary{
		DocumentName:   name,
		DocumentSHA256: hex.EncodeToString(documentSHA256[:]),
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
		r.Warnings = append(r.Warnings, trustAnnotations(r, td)...)
		if r.Indication != TotalPassed {
			s.Valid = false
		}
		s.Signatures[i] = r
	}
	return s
}

// Codes of the warnings Summarize adds from the trust data
// (validation-service.md §3, "Degraded behaviour": annotate, never refuse
// or downgrade).
const (
	// CodeNoTrustedListLoaded: no public list yields anchors, so the
	// signature reached none; a configuration problem of the validator.
	CodeNoTrustedListLoaded = "NO_TRUSTED_LIST_LOADED"
	// CodeAnchorListNotCurrent: the list that anchors the signature is
	// not confirmed current or not authenticated; the verdict is as of
	// the list's last confirmation.
	CodeAnchorListNotCurrent = "ANCHOR_LIST_NOT_CURRENT"
)

// categoryNoListLoaded is freshness.CategoryNoListLoaded as trust data
// spells it.
const categoryNoListLoaded = "no-list-loaded"

// trustAnnotations are the warnings the trust data puts on r: a signature
// that reached no anchor while no list is loaded says that the validator,
// not the document, is at fault; a signature anchored in a list that is
// behind or unauthenticated says as of when, and that nothing could be
// re-checked since.
func trustAnnotations(r SignatureReport, td TrustData) []Message {
	if r.AnchorCountry == nil {
		if td.Category == categoryNoListLoaded && r.SubIndication != nil && *r.SubIndication == "NO_CERTIFICATE_CHAIN_FOUND" {
			return []Message{{Code: CodeNoTrustedListLoaded, Message: "no trusted list is loaded, so no signature can reach a trust anchor of the EU or Swiss lists: " +
				"this is a configuration problem of the validator, not a property of the document"}}
		}
		return nil
	}
	for _, l := range td.Lists {
		if l.Territory != *r.AnchorCountry || l.Kind != "TL" {
			continue
		}
		if l.State == "CURRENT" && l.Authenticity == "VALID" {
			return nil
		}
		since := "it was never confirmed online"
		if l.LastOnlineConfirmation != nil {
			since = "it was last confirmed online on " + l.LastOnlineConfirmation.UTC().Format(time.RFC3339)
		}
		return []Message{{Code: CodeAnchorListNotCurrent, Message: fmt.Sprintf(
			"the %s trusted list that anchors this signature is %s (authenticity %s): %s, no re-check has been possible since, "+
				"and changes to its trust services after that, withdrawals included, are not reflected", l.Territory, l.State, orNone(l.Authenticity), since)}}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "not checked"
	}
	return s
}
