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
	"golang.org/x/text/language"

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
	return verdict.Summarize(name, sha256.Sum256([]byte(name)), reports, td)
}

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
	pdf, err := reportpdf.Render(sum, reportpdf.Options{Language: language.English})
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
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the report's text lacks %q:\n%s", want, got)
		}
	}
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
