package verdict

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"
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
	// Valid is true when the document holds at least one signature or
	// time-stamp entry, every signature of the document is TOTAL_PASSED
	// and every time-stamp entry PASSED (docs/decisions/0017 and 0032).
	// Counter-signatures do not decide it: each is reported with its own
	// verdict, and a failed one leaves the signature it counter-signs,
	// and the document, as they are (docs/decisions/0017).
	Valid          bool   `json:"valid"`
	DocumentName   string `json:"documentName"`
	DocumentSHA256 string `json:"documentSha256"`
	// SignatureCount is the number of signatures, counter-signatures
	// included (as DSS's SignaturesCount); time-stamp entries are not
	// counted.
	SignatureCount int               `json:"signatureCount"`
	Signatures     []SignatureReport `json:"signatures"`
	// Timestamps are the time-stamps that are entries of the document of
	// their own, covering data rather than a signature (a time-stamp-only
	// ASiC-S, an ASiC-E time-stamp over an ASiCManifest, a bare RFC 3161
	// token with its data), in document order (not in the specification's
	// table; omitted when there is none; docs/decisions/0032).
	Timestamps []TimestampEntryReport `json:"timestamps,omitempty"`
	TrustData  TrustData              `json:"trustData"`
	// ValidationPolicy names the validation policy the document was
	// validated under (docs/decisions/0042-validation-policy.md); nil
	// when the caller names none (a library call of the process alone).
	ValidationPolicy *PolicyName `json:"validationPolicy,omitempty"`
	// Summary is one English sentence on the document as a whole
	// (sentences.go; not in the specification's table); a catalogue
	// words it in another language from DocumentSentence.
	Summary string `json:"summary"`
}

// PolicyName names a validation policy: its name and the SHA-256 of
// its document's bytes, in lower-case hexadecimal.
type PolicyName struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

// TimestampEntryReport is the verdict on one time-stamp entry of a
// document (docs/validate-api.md): the time-stamp validation building
// block of EN 319 102-1 (5.4) and the TSA's qualification.
type TimestampEntryReport struct {
	// ID identifies the entry within the document, stably.
	ID string `json:"id"`
	// Name is the token's name: its container entry, or the uploaded
	// file's name for a bare token.
	Name string `json:"name"`
	// Container is "ASiC-S" or "ASiC-E"; null for a bare token.
	Container *string `json:"container"`
	// Indication is PASSED, FAILED or INDETERMINATE (5.4).
	Indication Indication `json:"indication"`
	// SubIndication is the ETSI sub-indication; null when PASSED.
	SubIndication  *SubIndication `json:"subIndication"`
	GenerationTime time.Time      `json:"generationTime"`
	// TSA is the subject of the TSA certificate; empty when the token
	// names none that was found.
	TSA string `json:"tsa"`
	// TrustFramework and AnchorCountry are those of the TSA's anchor.
	TrustFramework string  `json:"trustFramework"`
	AnchorCountry  *string `json:"anchorCountry"`
	// Qualification is QTSA, TSA or NA (ETSI TS 119 615), on the TSA's
	// own list.
	Qualification string `json:"qualification"`
	// TimestampedData names the files the time-stamp covers, found and
	// intact: the container's files by their names in it, or the
	// detached part by the name it was supplied under.
	TimestampedData []string  `json:"timestampedData"`
	Errors          []Message `json:"errors"`
	Warnings        []Message `json:"warnings"`
}

