package main

import (
	"strings"
	"unicode"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/ports"
)

// A reportKind is one of the XML reports the UI offers for the session's
// last validated document (validation-service.md §4).
type reportKind struct {
	of func(*ports.Reports) []byte
	// suffix names the file: <document>-<suffix>.xml.
	suffix string
}

var (
	detailedReport = reportKind{func(r *ports.Reports) []byte { return r.Detailed }, "detailed-report"}
	etsiReport     = reportKind{func(r *ports.Reports) []byte { return r.ETSI }, "etsi-validation-report"}
)

// download is GET /validate/report/{detailed,etsi}: the report of the
// last document validated in the session, as an attachment that no cache
// keeps; 404 before the session validated one.
func (u *ui) download(k reportKind) echo.HandlerFunc {
	return func(c echo.Context) error {
		s := sessionOf(c)
		if s.Last == nil {
			return errNoReport
		}
		b := k.of(s.Last)
		if b == nil {
			// Only the ETSI report is ever missing: a document without
			// signatures has none.
			return errNoSignature
		}
		return attachment(c, "application/xml", reportFileName(s.Last.DocumentName, k.suffix, "xml"), b)
	}
}

// downloadPDF is GET /validate/report/pdf: the PDF report of the last
// document validated in the session, rendered now from its verdict and
// sealed when a report seal is configured; 404 before the session
// validated one.
func (u *ui) downloadPDF(c echo.Context) error {
	s := sessionOf(c)
	if s.Last == nil {
		return errNoReport
	}
	pdf, err := u.a.KeptReportPDF(c.Request().Context(), s.Last, u.pageLanguage(c, s))
	if err != nil {
		return err
	}
	return attachment(c, mimePDF, reportFileName(s.Last.DocumentName, "validation-report", "pdf"), pdf)
}

// downloadSVT is GET /validate/report/svt: the Signature Validation
// Token of the last document validated in the session, signed when it
// was validated; 404 before the session validated one, without a
// signature in it, or without a report seal.
func (u *ui) downloadSVT(c echo.Context) error {
	s := sessionOf(c)
	switch {
	case s.Last == nil:
		return errNoReport
	case !u.a.Sealed():
		return errNoSeal
	case len(s.Last.Token) == 0:
		return errNoSignatureToken
	}
	return attachment(c, mimeJWT, reportFileName(s.Last.DocumentName, "svt", "jwt"), s.Last.Token)
}

// maxStem bounds the document's part of a report's file name.
const maxStem = 80

// reportFileName is "<document name without directory and extension>-
// <suffix>.<ext>". Letters and digits of any script are kept, and '.', '-'
// and '_'; anything else becomes '_', so that the name is safe on every
// file system; a name with nothing left is "document".
func reportFileName(document, suffix, ext string) string {
	if i := strings.LastIndexAny(document, `/\`); i >= 0 {
		document = document[i+1:]
	}
	if i := strings.LastIndex(document, "."); i > 0 {
		document = document[:i]
	}
	var b strings.Builder
	n := 0
	for _, r := range document {
		if n == maxStem {
			break
		}
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '.' && r != '-' && r != '_' {
			r = '_'
		}
		b.WriteRune(r)
		n++
	}
	stem := strings.Trim(b.String(), "._")
	if stem == "" {
		stem = "document"
	}
	return stem + "-" + suffix + "." + ext
}
