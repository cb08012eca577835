package main

import (
	"embed"
	"fmt"
	"html/template"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/servers/internal/page"
)

//go:embed web
var web embed.FS

// pages are the browser UI's templates, by file name.
type pages map[string]*template.Template

func loadPages() (pages, error) {
	p, err := page.Parse(web, nil, "web/partials/*.html", "web/*.html")
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

// base is what the layout of every page reads. Its methods give the
// templates the page's language (T, HTML, Msg, When): every text comes
// from the catalogue (docs/decisions/0038).
type base struct {
	Title   string
	Product string
	// Lang is the page's language; cat words it.
	Lang catalog.Lang
	cat  *catalog.Catalog
	// Here is the page's own address, which the language menu links to
	// with ?lang= (a page without a GET address of its own, such as an
	// error, links to where it leads on).
	Here string
	// Account is the signed-in session (name, logout); nil on the gateway
	// and error pages.
	Account *account
	// Banner is the trust-data notice; only the upload and result pages
	// set it (validation-service.md §3, "Where degradation is surfaced").
	Banner *verdict.Banner
}

// newBase is the base of a page in language l at address here, titled
// by the catalogue's text title.
func newBase(cat *catalog.Catalog, l catalog.Lang, here, title string) base {
	return base{Title: cat.Text(l, title), Product: cat.Text(l, "ui.product"), Lang: l, cat: cat, Here: here}
}

// T is the text id in the page's language, with params ("Name", value,
// ...).
func (b base) T(id string, params ...string) string { return b.cat.Text(b.Lang, id, params...) }

// HTML is the text id with its markup, its parameters escaped.
func (b base) HTML(id string, params ...string) template.HTML {
	return template.HTML(b.cat.HTML(b.Lang, id, params...)) //nolint:gosec // the catalogue is ours; the parameters are escaped
}

// Msg is an error or warning of a verdict in the page's language.
func (b base) Msg(m verdict.Message) string { return b.cat.Message(b.Lang, m) }

// BannerText is the trust banner in the page's language.
func (b base) BannerText(bn verdict.Banner) string { return b.cat.Banner(b.Lang, bn) }

// When is when(t), "never" in the page's language for the zero time.
func (b base) When(t time.Time) string {
	if t.IsZero() {
		return b.T("ui.never")
	}
	return when(t)
}

// WhenP is When of t, "never" for nil.
func (b base) WhenP(t *time.Time) string {
	if t == nil {
		return b.T("ui.never")
	}
	return b.When(*t)
}

// A languageLink is one entry of the language menu.
type languageLink struct {
	Lang    catalog.Lang
	Name    string
	Href    string
	Current bool
}

// Languages is the language menu: the page's address in each language.
func (b base) Languages() []languageLink {
	sep := "?"
	if strings.Contains(b.Here, "?") {
		sep = "&"
	}
	var out []languageLink
	for _, l := range catalog.Langs {
		out = append(out, languageLink{Lang: l, Name: l.Name(), Href: b.Here + sep + "lang=" + string(l), Current: l == b.Lang})
	}
	return out
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
	// Chain is the certification path, signing certificate first.
	Chain []chainView
}

// chainView is one certificate of a signature's path in words.
type chainView struct {
	Subject, Issuer, Validity string
	// Anchor says that the certificate is the trust anchor and whence,
	// or that the path stops at it untrusted; empty otherwise.
	Anchor     string
	Revocation string
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
	w := words{b}
	sum = b.cat.Summary(b.Lang, sum)
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
		p.Signatures = append(p.Signatures, w.signature(i+1, len(sum.Signatures), r, td))
		if r.CounterSignatureOf != "" && r.Indication != verdict.TotalPassed {
			p.CounterSignatureNotPassed = true
		}
	}
	for i, r := range sum.Timestamps {
		e := entryView{N: i + 1, Of: len(sum.Timestamps), R: r, Time: b.When(r.GenerationTime), Framework: w.framework(r.TrustFramework),
			Qualification: w.tsaQualification(r.Qualification)}
		switch r.Indication {
		case verdict.Passed:
			e.Class = "passed"
		case verdict.Failed:
			e.Class = "failed"
		default:
			e.Class = "indeterminate"
		}
		e.Indication = b.T("ui.indication." + e.Class)
		if r.AnchorCountry != nil {
			e.Country = *r.AnchorCountry
		}
		p.Timestamps = append(p.Timestamps, e)
	}
	return p
}