// SignatureReport is the verdict on one signature (validation-service.md
// §2). Qualification fields are null outside their framework.
type SignatureReport struct {
	SignatureID string `json:"signatureId"`
	// CounterSignatureOf is the signatureId of the signature this one
	// counter-signs (its parent, reported before it); omitted for a
	// signature of the document (not in the specification's table;
	// docs/decisions/0017).
	CounterSignatureOf string `json:"counterSignatureOf,omitempty"`
	SignatureFormat    string `json:"signatureFormat"`
	// Indication is TOTAL_PASSED, TOTAL_FAILED or INDETERMINATE.
	Indication Indication `json:"indication"`
	// SubIndication is the ETSI sub-indication; null when TOTAL_PASSED.
	SubIndication  *SubIndication `json:"subIndication"`
	TrustFramework string         `json:"trustFramework"`
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
	// Container is the container the signature came from, "ASiC-S" or
	// "ASiC-E"; null for a bare signature (not in the specification's
	// table; docs/decisions/0030). SignatureFormat stays the inner
	// signature's, as DSS and SiVa report it.
	Container *string `json:"container"`
	// SignedData names what the signature covers, found and intact: the
	// detached parts by the file names they were supplied under, or the
	// container's files by their names in it (not in the specification's
	// table; omitted when it covers none: its content is in the document,
	// or nothing matched).
	SignedData []string `json:"signedData,omitempty"`
	// PDF is the signature's placement in its document (ades.Placement;
	// not in the specification's table; omitted when the signature has
	// none, as a CMS file): where it sits (a PDF's field), which revision,
	// and the signer's claimed reason and location, so that a reader can
	// tell the signatures of one document apart. Every placement renders
	// here, under the name the API published it with (pdf).
	PDF *PDFSignature `json:"pdf,omitempty"`
	// Timestamps are the time-stamps that gave the signature a proof of
	// existence, with their qualification (not in the specification's
	// table; omitted when there is none).
	Timestamps []TimestampReport `json:"timestamps,omitempty"`

	// What a person reads first (not in the specification's table;
	// docs/validate-api.md).

	// SignedBy is the signer, from the signing certificate; null when
	// no signing certificate was identified.
	SignedBy *SignedBy `json:"signedBy"`
	// SigningTime is the time the signer claims, the signed
	// signing-time attribute or property; null when absent. Nothing
	// proves it.
	SigningTime *time.Time `json:"signingTime"`
	// BestSignatureTime is the earliest time at which the signature is
	// proved to have existed (EN 319 102-1, 5.6.2.4), by a time-stamp or
	// a time-mark; null when nothing proves a time before the
	// validation time.
	BestSignatureTime *time.Time `json:"bestSignatureTime"`
	// SignatureScope is what the signature covers.
	SignatureScope []SignatureScope `json:"signatureScope"`
	// CertificateChain is the certification path of the signing
	// certificate, signing certificate first, to the trust anchor or
	// to where the path stopped; empty when there is no signing
	// certificate.
	CertificateChain []ChainCertificate `json:"certificateChain"`
	// Summary is one English sentence derived from the indication and
	// the sub-indication (sentences.go); a catalogue words it in another
	// language from SignatureSentence.
	Summary string `json:"summary"`
}

// TimestampReport is a valid time-stamp of a signature
// (docs/validate-api.md).
type TimestampReport struct {
	// Type is SIGNATURE_TIMESTAMP, ARCHIVE_TIMESTAMP, CONTENT_TIMESTAMP or
	// VALIDATION_DATA_TIMESTAMP.
	Type           string    `json:"type"`
	GenerationTime time.Time `json:"generationTime"`
	// TrustFramework and AnchorCountry are those of the TSA's anchor.
	TrustFramework string  `json:"trustFramework"`
	AnchorCountry  *string `json:"anchorCountry"`
	// Qualification is QTSA, TSA or NA (ETSI TS 119 615), on the TSA's
	// own list.
	Qualification string `json:"qualification"`
}

// PDFSignature is where a signature sits in its document, rendered from
// its placement (docs/validate-api.md): Field is the placement's name.
type PDFSignature struct {
	Field               string `json:"field"`
	Revision            int    `json:"revision"`
	CoversWholeDocument bool   `json:"coversWholeDocument"`
	Reason              string `json:"reason,omitempty"`
	Location            string `json:"location,omitempty"`
	ContactInfo         string `json:"contactInfo,omitempty"`
}

