package asic_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/asic"
	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// summary is what the reader reports of a container, on one line per
// signature: what the corpus test pins.
func summary(c *asic.Container) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s odf=%v files=%d", c.Type, c.OpenDocument, len(c.Files))
	for _, p := range c.Problems {
		fmt.Fprintf(&b, " %s", p.Code)
	}
	for _, s := range c.Signatures {
		fmt.Fprintf(&b, "\n  %s %s value=%v/%v", s.FormatName(), s.ID[:6], s.Value.Done, s.Value.Valid)
		for _, d := range s.DataObjects {
			fmt.Fprintf(&b, " [%s found=%v intact=%v]", d.Name, d.Found, d.Intact)
		}
		for _, t := range s.Timestamps {
			fmt.Fprintf(&b, " ts:%s imprint=%v", t.Type, t.Imprint.Valid)
		}
		for _, p := range s.Problems {
			if p.FormatFailure {
				fmt.Fprintf(&b, " FF:%s", p.Code)
			}
		}
	}
	for _, t := range c.Timestamps {
		fmt.Fprintf(&b, "\n  timestamp %s imprint=%v value=%v", t.Name, t.Imprint.Valid, t.Value.Valid)
		for _, d := range t.Covers {
			fmt.Fprintf(&b, " [%s found=%v intact=%v]", d.Name, d.Found, d.Intact)
		}
	}
	return b.String()
}

// corpusWant is, per corpus case, what the reader must report: the
// container type, then per signature its format and each data object
// (name, found, intact), and the container's findings; DSS's expected
// outcome (MANIFEST.tsv) follows from them as the comments say.
var corpusWant = map[string][]string{
	// SIGNED_DATA_NOT_FOUND: cacert.pem, named by the manifest, is gone.
	"asic-001-cades-e-removed-doc": {"ASiC-E", "cacert.pem found=false"},
	// HASH_FAILURE: the data object was replaced.
	"asic-002-cades-s-removed-doc": {"ASiC-S", "package.zip found=true intact=false"},
	// FORMAT_FAILURE: the manifest is three bytes.
	"asic-003-cades-e-broken-ref-altered-manifest": {"ASiC-E", "FF:ASIC_MANIFEST_MISSING", "ASIC_MIMETYPE_NOT_FIRST"},
	// HASH_FAILURE: test.text altered.
	"asic-004-cades-e-broken-ref": {"ASiC-E", "test.text found=true intact=false", "[META-INF/ASiCManifest.xml found=true intact=true]"},
	// SIGNED_DATA_NOT_FOUND: test.text removed.
	"asic-005-cades-e-removed-ref": {"ASiC-E", "test.text found=false"},
	// NO_SIGNATURE_FOUND: a time-stamp-only container.
	"asic-006-cades-e-no-mimetype-tst": {"ASiC-E", "ASIC_MIMETYPE_MISSING", "timestamp META-INF/timestamp.tst imprint=true value=true", "[toBeSigned.pdf found=true intact=true]"},
	"asic-010-cades-e-broken-tst":      {"ASiC-E", "ASIC_MIMETYPE_COMPRESSED", "[TEST-DOC.txt found=true intact=true]", "ts:ARCHIVE_TIMESTAMP imprint=false"},
	// HASH_FAILURE.
	"asic-016-xades-s-removed-doc": {"ASiC-S", "package.zip found=true intact=false"},
	// FORMAT_FAILURE.
	"asic-019-xades-s-not-root-file": {"ASiC-S", "FF:ASIC_S_DATA_OBJECT_NOT_IN_ROOT"},
	// FORMAT_FAILURE.
	"asic-020-xades-s-onefile-too-many":     {"ASiC-S", "FF:ASIC_S_MORE_THAN_ONE_DATA_OBJECT", "ASIC_FILE_NOT_SIGNED"},
	"asic-021-xades-e-dss2266":              {"ASiC-E", "XAdES_BASELINE_LT", "[Viadukt.jpg found=true intact=true]"},
	"asic-022-xades-s-revoc-expired-anchor": {"ASiC-S", "XAdES_BASELINE_LTA", "[toBeSigned.pdf found=true intact=true]"},
	"asic-023-xades-e-ee-as-6":              {"ASiC-E", "[0123456789~#%&()=`@{[]}'.txt found=true intact=true]"},
	"asic-024-xades-e-dss2123-t":            {"ASiC-E", "[test.txt found=true intact=true]"},
	// Not valid (DSS: not intact; here the file is not found, since the
	// container has more than the one candidate xades falls back to).
	"asic-027-xades-e-onefile-wrong-file": {"ASiC-E", "test.text found=false", "ASIC_FILE_NOT_SIGNED"},
	// Not intact: the one data object is another file.
	"asic-028-xades-s-onefile-wrong-file": {"ASiC-S", "cef-portal-esig.png found=true intact=false"},
	"asic-030-xades-e-no-signedprop-ref":  {"ASiC-E", "[datafile.txt found=true intact=true]", "FF:XADES_SIGNED_PROPERTIES_NOT_SIGNED"},
	"asic-033-odt-libreoffice":            {"ASiC-E odf=true", "XAdES_BASELINE_B", "[mimetype found=true intact=true]", "[content.xml found=true intact=true]"},
}

// TestCorpus reads every ASiC case of the shared corpus and checks what
// the reader reports against corpusWant.
func TestCorpus(t *testing.T) {
	seen := 0
	for _, c := range realworld.Manifest(t) {
		if !strings.HasPrefix(c.ID, "asic-") {
			continue
		}
		seen++
		data, err := os.ReadFile(realworld.File(t, c.ID))
		if err != nil {
			t.Fatal(err)
		}
		if !asic.Detect(data) {
			t.Errorf("%s: not detected", c.ID)
			continue
		}
		got, err := asic.NewReader(cades.NewReader(), xades.NewReader()).ReadContainer(context.Background(), ports.Document{Name: c.ID, Data: data})
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		s := summary(got)
		t.Logf("%s (DSS: %s %s/%s):\n %s", c.ID, c.Format, c.Indication, c.SubIndication, s)
		want, ok := corpusWant[c.ID]
		if !ok {
			t.Errorf("%s: no expectation", c.ID)
		}
		for _, w := range want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: report lacks %q:\n%s", c.ID, w, s)
			}
		}
		if c.Indication == "NO_SIGNATURE_FOUND" && len(got.Signatures) != 0 {
			t.Errorf("%s: %d signatures, want none", c.ID, len(got.Signatures))
		}
		if c.Indication != "NO_SIGNATURE_FOUND" && len(got.Signatures) != 1 {
			t.Errorf("%s: %d signatures, want one", c.ID, len(got.Signatures))
		}
	}
	if seen != len(corpusWant) {
		t.Errorf("%d ASiC cases in the corpus, %d expected", seen, len(corpusWant))
	}
}
