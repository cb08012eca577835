package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// The browser UI (validation-service.md §4 and §5 item 1,
// docs/decisions/0024):
//
//	GET  /validate                  tenant gateway, login, upload form
//	GET  /validate/callback         the OIDC redirect URI (validator.LoginCallbackPath)
//	POST /validate                  upload: the result page
//	GET  /validate/result           the last result's page again (in another language)
//	POST /validate/logout           sign out
//	GET  /validate/signedout        the signed-out page (in another language)
//	GET  /validate/report/detailed  the last result's detailed report (XML)
//	GET  /validate/report/etsi      its ETSI validation report (XML)
//	GET  /validate/report/pdf       its PDF report, sealed with a report seal
//	GET  /validate/report/svt       its Signature Validation Token (JWT), with a report seal
//	GET  /static/*                  the stylesheet
const (
	pathValidate  = "/validate"
	pathResult    = "/validate/result"
	pathLogout    = "/validate/logout"
	pathSignedOut = "/validate/signedout"
	pathDetailed  = "/validate/report/detailed"
	pathETSI      = "/validate/report/etsi"
	pathPDF       = "/validate/report/pdf"
	pathSVT       = "/validate/report/svt"
)

// sessionKey is where requireSession keeps the request's session.
const sessionKey = "svc-dss.ui.session"

// Errors of the UI's own checks, which the error handler turns into pages.
var (
	// errCSRF: a form without the session's token (403).
	errCSRF = errors.New("ui: form token missing or wrong")
	// errNoReport: a report download before any validation (404).
	errNoReport = errors.New("ui: no validated document in the session")
	// errNoSignature: the ETSI report of a document without signatures,
	// which TS 119 102-2 cannot express (404).
	errNoSignature = errors.New("ui: the document holds no signature")
	// errNoSignatureToken: the token of a document without signatures,
	// which RFC 9321 cannot express (404).
	errNoSignatureToken = errors.New("ui: the document holds no signature to state in a token")
	// errNoSeal: a token download from a validator without a report seal
	// (404).
	errNoSeal = errors.New("ui: no report seal is configured")
)

// maxLogoutForm bounds the body of the sign-out form: one token.
const maxLogoutForm = 4 << 10

type ui struct {
	a      *validator.Validator
	logger *slog.Logger
	pages  pages
	cat    *catalog.Catalog
	cookie uiCookie // the session's
	login  uiCookie // the login in progress, sealed
	lang   uiCookie // the language chosen (lang.go)
}

func newUI(a *validator.Validator, logger *slog.Logger) (*ui, error) {
	p, err := loadPages()
	if err != nil {
		return nil, err
	}
	base := a.Config().BaseURL
	session, login := newCookies(base)
	if u, err := url.Parse(base); err == nil && !session.secure && !local(u.Hostname()) {
		logger.Warn("svc.dss.validator.base-url is http on a host that is not this machine: the session cookie is sent without Secure; use https",
			slog.String("base_url", base))
	}
	return &ui{a: a, logger: logger, pages: p, cat: a.Catalog(), cookie: session, login: login, lang: languageCookie(base)}, nil
}

// local reports a host name of this machine: plain http is fine there.
func local(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (u *ui) register(e *echo.Echo, up uploads) {
	e.GET(pathValidate, u.form)
	e.POST(pathValidate, u.validate(up))
	e.GET(validator.LoginCallbackPath, u.callback)
	e.GET(pathResult, u.result)
	e.POST(pathLogout, u.logout)
	e.GET(pathSignedOut, u.signedOut)
	e.GET(pathDetailed, u.download(detailedReport))
	e.GET(pathETSI, u.download(etsiReport))
	e.GET(pathPDF, u.downloadPDF)
	e.GET(pathSVT, u.downloadSVT)
	e.GET("/static/*", page.Assets())
}

// uiPath reports the paths of the UI, whose errors are always pages.
func uiPath(path string) bool {
	return path == pathValidate || strings.HasPrefix(path, pathValidate+"/") || strings.HasPrefix(path, "/static/")
}

// needsSession reports the requests that only a signed-in session may
// make. Their session is checked before anything else, the upload
// included: a request without one costs no parsing.
func needsSession(method, path string) bool {
	switch method {
	case http.MethodPost:
		return path == pathValidate || path == pathLogout
	case http.MethodGet:
		return path == pathDetailed || path == pathETSI || path == pathPDF || path == pathSVT || path == pathResult
	}
	return false
}

// requireSession loads the session of the requests that need one: 401
// without one, 403 when the tenant lost its license, 502 when that cannot
// be checked.
func (u *ui) requireSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if !needsSession(c.Request().Method, c.Request().URL.Path) {
			return next(c)
		}
		s, err := u.a.Session(c.Request().Context(), u.cookie.read(c))
		if err != nil {
			return err
		}
		c.Set(sessionKey, s)
		return next(c)
	}
}