// A Message is one error or warning on a signature: a stable code for
// programs and an English sentence for people (docs/decisions/0017). ID
// and Params let a catalogue say the sentence in another language
// (docs/decisions/0038, Say); they are not part of the published result.
type Message struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// ID names the sentence's template: the code, or the code, a dot and
	// a variant when one code is said in several sentences.
	ID     string  `json:"-"`
	Params []Param `json:"-"`
}

// Summarize builds the summary of one validated document, whose SHA-256
// is documentSHA256 (the caller hashes it, alongside the validation). It derives
// signatureCount and valid from the reports and never fails: a document
// without signatures is a normal result (signatureCount 0, valid false).
// Empty message lists are written as [] rather than null, so that clients
// can iterate without a check. A document that holds time-stamp entries
// adds them with WithTimestamps.
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
		r.Warnings = append(r.Warnings, qualificationAnnotation(r, td)...)
		if r.Indication != TotalPassed && r.CounterSignatureOf == "" {
			s.Valid = false
		}
		if r.SignatureScope == nil {
			r.SignatureScope = []SignatureScope{}
		}
		if r.CertificateChain == nil {
			r.CertificateChain = []ChainCertificate{}
		}
		r.Summary = SignatureSentence(r.Indication, r.SubIndication).English()
		s.Signatures[i] = r
	}
	s.Summary = s.DocumentSentence().English()
	return s
}

// WithTimestamps returns s with the reports of the document's time-stamp
// entries, in document order, and valid decided over signatures and
// entries together: true when there is at least one of either and every
// signature of the document (counter-signatures aside) is TOTAL_PASSED
// and every entry PASSED. signatureCount is
// unchanged. Empty lists are written as [], as Summarize does.
func (s ValidationSummary) WithTimestamps(entries []TimestampEntryReport) ValidationSummary {
	if len(entries) == 0 {
		return s
	}
	valid := true
	for _, r := range s.Signatures {
		valid = valid && (r.Indication == TotalPassed || r.CounterSignatureOf != "")
	}
	s.Timestamps = make([]TimestampEntryReport, len(entries))
	for i, e := range entries {
		if e.Errors == nil {
			e.Errors = []Message{}
		}
		if e.Warnings == nil {
			e.Warnings = []Message{}
		}
		if e.TimestampedData == nil {
			e.TimestampedData = []string{}
		}
		valid = valid && e.Indication == Passed
		s.Timestamps[i] = e
	}
	s.Valid = valid
	s.Summary = s.DocumentSentence().English()
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
	// CodeQualificationNotReconfirmed: a qualified verdict rests on a list
	// that is not current or not authenticated: kept, and said as of when.
	CodeQualificationNotReconfirmed = "QUALIFICATION_NOT_RECONFIRMED"
	// CodeQualificationUnconfirmed: a qualified verdict attributable to no
	// list this service tracks.
	CodeQualificationUnconfirmed = "QUALIFICATION_UNCONFIRMED"
)

// qualifiedValues are the qualifications that assert a qualified trust
// service: eIDAS values with a qualified certificate, and the Swiss QES
// and regulated ones.
var qualifiedValues = map[string]bool{
	"QESIG": true, "QESEAL": true, "UNKNOWN_QC_QSCD": true, "ADESIG_QC": true, "ADESEAL_QC": true, "UNKNOWN_QC": true,
	"INDETERMINATE_QESIG": true, "INDETERMINATE_QESEAL": true, "INDETERMINATE_UNKNOWN_QC_QSCD": true,
	"INDETERMINATE_ADESIG_QC": true, "INDETERMINATE_ADESEAL_QC": true, "INDETERMINATE_UNKNOWN_QC": true,
	"QES": true, "REGULATED_SIGNATURE": true, "REGULATED_SEAL": true,
}

// qualified returns r's qualified value, "" when it has none.
func qualified(r SignatureReport) string {
	for _, v := range []*string{r.EIDASQualification, r.SwissQualification} {
		if v != nil && qualifiedValues[*v] {
			return *v
		}
	}
	return ""
}

