package main

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/control"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/shell"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// newServer builds the routes of the validation service: the API, the
// health probe and the browser UI (ui.go).
func newServer(a *validator.Validator, logger *slog.Logger) (*echo.Echo, error) {
	cfg := a.Config()
	u, err := newUI(a, logger)
	if err != nil {
		return nil, err
	}
	e := shell.New(logger, countErrors(a.Metrics(), errorHandler(logger, u)), timeouts)
	// Who may ask comes before what is asked: the API's bearer token and
	// the UI's session are checked before a body is read. Only the two
	// upload handlers read one (uploads.read), so no other path parses
	// multipart, and an anonymous request holds no buffer.
	e.Use(
		page.Headers,
		authMiddleware(a, logger),
		u.requireSession,
		bodylimit.Middleware("/api/", cfg.MaxRequestBytes, "svc.dss.validator.max-request-bytes"),
	)
	up := uploads{
		limits:  upload.Limits{MaxFileSize: cfg.Multipart.MaxFileSize, MaxRequestSize: cfg.Multipart.MaxRequestSize},
		timeout: cfg.UploadTimeout,
	}
	e.GET("/actuator/health", health(a))
	serveMetrics(e, a)
	e.GET("/api/trust-status", trustStatus(a))
	e.POST("/api/validate", validateAPI(a, up))
	u.register(e, up)
	return e, nil
}

// timeouts are the validator's (shell.Timeouts). Only the two uploads
// carry large bodies, and they get svc.dss.validator.upload-timeout once
// their caller is authenticated (uploads.read). Every other request is
// small (the sign-out form is the largest, 4 KiB): 20 seconds from its
// first byte cover it on any link, and end a stalled anonymous one early.
var timeouts = shell.Timeouts{
	ReadHeader: 10 * time.Second,
	Read:       20 * time.Second,
	Write:      time.Minute, // pages, reports, the callback's code exchange
	Idle:       2 * time.Minute,
}

// answerTimeout bounds a validation and its answer once the upload has
// arrived: its revocation and issuer fetches take up to 20 s each
// (adapters/egress).
const answerTimeout = 5 * time.Minute

// trustStatus reports the trust store without an upload: the same
// information as a verdict's trustData. Like every /api/ path it needs a
// licensed tenant's bearer token (authMiddleware); in permit-all it is
// open.
func trustStatus(a *validator.Validator) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, a.Catalog().TrustData(apiLanguage(c), a.Validation().TrustStatus(a.Now())))
	}
}

// health is the anonymous roll-up probe: status only, no list details.
func health(a *validator.Validator) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := a.Health(c.Request().Context())
		status := http.StatusOK
		if h != control.Up {
			status = http.StatusServiceUnavailable
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(status, map[string]control.Health{"status": h})
	}
}
