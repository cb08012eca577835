package validator

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/ports"
)

// The browser UI's sessions (validation-service.md §5 item 1,
// docs/decisions/0024). A session is created when a login completes, with
// a new ID and form token; it ends after
// svc.dss.validator.session.idle-timeout without a request, after
// absolute-timeout in any case, or at logout. A login in progress is no
// session: the browser holds it, sealed, until the callback. Servers keep
// the session's ID and the sealed login in cookies and call these
// methods; errors wrap ports.ErrNoSession (not signed in: 401),
// ErrLoginState and ErrUnauthenticated (401), ErrForbidden (403),
// ErrUnknownTenant (404), ErrAuthUnavailable or ErrSessionStoreUnavailable
// (502). Those of
// ErrLoginState, ErrUnauthenticated and ErrForbidden are a
// *RefusalError, whose Detail says why.

// errNoLogin is a callback without a login in progress, or with one this
// process did not seal.
var errNoLogin = errors.New("no login in progress")

// LoginAnswer is what the provider sent to the callback.
type LoginAnswer struct {
	State string
	Code  string
	// Error is the OAuth error code when the provider refused the login
	// (RFC 6749 4.1.2.1), such as access_denied.
	Error string
}

// A LoginStart is what BeginLogin decided: show the form of a session
// already signed in, or send the browser to its provider.
type LoginStart struct {
	// Session is the browser's session when it is signed in for the
	// tenant already; then URL and Pending are empty.
	Session ports.Session
	// URL is the provider's authorization URL to send the browser to.
	URL string
	// Pending is the login in progress, sealed (AES-GCM under a key of
	// this process): the browser holds it until the callback, where
	// CompleteLogin wants it back, for LoginLifetime at most. It is the
	// only state of the login: the server keeps none.
	Pending string
}

// Now is the service's clock.
func (v *Validator) Now() time.Time { return v.clock() }

// BeginLogin starts a login for tenant from the browser whose session
// cookie holds sid ("" when it has none). When that session is already
// signed in for tenant, the LoginStart holds it and no URL. Otherwise it
// holds the provider's authorization URL and the sealed login; nothing is
// stored, so that anyone may start logins without costing the server
// memory or displacing a session. A session signed in for another tenant
// stays signed in until the new login completes.
func (v *Validator) BeginLogin(ctx context.Context, sid, tenant string) (LoginStart, error) {
	if sid != "" {
		cur, err := v.sessions.Get(ctx, sid)
		switch {
		case err == nil && strings.EqualFold(cur.Tenant, tenant):
			s, err := v.Session(ctx, sid)
			return LoginStart{Session: s}, err
		case err != nil && !errors.Is(err, ports.ErrNoSession):
			// Whether the browser is signed in is unknown: a login now
			// would end at a store that cannot keep its session.
			return LoginStart{}, storeFailed(err)
		}
	}
	l, u, err := v.startLogin(ctx, tenant, v.clock())
	if err != nil {
		return LoginStart{}, err
	}
	v.logger.InfoContext(ctx, "ui login started", slog.String("tenant", l.Tenant))
	return LoginStart{URL: u, Pending: v.login.sealLogin(l)}, nil
}

