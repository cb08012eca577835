package app

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

	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/domain/report"
	"github.com/svc-dss/dss/ports"
)

// The browser UI's sessions (validation-service.md §5 item 1,
// docs/decisions/0024). A session is created when a login starts, and
// replaced by a new one, with a new ID and form token, when the login
// completes; it ends after svc.dss.validator.session.idle-timeout without
// a request, after absolute-timeout in any case, or at logout. Servers
// keep its ID in a cookie and call these methods; errors wrap
// ports.ErrNoSession (not signed in: 401), ErrLoginState and
// ErrUnauthenticated (401), ErrForbidden (403), ErrUnknownTenant (404) or
// ErrAuthUnavailable (502).

// errNoLogin is a session without a login in progress.
var errNoLogin = errors.New("no login in progress")

// LoginAnswer is what the provider sent to the callback.
type LoginAnswer struct {
	State string
	Code  string
	// Error is the OAuth error code when the provider refused the login
	// (RFC 6749 4.1.2.1), such as access_denied.
	Error string
}

// Now is the service's clock.
func (v *Validator) Now() time.Time { return v.clock() }

// BeginLogin starts a login for tenant from the browser whose session
// cookie holds sid ("" when it has none). When that session is already
// signed in for tenant, it returns the session and no URL. Otherwise it
// returns the session that now carries the login, whose ID the cookie
// must hold (a new one unless the browser had a session), and the
// provider's authorization URL to send the browser to. A session signed in
// for another tenant stays signed in until the new login completes.
func (v *Validator) BeginLogin(ctx context.Context, sid, tenant string) (ports.Session, string, error) {
	var cur ports.Session
	var err error = ports.ErrNoSession
	if sid != "" {
		cur, err = v.sessions.Get(ctx, sid)
	}
	if err == nil && cur.Tenant != "" && strings.EqualFold(cur.Tenant, tenant) {
		s, err := v.Session(ctx, sid)
		return s, "", err
	}
	now := v.clock()
	l, u, err := v.startLogin(ctx, tenant, now)
	if err != nil {
		return ports.Session{}, "", err
	}
	if sid != "" {
		s, err := v.sessions.Update(ctx, sid, func(s *ports.Session) error {
			s.Login = &l
			s.Expires = v.expiry(*s, now)
			return nil
		})
		if err == nil {
			v.logger.InfoContext(ctx, "ui login started", slog.String("tenant", l.Tenant), slog.String("session", Fingerprint(s.ID)))
			return s, u, nil
		}
		if !errors.Is(err, ports.ErrNoSession) {
			return ports.Session{}, "", fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
		}
	}
	s := ports.Session{ID: randomToken(), CSRF: randomToken(), Started: now, Expires: l.Until, Login: &l}
	if err := v.sessions.Create(ctx, s); err != nil {
		return ports.Session{}, "", fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
	}
	v.logger.InfoContext(ctx, "ui login started", slog.String("tenant", l.Tenant), slog.String("session", Fingerprint(s.ID)))
	return s, u, nil
}