func sessionOf(c echo.Context) ports.Session {
	s, _ := c.Get(sessionKey).(ports.Session)
	return s
}

// form is GET /validate: the tenant gateway without tenantId; otherwise
// the upload form for a browser signed in for that tenant, or the start
// of its login. Under permit-all nobody signs in: the upload form of the
// development tenant, whatever the query says.
func (u *ui) form(c echo.Context) error {
	ctx := c.Request().Context()
	sid := u.cookie.read(c)
	if u.a.Config().PermitAll {
		s, err := u.a.DevelopmentSession(ctx, sid)
		if err != nil {
			return err
		}
		if s.ID != sid {
			u.cookie.set(c, s.ID)
		}
		return u.upload(c, s)
	}
	tenant := strings.TrimSpace(c.QueryParam("tenantId"))
	if tenant == "" {
		// The form leads to the tenant's provider: no form-action.
		c.Response().Header().Set("Content-Security-Policy", page.OpenFormPolicy)
		l := u.pageLanguage(c, ports.Session{})
		return page.Render(c, http.StatusOK, u.pages["gateway.html"], gatewayPage{base: newBase(u.cat, l, pathValidate, "ui.gateway.title")})
	}
	start, err := u.a.BeginLogin(ctx, sid, tenant)
	if err != nil {
		return err
	}
	if start.URL == "" {
		return u.upload(c, start.Session)
	}
	// The login in progress stays in the browser until the callback: a
	// new start replaces it, and the session cookie, if any, is kept. A
	// language chosen on the way to the provider is kept for the pages
	// after it.
	u.login.set(c, start.Pending)
	if l, err := catalog.ParseLang(c.QueryParam(langQuery)); err == nil {
		u.lang.set(c, string(l))
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusFound, start.URL)
}

func (u *ui) upload(c echo.Context, s ports.Session) error {
	cfg := u.a.Config()
	td := u.a.Validation().TrustStatus(u.a.Now())
	here := pathValidate + "?tenantId=" + url.QueryEscape(s.Tenant)
	return page.Render(c, http.StatusOK, u.pages["upload.html"], uploadPage{
		base: u.signedIn(c, s, here, "ui.upload.title", td.Banner),
		CSRF: s.CSRF, MaxFile: megabytes(cfg.Multipart.MaxFileSize), MaxUpload: megabytes(cfg.Multipart.MaxRequestSize),
		Formats: u.a.Validation().Formats(),
	})
}

// signedIn is the base of a page of session s at address here, titled
// by the catalogue's text title.
func (u *ui) signedIn(c echo.Context, s ports.Session, here, title string, banner *verdict.Banner) base {
	b := newBase(u.cat, u.pageLanguage(c, s), here, title)
	b.Banner = banner
	b.Account = &account{Tenant: s.Tenant, Subject: s.Subject, CSRF: s.CSRF, Development: u.a.Config().PermitAll}
	return b
}

// callback is the OIDC redirect URI: the provider's answer completes the
// login in progress, and the browser, now with a new session, goes to the
// upload form. The login cookie is cleared whatever the outcome: the
// login is used up, and its answer cannot be replayed from this browser.
func (u *ui) callback(c echo.Context) error {
	q := c.QueryParams()
	pending := u.login.read(c)
	u.login.clear(c)
	s, err := u.a.CompleteLogin(c.Request().Context(), u.cookie.read(c), pending, validator.LoginAnswer{State: q.Get("state"), Code: q.Get("code"), Error: q.Get("error")})
	if err != nil {
		return err
	}
	u.cookie.set(c, s.ID)
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.Redirect(http.StatusSeeOther, pathValidate+"?tenantId="+url.QueryEscape(s.Tenant))
}

