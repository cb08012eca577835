package main

import (
	"errors"
	"log/slog"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/problem"
)

// errorHandler is the one place where the signing server turns errors into
// HTTP statuses (signing-server.md §7). API clients get problem+json;
// browsers get the styled error page.
func errorHandler(logger *slog.Logger, p pages) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		pr := problemFor(err)
		ctx := c.Request().Context()
		if pr.Status >= http.StatusInternalServerError && pr.Status != http.StatusServiceUnavailable {
			logger.ErrorContext(ctx, "request failed", slog.Int("status", pr.Status), slog.String("error", err.Error()))
		}
		if pr.Status == http.StatusUnauthorized {
			c.Response().Header().Set(echo.HeaderWWWAuthenticate, "Bearer")
		}
		var werr error
		if wantsHTML(c.Request()) {
			werr = renderError(c, p, pr)
		} else {
			werr = problem.Write(c, pr)
		}
		if werr != nil {
			logger.WarnContext(ctx, "writing error response", slog.String("error", werr.Error()))
		}
	}
}

func problemFor(err error) problem.Problem {
	if errors.Is(err, signer.ErrNoControlDatabase) {
		// The sentinel's own words, whatever wrapped it on the way.
		return problem.New(http.StatusServiceUnavailable, "signing-unavailable", signer.ErrNoControlDatabase.Error())
	}
	refusal, isRefusal := errors.AsType[*signer.RefusalError](err)
	for _, r := range refusals {
		switch {
		case isRefusal && refusal.Kind == r.kind:
			return problem.New(r.status, r.slug, refusal.Detail)
		case !isRefusal && errors.Is(err, r.kind):
			return problem.New(r.status, r.slug, r.detail)
		}
	}
	switch {
	case errors.Is(err, signer.ErrReplayUnavailable):
		return problem.New(http.StatusBadGateway, "infrastructure-failure", errReplayDetail)
	case errors.Is(err, signer.ErrSignUnavailable):
		return problem.New(http.StatusBadGateway, "infrastructure-failure", "signing could not run: the control database or the HSM failed or timed out; quote the request id when reporting it")
	case errors.Is(err, signer.ErrAuthUnavailable):
		return problem.New(http.StatusBadGateway, "infrastructure-failure", "the JWT key source did not answer")
	case errors.Is(err, errBodyTimeout):
		return problem.New(http.StatusRequestTimeout, "", errBodyTimeout.Error())
	}
	if e, ok := errors.AsType[*bodylimit.TooLargeError](err); ok {
		return problem.New(http.StatusRequestEntityTooLarge, "payload-too-large", e.Error())
	}
	if e, ok := errors.AsType[*echo.HTTPError](err); ok {
		return problem.FromHTTP(e)
	}
	return problem.Internal()
}

// errReplayDetail answers a sign-ska call whose token could not be
// recorded as used: the call is refused, not signed (fail closed).
const errReplayDetail = "signing refused: the store of used token IDs failed (it did not answer, or it is full), and a token that cannot be recorded as used is not accepted; send a new token later, and quote the request id when reporting it"

// refusals are the 4xx classes of the application. A refusal's detail is
// its signer.RefusalError's Detail, in fixed words; never the error's text,
// which may name the HSM's library and token or repeat what an
// unverified token claimed. An error of the class that is no
// RefusalError gets the class's words.
var refusals = []struct {
	kind   error
	status int
	slug   string
	detail string
}{
	{signer.ErrSignUnauthenticated, http.StatusUnauthorized, "unauthenticated", "the request is not authenticated"},
	{signer.ErrUnauthenticated, http.StatusUnauthorized, "unauthenticated", "the request is not authenticated"},
	{signer.ErrSignForbidden, http.StatusForbidden, "forbidden", "the request is not authorized"},
	{signer.ErrSignBadRequest, http.StatusBadRequest, "bad-request", "the request cannot be signed"},
}

// wantsHTML reports a browser: one that asks for text/html before JSON.
// API clients send application/json or nothing.
func wantsHTML(r *http.Request) bool {
	accept := r.Header.Get(echo.HeaderAccept)
	h := strings.Index(accept, "text/html")
	if h < 0 {
		return false
	}
	j := strings.Index(accept, "json")
	return j < 0 || h < j
}

func renderError(c echo.Context, p pages, pr problem.Problem) error {
	data := map[string]any{"Title": pr.Title, "Product": product, "Problem": pr, "RequestID": c.Response().Header().Get(echo.HeaderXRequestID)}
	return page.Render(c, pr.Status, p.error, data)
}
