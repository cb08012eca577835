package validator

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/ports"
)

// LoginLifetime bounds the time from the redirect to the provider to its
// answer: long enough to type a password and pass a second factor. The
// browser keeps the sealed login no longer (its cookie's Max-Age).
const LoginLifetime = 10 * time.Minute

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

// login holds what the UI login needs beyond the control database: the
// relying parties, one per provider registration, where client secrets
// are read from, and the AEAD that seals logins in progress.
type login struct {
	parties   *oidc.RelyingParties
	lookupEnv func(string) (string, bool)
	seal      cipher.AEAD
}

// newLogin returns the login's parts. Without a secret the sealing key
// is the process's own: random, in memory only, so a restart abandons
// the logins in progress (at most 10 minutes of them). With one
// (svc.dss.validator.session.login-key) it is derived from the secret
// with HKDF-SHA-256, so that every replica configured with it opens the
// logins the others sealed: the provider's callback may reach any of
// them (docs/decisions/0040).
func newLogin(parties *oidc.RelyingParties, lookupEnv func(string) (string, bool), secret string) login {
	key := make([]byte, 32)
	if secret == "" {
		_, _ = rand.Read(key) // crypto/rand.Read never fails
	} else {
		var err error
		if key, err = hkdf.Key(sha256.New, []byte(secret), nil, "svc-dss ui login seal v1", 32); err != nil {
			panic(err) // 32 bytes of SHA-256 output are always allowed
		}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		panic(err) // a 32-byte key is always an AES-256 key
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic(err)
	}
	return login{parties: parties, lookupEnv: lookupEnv, seal: aead}
}

// A pendingLogin is an OIDC authorization-code login in progress: what
// the callback must match and what the code exchange needs. It is not
// kept on the server: BeginLogin seals it for the browser to hold
// (docs/decisions/0024), so starting logins costs the server no memory
// and a flood of them can displace nobody.
type pendingLogin struct {
	Tenant string `json:"t"`
	// State, Nonce and Verifier (PKCE) are random, single-use values.
	State    string `json:"s"`
	Nonce    string `json:"n"`
	Verifier string `json:"v"`
	// RedirectURI is the one the authorization request named; the code
	// exchange must repeat it.
	RedirectURI string `json:"r"`
	// Until bounds how long the provider may take to answer.
	Until time.Time `json:"u"`
}

// sealContext binds a sealed login to its use: the AEAD's additional
// data, so that nothing else this key might ever seal opens as a login.
var sealContext = []byte("svc-dss ui login v1")

// sealLogin encrypts and authenticates l (AES-256-GCM, a random nonce),
// base64url without padding: only this process, or a replica with the
// same login key, can read or forge it.
func (lg login) sealLogin(l pendingLogin) string {
	plain, err := json.Marshal(l)
	if err != nil {
		panic(err) // strings and a time
	}
	nonce := make([]byte, lg.seal.NonceSize(), lg.seal.NonceSize()+len(plain)+lg.seal.Overhead())
	_, _ = rand.Read(nonce)
	return base64.RawURLEncoding.EncodeToString(lg.seal.Seal(nonce, nonce, plain, sealContext))
}

// openLogin is the login sealed in sealed, or errNoLogin when it is not
// one this process sealed (forged, altered, or sealed before a restart).
func (lg login) openLogin(sealed string) (pendingLogin, error) {
	raw, err := base64.RawURLEncoding.DecodeString(sealed)
	if err != nil || len(raw) < lg.seal.NonceSize() {
		return pendingLogin{}, errNoLogin
	}
	n := lg.seal.NonceSize()
	plain, err := lg.seal.Open(nil, raw[:n], raw[n:], sealContext)
	if err != nil {
		return pendingLogin{}, errNoLogin
	}
	var l pendingLogin
	if err := json.Unmarshal(plain, &l); err != nil {
		return pendingLogin{}, errNoLogin
	}
	return l, nil
}

// startLogin prepares the authorization request of a login for tenant:
// the tenant's provider, its relying party (discovered), and fresh state,
// nonce and PKCE verifier. The URL is where to send the browser.
func (v *Validator) startLogin(ctx context.Context, tenant string, now time.Time) (pendingLogin, string, error) {
	p, reg, err := v.registration(ctx, tenant, "")
	if err != nil {
		return pendingLogin{}, "", err
	}
	l := pendingLogin{
		Tenant: p.Tenant, State: randomToken(), Nonce: randomToken(), Verifier: randomToken(),
		RedirectURI: reg.RedirectURI, Until: now.Add(LoginLifetime),
	}
	u, err := v.login.parties.AuthURL(ctx, reg, oidc.LoginRequest{State: l.State, Nonce: l.Nonce, Verifier: l.Verifier})
	if err != nil {
		return pendingLogin{}, "", fmt.Errorf("%w: provider %s of tenant %s: %w", ErrAuthUnavailable, reg.Issuer, p.Tenant, err)
	}
	return l, u, nil
}

