package main

import (
	"errors"
	"fmt"
	"mime"
	"net/http"
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
// any number of "detached" parts. Every validation result is 200, its
// messages in the language Accept-Language prefers (lang.go); the codes
// are the same in every language.
func validateAPI(a *validator.Validator, up uploads) echo.HandlerFunc {
	return func(c echo.Context) error {
		doc, err := up.read(c, upload.Guard{})
		if err != nil {
			return err
		}
		res, err := a.Validation().Validate(c.Request().Context(), doc)
		if errors.Is(err, ports.ErrUnreadable) {
			return err
		}
		if err != nil {
			return errInfrastructure{err}
		}
		return c.JSON(http.StatusOK, a.Catalog().Summary(apiLanguage(c), res.Summary))
	}
}

// uploads reads the document of the two uploads, POST /api/validate and
// POST /validate.
type uploads struct {
	limits  upload.Limits
	timeout time.Duration // svc.dss.validator.upload-timeout
}

// read is the only reader of an upload's body. Its callers have
// authenticated the request (a bearer token, a session), so it may now
// take the upload's time rather than the server's short one; g, the UI's
// form token, is checked before any file byte is kept.
func (up uploads) read(c echo.Context, g upload.Guard) (validation.Document, error) {
	if !multipartForm(c) {
		return validation.Document{}, fmt.Errorf("%w: send the document as multipart/form-data with a part named \"file\"", ports.ErrUnreadable)
	}
	if err := shell.AllowBody(c, up.timeout, answerTimeout); err != nil {
		return validation.Document{}, err
	}
	form, err := upload.Read(c.Request(), up.limits, g)
	if err != nil {
		return validation.Document{}, err
	}
	f, ok := form.File("file")
	if !ok {
		return validation.Document{}, fmt.Errorf("%w: the part \"file\" is missing", ports.ErrUnreadable)
	}
	doc := validation.Document{Name: f.Name, Data: f.Data}
	for _, d := range form.Files["detached"] {
		doc.Detached = append(doc.Detached, validation.Part{Name: d.Name, Data: d.Data})
	}
	return doc, nil
}

// multipartForm reports a request that says its body is
// multipart/form-data.
func multipartForm(c echo.Context) bool {
	ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	return ct == echo.MIMEMultipartForm
}
