package main

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/shell"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// errInfrastructure marks a validation that failed for a reason outside
// the document (validation-service.md §7: 502).
type errInfrastructure struct{ err error }

func (e errInfrastructure) Error() string { return e.err.Error() }
func (e errInfrastructure) Unwrap() error { return e.err }

// validateAPI is POST /api/validate: multipart part "file" (required) and
// any number of "detached" parts. Every validation result is 200: the
// JSON summary, or what Accept asks for instead (answerAs), its messages
// in the language Accept-Language prefers (lang.go); the codes are the
// same in every language. Each upload that arrives is validated through
// the application, which logs its audit record.
func validateAPI(a *validator.Validator, up uploads) echo.HandlerFunc {
	return func(c echo.Context) error {
		doc, name, err := up.read(c, upload.Guard{})
		if err != nil {
			return err
		}
		if name != "" {
			// A configured policy, by name; never a document the caller
			// sends (docs/decisions/0042).
			pol, err := a.Policy(name)
			if err != nil {
				return err
			}
			doc.Policy = &pol
		}
		p, _ := c.Get(principalKey).(validator.Principal) // set by authMiddleware on every /api/ path
		ctx, cancel := context.WithTimeout(c.Request().Context(), answerTimeout)
		defer cancel()
		res, err := a.Validate(ctx, p, doc)
		if err := validationFailure(err); err != nil {
			return err
		}
		lang := apiLanguage(c)
		switch answerAs(c.Request().Header.Get(echo.HeaderAccept)) {
		case mimePDF:
			pdf, err := a.ReportPDF(c.Request().Context(), res.Summary, lang)
			if err != nil {
				return err
			}
			return attachment(c, mimePDF, reportFileName(res.Summary.DocumentName, "validation-report", "pdf"), pdf)
		case mimeJWT:
			token, err := a.Token(c.Request().Context(), res.Validation)
			if err != nil {
				return err
			}
			return attachment(c, mimeJWT, reportFileName(res.Summary.DocumentName, "svt", "jwt"), token)
		}
		return c.JSON(http.StatusOK, a.Catalog().Summary(lang, res.Summary))
	}
}

// Media types of the answers besides JSON.
const (
	mimePDF = "application/pdf"
	mimeJWT = "application/jwt" // RFC 7519, section 10.3.1
)

// answerAs is the media type an Accept header asks for: the PDF report
// or the Signature Validation Token when it names one of them before
// JSON (by quality, then order), JSON otherwise, whatever else it names:
// the summary stays the default answer.
func answerAs(accept string) string {
	best, bestQ := echo.MIMEApplicationJSON, -1.0
	for _, part := range strings.Split(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		switch mt {
		case mimePDF, mimeJWT, echo.MIMEApplicationJSON, "application/*", "*/*":
		default:
			continue
		}
		if q > bestQ && q > 0 {
			best, bestQ = mt, q
		}
	}
	if best != mimePDF && best != mimeJWT {
		return echo.MIMEApplicationJSON
	}
	return best
}

// attachment answers b as a download named name that no cache keeps.
func attachment(c echo.Context, contentType, name string, b []byte) error {
	h := c.Response().Header()
	h.Set(echo.HeaderContentDisposition, mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Cache-Control", "no-store")
	return c.Blob(http.StatusOK, contentType, b)
}

// validationFailure is err, the error of a validation, as the handlers
// return it: an unreadable document as it is, a validation stopped by
// its deadline (answerTimeout: the readers and the process stop at it,
// so that no core works on past the answer) as errValidationTimeout,
// anything else as an infrastructure failure.
func validationFailure(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ports.ErrUnreadable):
		return err
	case errors.Is(err, context.DeadlineExceeded):
		if _, ok := errors.AsType[*validation.PanicError](err); !ok {
			return fmt.Errorf("%w: %w", errValidationTimeout, err)
		}
	}
	return errInfrastructure{err}
}

// errValidationTimeout marks a validation that did not finish within
// answerTimeout.
var errValidationTimeout = errors.New("validation timeout")

// uploads reads the document of the two uploads, POST /api/validate and
// POST /validate.
type uploads struct {
	limits  upload.Limits
	timeout time.Duration // svc.dss.validator.upload-timeout
}

// read is the only reader of an upload's body; it returns the document
// and the policy its part "policy" names ("" when none). Its callers have
// authenticated the request (a bearer token, a session), so it may now
// take the upload's time rather than the server's short one; g, the UI's
// form token, is checked before any file byte is kept.
func (up uploads) read(c echo.Context, g upload.Guard) (validation.Document, string, error) {
	if !multipartForm(c) {
		return validation.Document{}, "", fmt.Errorf("%w: send the document as multipart/form-data with a part named \"file\"", ports.ErrUnreadable)
	}
	if err := shell.AllowBody(c, up.timeout, answerTimeout); err != nil {
		return validation.Document{}, "", err
	}
	form, err := upload.Read(c.Request(), up.limits, g)
	if err != nil {
		return validation.Document{}, "", err
	}
	f, ok := form.File("file")
	if !ok {
		return validation.Document{}, "", fmt.Errorf("%w: the part \"file\" is missing", ports.ErrUnreadable)
	}
	doc := validation.Document{Name: f.Name, Data: f.Data}
	for _, d := range form.Files["detached"] {
		doc.Detached = append(doc.Detached, validation.Part{Name: d.Name, Data: d.Data})
	}
	if _, ok := form.File("policy"); ok {
		return validation.Document{}, "", fmt.Errorf("%w: the part \"policy\" names a configured validation policy; a policy document is not accepted", errPolicyPart)
	}
	names := form.Values["policy"]
	if len(names) > 1 {
		return validation.Document{}, "", fmt.Errorf("%w: the part \"policy\" is given %d times", errPolicyPart, len(names))
	}
	if len(names) == 1 && names[0] == "" {
		return validation.Document{}, "", fmt.Errorf("%w: the part \"policy\" is empty", errPolicyPart)
	}
	if len(names) == 1 {
		return doc, names[0], nil
	}
	return doc, "", nil
}

// errPolicyPart marks a part "policy" that names no policy (400).
var errPolicyPart = errors.New("policy part")

// multipartForm reports a request that says its body is
// multipart/form-data.
func multipartForm(c echo.Context) bool {
	ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	return ct == echo.MIMEMultipartForm
}
