package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/domain/verdict"
)

// uiIDs are the page texts the templates and the Go code name by a
// literal ID ("ui.…").
func uiIDs(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("web/*.html")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("web/partials/*.html")
	files = append(append(files, more...), "pages.go", "ui.go", "errors.go")
	literal := regexp.MustCompile(`"(ui\.[a-z0-9.-]*[a-z0-9])"`)
	seen := map[string]bool{}
	var ids []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range literal.FindAllStringSubmatch(string(b), -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				ids = append(ids, m[1])
			}
		}
	}
	if len(ids) < 80 {
		t.Fatalf("only %d page texts found: the collection is broken", len(ids))
	}
	return ids
}

// TestPageTextsInEveryLanguage: every page text the UI names has its
// template in the four languages (a prefix, such as "ui.qualification.",
// is completed at run time: TestPagesInEveryLanguage renders those).
func TestPageTextsInEveryLanguage(t *testing.T) {
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range uiIDs(t) {
		if strings.HasSuffix(id, ".") {
			continue
		}
		for _, l := range catalog.Langs {
			if _, ok := cat.Template(l, id); !ok {
				t.Errorf("%s: no template %s", l, id)
			}
		}
	}
}

// TestPagesInEveryLanguage renders every page in every language, with a
// verdict that shows every qualification value, framework, indication,
// time-stamp type and TSA qualification, and the error page of every
// status: no text is missing (a missing one shows its ID) and no
// parameter is.
func TestPagesInEveryLanguage(t *testing.T) {
	p, err := loadPages()
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	str := func(s string) *string { return &s }
	yes, no := true, false
	sub := verdict.SubNoCertificateChainFound
	ch, de := "CH", "DE"
	var sigs []verdict.SignatureReport
	for i, q := range []string{"QESIG", "QESEAL", "UNKNOWN_QC_QSCD", "ADESIG_QC", "ADESEAL_QC", "UNKNOWN_QC", "ADESIG", "ADESEAL", "UNKNOWN",
		"NOT_ADES_QC_QSCD", "NOT_ADES_QC", "NOT_ADES", "NA", "INDETERMINATE_QESIG", "INDETERMINATE_ADESEAL_QC"} {
		ind := []verdict.Indication{verdict.TotalPassed, verdict.TotalFailed, verdict.Indeterminate}[i%3]
		sigs = append(sigs, verdict.SignatureReport{SignatureID: "S" + q, SignatureFormat: "PAdES-BASELINE-T", Indication: ind, SubIndication: &sub,
			TrustFramework: verdict.FrameworkEUEIDAS, AnchorCountry: &de, EIDASQualification: str(q), HandwrittenEquivalent: []*bool{nil, &yes, &no}[i%3],
			Errors: []verdict.Message{verdict.DetachedPartNotSigned("annex.pdf")}, Warnings: []verdict.Message{}, CounterSignatureOf: "S1",
			PDF:        &verdict.PDFSignature{Field: "Sig1", Revision: 1, CoversWholeDocument: i%2 == 0, Reason: "ok", Location: "Bern", ContactInfo: "x"},
			Timestamps: []verdict.TimestampReport{{Type: "SIGNATURE_TIMESTAMP", GenerationTime: at, TrustFramework: verdict.FrameworkCHZertES, AnchorCountry: &ch, Qualification: "QTSA"}},
		})
	}
	for _, q := range []string{"QES", "REGULATED_SIGNATURE", "REGULATED_SEAL", "ADVANCED", "NOT_APPLICABLE"} {
		sigs = append(sigs, verdict.SignatureReport{SignatureID: "S" + q, Indication: verdict.TotalPassed, TrustFramework: verdict.FrameworkCHZertES,
			AnchorCountry: &ch, SwissQualification: str(q), HandwrittenEquivalent: &yes, Errors: []verdict.Message{}, Warnings: []verdict.Message{}})
	}
	cert := verdict.Certificate{Subject: "CN=Maria Muster", Issuer: "CN=CA", SerialNumber: "1", NotBefore: at, NotAfter: at.Add(time.Hour)}
	sigs[0].SignedBy = &verdict.SignedBy{Kind: verdict.SignerOrganization, Name: "Acme", OrganizationIdentifier: "NTRCH-CHE-123.456.789", Pseudonym: true, Certificate: cert}
	sigs[0].SigningTime, sigs[0].BestSignatureTime = &at, &at
	sigs[0].SignatureScope = []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "content", Description: "The whole document.", ID: verdict.ScopeIDDocument,
		Params: []verdict.Param{verdict.TextParam("Changed", "")}}}
	sigs[0].CertificateChain = []verdict.ChainCertificate{
		{Certificate: cert, Revocation: &verdict.RevocationStatus{Status: "REVOKED", Source: "OCSP", ProducedAt: &at, ThisUpdate: at, RevokedAt: &at}},
		{Certificate: cert, Revocation: &verdict.RevocationStatus{Status: "GOOD", Source: "CRL", Embedded: true, ThisUpdate: at}},
		{Certificate: cert, TrustAnchor: true, AnchorSource: verdict.AnchorTrustedList, TrustedList: &verdict.AnchorList{TrustFramework: verdict.FrameworkCHZertES, Territory: "CH"}},
	}
	sigs[1].CertificateChain = []verdict.ChainCertificate{{Certificate: cert}, {Certificate: cert, TrustAnchor: true, AnchorSource: verdict.AnchorPrivateCA}}
	sigs[2].CertificateChain = []verdict.ChainCertificate{{Certificate: cert}}
	sigs = append(sigs, verdict.SignatureReport{SignatureID: "none", Indication: verdict.Indeterminate, SubIndication: &sub, Errors: []verdict.Message{},
		Warnings: []verdict.Message{}})
	var entries []verdict.TimestampEntryReport
	for i, typ := range []string{"SIGNATURE_TIMESTAMP", "ARCHIVE_TIMESTAMP", "CONTENT_TIMESTAMP", "VALIDATION_DATA_TIMESTAMP"} {
		entries = append(entries, verdict.TimestampEntryReport{Name: typ, Indication: []verdict.Indication{verdict.Passed, verdict.Failed, verdict.Indeterminate}[i%3],
			GenerationTime: at, TrustFramework: verdict.FrameworkEUEIDAS, Qualification: []string{"QTSA", "TSA", "NA", "QTSA"}[i],
			Errors: []verdict.Message{}, Warnings: []verdict.Message{}, TimestampedData: []string{}})
	}
	never := at.Add(-time.Hour)
	td := verdict.TrustData{State: "STALE", EvaluatedAt: at, WithdrawalWindowDays: 7,
		Lists: []verdict.ListStatus{{Territory: "DE", Kind: "TL", State: "STALE", Authenticity: "VALID", LastOnlineConfirmation: &never},
			{Territory: "CH", Kind: "TL", State: "EXPIRED"}},
		PrivateCA: verdict.PrivateCA{Enabled: true, Anchors: []verdict.PrivateAnchor{{Subject: "CN=Private", NotAfter: at, Expired: true}}},
		Category:  "no-list-loaded"}
	sum := verdict.Summarize("doc.pdf", [32]byte{}, sigs, td).WithTimestamps(entries)
	banner := &verdict.Banner{Category: "stale", Text: "Trusted list DE is stale; trust data last confirmed 2026-03-01.", ID: "banner.stale.one",
		Params: []verdict.Param{verdict.TextParam("Lists", "DE"), verdict.NumberParam("More", 0), verdict.DateParam("Confirmed", at)}}
	missing := regexp.MustCompile(`(^|[^/a-z])ui\.[a-z]|<no value>`) // not /static/ui.css
	for _, l := range catalog.Langs {
		acc := &account{Tenant: "t", Subject: "alice", CSRF: "c"}
		signed := func(title string) base {
			b := newBase(cat, l, "/validate", title)
			b.Account, b.Banner = acc, banner
			return b
		}
		pages := map[string]any{
			"gateway.html":   gatewayPage{base: newBase(cat, l, pathValidate, "ui.gateway.title")},
			"upload.html":    uploadPage{base: signed("ui.upload.title"), CSRF: "c", MaxFile: "10 MB", MaxUpload: "20 MB", Formats: "CAdES"},
			"result.html":    newResultPage(signed("ui.result.title"), "t", sum, false),
			"signedout.html": signedOutPage{base: newBase(cat, l, pathSignedOut, "ui.signedout.title"), Tenant: "t"},
		}
		for _, status := range []int{400, 401, 403, 404, 405, 413, 500, 502, 503, 504} {
			b := newBase(cat, l, "", "ui.error.status."+strconv.Itoa(status))
			pages["error.html#"+strconv.Itoa(status)] = errorPage{base: b, Status: status, Detail: b.T("ui.error.login-state", "Detail", ""), RequestID: "r", Next: "/", NextLabel: b.T("ui.error.back")}
		}
		dev := signed("ui.upload.title")
		dev.Account = &account{Tenant: "t", Development: true}
		pages["upload.html#dev"] = uploadPage{base: dev, CSRF: "c"}
		for name, data := range pages {
			var out bytes.Buffer
			if err := p[strings.SplitN(name, "#", 2)[0]].ExecuteTemplate(&out, "layout", data); err != nil {
				t.Fatalf("%s in %s: %v", name, l, err)
			}
			if m := missing.FindString(out.String()); m != "" {
				i := strings.Index(out.String(), m)
				t.Errorf("%s in %s: %q in %s", name, l, m, out.String()[max(i-80, 0):min(i+80, out.Len())])
			}
			if !strings.Contains(out.String(), `<html lang="`+string(l)+`">`) {
				t.Errorf("%s in %s: no html lang", name, l)
			}
		}
	}
}