// categoryNoListLoaded is trustData.category when no list has anchors.
const categoryNoListLoaded = "no-list-loaded"

// words are the codes of a verdict in the words of a page's language.
type words struct{ base }

func (w words) signature(n, of int, r verdict.SignatureReport, td verdict.TrustData) signatureView {
	v := signatureView{N: n, Of: of, R: r, Framework: w.framework(r.TrustFramework), Signer: w.signer(r.SignedBy),
		SigningTime: w.T("ui.result.signing-time-none"), BestTime: w.T("ui.result.best-time-none"), Chain: w.chain(r.CertificateChain)}
	if r.SigningTime != nil {
		v.SigningTime = w.When(*r.SigningTime)
	}
	if r.BestSignatureTime != nil {
		v.BestTime = w.When(*r.BestSignatureTime)
	}
	switch r.Indication {
	case verdict.TotalPassed:
		v.Class = "passed"
	case verdict.TotalFailed:
		v.Class = "failed"
	default:
		v.Class = "indeterminate"
	}
	v.Indication = w.T("ui.indication." + v.Class)
	if r.AnchorCountry != nil {
		v.Country = *r.AnchorCountry
		v.AsOf = w.asOf(*r.AnchorCountry, td)
	}
	v.EIDAS = w.T("ui.eidas.not-applicable")
	if r.EIDASQualification != nil {
		v.EIDAS = w.qualification(*r.EIDASQualification)
	}
	v.Swiss = w.T("ui.swiss.not-applicable")
	if r.SwissQualification != nil {
		v.Swiss = w.qualification(*r.SwissQualification)
	}
	switch {
	case r.HandwrittenEquivalent == nil:
		v.Handwritten = w.T("ui.handwritten.not-applicable")
	case *r.HandwrittenEquivalent:
		v.Handwritten = w.T("ui.handwritten.yes")
	default:
		v.Handwritten = w.T("ui.no")
	}
	for _, w := range r.Warnings {
		if w.Code == verdict.CodeNoTrustedListLoaded {
			v.NoTrustedList = true
		}
	}
	for _, ts := range r.Timestamps {
		t := timestampView{Type: w.timestampType(ts.Type), Time: w.When(ts.GenerationTime), Framework: w.framework(ts.TrustFramework), Qualification: ts.Qualification}
		if ts.AnchorCountry != nil {
			t.Country = *ts.AnchorCountry
		}
		v.Timestamps = append(v.Timestamps, t)
	}
	return v
}

// signer names the signer for people: a person by name, a pseudonym
// marked; an organisation by its name and identifier.
func (w words) signer(s *verdict.SignedBy) string {
	if s == nil {
		return w.T("ui.signer.unknown")
	}
	name := s.Name
	if s.Pseudonym {
		name = w.T("ui.signer.pseudonym", "Name", name)
	}
	if s.Kind != verdict.SignerOrganization {
		return name
	}
	if s.Organization != "" && s.Organization != s.Name {
		name += ", " + s.Organization
	}
	if s.OrganizationIdentifier != "" {
		name += " (" + s.OrganizationIdentifier + ")"
	}
	return w.T("ui.signer.seal", "Name", name)
}

