package cms

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// corpusCase is a CAdES row of the shared corpus MANIFEST.tsv.
type corpusCase struct {
	id, file  string
	detached  []byte
	extra     []*x509.Certificate
	sigCrypto string // VALID, NOT_VALID, NOT_ASSERTED, ...
	notes     string
}

var sigCryptoRE = regexp.MustCompile(`sig_crypto=([A-Z_/]+)`)

// corpusCases returns the CAdES cases, or skips t without the corpus.
func corpusCases(t testing.TB) []corpusCase {
	t.Helper()
	dir := realworld.Dir()
	if _, err := os.Stat(filepath.Join(dir, "MANIFEST.tsv")); err != nil {
		t.Skipf("shared corpus not found at %s: skipping the real-world CAdES checks", dir)
	}
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comma, r.LazyQuotes, r.FieldsPerRecord = '\t', true, -1
	header, err := r.Read()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range header {
		col[h] = i
	}
	for _, name := range []string{"id", "format", "detached_content_path", "trust_anchor_paths", "notes"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("MANIFEST.tsv has no column %q", name)
		}
	}
	signCert := signCertFromIndex(t, dir)
	var out []corpusCase
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec[col["format"]] != "CAdES" {
			continue
		}
		c := corpusCase{id: rec[col["id"]], notes: rec[col["notes"]]}
		if m := sigCryptoRE.FindStringSubmatch(c.notes); m != nil {
			c.sigCrypto = m[1]
		}
		matches, _ := filepath.Glob(filepath.Join(dir, "files", c.id+".*"))
		for _, m := range matches {
			base := filepath.Base(m)
			if !strings.Contains(base, ".detached-") && !strings.Contains(base, ".extra-") {
				c.file = m
			}
		}
		if c.file == "" {
			t.Fatalf("%s: no signature file", c.id)
		}
		if p := rec[col["detached_content_path"]]; p != "-" {
			for _, part := range strings.Split(p, ";") {
				b, err := os.ReadFile(filepath.Join(dir, part))
				if err != nil {
					t.Fatal(err)
				}
				c.detached = append(c.detached, b...)
			}
		}
		var certFiles []string
		if p := rec[col["trust_anchor_paths"]]; p != "-" {
			certFiles = strings.Split(p, ";")
		}
		// cades-002 is cades-001 with signCert.cer given only as a
		// signing-certificate source, which the anchors column cannot say.
		if strings.Contains(c.notes, "signCert.cer") && signCert != "" {
			certFiles = append(certFiles, signCert)
		}
		for _, p := range certFiles {
			b, err := os.ReadFile(filepath.Join(dir, p))
			if err != nil {
				t.Fatal(err)
			}
			cs, err := cert.ParseAll(b)
			if err != nil {
				t.Fatalf("%s: %s: %v", c.id, p, err)
			}
			c.extra = append(c.extra, cs...)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		t.Fatal("no CAdES rows in MANIFEST.tsv")
	}
	return out
}

// signCertFromIndex finds DSS's validation/signCert.cer among the anchors.
func signCertFromIndex(t testing.TB, dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "trust", "anchors", "INDEX.tsv"))
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		fields := strings.Split(line, "\t")
		if len(fields) > 3 && strings.Contains(fields[3], "validation/signCert.cer") {
			return fields[0]
		}
	}
	return ""
}

// checkCorpusFile parses and verifies one file: every signer and
// counter-signature. It returns a summary per signature and whether all
// verified, and the unsupported-algorithm errors separately.
func checkCorpusFile(c corpusCase) (sd *SignedData, summary []string, allOK bool, unsupported []error, err error) {
	data, err := os.ReadFile(c.file)
	if err != nil {
		return nil, nil, false, nil, err
	}
	sd, err = Parse(data)
	if err != nil {
		return nil, nil, false, nil, err
	}
	opts := VerifyOptions{Certificates: c.extra}
	if c.detached != nil {
		opts.Detached = bytes.NewReader(c.detached)
	}
	results, err := sd.Verify(opts)
	if err != nil {
		return sd, nil, false, nil, err
	}
	allOK = true
	var visit func(label string, r SignerResult)
	visit = func(label string, r SignerResult) {
		s := fmt.Sprintf("%s:%s/%s", label, short(r.ContentErr), short(r.SignatureErr))
		summary = append(summary, s)
		if r.Err() != nil {
			allOK = false
			if errors.Is(r.Err(), ErrUnsupported) {
				unsupported = append(unsupported, r.Err())
			}
		}
		for i, cs := range r.Signer.CounterSignatures {
			visit(fmt.Sprintf("%s.cs%d", label, i), sd.VerifyCounterSignature(r.Signer, cs, c.extra))
		}
	}
	for i, r := range results {
		visit(fmt.Sprintf("s%d", i), r)
	}
	return sd, summary, allOK, unsupported, nil
}

// short names an outcome for the agreement table.
func short(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ErrDigestMismatch):
		return "digest-mismatch"
	case errors.Is(err, ErrContentTypeMismatch):
		return "content-type-mismatch"
	case errors.Is(err, ErrSignatureInvalid):
		return "sig-invalid"
	case errors.Is(err, ErrNoContent):
		return "no-content"
	case errors.Is(err, ErrSignerNotFound):
		return "signer-not-found"
	case errors.Is(err, ErrUnsupported):
		return "unsupported"
	case errors.Is(err, ErrMalformed):
		return "malformed"
	}
	return "error"
}

