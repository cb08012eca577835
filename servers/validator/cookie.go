package main

import (
	"net/http"
	"net/url"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/validator"
)

// A uiCookie is one of the browser UI's cookies (docs/decisions/0024):
// the session cookie, which holds the session ID, the login cookie,
// which holds a login in progress, sealed by the validator, and the
// language cookie (docs/decisions/0038). All are HttpOnly
// (no script reads them), SameSite=Lax (sent on the top-level GET by
// which the identity provider sends the browser back, never on a
// cross-site POST), Path=/ and without Domain (this host only). When the
// service's base URL is https they are Secure and named with the __Host-
// prefix, which browsers accept only from a secure origin, for this host,
// on Path=/. On http (development and tests on localhost or 127.0.0.1)
// they are neither: a Secure cookie would not come back over http.
type uiCookie struct {
	name   string
	secure bool
	// Values of another shape are not looked at: base64url of a length
	// from minLen to maxLen.
	minLen, maxLen int
	maxAge         int // seconds; 0: until the browser closes
}

// Cookie names, by scheme.
const (
	secureCookieName      = "__Host-svc-dss-session"
	plainCookieName       = "svc-dss-session"
	secureLoginCookieName = "__Host-svc-dss-login"
	plainLoginCookieName  = "svc-dss-login"
)

// The language cookie's names: it holds "en", "de", "fr" or "it", the
// language the browser last chose for the pages (lang.go), until the
// browser closes.
const (
	secureLanguageCookieName = "__Host-svc-dss-lang"
	plainLanguageCookieName  = "svc-dss-lang"
)

// languageCookie returns the language cookie for a service reached at
// baseURL, Secure on https as the others.
func languageCookie(baseURL string) uiCookie {
	c := uiCookie{name: plainLanguageCookieName, minLen: 2, maxLen: 2}
	if u, err := url.Parse(baseURL); err == nil && u.Scheme == "https" {
		c.name, c.secure = secureLanguageCookieName, true
	}
	return c
}

// The shapes of the cookies' values. A session ID is what the service
// issues, 256 bits in base64url: anything else is not looked up. A sealed
// login is base64url of a few hundred characters (validator.LoginStart).
// Checked by hand rather than by a regular expression: `{1,1000}` would
// compile to a program of a thousand states at every start of the
// program, the validate command's too.
const (
	sessionIDLen      = 43
	maxSealedLoginLen = 1000
)

// newCookies returns the session and login cookies for a service reached
// at baseURL. The session cookie has no expiry of its own (the server
// ends sessions); the login cookie lives as long as a login may take.
func newCookies(baseURL string) (session, login uiCookie) {
	session = uiCookie{name: plainCookieName, minLen: sessionIDLen, maxLen: sessionIDLen}
	login = uiCookie{name: plainLoginCookieName, minLen: 1, maxLen: maxSealedLoginLen, maxAge: int(validator.LoginLifetime.Seconds())}
	if u, err := url.Parse(baseURL); err == nil && u.Scheme == "https" {
		session.name, session.secure = secureCookieName, true
		login.name, login.secure = secureLoginCookieName, true
	}
	return session, login
}

// read returns the cookie's value in the request, "" when none.
func (uc uiCookie) read(c echo.Context) string {
	ck, err := c.Cookie(uc.name)
	if err != nil || !uc.valid(ck.Value) {
		return ""
	}
	return ck.Value
}

// valid reports whether v has the cookie's shape: base64url without
// padding, of a length within its bounds.
func (uc uiCookie) valid(v string) bool {
	if len(v) < uc.minLen || len(v) > uc.maxLen {
		return false
	}
	for i := range len(v) {
		switch c := v[i]; {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '_':
		default:
			return false
		}
	}
	return true
}

func (uc uiCookie) set(c echo.Context, value string) {
	c.SetCookie(uc.cookie(value, uc.maxAge))
}

// clear tells the browser to forget the cookie.
func (uc uiCookie) clear(c echo.Context) {
	c.SetCookie(uc.cookie("", -1))
}

func (uc uiCookie) cookie(value string, maxAge int) *http.Cookie {
	return &http.Cookie{
		Name: uc.name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, Secure: uc.secure, SameSite: http.SameSiteLaxMode,
	}
}
