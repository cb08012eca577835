package seal_test

import (
	"context"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/reportpdf"
	"github.com/svc-dss/dss/adapters/seal"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/validationtest"
)

// report renders an unsealed-looking report of a document without
// signatures, as the seal's input.
func report(t *testing.T, sealedBy string) []byte {
	t.Helper()
	sum := verdict.Summarize("Prüfbericht-Müller.pdf", sha256.Sum256([]byte("x")), nil, verdict.TrustData{})
	pdf, err := reportpdf.Render(sum, reportpdf.Options{SealedBy: sealedBy})
	if err != nil {
		t.Fatal(err)
	}
	return pdf
}

// TestPDFValidates: a sealed report is a PAdES baseline signature our
// own validator passes, B without a time-stamping unit and T with one,
// and poppler's pdfsig finds valid.
func TestPDFValidates(t *testing.T) {
	kit := validationtest.Start(t)
	id := kit.PKI.SealCHRegulated
	client, err := egress.NewClient(egress.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := validation.New(context.Background(), kit.Options()...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		tsa    seal.Timestamper
		format string
	}{
		{"B", nil, "PAdES_BASELINE_B"},
		{"T", egress.NewTSA(client, kit.PKI.TSAURL()), "PAdES_BASELINE_T"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s, err := seal.New(id.Key, id.Chain(), tt.tsa, func() time.Time { return kit.Time })
			is.NoErr(err)
			sealed, err := s.PDF(context.Background(), report(t, s.Subject()))
			is.NoErr(err)
			res, err := v.Validate(context.Background(), validation.Document{Name: "report.pdf", Data: sealed})
			is.NoErr(err)
			is.Equal(len(res.Summary.Signatures), 1)
			got := res.Summary.Signatures[0]
			is.Equal(got.SignatureFormat, tt.format)
			is.Equal(got.Indication, verdict.TotalPassed)
			is.True(got.PDF != nil && got.PDF.CoversWholeDocument)
			is.True(res.Summary.Valid)
			pdfsig(t, sealed)
		})
	}
}

// pdfsig checks pdf with poppler's pdfsig: exit 0, the signature valid.
func pdfsig(t *testing.T, pdf []byte) {
	t.Helper()
	if _, err := exec.LookPath("pdfsig"); err != nil {
		t.Skip("pdfsig (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "sealed.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdfsig", "-nocert", path).CombinedOutput()
	if err != nil {
		t.Fatalf("pdfsig: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "Signature Validation: Signature is Valid.") {
		t.Fatalf("pdfsig does not find the seal valid:\n%s", out)
	}
	if !strings.Contains(string(out), "Total document signed") {
		t.Errorf("pdfsig does not find the whole document signed:\n%s", out)
	}
}
