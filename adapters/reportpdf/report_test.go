package reportpdf_test

import (
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/reportpdf"
	"github.com/svc-dss/dss/domain/verdict"
)

// summary is a document with a passed and a failed signature, validated
// against one current list.
func summary(name string) verdict.ValidationSummary {
	ch, qes, hash := "CH", "QES", verdict.SubHashFailure
	yes := true
	seq := 42
	at := time.Date(2026, 6, 1, 10, 30, 0, 0, time.UTC)
	td := verdict.TrustData{State: "CURRENT", Current: true, AnchorDataAuthenticated: true, EvaluatedAt: at, LastConfirmed: &at,
		Lists: []verdict.ListStatus{{Territory: "CH", Kind: "TL", Framework: "CH_ZERTES", State: "CURRENT", Authenticity: "VALID", SequenceNumber: &seq, IssueDate: &at}}}
	reports := []verdict.SignatureReport{
		{SignatureID: "S-1", SignatureFormat: "PAdES_BASELINE_B", Indication: verdict.TotalPassed, TrustFramework: "CH_ZERTES",
			AnchorCountry: &ch, SwissQualification: &qes, HandwrittenEquivalent: &yes, AnchorDataAuthenticated: true},
		{SignatureID: "S-2", SignatureFormat: "PAdES_BASELINE_T", Indication: verdict.TotalFailed, SubIndication: &hash, TrustFramework: "UNKNOWN",
			Errors: []verdict.Message{{Code: "HASH_FAILURE", Message: "the signed bytes were changed after signing"}}},
	}
	signed := at.Add(-time.Hour)
	reports[0].SignedBy = &verdict.SignedBy{Kind: verdict.SignerPerson, Name: "Anna Müller",
		Certificate: verdict.Certificate{Subject: "CN=Anna Müller,C=CH", Issuer: "CN=Swiss Qualified CA,C=CH", SerialNumber: "0a1b",
			NotBefore: at.AddDate(-1, 0, 0), NotAfter: at.AddDate(1, 0, 0)}}
	reports[0].SigningTime, reports[0].BestSignatureTime = &signed, &at
	reports[0].SignatureScope = []verdict.SignatureScope{{Kind: verdict.ScopeFull, Name: "/", Description: "The whole document (revision 1 of 1)."}}
	reports[0].CertificateChain = []verdict.ChainCertificate{
		{Certificate: reports[0].SignedBy.Certificate, Revocation: &verdict.RevocationStatus{Status: "GOOD", Source: "OCSP", ThisUpdate: at, ProducedAt: &at}},
		{Certificate: verdict.Certificate{Subject: "CN=Swiss Qualified CA,C=CH"}, TrustAnchor: true, AnchorSource: verdict.AnchorTrustedList,
			TrustedList: &verdict.AnchorList{TrustFramework: "CH_ZERTES", Territory: "CH", Authenticated: true}},
	}
	for i := range reports {
		reports[i].Summary = verdict.SignatureSentence(reports[i].Indication, reports[i].SubIndication).English()
	}
	td.Snapshot = &verdict.TrustSnapshot{SHA256: strings.Repeat("5e", 32)}
	return verdict.Summarize(name, sha256.Sum256([]byte(name)), reports, td)
}

// firstWords are the first three words of a sentence, which the
// report's column does not wrap.
func firstWords(s string) string { return strings.Join(strings.Fields(s)[:3], " ") }