// CompleteLogin finishes the login in progress that the browser handed
// back sealed (pending, "" when it sent none) with the provider's
// answer. The caller makes the browser forget pending whatever the
// outcome, so that an answer cannot be replayed from it; the provider's
// codes are single-use besides. On success it returns a new session, with
// a new ID and form token, signed in for the login's tenant; the session
// sid the browser had before, if any, is ended.
func (v *Validator) CompleteLogin(ctx context.Context, sid, pending string, a LoginAnswer) (ports.Session, error) {
	now := v.clock()
	l, err := v.login.openLogin(pending)
	if err != nil {
		v.logger.InfoContext(ctx, "ui login refused: no login in progress", slog.Bool("sealed_login_sent", pending != ""))
		return ports.Session{}, refusal(ErrLoginState, "no sign-in is in progress in this browser: it was completed or abandoned, it expired, or it was started in another browser or one that blocks cookies")
	}
	refuse := func(err error) (ports.Session, error) {
		v.logger.InfoContext(ctx, "ui login refused", slog.String("tenant", l.Tenant), slog.String("reason", err.Error()))
		return ports.Session{}, err
	}
	if now.After(l.Until) {
		return refuse(refusal(ErrLoginState, "the sign-in took longer than %s; start again", LoginLifetime))
	}
	if subtle.ConstantTimeCompare([]byte(a.State), []byte(l.State)) != 1 {
		return refuse(refusal(ErrLoginState, "the provider's answer does not belong to the sign-in started in this browser (state mismatch)"))
	}
	if a.Error != "" {
		return refuse(refusal(ErrUnauthenticated, "the identity provider refused the sign-in (%s)", authorizationError(a.Error)))
	}
	if a.Code == "" {
		return refuse(refusal(ErrUnauthenticated, "the identity provider's answer carries no code"))
	}
	p, err := v.finishLogin(ctx, l, a.Code)
	if err != nil {
		return refuse(err)
	}
	s := ports.Session{ID: randomToken(), Tenant: p.Tenant, Subject: p.Subject, CSRF: randomToken(), Started: now}
	s.Expires = v.expiry(s, now)
	if err := v.sessions.Create(ctx, s); err != nil {
		return ports.Session{}, storeFailed(err)
	}
	if sid != "" {
		// Signed in before (for another tenant): that session ends here.
		if err := v.sessions.Delete(ctx, sid); err != nil {
			return ports.Session{}, storeFailed(err)
		}
	}
	v.logger.InfoContext(ctx, "ui login", slog.String("tenant", s.Tenant), slog.String("subject", s.Subject),
		slog.String("session", Fingerprint(s.ID)), slog.String("previous_session", Fingerprint(sid)))
	return s, nil
}

// authorizationErrors are the error codes of an authorization response:
// RFC 6749 4.1.2.1 and OpenID Connect Core 1.0 3.1.2.6.
var authorizationErrors = map[string]bool{
	"invalid_request": true, "unauthorized_client": true, "access_denied": true,
	"unsupported_response_type": true, "invalid_scope": true, "server_error": true,
	"temporarily_unavailable": true, "interaction_required": true, "login_required": true,
	"account_selection_required": true, "consent_required": true, "invalid_request_uri": true,
	"invalid_request_object": true, "request_not_supported": true,
	"request_uri_not_supported": true, "registration_not_supported": true,
}

// authorizationError is the error code of the callback's query, fit to be
// shown: one the standards define, or a fixed phrase. The query is
// anyone's to write, so nothing else of it is repeated.
func authorizationError(code string) string {
	if authorizationErrors[code] {
		return code
	}
	return "an unrecognised error"
}

// Session returns the signed-in session sid and counts the request as
// activity: the idle timeout starts again, within the absolute one. It
// checks the tenant's dss.validator license on every call (through the
// cache), so that a revoked license ends the UI as it ends the API.
func (v *Validator) Session(ctx context.Context, sid string) (ports.Session, error) {
	if sid == "" {
		return ports.Session{}, fmt.Errorf("no session cookie: %w", ports.ErrNoSession)
	}
	now := v.clock()
	s, err := v.sessions.Update(ctx, sid, func(s *ports.Session) error {
		s.Expires = v.expiry(*s, now)
		return nil
	})
	switch {
	case errors.Is(err, ports.ErrNoSession):
		v.logger.InfoContext(ctx, "ui session unknown or ended", slog.String("session", Fingerprint(sid)))
		return ports.Session{}, err
	case err != nil:
		return ports.Session{}, storeFailed(err)
	}
	if !v.cfg.PermitAll {
		if err := v.checkLicense(ctx, s.Tenant); err != nil {
			return ports.Session{}, err
		}
	}
	return s, nil
}

