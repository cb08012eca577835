// Package scrape serves GET /actuator/prometheus, the metrics of both
// servers, behind a bearer token of its own (docs/decisions/0039).
package scrape

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/servers/internal/problem"
)

// Path is where both servers serve their metrics, beside the health
// probe.
const Path = "/actuator/prometheus"

// Handler serves metrics to a request whose Authorization header is
// "Bearer <token>", and to every request when open (authentication off:
// permit-all, development). Any other request gets a 401 problem that
// names setting, the key of the token: the same answer for a missing and
// a wrong token, and when no token is configured, so that the answer
// tells a prober nothing.
func Handler(metrics http.Handler, token string, open bool, setting string) echo.HandlerFunc {
	want := sha256.Sum256([]byte(token))
	return func(c echo.Context) error {
		if !open && (token == "" || !bears(c.Request(), want)) {
			c.Response().Header().Set(echo.HeaderWWWAuthenticate, "Bearer")
			return problem.Write(c, problem.New(http.StatusUnauthorized, "unauthenticated", "the metrics need the bearer token of "+setting))
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		metrics.ServeHTTP(c.Response(), c.Request())
		return nil
	}
}

// bears reports whether r's Authorization header is "Bearer " and the
// token whose SHA-256 is want (the scheme is case-insensitive, RFC 9110
// 11.1). The digests are compared in constant time:
// neither the token's bytes nor its length show in the time taken.
func bears(r *http.Request, want [sha256.Size]byte) bool {
	const scheme = "Bearer "
	h := r.Header.Get(echo.HeaderAuthorization)
	if len(h) <= len(scheme) || !strings.EqualFold(h[:len(scheme)], scheme) {
		return false
	}
	got := sha256.Sum256([]byte(h[len(scheme):]))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}
