package main

import (
	"mime"
	"net/http"
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
		h := c.Response().Header()
		h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": reportFileName(s.Last.DocumentName, k.suffix)}))
		h.Set("Cache-Control", "no-store")
		return c.Blob(http.StatusOK, "application/xml", b)
	}
}

// maxStem bounds the document's part of a report's file name.
const maxStem = 80

// reportFileName is "<document name without directory and extension>-
// <suffix>.xml". Letters and digits of any script are kept, and '.', '-'
// and '_'; anything else becomes '_', so that the name is safe on every
// file system; a name with nothing left is "document".
func reportFileName(document, suffix string) string {
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
	return stem + "-" + suffix + ".xml"
}