// DevelopmentSession is Session under permit-all, where nobody signs in:
// a browser without a session gets a new one of the development tenant.
func (v *Validator) DevelopmentSession(ctx context.Context, sid string) (ports.Session, error) {
	if !v.cfg.PermitAll {
		return ports.Session{}, refusal(ErrUnauthenticated, "permit-all is off")
	}
	if s, err := v.Session(ctx, sid); err == nil {
		return s, nil
	}
	now := v.clock()
	s := ports.Session{ID: randomToken(), Tenant: DevelopmentTenant, CSRF: randomToken(), Started: now}
	s.Expires = v.expiry(s, now)
	if err := v.sessions.Create(ctx, s); err != nil {
		return ports.Session{}, storeFailed(err)
	}
	v.logger.InfoContext(ctx, "ui development session opened (permit-all)", slog.String("tenant", s.Tenant), slog.String("session", Fingerprint(s.ID)))
	return s, nil
}

// EndSession signs the session out (logout). It only ends the session
// here; the provider's own session, if any, is the provider's.
func (v *Validator) EndSession(ctx context.Context, sid string) error {
	s, err := v.sessions.Get(ctx, sid)
	switch {
	case errors.Is(err, ports.ErrNoSession):
		return err
	case err != nil:
		return storeFailed(err)
	}
	if err := v.sessions.Delete(ctx, sid); err != nil {
		return storeFailed(err)
	}
	v.logger.InfoContext(ctx, "ui logout", slog.String("tenant", s.Tenant), slog.String("subject", s.Subject), slog.String("session", Fingerprint(sid)))
	return nil
}

// KeepValidation makes r the session's last validated document, the one
// the report downloads serve: both XML reports and, with a report seal,
// the Signature Validation Token are made now and kept with the verdict
// (the PDF report is rendered from it when downloaded); the validation
// itself is not kept (ports.Reports).
func (v *Validator) KeepValidation(ctx context.Context, sid string, r *validation.Result) error {
	last := ports.Reports{DocumentName: r.Summary.DocumentName}
	var err error
	if last.Summary, err = keptSummary(r.Summary); err != nil {
		return fmt.Errorf("app: verdict: %w", err)
	}
	if last.Detailed, err = r.DetailedReport(); err != nil {
		return fmt.Errorf("app: detailed report: %w", err)
	}
	if last.ETSI, err = r.ETSIReport(); err != nil && !errors.Is(err, report.ErrNoSignature) {
		return fmt.Errorf("app: ETSI report: %w", err)
	}
	if v.seal != nil && len(r.Summary.Signatures) > 0 {
		if last.Token, err = v.Token(ctx, r.Validation); err != nil {
			return err
		}
	}
	_, err = v.sessions.Update(ctx, sid, func(s *ports.Session) error {
		s.Last = &last
		return nil
	})
	return err
}

// storeFailed is err of the session store, which is not the browser's
// fault: ErrSessionStoreUnavailable.
func storeFailed(err error) error {
	return fmt.Errorf("%w: %w", ErrSessionStoreUnavailable, err)
}

// SetLanguage records the language the browser of session sid chose for
// its pages.
func (v *Validator) SetLanguage(ctx context.Context, sid string, l catalog.Lang) error {
	_, err := v.sessions.Update(ctx, sid, func(s *ports.Session) error {
		s.Language = string(l)
		return nil
	})
	if err != nil {
		return fmt.Errorf("app: session language: %w", err)
	}
	return nil
}

// expiry is when s ends if it is used at now: after the idle timeout,
// but never after the absolute one.
func (v *Validator) expiry(s ports.Session, now time.Time) time.Time {
	return earlier(now.Add(v.cfg.Session.IdleTimeout), s.Started.Add(v.cfg.Session.AbsoluteTimeout))
}

func earlier(a, b time.Time) time.Time {
	if b.Before(a) {
		return b
	}
	return a
}

// Fingerprint names a session in logs without its ID, which is a bearer
// credential: the first 12 hex digits of the ID's SHA-256.
func Fingerprint(sid string) string {
	if sid == "" {
		return ""
	}
	h := sha256.Sum256([]byte(sid))
	return hex.EncodeToString(h[:6])
}
