package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
)

// The report downloads of §4: the session's last validated document, as
// XML attachments; a clear page before there is one.
func TestUIReports(t *testing.T) {
	t.Parallel()
	srv, w := signedUIWorld(t)
	b := w.browser(t)
	r := b.login(tenantA, alice)
	csrf := csrfOf(t, r.body)

	const none = "No document has been validated in this session yet: validate one, then download its reports."
	for _, path := range []string{pathDetailed, pathETSI} {
		is := is.New(t)
		r := b.get(path)
		is.Equal(r.status, 404) // path
		is.Equal(text(r.body, "page-title"), "404 · Not Found")
		is.Equal(text(r.body, "error-detail"), none)
		is.True(strings.Contains(r.body, `<a href="/validate?tenantId=`+tenantA+`" id="error-next">Back to the upload form</a>`))
	}

	d := pades.New(1)
	if err := d.Sign(pades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)}); err != nil {
		t.Fatal(err)
	}
	sig, err := cades.Sign([]byte("text"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range []struct {
		name string
		data []byte
		file string // the detailed report's file name
	}{
		{"Vertrag März 2026.pdf", d.Bytes(), "Vertrag_März_2026-detailed-report.xml"},
		{"letter.p7m", sig, "letter-detailed-report.xml"}, // the second upload replaces the first
	} {
		is := is.New(t)
		is.Equal(b.upload(csrf, part{"file", doc.name, doc.data}).status, 200)
		digest := sha256.Sum256(doc.data)
		for _, k := range []struct {
			path, root, file string
		}{
			{pathDetailed, "DetailedReport", doc.file},
			{pathETSI, "ValidationReport", strings.Replace(doc.file, "detailed-report", "etsi-validation-report", 1)},
		} {
			r := b.get(k.path)
			is.Equal(r.status, 200)
			is.Equal(r.header.Get("Content-Type"), "application/xml")
			is.Equal(r.header.Get("Cache-Control"), "no-store")
			cd := r.header.Get("Content-Disposition")
			is.True(strings.HasPrefix(cd, "attachment; filename"))
			is.Equal(dispositionName(t, cd), k.file)
			is.Equal(rootOf(t, r.body), k.root)
			if k.root == "DetailedReport" {
				is.True(strings.Contains(r.body, `SHA256="`+hex.EncodeToString(digest[:])+`"`))
			}
		}
	}
}

// A document without signatures is a result like any other: its page
// says so, and its detailed report is there; an ETSI report cannot be
// (TS 119 102-2 needs a signature), so the page offers none.
func TestUIDocumentWithoutSignatures(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newUIWorld(t, uiOptions{permitAll: true})
	b := w.browser(t)
	csrf := csrfOf(t, b.get("/validate").body)
	r := b.upload(csrf, part{"file", "unsigned.pdf", pades.New(1).Bytes()})
	is.Equal(r.status, 200)
	is.True(strings.Contains(r.body, `id="verdict" data-valid="false">Not valid: the document holds no signature</span>`))
	is.Equal(text(r.body, "signature-count"), "0")
	is.Equal(text(r.body, "no-signatures"), "The document holds no signature.")
	is.True(strings.Contains(r.body, `id="report-detailed"`))
	is.True(!strings.Contains(r.body, `id="report-etsi"`))
	is.Equal(b.get(pathDetailed).status, 200)
	r = b.get(pathETSI)
	is.Equal(r.status, 404)
	is.Equal(text(r.body, "error-detail"), "The last document validated holds no signature, and an ETSI validation report needs at least one. Its detailed report is available.")
}

// dispositionName is the file name of a Content-Disposition header.
func dispositionName(t *testing.T, cd string) string {
	t.Helper()
	_, params, err := mime.ParseMediaType(cd)
	if err != nil {
		t.Fatalf("%q: %v", cd, err)
	}
	return params["filename"]
}

// rootOf parses the whole document and returns its root element's name.
func rootOf(t *testing.T, doc string) string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader([]byte(doc)))
	root := ""
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return root
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
}

func TestReportFileName(t *testing.T) {
	t.Parallel()
	tests := []struct{ document, want string }{
		{"contract.pdf", "contract-detailed-report.xml"},
		{"contract.signed.p7m", "contract.signed-detailed-report.xml"},
		{`C:\Users\me\Desktop\offer.pdf`, "offer-detailed-report.xml"},
		{"../../etc/passwd", "passwd-detailed-report.xml"},
		{"a \"quoted\"; name.pdf", "a__quoted___name-detailed-report.xml"},
		{"Übersicht Ärzte.pdf", "Übersicht_Ärzte-detailed-report.xml"},
		{".hidden", "hidden-detailed-report.xml"},
		{"", "document-detailed-report.xml"},
		{"???.pdf", "document-detailed-report.xml"},
		{strings.Repeat("x", 200) + ".pdf", strings.Repeat("x", 80) + "-detailed-report.xml"},
	}
	for _, tt := range tests {
		is.New(t).Equal(reportFileName(tt.document, "detailed-report", "xml"), tt.want) // tt.document
	}
}
