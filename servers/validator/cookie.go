package main

import (
	"net/http"
	"net/url"
	"regexp"

	"github.com/labstack/echo/v4"
)

// sessionCookie is the browser UI's session cookie (docs/decisions/0024):
// the session ID and nothing else, HttpOnly (no script reads it),
// SameSite=Lax (sent on the top-level GET by which the identity provider
// sends the browser back, never on a cross-site POST), Path=/, no Domain
// (this host only) and no expiry of its own (the server ends sessions).
// When the service's base URL is https it is Secure and named with the
// __Host- prefix, which browsers accept only from a secure origin, for
// this host, on Path=/. On http (development and tests on localhost or
// 127.0.0.1) it is neither: a Secure cookie would not come back over
// http.
type sessionCookie struct {
	name   string
	secure bool
}

// Cookie names, by scheme.
const (
	secureCookieName = "__Host-svc-dss-session"
	plainCookieName  = "svc-dss-session"
)

// sessionIDPattern is the shape of the IDs the service issues (256 bits,
// base64url): anything else is not looked up.
var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{43}$`)

// newSessionCookie returns the cookie for a service reached at baseURL.
func newSessionCookie(baseURL string) sessionCookie {
	if u, err := url.Parse(baseURL); err == nil && u.Scheme == "https" {
		return sessionCookie{name: secureCookieName, secure: true}
	}
	return sessionCookie{name: plainCookieName}
}

// read returns the session ID the request carries, "" when none.
func (sc sessionCookie) read(c echo.Context) string {
	ck, err := c.Cookie(sc.name)
	if err != nil || !sessionIDPattern.MatchString(ck.Value) {
		return ""
	}
	return ck.Value
}

func (sc sessionCookie) set(c echo.Context, id string) {
	c.SetCookie(sc.cookie(id, 0))
}

// clear tells the browser to forget the cookie.
func (sc sessionCookie) clear(c echo.Context) {
	c.SetCookie(sc.cookie("", -1))
}

func (sc sessionCookie) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name: sc.name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: sc.secure, SameSite: http.SameSiteLaxMode,
	}
}
