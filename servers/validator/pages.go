package main

import (
	"embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/servers/internal/page"
)

//go:embed web
var web embed.FS

// product is the name beside the brand on every page.
const product = "Signature validation"

// pages are the browser UI's templates, by file name.
type pages map[string]*template.Template

func loadPages() (pages, error) {
	p, err := page.Parse(web, template.FuncMap{"when": when, "whenp": whenPtr}, "web/partials/*.html", "web/*.html")
	if err != nil {
		return nil, err
	}
	for _, name := range []string{"gateway.html", "upload.html", "result.html", "error.html", "signedout.html"} {
		if p[name] == nil {
			return nil, fmt.Errorf("page %s is missing", name)
		}
	}
	return p, nil
}

// base is what the layout of every page reads.
type base struct {
	Title   string
	Product string
	// Account is the signed-in session (name, logout); nil on the gateway
	// and error pages.
	Account *account
	// Banner is the trust-data notice; only the upload and result pages
	// set it (validation-service.md §3, "Where degradation is surfaced").
	Banner *verdict.Banner
}

type account struct {
	Tenant  string
	Subject string
	CSRF    string
	// Development is permit-all: nobody signed in, there is no logout.
	Development bool
}

type gatewayPage struct {
	base
}

type uploadPage struct {
	base
	CSRF               string
	MaxFile, MaxUpload string
	// Formats names the formats the service reads, from its registry.
	Formats string
}

type resultPage struct {
	base
	Tenant     string
	Summary    verdict.ValidationSummary
	Signatures []signatureView
	// Timestamps are the document's time-stamp entries (decision 0032).
	Timestamps []entryView
	Trust      trustView
	// CounterSignatureNotPassed: a counter-signature did not pass, which
	// does not decide valid (decision 0017), so the verdict says so.
	CounterSignatureNotPassed bool
	// Sealed: a report seal is configured, so the PDF report is sealed and
	// a Signature Validation Token is offered (decision 0037).
	Sealed bool
}

// entryView is one time-stamp entry as the result page shows it: the
// report, with words beside the codes.
type entryView struct {
	N, Of      int
	R          verdict.TimestampEntryReport
	Indication string // in words
	Class      string // passed, indeterminate, failed
	Time       string
	Framework  string
	Country    string // "" when no list anchor was reached
	// Qualification is the TSA's, in words.
	Qualification string
}

type errorPage struct {
	base
	Status    int
	Detail    string
	RequestID string
	// Next is where to go from here, with its label.
	Next, NextLabel string
}

type signedOutPage struct {
	base
	Tenant string
}

// signatureView is one signature as the result page shows it: the report,
// with words beside the codes.
type signatureView struct {
	N, Of       int
	R           verdict.SignatureReport
	Indication  string // in words
	Class       string // passed, indeterminate, failed
	Framework   string
	Country     string // "" when no list anchor was reached
	EIDAS       string
	Swiss       string
	Handwritten string
	// AsOf is set when the list that anchors the signature is behind:
	// the verdict holds as of its last confirmation.
	AsOf *asOf
	// NoTrustedList is set when no trusted list was loaded and the
	// signature reached no anchor (warning NO_TRUSTED_LIST_LOADED).
	NoTrustedList bool
	Timestamps    []timestampView
	// Signer, SigningTime and BestTime are who signed and when, in
	// words: the time the signer claims, and the time proved.
	Signer, SigningTime, BestTime string
}

type asOf struct {
	Territory, State, Authenticity string
	// Since is the date of the list's last online confirmation, or says
	// that there was none.
	Since string
}

type timestampView struct {
	Type, Time, Framework, Country, Qualification string
}

// trustView is the row "Trust data at validation": the verdict's own
// snapshot of the trust store.
type trustView struct {
	State         string
	Current       bool
	EvaluatedAt   time.Time
	LastConfirmed *time.Time
	Authenticated bool
	// NoListLoaded: no public list has anchors (the only case the words
	// "no trusted list is loaded" are used for, §3 rule 3).
	NoListLoaded bool
	Lists        []verdict.ListStatus
	PrivateCA    verdict.PrivateCA
}

