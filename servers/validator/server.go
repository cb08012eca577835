package main

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/shell"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// newServer builds the routes of the validation service.
func newServer(a *app.Validator, logger *slog.Logger) *echo.Echo {
	cfg := a.Config()
	e := shell.New(logger, errorHandler(logger))
	e.Use(
		authMiddleware(a, logger),
		bodylimit.Middleware("/api/", cfg.MaxRequestBytes, "svc.dss.validator.max-request-bytes"),
		upload.Middleware(upload.Limits{MaxFileSize: cfg.Multipart.MaxFileSize, MaxRequestSize: cfg.Multipart.MaxRequestSize}),
	)
	e.GET("/actuator/health", health(a))
	e.GET("/api/trust-status", trustStatus(a))
	e.POST("/api/validate", validateAPI(a))
	return e
}

// trustStatus reports the trust store without an upload: the same
// information as a verdict's trustData. Like every /api/ path it needs a
// licensed tenant's bearer token (authMiddleware); in permit-all it is
// open.
func trustStatus(a *app.Validator) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, a.TrustStatus(time.Now()))
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