// TestCorpusCAdES checks every CAdES file of the shared corpus against the
// sig_crypto fact the source project's tests assert.
func TestCorpusCAdES(t *testing.T) {
	is := is.New(t)
	cases := corpusCases(t)
	var agree, disagree, unasserted, verified int
	var table strings.Builder
	fmt.Fprintf(&table, "\n%-36s %-12s %-9s %s\n", "id", "expected", "ours", "signatures (content/signature)")
	for _, c := range cases {
		_, summary, allOK, unsupported, err := checkCorpusFile(c)
		ours := "VALID"
		switch {
		case err != nil:
			ours = "PARSE:" + short(err)
		case !allOK:
			ours = "NOT_VALID"
		}
		verdict := "agree"
		switch c.sigCrypto {
		case "VALID":
			if allOK {
				verified++
			}
			if !allOK && len(unsupported) == 0 {
				verdict = "DISAGREE"
			} else if len(unsupported) > 0 {
				verdict = "unsupported"
			}
		case "NOT_VALID":
			if allOK {
				verdict = "DISAGREE"
			}
		default:
			verdict = "not asserted"
		}
		switch verdict {
		case "agree", "unsupported":
			agree++
		case "DISAGREE":
			disagree++
			t.Errorf("%s: expected sig_crypto=%s, ours %s %v (err %v)", c.id, c.sigCrypto, ours, summary, err)
		default:
			unasserted++
		}
		if err != nil {
			summary = append(summary, err.Error())
		}
		fmt.Fprintf(&table, "%-36s %-12s %-9s %s [%s]\n", c.id, c.sigCrypto, ours, strings.Join(summary, " "), verdict)
		for _, u := range unsupported {
			t.Logf("%s: unsupported: %v", c.id, u)
		}
	}
	t.Logf("CAdES agreement table:%s", table.String())
	t.Logf("CAdES: %d cases, %d agree, %d disagree, %d not asserted; %d sig_crypto=VALID cases verified",
		len(cases), agree, disagree, unasserted, verified)
	is.Equal(disagree, 0)
	// An unsupported algorithm counts as agreement: the floor (today's
	// count) makes a verifier that starts calling everything unsupported
	// fail the test.
	const verifiedFloor = 10
	if verified < verifiedFloor {
		t.Errorf("%d sig_crypto=VALID cases have every signature verified, below the floor %d", verified, verifiedFloor)
	}
}

// oidAttrCertValues is the CAdES certificate-values attribute (RFC 5126,
// section 6.3.3): a SEQUENCE OF Certificate.
var oidAttrCertValues = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 23}

// corpusCertificates returns the DER of every certificate of sd: the
// certificates field (parsed or not), the certificate-values attributes,
// and recursively the certificates of time-stamp tokens and other CMS
// found in attribute values.
func corpusCertificates(t *testing.T, sd *SignedData, depth int) [][]byte {
	var out [][]byte
	for _, c := range sd.Certificates {
		out = append(out, c.Raw)
	}
	for _, b := range sd.BadCertificates {
		out = append(out, b.Raw)
	}
	var signers []*SignerInfo
	var collect func(si *SignerInfo)
	collect = func(si *SignerInfo) {
		signers = append(signers, si)
		for _, cs := range si.CounterSignatures {
			collect(cs)
		}
	}
	for _, si := range sd.SignerInfos {
		collect(si)
	}
	for _, si := range signers {
		for _, a := range append(append(Attributes{}, si.SignedAttrs...), si.UnsignedAttrs...) {
			for _, v := range a.Values {
				if a.Type.Equal(oidAttrCertValues) {
					e, _, err := readElement(v, 0)
					if err != nil {
						t.Fatalf("certificate-values: %v", err)
					}
					kids, err := e.children(MaxCertificates)
					if err != nil {
						t.Fatalf("certificate-values: %v", err)
					}
					for _, k := range kids {
						out = append(out, k.raw)
					}
					continue
				}
				if inner, err := Parse(v); err == nil && depth < 4 {
					out = append(out, corpusCertificates(t, inner, depth+1)...)
				}
			}
		}
	}
	return out
}

// TestCorpusCertificates checks that every certificate in the corpus CAdES
// files parses with cert.Parse, and counts how each was read.
func TestCorpusCertificates(t *testing.T) {
	is := is.New(t)
	cases := corpusCases(t)
	seen := map[string]bool{}
	methods := map[cert.Method]int{}
	for _, c := range cases {
		data, err := os.ReadFile(c.file)
		is.NoErr(err)
		sd, err := Parse(data)
		is.NoErr(err)
		is.Equal(len(sd.BadCertificates), 0)
		for _, der := range corpusCertificates(t, sd, 0) {
			if seen[string(der)] {
				continue
			}
			seen[string(der)] = true
			crt, rep, err := cert.ParseDetailed(der)
			if err != nil {
				t.Errorf("%s: certificate does not parse: %v", c.id, err)
				continue
			}
			methods[rep.Method]++
			if rep.Method != cert.Stdlib {
				t.Logf("%s: %q read %v: %v (crypto/x509: %v)", c.id, crt.Subject.CommonName, rep.Method, rep.Deviations, rep.StdlibErr)
			}
		}
	}
	t.Logf("corpus CAdES certificates: %d distinct; crypto/x509 %d, repaired %d, lenient %d",
		len(seen), methods[cert.Stdlib], methods[cert.Repaired], methods[cert.Lenient])
	const certificatesFloor = 55 // today's count: fewer means certificates are no longer found
	if len(seen) < certificatesFloor {
		t.Errorf("%d distinct certificates found, below the floor %d", len(seen), certificatesFloor)
	}
}
