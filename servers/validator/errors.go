package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/app/validator/configured"
	"github.com/svc-dss/dss/domain/svt"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/problem"
	"github.com/svc-dss/dss/servers/internal/upload"
)

// errorHandler is the one place where the validation service turns errors
// into HTTP statuses (validation-service.md §7). A failed signature is not
// an error and never reaches it. The browser UI's paths, and browsers
// that ask for HTML elsewhere outside the API, get a styled page with the
// same status and detail (never the trust banner: §7); everyone else gets
// problem+json.
func errorHandler(logger *slog.Logger, u *ui) echo.HTTPErrorHandler {
	return func(err error, c echo.Context) {
		if c.Response().Committed {
			return
		}
		p := problemFor(err)
		if p.Status >= http.StatusInternalServerError {
			logger.ErrorContext(c.Request().Context(), "request failed", slog.Int("status", p.Status), slog.String("error", err.Error()))
		}
		if _, ok := errors.AsType[*validation.UnreadableError](err); ok {
			// The reader's reason, which the answer does not repeat.
			logger.InfoContext(c.Request().Context(), "unreadable document", slog.String("error", err.Error()))
		}
		var werr error
		if u != nil && wantsPage(c.Request()) {
			werr = u.renderError(c, err, p)
		} else {
			werr = problem.Write(c, p)
		}
		if werr != nil {
			logger.WarnContext(c.Request().Context(), "writing error response", slog.String("error", werr.Error()))
		}
	}
}

func problemFor(err error) problem.Problem {
	// First: a bug outranks whatever else the validation ran into (the
	// errors of its signatures are joined), and the handlers may have
	// wrapped it as an infrastructure failure.
	if _, ok := errors.AsType[*validation.PanicError](err); ok {
		// The panic and its stack are in the log (validation.PanicLogMessage).
		return problem.New(http.StatusInternalServerError, "internal-error", errPanicDetail)
	}
	if e, ok := errors.AsType[*bodylimit.TooLargeError](err); ok {
		return problem.New(http.StatusRequestEntityTooLarge, "payload-too-large", e.Error())
	}
	if e, ok := errors.AsType[*upload.TooLargeError](err); ok {
		return problem.New(http.StatusRequestEntityTooLarge, "payload-too-large", e.Error())
	}
	if e, ok := errors.AsType[*validation.UnreadableError](err); ok {
		return problem.New(http.StatusBadRequest, "unreadable-upload", e.Reason())
	}
	if e, ok := errors.AsType[*configured.UnknownPolicyError](err); ok {
		return problem.New(http.StatusBadRequest, "unknown-policy", e.Error())
	}
	if errors.Is(err, errPolicyPart) {
		return problem.New(http.StatusBadRequest, "invalid-policy-part", strings.TrimPrefix(err.Error(), errPolicyPart.Error()+": "))
	}
	if errors.Is(err, upload.ErrMalformed) || errors.Is(err, ports.ErrUnreadable) {
		return problem.New(http.StatusBadRequest, "unreadable-upload", err.Error())
	}
	if errors.Is(err, errValidationTimeout) {
		return problem.New(http.StatusServiceUnavailable, "validation-timeout", fmt.Sprintf("validation did not finish within %v: the service stopped it; try again later, and quote the request id when reporting it", answerTimeout))
	}
	if _, ok := errors.AsType[errInfrastructure](err); ok {
		// The cause (database, network, a reader's internal failure) is
		// in the log; the client learns only that it was not its document.
		return problem.New(http.StatusBadGateway, "infrastructure-failure", "validation could not run: an infrastructure failure; quote the request id when reporting it")
	}
	if p, ok := uiProblem(err); ok {
		return p
	}
	if e, ok := errors.AsType[*echo.HTTPError](err); ok {
		return problem.FromHTTP(e)
	}
	// Anything else is a fault of ours or of the infrastructure.
	return problem.Internal()
}