// text returns what pdftotext reads in pdf.
func text(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// TestRenderReads: what a reader needs is in the text pdftotext
// extracts: the document's name (umlauts intact), its SHA-256, the
// validation time, the trust data and each signature's verdict with its
// errors.
func TestRenderReads(t *testing.T) {
	is := is.New(t)
	sum := summary("Prüfbericht-Müller.pdf")
	pdf, err := reportpdf.Render(sum, reportpdf.Options{})
	is.NoErr(err)
	is.True(strings.HasPrefix(string(pdf), "%PDF-"))
	got := text(t, pdf)
	for _, want := range []string{
		"Signature validation report",
		"Prüfbericht-Müller.pdf",
		sum.DocumentSHA256,
		"2026-06-01 10:30:00 UTC",
		"CH TL (CH_ZERTES)", "CURRENT, VALID", "42",
		"Signature 1 of 2", "S-1", "PAdES_BASELINE_B", "TOTAL_PASSED", "QES",
		"Signature 2 of 2", "S-2", "TOTAL_FAILED", "HASH_FAILURE", "the signed bytes were changed after signing",
		"Not valid: see the signatures below",
		// Who, when, what and the chain (issue 23).
		"Signed by", "Anna Müller", "CN=Swiss Qualified CA,C=CH", "0a1b",
		"Signing time claimed by the signer", "2026-06-01 09:30:00 UTC",
		"Signature proved to exist at", "not proved by a time-stamp",
		"The whole document (revision 1 of 1).",
		"trust anchor (CH CH_ZERTES)", "GOOD by OCSP of 2026-06-01 10:30:00 UTC",
		"not identified: no signing certificate was found",
		strings.Repeat("5e", 32),
		firstWords(sum.Summary), firstWords(sum.Signatures[0].Summary), firstWords(sum.Signatures[1].Summary),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report's text lacks %q:\n%s", want, got)
		}
	}
}

// TestRenderLabels: the labels Options.Label gives replace the English
// ones, their verbs filled; the others stay English.
func TestRenderLabels(t *testing.T) {
	is := is.New(t)
	german := map[string]string{
		"report.title":            "Signaturvalidierungsbericht",
		"report.signature":        "Signatur %d von %d",
		"report.chain.revocation": "%s gemäss %s vom %s",
	}
	label := func(id string) (string, bool) {
		s, ok := german[id]
		return s, ok
	}
	pdf, err := reportpdf.Render(summary("Prüfbericht.pdf"), reportpdf.Options{Label: label})
	is.NoErr(err)
	got := strings.Join(strings.Fields(text(t, pdf)), " ")
	for _, want := range []string{"Signaturvalidierungsbericht", "Signatur 1 von 2", "Signatur 2 von 2", "GOOD gemäss OCSP vom 2026-06-01 10:30:00 UTC", "Signed by"} {
		if !strings.Contains(got, want) {
			t.Errorf("the report's text lacks %q:\n%s", want, got)
		}
	}
	is.True(!strings.Contains(got, "Signature validation report"))
}

// TestRenderSealNotice: the first page says whether the report is
// sealed, and by whom.
func TestRenderSealNotice(t *testing.T) {
	tests := []struct {
		name     string
		sealedBy string
		want     string
		not      string
	}{
		{"unsealed", "", "This report is not sealed", "This report is sealed"},
		{"sealed", "CN=Validator Seal,O=Bundesamt für Prüfung", "This report is sealed by CN=Validator Seal,O=Bundesamt für Prüfung", "not sealed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			pdf, err := reportpdf.Render(summary("contract.pdf"), reportpdf.Options{SealedBy: tt.sealedBy})
			is.NoErr(err)
			first, _, _ := strings.Cut(text(t, pdf), "\f")
			is.True(strings.Contains(strings.Join(strings.Fields(first), " "), tt.want))
			is.True(!strings.Contains(first, tt.not))
		})
	}
}

// TestRenderPages: a report longer than a page breaks onto numbered
// pages rather than running off the first.
func TestRenderPages(t *testing.T) {
	is := is.New(t)
	sum := summary("many.pdf")
	for i := range 20 {
		r := sum.Signatures[1]
		r.SignatureID = "S-" + strings.Repeat("x", i)
		sum.Signatures = append(sum.Signatures, r)
	}
	pdf, err := reportpdf.Render(sum, reportpdf.Options{})
	is.NoErr(err)
	got := text(t, pdf)
	pages := strings.Count(got, "\f")
	is.True(pages > 2)                       // twenty-two signatures do not fit two pages
	is.True(strings.Contains(got, "page 3")) // pages are numbered
	is.True(strings.Contains(got, "Signature 22 of 22"))
}

// TestRenderScripts: Greek and Cyrillic render as written; characters
// the Go fonts lack show as '?', never silently as nothing.
func TestRenderScripts(t *testing.T) {
	tests := []struct{ name, want string }{
		{"Ελληνικά Русский.pdf", "Ελληνικά Русский.pdf"},
		{"契約書.pdf", "???.pdf"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			pdf, err := reportpdf.Render(summary(tt.name), reportpdf.Options{})
			is.NoErr(err)
			is.True(strings.Contains(text(t, pdf), tt.want))
		})
	}
}
