package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	chromium "github.com/svc-dss/dss/fixtures/browser"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
)

// The UI in headless Chromium (testdata/browser/ui.mjs): log in through
// the tenant's provider, upload a PAdES document, read the verdict (who
// signed, when, what, the chain), download the reports, the PDF one read
// with pdftotext in English and German; the form, the result and an
// error page in each language, each without a serious or critical
// axe-core violation; the result at 375px without sideways scrolling;
// then, the clock eight days on, the banner on the form and the result;
// and the cross-tenant guard. Screenshots of each page are in the test's
// artifact directory (go tool task browser keeps them under
// test-output/).
func TestBrowserUI(t *testing.T) {
	t.Parallel()
	srv, w := signedUIWorld(t, "SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT=P10D", "SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT=P20D")
	d := pades.New(1)
	if err := d.Sign(pades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.T, SigningTime: time.Now().Add(-time.Hour), Reason: "Approved"}); err != nil {
		t.Fatal(err)
	}
	pdf := filepath.Join(t.TempDir(), "contract.pdf")
	if err := os.WriteFile(pdf, d.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(phase string) {
		t.Helper()
		chromium.Run(t, "testdata/browser/ui.mjs", "BASE_URL="+w.url, "TENANT_ID="+tenantA, "PDF_PATH="+pdf, "PHASE="+phase)
	}
	run("current")
	run("cross-tenant")
	w.clock.Advance(8 * 24 * time.Hour)
	run("stale")
}