// errPanicDetail is the answer to a validation that panicked: a bug of
// the service, which the sender can only report.
const errPanicDetail = "validation could not run: an internal error of this service, not a fault of the document; quote the request id when reporting it"

// uiProblem maps the outcomes of the browser UI's sessions and logins
// (docs/decisions/0024).
func uiProblem(err error) (problem.Problem, bool) {
	switch {
	case errors.Is(err, errCSRF):
		return problem.New(http.StatusForbidden, "forbidden", "The form was refused: its security token is missing or does not match your session. Reload the page and submit the form again."), true
	case errors.Is(err, errNoReport):
		return problem.New(http.StatusNotFound, "no-validated-document", "No document has been validated in this session yet: validate one, then download its reports."), true
	case errors.Is(err, errNoSignature):
		return problem.New(http.StatusNotFound, "no-signature", "The last document validated holds no signature, and an ETSI validation report needs at least one. Its detailed report is available."), true
	case errors.Is(err, errNoSignatureToken):
		return problem.New(http.StatusNotFound, "no-signature", "The last document validated holds no signature, and a Signature Validation Token states the validation of at least one. Its PDF and detailed reports are available."), true
	case errors.Is(err, errNoSeal):
		return problem.New(http.StatusNotFound, "no-report-seal", "This validator has no report seal configured, so it issues no Signature Validation Token. Its PDF report is available, unsealed."), true
	case errors.Is(err, validator.ErrNoSeal):
		return problem.New(http.StatusNotAcceptable, "not-acceptable", "This validator has no report seal configured (svc.dss.validator.report-seal.pkcs12-file, or a PKCS#11 key: svc.dss.validator.report-seal.pkcs11-module and pkcs11-key-label), so it issues no Signature Validation Token (application/jwt); ask for application/json, or application/pdf for an unsealed report."), true
	case errors.Is(err, svt.ErrNoSignature):
		return problem.New(http.StatusUnprocessableEntity, "no-signature", "The document holds no signature, and a Signature Validation Token states the validation of at least one."), true
	case errors.Is(err, ports.ErrNoSession):
		return problem.New(http.StatusUnauthorized, "unauthenticated", "You are not signed in, or your session has ended. Sign in again to continue."), true
	case errors.Is(err, validator.ErrUnknownTenant):
		return problem.New(http.StatusNotFound, "unknown-tenant", "No tenant with this ID is registered for signing in here: it is unknown, disabled, or has no identity provider. Check the address you were given."), true
	case errors.Is(err, validator.ErrLoginState):
		return problem.New(http.StatusUnauthorized, "unauthenticated", withDetail("The sign-in could not be completed", err)+". Start it again."), true
	case errors.Is(err, validator.ErrUnauthenticated):
		return problem.New(http.StatusUnauthorized, "unauthenticated", withDetail("The sign-in failed", err)+"."), true
	case errors.Is(err, validator.ErrForbidden):
		return problem.New(http.StatusForbidden, "forbidden", withDetail("Access refused", err)+"."), true
	case errors.Is(err, validator.ErrSessionStoreUnavailable):
		return problem.New(http.StatusBadGateway, "infrastructure-failure", errSessionStoreDetail), true
	case errors.Is(err, validator.ErrAuthUnavailable):
		return problem.New(http.StatusBadGateway, "infrastructure-failure", "The sign-in or the license check could not run: the control database or the tenant's identity provider did not answer, or the tenant's registration is incomplete. Quote the request id when reporting it."), true
	}
	return problem.Problem{}, false
}

// errSessionStoreDetail answers a UI request whose session could not be
// read or kept: the browser may well be signed in, so it is not sent to
// sign in again.
const errSessionStoreDetail = "Your session could not be read or saved: the session store did not answer. You are not signed out; try again in a moment, and quote the request id when reporting it."

// refusalDetail is the Detail of err's *validator.RefusalError: why the
// request, sign-in or session was refused, in the words the application
// chose where it refused; "" when err carries none. The error's text is
// never shown: it may hold what the log alone should.
func refusalDetail(err error) string {
	if r, ok := errors.AsType[*validator.RefusalError](err); ok {
		return r.Detail
	}
	return ""
}

