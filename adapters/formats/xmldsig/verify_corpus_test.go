package xmldsig_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// trustRow is one line of TRUST.tsv: what libxml2/xmlsec1 said about a file.
type trustRow struct {
	path       string
	parse      string // OK, EMPTY, NOT_PARSEABLE: ...
	signatures int    // -1 when the file does not parse
	xmlsec     string // OK, FAIL, or empty when not applicable
}

func readTrustTSV(tb testing.TB) []trustRow {
	tb.Helper()
	var rows []trustRow
	for _, r := range realworld.TrustRows(tb) {
		n, err := strconv.Atoi(r.Get("n_signatures"))
		if err != nil {
			n = -1
		}
		rows = append(rows, trustRow{
			path:       r.Get("path"),
			parse:      r.Get("parse"),
			signatures: n,
			xmlsec:     r.Get("xmlsec_core_verify_with_embedded_cert"),
		})
	}
	return rows
}

// expected maps a TRUST.tsv row to the outcome class Verify must produce.
func (r trustRow) expected() string {
	switch {
	case r.parse != "OK":
		return "parse-error"
	case r.signatures == 0:
		return "no-signature"
	case r.signatures > 1:
		return "multiple-signatures"
	case r.xmlsec == "OK":
		return "ok"
	default:
		return "tampered"
	}
}

// outcome classifies a Verify result the way TRUST.tsv does, and says which
// kind of tampering was found.
func outcome(err error) (class, detail string) {
	var de *xmldsig.DigestError
	switch {
	case errors.As(err, &de):
		return "tampered", "tampered: digest"
	case errors.Is(err, xmldsig.ErrSignatureInvalid):
		return "tampered", "tampered: signature"
	}
	c := outcomeClass(err)
	return c, c
}

func outcomeClass(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, xmldsig.ErrNoSignature):
		return "no-signature"
	case errors.Is(err, xmldsig.ErrMultipleSignatures):
		return "multiple-signatures"
	case errors.Is(err, xmldsig.ErrMalformedXML):
		return "parse-error"
	}
	return "unverifiable"
}

// knownDisagreements are files where Verify cannot reach xmlsec1's verdict,
// with the reason. Anything else that disagrees fails the test.
var knownDisagreements = map[string]string{
	// The signer key is on brainpoolP256r1/P384r1, which crypto/x509 and
	// crypto/ecdsa do not implement; Verify reports ErrNoCertificate.
	"dss/tl/tl-ecdsa-brainpool.xml": "brainpool curve unsupported by crypto/x509",
}

// TestVerifyCorpusAgreesWithXmlsec runs Verify over every list in TRUST.tsv
// and compares the outcome with xmlsec1's core verification.
func TestVerifyCorpusAgreesWithXmlsec(t *testing.T) {
	rows := readTrustTSV(t)
	type key struct{ want, got string }
	table := map[key]int{}
	agree, known := 0, 0
	for _, row := range rows {
		data, err := os.ReadFile(filepath.Join(corpusDir, row.path))
		if err != nil {
			t.Errorf("%s: %v", row.path, err)
			continue
		}
		res, verr := xmldsig.Verify(data)
		want := row.expected()
		got, detail := outcome(verr)
		table[key{want, detail}]++
		switch {
		case want == got:
			agree++
		case knownDisagreements[row.path] != "":
			known++
			t.Logf("%s: known disagreement (%s): xmlsec1 %s, Verify %v", row.path, knownDisagreements[row.path], want, verr)
		default:
			t.Errorf("%s: xmlsec1 says %s, Verify says %s: %v", row.path, want, got, verr)
		}
		if got == "ok" && (res == nil || res.Signer == nil) {
			t.Errorf("%s: verified without a signer certificate", row.path)
		}
	}

	var lines []string
	for k, n := range table {
		lines = append(lines, fmt.Sprintf("  %-20s %-20s %4d", k.want, k.got, n))
	}
	sort.Strings(lines)
	t.Logf("Verify vs xmlsec1 over %d TRUST.tsv rows: %d agree, %d known disagreements, %d unexpected\n  %-20s %-20s %4s\n%s",
		len(rows), agree, known, len(rows)-agree-known, "xmlsec1/TRUST.tsv", "Verify", "n", strings.Join(lines, "\n"))
}

// TestVerifyCorpusCases pins the outcomes DSS asserts for its negative
// samples (see TRUST.md).
func TestVerifyCorpusCases(t *testing.T) {
	requireCorpus(t)
	for _, tc := range []struct {
		path  string
		check func(error) bool
	}{
		{"dss/lotl/eu-lotl.xml", func(err error) bool { return err == nil }},
		{"dss/lotl/eu-lotl_broken-sig.xml", func(err error) bool { var de *xmldsig.DigestError; return errors.As(err, &de) && de.URI == "" }},
		{"dss/tl/lotlCache/CZ_broken-sig.xml", func(err error) bool { var de *xmldsig.DigestError; return errors.As(err, &de) }},
		{"dss/lotl/eu-lotl-no-sig.xml", func(err error) bool { return errors.Is(err, xmldsig.ErrNoSignature) }},
		{"dss/lotl/eu-lotl_not-parsable.xml", func(err error) bool { return errors.Is(err, xmldsig.ErrMalformedXML) }},
		{"dss/tl/lotlCache/CZ_empty.xml", func(err error) bool { return errors.Is(err, xmldsig.ErrMalformedXML) }},
		{"dss/tl/lotlCache/CZ_two-sigs.xml", func(err error) bool { return errors.Is(err, xmldsig.ErrMultipleSignatures) }},
		{"dss/lotl/tl_pivot_247_mp_with-bom.xml", func(err error) bool { return err == nil }},
		{"dss/lotl/eu-lotl_xml-directive-removed.xml", func(err error) bool { return err == nil }},
	} {
		t.Run(tc.path, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(corpusDir, tc.path))
			if err != nil {
				t.Fatal(err)
			}
			res, err := xmldsig.Verify(data)
			if !tc.check(err) {
				t.Fatalf("unexpected outcome: %v", err)
			}
			if err == nil {
				if !res.SignedProperties || res.SigningTime.IsZero() || res.Signer == nil {
					t.Errorf("XAdES-B-B list: SignedProperties %v, SigningTime %v, signer %v", res.SignedProperties, res.SigningTime, res.Signer != nil)
				}
				t.Logf("signer %s, signed at %s", res.Signer.Subject.CommonName, res.SigningTime)
			}
		})
	}
}