// newResultPage builds the result page of sum.
func newResultPage(b base, tenant string, sum verdict.ValidationSummary, sealed bool) resultPage {
	td := sum.TrustData
	p := resultPage{
		base: b, Tenant: tenant, Summary: sum, Sealed: sealed,
		Trust: trustView{
			State: td.State, Current: td.Current, EvaluatedAt: td.EvaluatedAt, LastConfirmed: td.LastConfirmed,
			Authenticated: td.AnchorDataAuthenticated, NoListLoaded: td.Category == categoryNoListLoaded,
			Lists: td.Lists, PrivateCA: td.PrivateCA,
		},
	}
	for i, r := range sum.Signatures {
		p.Signatures = append(p.Signatures, newSignatureView(i+1, len(sum.Signatures), r, td))
		if r.CounterSignatureOf != "" && r.Indication != verdict.TotalPassed {
			p.CounterSignatureNotPassed = true
		}
	}
	for i, r := range sum.Timestamps {
		e := entryView{N: i + 1, Of: len(sum.Timestamps), R: r, Time: when(r.GenerationTime), Framework: frameworkWords(r.TrustFramework),
			Qualification: tsaQualificationWords(r.Qualification)}
		switch r.Indication {
		case verdict.Passed:
			e.Indication, e.Class = "Passed", "passed"
		case verdict.Failed:
			e.Indication, e.Class = "Failed", "failed"
		default:
			e.Indication, e.Class = "Indeterminate", "indeterminate"
		}
		if r.AnchorCountry != nil {
			e.Country = *r.AnchorCountry
		}
		p.Timestamps = append(p.Timestamps, e)
	}
	return p
}

// categoryNoListLoaded is trustData.category when no list has anchors.
const categoryNoListLoaded = "no-list-loaded"

func newSignatureView(n, of int, r verdict.SignatureReport, td verdict.TrustData) signatureView {
	v := signatureView{N: n, Of: of, R: r, Framework: frameworkWords(r.TrustFramework), Signer: signerWords(r.SignedBy),
		SigningTime: "Not given by the signer", BestTime: "Not proved: no time-stamp proves when the signature existed"}
	if r.SigningTime != nil {
		v.SigningTime = when(*r.SigningTime)
	}
	if r.BestSignatureTime != nil {
		v.BestTime = when(*r.BestSignatureTime)
	}
	switch r.Indication {
	case verdict.TotalPassed:
		v.Indication, v.Class = "Passed", "passed"
	case verdict.TotalFailed:
		v.Indication, v.Class = "Failed", "failed"
	default:
		v.Indication, v.Class = "Indeterminate", "indeterminate"
	}
	if r.AnchorCountry != nil {
		v.Country = *r.AnchorCountry
		v.AsOf = asOfFor(*r.AnchorCountry, td)
	}
	v.EIDAS = "Not applicable: not anchored in an EU trusted list"
	if r.EIDASQualification != nil {
		v.EIDAS = qualificationWords(*r.EIDASQualification)
	}
	v.Swiss = "Not applicable: not anchored in the Swiss trusted list"
	if r.SwissQualification != nil {
		v.Swiss = qualificationWords(*r.SwissQualification)
	}
	switch {
	case r.HandwrittenEquivalent == nil:
		v.Handwritten = "Not applicable: Swiss signatures only"
	case *r.HandwrittenEquivalent:
		v.Handwritten = "Yes: a qualified electronic signature with a qualified time-stamp (Swiss CO Art. 14)"
	default:
		v.Handwritten = "No"
	}
	for _, w := range r.Warnings {
		if w.Code == verdict.CodeNoTrustedListLoaded {
			v.NoTrustedList = true
		}
	}
	for _, ts := range r.Timestamps {
		t := timestampView{Type: timestampWords(ts.Type), Time: when(ts.GenerationTime), Framework: frameworkWords(ts.TrustFramework), Qualification: ts.Qualification}
		if ts.AnchorCountry != nil {
			t.Country = *ts.AnchorCountry
		}
		v.Timestamps = append(v.Timestamps, t)
	}
	return v
}

// signerWords names the signer for people: a person by name, a
// pseudonym marked; an organisation by its name and identifier.
func signerWords(s *verdict.SignedBy) string {
	if s == nil {
		return "Unknown: no signing certificate was identified"
	}
	w := s.Name
	if s.Pseudonym {
		w += " (a pseudonym)"
	}
	if s.Kind != verdict.SignerOrganization {
		return w
	}
	if s.Organization != "" && s.Organization != s.Name {
		w += ", " + s.Organization
	}
	if s.OrganizationIdentifier != "" {
		w += " (" + s.OrganizationIdentifier + ")"
	}
	return w + ": an organisation's seal"
}