// withDetail is lead, followed by err's refusal detail when it has one.
func withDetail(lead string, err error) string {
	if d := refusalDetail(err); d != "" {
		return lead + ": " + d
	}
	return lead
}

// wantsPage reports a request whose error is a page: one of the UI, or a
// browser's anywhere but under /api/ and /actuator/.
func wantsPage(r *http.Request) bool {
	path := r.URL.Path
	if uiPath(path) {
		return true
	}
	if strings.HasPrefix(path, "/api/") || strings.HasPrefix(path, "/actuator/") {
		return false
	}
	accept := r.Header.Get(echo.HeaderAccept)
	h := strings.Index(accept, "text/html")
	j := strings.Index(accept, "json")
	return h >= 0 && (j < 0 || h < j)
}

// renderError is the error page of err: status, title, detail and
// request id, and a way on: back to the upload form when the session is
// fine, else to the start. It has no trust banner and no account (§3,
// §7).
// The page is in the browser's language: its title, the way on and, for
// the errors of this service's own words, the detail; a detail made of
// another's words (a reader's reason an upload is unreadable) stays as
// the problem gives it.
func (u *ui) renderError(c echo.Context, err error, p problem.Problem) error {
	s := sessionOf(c)
	b := newBase(u.cat, u.pageLanguage(c, s), "", "ui.error.status."+strconv.Itoa(p.Status))
	if _, ok := u.cat.Template(b.Lang, "ui.error.status."+strconv.Itoa(p.Status)); !ok {
		b.Title = p.Title
	}
	data := errorPage{
		base:   b,
		Status: p.Status, Detail: pageDetail(b, err, p), RequestID: c.Response().Header().Get(echo.HeaderXRequestID),
		Next: pathValidate, NextLabel: b.T("ui.error.start-again"),
	}
	if s.Tenant != "" && !errors.Is(err, validator.ErrForbidden) {
		data.Next, data.NextLabel = pathValidate+"?tenantId="+s.Tenant, b.T("ui.error.back")
	}
	// The language menu shows this page again where a GET can, else
	// leads on.
	data.Here = data.Next
	if r := c.Request(); r.Method == http.MethodGet && uiPath(r.URL.Path) && r.URL.Path != validator.LoginCallbackPath {
		q := r.URL.Query()
		q.Del(langQuery)
		data.Here = r.URL.Path
		if len(q) > 0 {
			data.Here += "?" + q.Encode()
		}
	}
	return page.Render(c, p.Status, u.pages["error.html"], data)
}

// pageDetail is p's detail in the page's language when this service
// worded it (uiProblem, problemFor), else p's own.
func pageDetail(b base, err error, p problem.Problem) string {
	if _, ok := errors.AsType[*validation.PanicError](err); ok {
		return b.T("ui.error.panic")
	}
	if _, ok := errors.AsType[errInfrastructure](err); ok {
		return b.T("ui.error.infrastructure")
	}
	for _, e := range []struct {
		target error
		id     string
	}{
		{errCSRF, "ui.error.csrf"},
		{errNoReport, "ui.error.no-report"},
		{errNoSignature, "ui.error.no-signature"},
		{ports.ErrNoSession, "ui.error.no-session"},
		{validator.ErrUnknownTenant, "ui.error.unknown-tenant"},
		{validator.ErrLoginState, "ui.error.login-state"},
		{validator.ErrUnauthenticated, "ui.error.unauthenticated"},
		{validator.ErrForbidden, "ui.error.forbidden"},
		{validator.ErrAuthUnavailable, "ui.error.auth-unavailable"},
		{validator.ErrSessionStoreUnavailable, "ui.error.session-store"},
	} {
		if errors.Is(err, e.target) {
			return b.T(e.id, "Detail", refusalDetail(err))
		}
	}
	return p.Detail
}