// qualificationAnnotation is the annotation of a qualified verdict whose
// list is behind (validation-service.md §3, "Degraded behaviour" 2 and
// 4): when the anchor was last confirmed as a qualified trust service,
// by which country's list, that nothing could be re-checked since, and
// that recent withdrawals are not reflected. Judged per list: only the
// anchor's own list counts.
func qualificationAnnotation(r SignatureReport, td TrustData) []Message {
	v := qualified(r)
	if v == "" {
		return nil
	}
	var list *ListStatus
	if r.AnchorCountry != nil {
		for i, l := range td.Lists {
			if l.Territory == *r.AnchorCountry && l.Kind == "TL" {
				list = &td.Lists[i]
				break
			}
		}
	}
	if list == nil {
		return []Message{Say(CodeQualificationUnconfirmed, "", fmt.Sprintf(
			"this %s is attributable to no trusted list this service tracks: it is unconfirmed, not current", v),
			TextParam("Qualification", v))}
	}
	if list.State == "CURRENT" && list.Authenticity == "VALID" {
		return nil
	}
	// How the list last confirmed the CA is a variant of the sentence, so
	// that each language words it whole.
	variant, confirmed, since := "never", "never confirmed online", td.EvaluatedAt
	var on *Param
	switch {
	case list.LastOnlineConfirmation != nil:
		variant, confirmed = "online", "on "+list.LastOnlineConfirmation.UTC().Format(time.DateOnly)
		p := DateParam("Confirmed", *list.LastOnlineConfirmation)
		on, since = &p, *list.LastOnlineConfirmation
	case list.IssueDate != nil:
		variant, confirmed = "issued", "never online; the copy in use was issued on "+list.IssueDate.UTC().Format(time.DateOnly)
		p := DateParam("Issued", *list.IssueDate)
		on, since = &p, *list.IssueDate
	}
	days := max(td.WithdrawalWindowDays, int((td.EvaluatedAt.Sub(since)+24*time.Hour-1)/(24*time.Hour)))
	params := []Param{TextParam("Qualification", v), TextParam("Country", list.Territory), TextParam("State", list.State),
		TextParam("Authenticity", list.Authenticity), NumberParam("Days", days)}
	if on != nil {
		params = append(params, *on)
	}
	return []Message{Say(CodeQualificationNotReconfirmed, variant, fmt.Sprintf(
		"this %s rests on the %s trusted list (%s, authenticity %s), which last confirmed the signer's CA as a qualified trust service %s; "+
			"no re-check has been possible since, and services withdrawn within the last %d days are not reflected",
		v, list.Territory, list.State, orNone(list.Authenticity), confirmed, days), params...)}
}

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
		if td.Category == categoryNoListLoaded && r.SubIndication != nil && *r.SubIndication == SubNoCertificateChainFound {
			return []Message{Say(CodeNoTrustedListLoaded, "", "no trusted list is loaded, so no signature can reach a trust anchor of the EU or Swiss lists: "+
				"this is a configuration problem of the validator, not a property of the document")}
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
		variant, since := "never", "it was never confirmed online"
		params := []Param{TextParam("Country", l.Territory), TextParam("State", l.State), TextParam("Authenticity", l.Authenticity)}
		if l.LastOnlineConfirmation != nil {
			variant, since = "online", "it was last confirmed online on "+l.LastOnlineConfirmation.UTC().Format(time.RFC3339)
			params = append(params, TimeParam("Confirmed", *l.LastOnlineConfirmation))
		}
		return []Message{Say(CodeAnchorListNotCurrent, variant, fmt.Sprintf(
			"the %s trusted list that anchors this signature is %s (authenticity %s): %s, no re-check has been possible since, "+
				"and changes to its trust services after that, withdrawals included, are not reflected", l.Territory, l.State, orNone(l.Authenticity), since), params...)}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "not checked"
	}
	return s
}
