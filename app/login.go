package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/ports"
)

// LoginCallbackPath is the path of the browser UI's OIDC redirect URI:
// every tenant's redirect URI is its redirect_base_url, or else
// svc.dss.validator.base-url, followed by this path
// (docs/decisions/0024). Register exactly that URI at the provider.
const LoginCallbackPath = "/validate/callback"

// More outcomes of the UI login (see also ErrUnauthenticated, ErrForbidden
// and ErrAuthUnavailable).
var (
	// ErrUnknownTenant: no enabled tenant with a provider has that ID.
	ErrUnknownTenant = errors.New("app: unknown tenant")
	// ErrLoginState: the provider's answer does not belong to a login
	// in progress in this browser (no login, another state, too late,
	// answered before).
	ErrLoginState = errors.New("app: no matching sign-in in progress")
)

// loginLifetime bounds the time from the redirect to the provider to its
// answer: long enough to type a password and pass a second factor.
const loginLifetime = 10 * time.Minute

// login holds what the UI login needs beyond the control database: the
// relying parties, one per provider registration, and where client
// secrets are read from.
type login struct {
	parties   *oidc.RelyingParties
	lookupEnv func(string) (string, bool)
}

// startLogin prepares the authorization request of a login for tenant:
// the tenant's provider, its relying party (discovered), and fresh state,
// nonce and PKCE verifier. The URL is where to send the browser.
func (v *Validator) startLogin(ctx context.Context, tenant string, now time.Time) (ports.Login, string, error) {
	p, reg, err := v.registration(ctx, tenant, "")
	if err != nil {
		return ports.Login{}, "", err
	}
	l := ports.Login{
		Tenant: p.Tenant, State: randomToken(), Nonce: randomToken(), Verifier: randomToken(),
		RedirectURI: reg.RedirectURI, Until: now.Add(loginLifetime),
	}
	u, err := v.login.parties.AuthURL(ctx, reg, oidc.LoginRequest{State: l.State, Nonce: l.Nonce, Verifier: l.Verifier})
	if err != nil {
		return ports.Login{}, "", fmt.Errorf("%w: provider %s of tenant %s: %w", ErrAuthUnavailable, reg.Issuer, p.Tenant, err)
	}
	return l, u, nil
}

// finishLogin redeems the code of login l and has the ID token verified
// (signature, iss, aud, exp, iat and the nonce: adapters/oidc); then the
// cross-tenant guard (the token's tenant claim must name the tenant whose
// login was started: two tenants' providers may share an issuer) and the
// dss.validator license.
func (v *Validator) finishLogin(ctx context.Context, l ports.Login, code string) (Principal, error) {
	_, reg, err := v.registration(ctx, l.Tenant, l.RedirectURI)
	if err != nil {
		return Principal{}, err
	}
	id, err := v.login.parties.Exchange(ctx, reg, oidc.LoginRequest{State: l.State, Nonce: l.Nonce, Verifier: l.Verifier}, code)
	switch {
	case errors.Is(err, oidc.ErrUnauthenticated):
		// The reason alone: the page says it after its own words.
		return Principal{}, fmt.Errorf("%w: %s", ErrUnauthenticated, strings.TrimPrefix(err.Error(), oidc.ErrUnauthenticated.Error()+": "))
	case err != nil:
		return Principal{}, fmt.Errorf("%w: provider %s of tenant %s: %w", ErrAuthUnavailable, reg.Issuer, l.Tenant, err)
	}
	if !strings.EqualFold(id.Tenant, l.Tenant) {
		v.logger.WarnContext(ctx, "ui login refused: the ID token names another tenant",
			slog.String("tenant", l.Tenant), slog.String("claimed_tenant", id.Tenant), slog.String("subject", id.Subject))
		if id.Tenant == "" {
			return Principal{}, fmt.Errorf("%w: the account you signed in with (%s) names no tenant; this sign-in is for tenant %s", ErrForbidden, id.Subject, l.Tenant)
		}
		return Principal{}, fmt.Errorf("%w: the account you signed in with (%s) belongs to another tenant, not to tenant %s", ErrForbidden, id.Subject, l.Tenant)
	}
	if err := v.checkLicense(ctx, l.Tenant); err != nil {
		return Principal{}, err
	}
	return Principal{Tenant: l.Tenant, Subject: id.Subject}, nil
}

