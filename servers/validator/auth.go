package main

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/servers/internal/problem"
)

// principalKey is where a request's authenticated tenant is kept.
const principalKey = "principal"

// authMiddleware is the tenant filter of the API (validation-service.md
// §5): every path under /api/ needs a bearer token of a licensed tenant;
// the health probe and anything else are left alone. It runs before the
// upload is read, so that an unauthenticated request costs no parsing.
func authMiddleware(a *validator.Validator, logger *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			if !strings.HasPrefix(c.Request().URL.Path, "/api/") {
				return next(c)
			}
			p, err := a.Authorize(c.Request().Context(), c.Request().Header.Get(echo.HeaderAuthorization))
			if err != nil {
				return authProblem(c, logger, err)
			}
			c.Set(principalKey, p)
			return next(c)
		}
	}
}

// authProblem answers a refused request: 401 with a Bearer challenge,
// 403, or 502. A 401's and a 403's detail is the refusal's
// (validator.RefusalError.Detail, for a token the verifier's fixed
// reason): never the token, nor what it claims unverified (the tenant,
// the key ID), nor the tenant's provider.
func authProblem(c echo.Context, logger *slog.Logger, err error) error {
	var p problem.Problem
	switch {
	case errors.Is(err, validator.ErrUnauthenticated):
		c.Response().Header().Set(echo.HeaderWWWAuthenticate, `Bearer realm="svc-dss"`)
		p = problem.New(http.StatusUnauthorized, "unauthenticated", withDetail("a valid bearer token of a tenant is required", err))
	case errors.Is(err, validator.ErrForbidden):
		detail := refusalDetail(err)
		if detail == "" {
			detail = "the tenant may not use this service"
		}
		p = problem.New(http.StatusForbidden, "forbidden", detail)
	default:
		logger.ErrorContext(c.Request().Context(), "authentication could not run", slog.String("error", err.Error()))
		p = problem.New(http.StatusBadGateway, "infrastructure-failure", "authentication could not run: the control database or the identity provider did not answer; quote the request id when reporting it")
	}
	return problem.Write(c, p)
}
