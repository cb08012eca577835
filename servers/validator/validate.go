package main

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// errInfrastructure marks a validation that failed for a reason outside
// the document (validation-service.md §7: 502).
type errInfrastructure struct{ err error }

func (e errInfrastructure) Error() string { return e.err.Error() }
func (e errInfrastructure) Unwrap() error { return e.err }

// validateAPI is POST /api/validate: multipart part "file" (required) and
// any number of "detached" parts. Every validation result is 200.
func validateAPI(a *app.Validator) echo.HandlerFunc {
	return func(c echo.Context) error {
		doc, err := documentOf(c)
		if err != nil {
			return err
		}
		sum, err := a.Validate(c.Request().Context(), doc, app.ValidateOptions{})
		if errors.Is(err, ports.ErrUnreadable) {
			return err
		}
		if err != nil {
			return errInfrastructure{err}
		}
		return c.JSON(http.StatusOK, sum)
	}
}

// documentOf reads the upload the multipart middleware parsed.
func documentOf(c echo.Context) (ports.Document, error) {
	form, ok := upload.FormOf(c)
	if !ok {
		return ports.Document{}, fmt.Errorf("%w: send the document as multipart/form-data with a part named \"file\"", ports.ErrUnreadable)
	}
	f, ok := form.File("file")
	if !ok {
		return ports.Document{}, fmt.Errorf("%w: the part \"file\" is missing", ports.ErrUnreadable)
	}
	doc := ports.Document{Name: f.Name, Data: f.Data}
	for _, d := range form.Files["detached"] {
		doc.Detached = append(doc.Detached, ports.Detached{Name: d.Name, Data: d.Data})
	}
	return doc, nil
}