// chain is a certification path in words, signing certificate first.
func (w words) chain(path []verdict.ChainCertificate) []chainView {
	var out []chainView
	for i, c := range path {
		v := chainView{Subject: c.Subject, Issuer: c.Issuer,
			Validity: w.T("ui.result.chain-validity", "From", w.When(c.NotBefore), "To", w.When(c.NotAfter))}
		switch {
		case c.TrustAnchor && c.TrustedList != nil:
			v.Anchor = w.T("ui.result.chain-anchor-list", "Territory", c.TrustedList.Territory, "Framework", w.framework(c.TrustedList.TrustFramework))
		case c.TrustAnchor:
			v.Anchor = w.T("ui.result.chain-anchor-private")
		case i == len(path)-1:
			v.Anchor = w.T("ui.result.chain-ends")
		}
		v.Revocation = w.revocation(c.Revocation)
		out = append(out, v)
	}
	return out
}

// revocation is what revocation data said of a certificate, in words.
func (w words) revocation(r *verdict.RevocationStatus) string {
	if r == nil {
		return w.T("ui.result.revocation-none")
	}
	at := r.ThisUpdate
	if r.ProducedAt != nil {
		at = *r.ProducedAt
	}
	where := w.T("ui.result.revocation-fetched")
	if r.Embedded {
		where = w.T("ui.result.revocation-embedded")
	}
	if r.Status == "REVOKED" && r.RevokedAt != nil {
		return w.T("ui.result.revocation-revoked", "RevokedAt", w.When(*r.RevokedAt), "Source", r.Source, "Time", w.When(at), "Where", where)
	}
	return w.T("ui.result.revocation-good", "Source", r.Source, "Time", w.When(at), "Where", where)
}

// asOfFor is the marker of a signature anchored in territory's list when
// that list is not current or not authenticated (the warnings
// ANCHOR_LIST_NOT_CURRENT and QUALIFICATION_NOT_RECONFIRMED say the
// same); nil when the list is current and authenticated. Judged per list
// (§3 rule 6).
func (w words) asOf(territory string, td verdict.TrustData) *asOf {
	for _, l := range td.Lists {
		if l.Territory != territory || l.Kind != "TL" {
			continue
		}
		if l.State == "CURRENT" && l.Authenticity == "VALID" {
			return nil
		}
		a := &asOf{Territory: l.Territory, State: l.State, Authenticity: l.Authenticity, Since: w.T("ui.result.never-confirmed")}
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

func (w words) framework(f string) string {
	switch f {
	case verdict.FrameworkEUEIDAS, verdict.FrameworkCHZertES:
		return w.T("ui.framework." + f)
	}
	return w.T("ui.framework.unknown")
}

// qualification is "words (CODE)" of a qualification value: the words
// are the catalogue's ui.qualification.CODE.
func (w words) qualification(q string) string {
	if _, ok := w.cat.Template(w.Lang, "ui.qualification."+q); ok {
		return w.T("ui.qualification."+q) + " (" + q + ")"
	}
	if rest, ok := strings.CutPrefix(q, "INDETERMINATE_"); ok {
		if _, ok := w.cat.Template(w.Lang, "ui.qualification."+rest); ok {
			words := w.T("ui.qualification." + rest)
			return w.T("ui.qualification.indeterminate", "Qualification", strings.ToLower(words[:1])+words[1:]) + " (" + q + ")"
		}
	}
	return q
}

// tsaQualification is "words (CODE)" for a TSA's qualification.
func (w words) tsaQualification(q string) string {
	switch q {
	case "QTSA", "TSA", "NA":
		return w.T("ui.tsa." + q)
	}
	return q
}

func (w words) timestampType(t string) string {
	switch t {
	case "SIGNATURE_TIMESTAMP", "ARCHIVE_TIMESTAMP", "CONTENT_TIMESTAMP", "VALIDATION_DATA_TIMESTAMP":
		return w.T("ui.timestamp." + t)
	}
	return t
}

// when writes an instant for people: UTC, to the second, the same in
// every language.
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") + " UTC" }

// megabytes writes a byte limit for people.
func megabytes(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