// finishLogin redeems the code of login l and has the ID token verified
// (signature, iss, aud, exp, iat and the nonce: adapters/oidc); then the
// cross-tenant guard (the token's tenant claim must name the tenant whose
// login was started: two tenants' providers may share an issuer) and the
// dss.validator license.
func (v *Validator) finishLogin(ctx context.Context, l pendingLogin, code string) (Principal, error) {
	_, reg, err := v.registration(ctx, l.Tenant, l.RedirectURI)
	if err != nil {
		return Principal{}, err
	}
	id, err := v.login.parties.Exchange(ctx, reg, oidc.LoginRequest{State: l.State, Nonce: l.Nonce, Verifier: l.Verifier}, code)
	switch {
	case errors.Is(err, oidc.ErrUnauthenticated):
		// The adapter's reason, in its fixed words; the page says it
		// after its own.
		if e, ok := errors.AsType[*oidc.LoginError](err); ok {
			return Principal{}, &RefusalError{Kind: ErrUnauthenticated, Detail: e.Reason}
		}
		return Principal{}, &RefusalError{Kind: ErrUnauthenticated, Detail: "the ID token is not valid", Err: err}
	case err != nil:
		return Principal{}, fmt.Errorf("%w: provider %s of tenant %s: %w", ErrAuthUnavailable, reg.Issuer, l.Tenant, err)
	}
	if !strings.EqualFold(id.Tenant, l.Tenant) {
		v.logger.WarnContext(ctx, "ui login refused: the ID token names another tenant",
			slog.String("tenant", l.Tenant), slog.String("claimed_tenant", id.Tenant), slog.String("subject", id.Subject))
		if id.Tenant == "" {
			return Principal{}, refusal(ErrForbidden, "the account you signed in with (%s) names no tenant; this sign-in is for tenant %s", id.Subject, l.Tenant)
		}
		return Principal{}, refusal(ErrForbidden, "the account you signed in with (%s) belongs to another tenant, not to tenant %s", id.Subject, l.Tenant)
	}
	if err := v.checkLicense(ctx, l.Tenant); err != nil {
		return Principal{}, err
	}
	return Principal{Tenant: l.Tenant, Subject: id.Subject}, nil
}

// checkLicense returns nil when tenant holds dss.validator now, a
// *RefusalError of ErrForbidden when not, and an error wrapping
// ErrAuthUnavailable when the control database does not answer.
func (v *Validator) checkLicense(ctx context.Context, tenant string) error {
	licensed, err := v.auth.licensed(ctx, tenant, FeatureValidator)
	switch {
	case err != nil:
		return fmt.Errorf("%w: license of tenant %s: %w", ErrAuthUnavailable, tenant, err)
	case !licensed:
		return refusal(ErrForbidden, "tenant %s does not hold the %s license", tenant, FeatureValidator)
	}
	return nil
}

// registration returns tenant's provider row and the relying party's
// registration for it, with the redirect URI the row gives (redirect,
// when not empty, must be that one: a login started before a change of
// the registration fails rather than redeem its code elsewhere).
func (v *Validator) registration(ctx context.Context, tenant, redirect string) (ports.Provider, oidc.Registration, error) {
	if v.auth == nil {
		return ports.Provider{}, oidc.Registration{}, fmt.Errorf("%w: no control database is configured", ErrAuthUnavailable)
	}
	p, err := v.auth.tenants.Provider(ctx, tenant)
	switch {
	case errors.Is(err, ports.ErrNotFound):
		return ports.Provider{}, oidc.Registration{}, fmt.Errorf("%w: %w", ErrUnknownTenant, err)
	case err != nil:
		return ports.Provider{}, oidc.Registration{}, fmt.Errorf("%w: provider of tenant %s: %w", ErrAuthUnavailable, tenant, err)
	}
	uri := redirectURI(p.RedirectBaseURL, v.cfg.BaseURL)
	if redirect != "" && redirect != uri {
		return ports.Provider{}, oidc.Registration{}, refusal(ErrLoginState, "the tenant's redirect URI changed during the sign-in")
	}
	secret, err := resolveSecret(p.ClientSecretRef, v.login.lookupEnv)
	if err != nil {
		return ports.Provider{}, oidc.Registration{}, fmt.Errorf("%w: tenant %s's client_secret_ref: %w", ErrAuthUnavailable, p.Tenant, err)
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