// checkLicense returns nil when tenant holds dss.validator now, an error
// wrapping ErrForbidden when not, and one wrapping ErrAuthUnavailable
// when the control database does not answer.
func (v *Validator) checkLicense(ctx context.Context, tenant string) error {
	licensed, err := v.auth.licensed(ctx, tenant, FeatureValidator)
	switch {
	case err != nil:
		return fmt.Errorf("%w: license of tenant %s: %w", ErrAuthUnavailable, tenant, err)
	case !licensed:
		return fmt.Errorf("%w: tenant %s does not hold the %s license", ErrForbidden, tenant, FeatureValidator)
	}
	return nil
}

// registration returns tenant's provider row and the relying party's
// registration for it, with the redirect URI the row gives (redirect,
// when not empty, must be that one: a login started before a change of
// the registration fails rather than redeem its code elsewhere).
func (v *Validator) registration(ctx context.Context, tenant, redirect string) (postgres.Provider, oidc.Registration, error) {
	if v.auth == nil {
		return postgres.Provider{}, oidc.Registration{}, fmt.Errorf("%w: no control database is configured", ErrAuthUnavailable)
	}
	p, err := v.auth.provider(ctx, tenant)
	switch {
	case errors.Is(err, postgres.ErrNotFound):
		return postgres.Provider{}, oidc.Registration{}, fmt.Errorf("%w: %w", ErrUnknownTenant, err)
	case err != nil:
		return postgres.Provider{}, oidc.Registration{}, fmt.Errorf("%w: provider of tenant %s: %w", ErrAuthUnavailable, tenant, err)
	}
	uri := redirectURI(p.RedirectBaseURL, v.cfg.BaseURL)
	if redirect != "" && redirect != uri {
		return postgres.Provider{}, oidc.Registration{}, fmt.Errorf("%w: the tenant's redirect URI changed during the sign-in", ErrLoginState)
	}
	secret, err := resolveSecret(p.ClientSecretRef, v.login.lookupEnv)
	if err != nil {
		return postgres.Provider{}, oidc.Registration{}, fmt.Errorf("%w: tenant %s's client_secret_ref: %w", ErrAuthUnavailable, p.Tenant, err)
	}
	return p, oidc.Registration{Issuer: p.Issuer, ClientID: p.ClientID, Secret: secret, RedirectURI: uri}, nil
}

// redirectURI is the tenant's redirect URI: its own base URL, or the
// service's, and the callback path.
func redirectURI(tenantBase, serviceBase string) string {
	base := tenantBase
	if base == "" {
		base = serviceBase
	}
	return strings.TrimRight(base, "/") + LoginCallbackPath
}

// resolveSecret reads a client_secret_ref (docs/decisions/0024): empty is
// a public client (no secret: PKCE alone binds the code); "env:NAME" is
// the environment variable NAME of the service; "file:/path" is the
// content of a file, less a final line break (a mounted secret). The
// secret itself is never in the database, never in an error and never
// logged.
func resolveSecret(ref string, lookupEnv func(string) (string, bool)) (string, error) {
	if ref == "" {
		return "", nil
	}
	scheme, name, _ := strings.Cut(ref, ":")
	switch {
	case scheme == "env" && name != "":
		if s, ok := lookupEnv(name); ok && s != "" {
			return s, nil
		}
		return "", fmt.Errorf("%q names environment variable %s, which is not set", ref, name)
	case scheme == "file" && strings.HasPrefix(name, "/"):
		b, err := os.ReadFile(name)
		if err != nil {
			return "", fmt.Errorf("%q: %w", ref, err)
		}
		s := strings.TrimRight(string(b), "\r\n")
		if s == "" {
			return "", fmt.Errorf("%q names an empty file", ref)
		}
		return s, nil
	}
	return "", fmt.Errorf("%q is neither env:NAME nor file:/absolute/path", ref)
}

// randomToken returns 256 random bits, base64url without padding (43
// characters): session IDs, form tokens, state, nonce and PKCE verifiers
// (RFC 7636 4.1 wants 43 to 128 characters).
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}