// CompleteLogin finishes the login in progress of session sid with the
// provider's answer. The login is used up whatever the outcome, so an
// answer cannot be replayed. On success the session is replaced: the
// returned one has a new ID and form token and is signed in for the
// login's tenant; the old one is gone.
func (v *Validator) CompleteLogin(ctx context.Context, sid string, a LoginAnswer) (ports.Session, error) {
	now := v.clock()
	if sid == "" {
		return ports.Session{}, fmt.Errorf("%w: this browser sent no session cookie: the sign-in was not started in it, or it blocks cookies", ErrLoginState)
	}
	var l ports.Login
	old, err := v.sessions.Update(ctx, sid, func(s *ports.Session) error {
		if s.Login == nil {
			return errNoLogin
		}
		l, s.Login = *s.Login, nil
		if s.Tenant == "" {
			s.Expires = now // it only carried the login
		}
		return nil
	})
	switch {
	case errors.Is(err, ports.ErrNoSession) || errors.Is(err, errNoLogin):
		v.logger.InfoContext(ctx, "ui login refused: no login in progress", slog.String("session", Fingerprint(sid)))
		return ports.Session{}, fmt.Errorf("%w: no sign-in is in progress in this browser: it was completed or abandoned, or it expired", ErrLoginState)
	case err != nil:
		return ports.Session{}, fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
	}
	refuse := func(err error) (ports.Session, error) {
		v.logger.InfoContext(ctx, "ui login refused", slog.String("tenant", l.Tenant), slog.String("session", Fingerprint(sid)), slog.String("reason", err.Error()))
		return ports.Session{}, err
	}
	if now.After(l.Until) {
		return refuse(fmt.Errorf("%w: the sign-in took longer than %s; start again", ErrLoginState, loginLifetime))
	}
	if subtle.ConstantTimeCompare([]byte(a.State), []byte(l.State)) != 1 {
		return refuse(fmt.Errorf("%w: the provider's answer does not belong to the sign-in started in this browser (state mismatch)", ErrLoginState))
	}
	if a.Error != "" {
		return refuse(fmt.Errorf("%w: the identity provider refused the sign-in (%s)", ErrUnauthenticated, oidc.ErrorCode(a.Error)))
	}
	if a.Code == "" {
		return refuse(fmt.Errorf("%w: the identity provider's answer carries no code", ErrUnauthenticated))
	}
	p, err := v.finishLogin(ctx, l, a.Code)
	if err != nil {
		return refuse(err)
	}
	s := ports.Session{ID: randomToken(), Tenant: p.Tenant, Subject: p.Subject, CSRF: randomToken(), Started: now}
	s.Expires = v.expiry(s, now)
	if err := v.sessions.Create(ctx, s); err != nil {
		return ports.Session{}, fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
	}
	if old.Tenant != "" {
		// Signed in for another tenant before: that session ends here.
		if err := v.sessions.Delete(ctx, sid); err != nil {
			return ports.Session{}, fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
		}
	}
	v.logger.InfoContext(ctx, "ui login", slog.String("tenant", s.Tenant), slog.String("subject", s.Subject),
		slog.String("session", Fingerprint(s.ID)), slog.String("previous_session", Fingerprint(sid)))
	return s, nil
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
		if s.Tenant == "" {
			return fmt.Errorf("a sign-in is in progress, not completed: %w", ports.ErrNoSession)
		}
		s.Expires = v.expiry(*s, now)
		return nil
	})
	switch {
	case errors.Is(err, ports.ErrNoSession):
		v.logger.InfoContext(ctx, "ui session unknown or ended", slog.String("session", Fingerprint(sid)))
		return ports.Session{}, err
	case err != nil:
		return ports.Session{}, fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
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
		return ports.Session{}, fmt.Errorf("%w: permit-all is off", ErrUnauthenticated)
	}
	if s, err := v.Session(ctx, sid); err == nil {
		return s, nil
	}
	now := v.clock()
	s := ports.Session{ID: randomToken(), Tenant: DevelopmentTenant, CSRF: randomToken(), Started: now}
	s.Expires = v.expiry(s, now)
	if err := v.sessions.Create(ctx, s); err != nil {
		return ports.Session{}, fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
	}
	v.logger.InfoContext(ctx, "ui development session opened (permit-all)", slog.String("tenant", s.Tenant), slog.String("session", Fingerprint(s.ID)))
	return s, nil
}

// EndSession signs the session out (logout). It only ends the session
// here; the provider's own session, if any, is the provider's.
func (v *Validator) EndSession(ctx context.Context, sid string) error {
	s, err := v.sessions.Get(ctx, sid)
	if err != nil {
		return err
	}
	if err := v.sessions.Delete(ctx, sid); err != nil {
		return fmt.Errorf("%w: session store: %w", ErrAuthUnavailable, err)
	}
	v.logger.InfoContext(ctx, "ui logout", slog.String("tenant", s.Tenant), slog.String("subject", s.Subject), slog.String("session", Fingerprint(sid)))
	return nil
}

// KeepValidation makes r the session's last validated document, the one
// the report downloads serve: both reports are rendered now and kept,
// the validation itself is not (ports.Reports).
func (v *Validator) KeepValidation(ctx context.Context, sid string, r report.Validation) error {
	last := ports.Reports{DocumentName: r.Summary.DocumentName}
	var err error
	if last.Detailed, err = report.Detailed(r); err != nil {
		return fmt.Errorf("app: detailed report: %w", err)
	}
	if last.ETSI, err = report.ETSI(r); err != nil && !errors.Is(err, report.ErrNoSignature) {
		return fmt.Errorf("app: ETSI report: %w", err)
	}
	_, err = v.sessions.Update(ctx, sid, func(s *ports.Session) error {
		s.Last = &last
		return nil
	})
	return err
}

// expiry is when s ends if it is used at now: after the idle timeout,
// but never after the absolute one; a login in progress keeps it until
// the login's own end.
func (v *Validator) expiry(s ports.Session, now time.Time) time.Time {
	end := s.Started.Add(v.cfg.Session.AbsoluteTimeout)
	e := earlier(now.Add(v.cfg.Session.IdleTimeout), end)
	if s.Login != nil {
		if s.Tenant == "" {
			return s.Login.Until
		}
		if l := earlier(s.Login.Until, end); l.After(e) {
			e = l
		}
	}
	return e
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
