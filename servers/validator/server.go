package main

import (
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/shell"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// newServer builds the routes of the validation service: the API, the
// health probe and the browser UI (ui.go).
func newServer(a *app.Validator, logger *slog.Logger) (*echo.Echo, error) {
	cfg := a.Config()
	u, err := newUI(a, logger)
	if err != nil {
		return nil, err
	}
	e := shell.New(logger, errorHandler(logger, u))
	// Who may ask comes before what is asked: the API's bearer token and
	// the UI's session are checked before an upload is read.
	e.Use(
		page.Headers,
		authMiddleware(a, logger),
		u.requireSession,
		bodylimit.Middleware("/api/", cfg.MaxRequestBytes, "svc.dss.validator.max-request-bytes"),
		upload.Middleware(upload.Limits{MaxFileSize: cfg.Multipart.MaxFileSize, MaxRequestSize: cfg.Multipart.MaxRequestSize}),
	)
	e.GET("/actuator/health", health(a))
	e.GET("/api/trust-status", trustStatus(a))
	e.POST("/api/validate", validateAPI(a))
	u.register(e)
	return e, nil
}

// trustStatus reports the trust store without an upload: the same
// information as a verdict's trustData. Like every /api/ path it needs a
// licensed tenant's bearer token (authMiddleware); in permit-all it is
// open.
func trustStatus(a *app.Validator) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, a.TrustStatus(a.Now()))
	}
}

// health is the anonymous roll-up probe: status only, no list details.
func health(a *app.Validator) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := a.Health(c.Request().Context())
		status := http.StatusOK
		if h != app.Up {
			status = http.StatusServiceUnavailable
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(status, map[string]app.Health{"status": h})
	}
}