// asOfFor is the marker of a signature anchored in territory's list when
// that list is not current or not authenticated (the warnings
// ANCHOR_LIST_NOT_CURRENT and QUALIFICATION_NOT_RECONFIRMED say the
// same); nil when the list is current and authenticated. Judged per list
// (§3 rule 6).
func asOfFor(territory string, td verdict.TrustData) *asOf {
	for _, l := range td.Lists {
		if l.Territory != territory || l.Kind != "TL" {
			continue
		}
		if l.State == "CURRENT" && l.Authenticity == "VALID" {
			return nil
		}
		a := &asOf{Territory: l.Territory, State: l.State, Authenticity: l.Authenticity, Since: "never confirmed online"}
		if a.Authenticity == "" {
			a.Authenticity = "NOT_CHECKED"
		}
		if l.LastOnlineConfirmation != nil {
			a.Since = l.LastOnlineConfirmation.UTC().Format(time.DateOnly)
		}
		return a
	}
	return nil
}

func frameworkWords(f string) string {
	switch f {
	case verdict.FrameworkEUEIDAS:
		return "EU eIDAS"
	case verdict.FrameworkCHZertES:
		return "Swiss ZertES"
	}
	return "Unknown: no EU or Swiss trusted list"
}

// qualifications are the qualification values in words.
var qualifications = map[string]string{
	"QESIG":            "Qualified electronic signature",
	"QESEAL":           "Qualified electronic seal",
	"UNKNOWN_QC_QSCD":  "Qualified certificate on a qualified device, signature or seal undetermined",
	"ADESIG_QC":        "Advanced electronic signature with a qualified certificate",
	"ADESEAL_QC":       "Advanced electronic seal with a qualified certificate",
	"UNKNOWN_QC":       "Qualified certificate, signature or seal undetermined",
	"ADESIG":           "Advanced electronic signature",
	"ADESEAL":          "Advanced electronic seal",
	"UNKNOWN":          "Undetermined",
	"NOT_ADES_QC_QSCD": "Not advanced, though with a qualified certificate on a qualified device",
	"NOT_ADES_QC":      "Not advanced, though with a qualified certificate",
	"NOT_ADES":         "Not an advanced electronic signature",
	"NA":               "Not applicable",
	// Swiss ZertES
	"QES":                 "Qualified electronic signature",
	"REGULATED_SIGNATURE": "Regulated electronic signature",
	"REGULATED_SEAL":      "Regulated electronic seal",
	"ADVANCED":            "Advanced electronic signature",
	"NOT_APPLICABLE":      "Not applicable",
}

// qualificationWords is "words (CODE)".
func qualificationWords(q string) string {
	if w, ok := qualifications[q]; ok {
		return w + " (" + q + ")"
	}
	if rest, ok := strings.CutPrefix(q, "INDETERMINATE_"); ok {
		if w, ok := qualifications[rest]; ok {
			return "Indeterminate, possibly: " + strings.ToLower(w[:1]) + w[1:] + " (" + q + ")"
		}
	}
	return q
}

// tsaQualificationWords is "words (CODE)" for a TSA's qualification.
func tsaQualificationWords(q string) string {
	switch q {
	case "QTSA":
		return "Qualified time-stamping service (QTSA)"
	case "TSA":
		return "Time-stamping service, not qualified (TSA)"
	case "NA":
		return "Not applicable: not a listed time-stamping service (NA)"
	}
	return q
}

func timestampWords(t string) string {
	switch t {
	case "SIGNATURE_TIMESTAMP":
		return "Signature time-stamp"
	case "ARCHIVE_TIMESTAMP":
		return "Archive time-stamp"
	case "CONTENT_TIMESTAMP":
		return "Content time-stamp"
	case "VALIDATION_DATA_TIMESTAMP":
		return "Validation-data time-stamp"
	}
	return t
}

// when writes an instant for people: UTC, to the second.
func when(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("2006-01-02 15:04:05") + " UTC"
}

func whenPtr(t *time.Time) string {
	if t == nil {
		return "never"
	}
	return when(*t)
}

// megabytes writes a byte limit for people.
func megabytes(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
