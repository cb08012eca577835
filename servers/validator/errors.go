package main

import (
	"errors"
	"log/slog"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/problem"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// errorHandler is the one place where the validation service turns errors
// into HTTP statuses (validation-service.md §7). A failed signature is not
// an error and never reaches it.
func errorHandler(logger *slog.Logger) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		p := problemFor(err)
		if p.Status >= http.StatusInternalServerError {
			logger.ErrorContext(c.Request().Context(), "request failed", slog.Int("status", p.Status), slog.String("error", err.Error()))
		}
		if werr := problem.Write(c, p); werr != nil {
			logger.WarnContext(c.Request().Context(), "writing error response", slog.String("error", werr.Error()))
		}
	}
}

func problemFor(err error) problem.Problem {
	if e, ok := errors.AsType[*bodylimit.TooLargeError](err); ok {
		return problem.New(http.StatusRequestEntityTooLarge, "payload-too-large", e.Error())
	}
	if e, ok := errors.AsType[*upload.TooLargeError](err); ok {
		return problem.New(http.StatusRequestEntityTooLarge, "payload-too-large", e.Error())
	}
	if errors.Is(err, upload.ErrMalformed) || errors.Is(err, ports.ErrUnreadable) {
		return problem.New(http.StatusBadRequest, "unreadable-upload", err.Error())
	}
	if _, ok := errors.AsType[errInfrastructure](err); ok {
		// The cause (database, network, a reader's internal failure) is
		// in the log; the client learns only that it was not its document.
		return problem.New(http.StatusBadGateway, "infrastructure-failure", "validation could not run: an infrastructure failure; quote the request id when reporting it")
	}
	if e, ok := errors.AsType[*echo.HTTPError](err); ok {
		return problem.FromHTTP(e)
	}
	// Anything else is a fault of ours or of the infrastructure.
	return problem.Internal()
}