// validate is POST /validate: the upload of the form, validated as the
// API validates it; the result page shows the summary, and the session
// keeps the result for the report downloads. requireSession has checked
// the session; the form token opens the multipart form (upload.html puts
// it first, and browsers send fields in order), so it is checked before
// any byte of the document is kept (docs/decisions/0024).
func (u *ui) validate(up uploads) echo.HandlerFunc {
	return func(c echo.Context) error {
		s := sessionOf(c)
		g := upload.Guard{Field: "csrf", Check: func(token string) error { return checkToken([]string{token}, s) }}
		if !multipartForm(c) {
			// Not an upload at all: refused as a form (403) before it
			// is refused as a document (400).
			if err := checkCSRF(c, s); err != nil {
				return err
			}
		}
		doc, _, err := up.read(c, g)
		if errors.Is(err, upload.ErrGuard) {
			return errCSRF
		}
		if err != nil {
			return err
		}
		ctx := c.Request().Context()
		// The tenant's default policy, as for the API (decision 0042).
		pol, err := u.a.PolicyOf(ctx, validator.Principal{Tenant: s.Tenant, Subject: s.Subject})
		if err != nil {
			return errInfrastructure{err}
		}
		doc.Policy = &pol
		vctx, cancel := context.WithTimeout(ctx, answerTimeout)
		defer cancel()
		r, err := u.a.Validation().Validate(vctx, doc)
		if err := validationFailure(err); err != nil {
			return err
		}
		if err := u.a.KeepValidation(ctx, s.ID, r); err != nil {
			// The session ended while the document was validated: the
			// result is shown, its reports cannot be downloaded.
			u.logger.WarnContext(ctx, "ui validation not kept in the session", slog.String("session", validator.Fingerprint(s.ID)), slog.String("error", err.Error()))
		}
		sum := r.Summary
		u.logger.InfoContext(ctx, "ui validation", slog.String("tenant", s.Tenant), slog.String("document_sha256", sum.DocumentSHA256),
			slog.Int("signatures", sum.SignatureCount), slog.Bool("valid", sum.Valid))
		return page.Render(c, http.StatusOK, u.pages["result.html"], newResultPage(u.signedIn(c, s, pathResult, "ui.result.title", sum.TrustData.Banner), s.Tenant, sum, u.a.Sealed()))
	}
}

// result is GET /validate/result: the result page of the session's last
// document again, which the language menu of the result page links to.
func (u *ui) result(c echo.Context) error {
	s := sessionOf(c)
	if s.Last == nil {
		return errNoReport
	}
	sum, err := validator.KeptSummary(s.Last)
	if err != nil {
		return err
	}
	return page.Render(c, http.StatusOK, u.pages["result.html"], newResultPage(u.signedIn(c, s, pathResult, "ui.result.title", sum.TrustData.Banner), s.Tenant, sum, u.a.Sealed()))
}

// logout is POST /validate/logout.
func (u *ui) logout(c echo.Context) error {
	s := sessionOf(c)
	if err := checkCSRF(c, s); err != nil {
		return err
	}
	if err := u.a.EndSession(c.Request().Context(), s.ID); err != nil && !errors.Is(err, ports.ErrNoSession) {
		return err
	}
	u.cookie.clear(c)
	return u.renderSignedOut(c, s)
}

// signedOut is GET /validate/signedout: the signed-out page again, which
// its language menu links to; it needs no session.
func (u *ui) signedOut(c echo.Context) error {
	return u.renderSignedOut(c, ports.Session{Tenant: strings.TrimSpace(c.QueryParam("tenantId"))})
}

func (u *ui) renderSignedOut(c echo.Context, s ports.Session) error {
	here := pathSignedOut + "?tenantId=" + url.QueryEscape(s.Tenant)
	l := u.pageLanguage(c, ports.Session{})
	return page.Render(c, http.StatusOK, u.pages["signedout.html"], signedOutPage{base: newBase(u.cat, l, here, "ui.signedout.title"), Tenant: s.Tenant})
}

// checkCSRF checks the csrf field of a URL-encoded form (the sign-out
// form) against the session's token. Any other body is refused: a
// cross-site form can post text/plain.
func checkCSRF(c echo.Context, s ports.Session) error {
	var tokens []string
	if ct, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType)); ct == echo.MIMEApplicationForm {
		r := c.Request()
		r.Body = http.MaxBytesReader(c.Response(), r.Body, maxLogoutForm)
		if err := r.ParseForm(); err == nil {
			tokens = r.PostForm["csrf"]
		}
	}
	return checkToken(tokens, s)
}

// checkToken compares, in constant time, the one token a form sent with
// the session's: exactly one is accepted.
func checkToken(tokens []string, s ports.Session) error {
	if len(tokens) != 1 || s.CSRF == "" || subtle.ConstantTimeCompare([]byte(tokens[0]), []byte(s.CSRF)) != 1 {
		return errCSRF
	}
	return nil
}
