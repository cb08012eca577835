package app

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client/rp"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"
	"golang.org/x/oauth2"

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

// loginScopes are the scopes the UI asks for: only the ID token's.
var loginScopes = []string{zoidc.ScopeOpenID}

// idTokenAlgorithms are the ID-token signature algorithms accepted:
// asymmetric only, as for bearer tokens (docs/decisions/0022), so that no
// ID token is verified with the client secret as an HMAC key.
var idTokenAlgorithms = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"}

// login holds what the UI login needs beyond the control database: the
// relying parties, one per provider registration, and where client
// secrets are read from.
type login struct {
	parties   *relyingParties
	lookupEnv func(string) (string, bool)
}

// startLogin prepares the authorization request of a login for tenant:
// the tenant's provider, its relying party (discovered), and fresh state,
// nonce and PKCE verifier. The URL is where to send the browser.
func (v *Validator) startLogin(ctx context.Context, tenant string, now time.Time) (ports.Login, string, error) {
	p, party, redirect, err := v.relyingParty(ctx, tenant, "")
	if err != nil {
		return ports.Login{}, "", err
	}
	l := ports.Login{
		Tenant: p.Tenant, State: randomToken(), Nonce: randomToken(), Verifier: randomToken(),
		RedirectURI: redirect, Until: now.Add(loginLifetime),
	}
	u := rp.AuthURL(l.State, party,
		rp.WithCodeChallenge(zoidc.NewSHACodeChallenge(l.Verifier)),
		rp.AuthURLOpt(rp.WithURLParam("nonce", l.Nonce)))
	return l, u, nil
}

// finishLogin redeems the code of login l and verifies the ID token:
// signature (the provider's keys), iss, aud (the client ID), exp, iat and
// the nonce, by zitadel's relying party; then the cross-tenant guard (the
// token's tenant claim must name the tenant whose login was started: two
// tenants' providers may share an issuer) and the dss.validator license.
func (v *Validator) finishLogin(ctx context.Context, l ports.Login, code string) (Principal, error) {
	_, party, _, err := v.relyingParty(ctx, l.Tenant, l.RedirectURI)
	if err != nil {
		return Principal{}, err
	}
	tokens, err := rp.CodeExchange[*zoidc.IDTokenClaims](withNonce(ctx, l.Nonce), code, party, rp.WithCodeVerifier(l.Verifier))
	if err != nil {
		return Principal{}, exchangeError(err)
	}
	claims := tokens.IDTokenClaims
	// zitadel checked the nonce through withNonce; this says it again
	// where it is read, in constant time.
	if subtle.ConstantTimeCompare([]byte(claims.Nonce), []byte(l.Nonce)) != 1 {
		return Principal{}, fmt.Errorf("%w: the ID token does not carry this sign-in's nonce", ErrUnauthenticated)
	}
	claimed, _ := claims.Claims[oidc.TenantClaim].(string)
	if !strings.EqualFold(claimed, l.Tenant) {
		v.logger.WarnContext(ctx, "ui login refused: the ID token names another tenant",
			slog.String("tenant", l.Tenant), slog.String("claimed_tenant", claimed), slog.String("subject", claims.Subject))
		if claimed == "" {
			return Principal{}, fmt.Errorf("%w: the account you signed in with (%s) names no tenant; this sign-in is for tenant %s", ErrForbidden, claims.Subject, l.Tenant)
		}
		return Principal{}, fmt.Errorf("%w: the account you signed in with (%s) belongs to another tenant, not to tenant %s", ErrForbidden, claims.Subject, l.Tenant)
	}
	if err := v.checkLicense(ctx, l.Tenant); err != nil {
		return Principal{}, err
	}
	return Principal{Tenant: l.Tenant, Subject: claims.Subject}, nil
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

// relyingParty returns tenant's provider registration and the relying
// party for it, with the redirect URI the registration gives (redirect,
// when not empty, must be that one: a login started before a change of
// the registration fails rather than redeem its code elsewhere).
func (v *Validator) relyingParty(ctx context.Context, tenant, redirect string) (postgres.Provider, rp.RelyingParty, string, error) {
	if v.auth == nil {
		return postgres.Provider{}, nil, "", fmt.Errorf("%w: no control database is configured", ErrAuthUnavailable)
	}
	p, err := v.auth.provider(ctx, tenant)
	switch {
	case errors.Is(err, postgres.ErrNotFound):
		return postgres.Provider{}, nil, "", fmt.Errorf("%w: %w", ErrUnknownTenant, err)
	case err != nil:
		return postgres.Provider{}, nil, "", fmt.Errorf("%w: provider of tenant %s: %w", ErrAuthUnavailable, tenant, err)
	}
	uri := redirectURI(p.RedirectBaseURL, v.cfg.BaseURL)
	if redirect != "" && redirect != uri {
		return postgres.Provider{}, nil, "", fmt.Errorf("%w: the tenant's redirect URI changed during the sign-in", ErrLoginState)
	}
	secret, err := resolveSecret(p.ClientSecretRef, v.login.lookupEnv)
	if err != nil {
		return postgres.Provider{}, nil, "", fmt.Errorf("%w: tenant %s's client_secret_ref: %w", ErrAuthUnavailable, p.Tenant, err)
	}
	party, err := v.login.parties.get(ctx, partyKey{issuer: p.Issuer, clientID: p.ClientID, secret: secret, redirect: uri})
	if err != nil {
		return postgres.Provider{}, nil, "", fmt.Errorf("%w: provider %s of tenant %s: %w", ErrAuthUnavailable, p.Issuer, p.Tenant, err)
	}
	return p, party, uri, nil
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

// exchangeError classifies a failed code exchange or ID-token check: a
// provider that answers with an OAuth error (a replayed or foreign code,
// a wrong verifier, a client it does not know) or an ID token that does
// not verify is a failed sign-in (401); a provider that does not answer,
// or answers with a server error, is unavailable (502). The reasons are
// short and fixed: zitadel's own messages may quote the nonce.
func exchangeError(err error) error {
	if re, ok := errors.AsType[*oauth2.RetrieveError](err); ok {
		if re.Response != nil && re.Response.StatusCode >= http.StatusInternalServerError {
			return fmt.Errorf("%w: token endpoint: %s", ErrAuthUnavailable, re.Response.Status)
		}
		code := oauthCode(re.ErrorCode)
		if re.ErrorCode == "" {
			code = "an error"
		}
		return fmt.Errorf("%w: the identity provider refused the code (%s)", ErrUnauthenticated, code)
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return fmt.Errorf("%w: token endpoint: %w", ErrAuthUnavailable, err)
	}
	if _, ok := errors.AsType[*url.Error](err); ok {
		return fmt.Errorf("%w: token endpoint: %w", ErrAuthUnavailable, err)
	}
	for _, r := range idTokenFaults {
		if errors.Is(err, r.err) {
			return fmt.Errorf("%w: the ID token %s", ErrUnauthenticated, r.reason)
		}
	}
	return fmt.Errorf("%w: the ID token is not valid", ErrUnauthenticated)
}

// idTokenFaults name the ID-token checks that failed, in words.
var idTokenFaults = []struct {
	err    error
	reason string
}{
	{rp.ErrMissingIDToken, "is missing from the provider's answer"},
	// go-jose refuses to parse a JWS of an algorithm not accepted (none,
	// HMAC); zitadel reports that as a parse failure.
	{zoidc.ErrParse, "cannot be read, or is not signed with an accepted algorithm"},
	{zoidc.ErrSignatureMissing, "is not signed"},
	{zoidc.ErrSignatureMultiple, "has more than one signature"},
	{zoidc.ErrSignatureUnsupportedAlg, "is signed with an algorithm that is not accepted"},
	{zoidc.ErrSignatureInvalid, "does not verify with the provider's keys"},
	{zoidc.ErrSignatureInvalidPayload, "does not verify with the provider's keys"},
	{zoidc.ErrIssuerInvalid, "is from another issuer"},
	{zoidc.ErrAudience, "is not meant for this service (aud)"},
	{zoidc.ErrAzpInvalid, "is meant for another party (azp)"},
	{zoidc.ErrAzpMissing, "has several audiences and no azp"},
	{zoidc.ErrSubjectMissing, "names no subject"},
	{zoidc.ErrExpired, "has expired"},
	{zoidc.ErrIatMissing, "has no issue time"},
	{zoidc.ErrIatInFuture, "is issued in the future"},
	{zoidc.ErrNonceInvalid, "does not carry this sign-in's nonce"},
	{zoidc.ErrAtHash, "does not match its access token (at_hash)"},
}

// nonceKey carries the expected nonce of a code exchange to the ID-token
// verifier, which is shared by every login of the provider.
type nonceKey struct{}

func withNonce(ctx context.Context, nonce string) context.Context {
	return context.WithValue(ctx, nonceKey{}, nonce)
}

// expectedNonce is the verifier's nonce source. A context without one
// expects a nonce that no token carries, so that a forgotten withNonce
// fails closed.
func expectedNonce(ctx context.Context) string {
	if n, ok := ctx.Value(nonceKey{}).(string); ok && n != "" {
		return n
	}
	return "\x00no nonce expected\x00"
}

// randomToken returns 256 random bits, base64url without padding (43
// characters): session IDs, form tokens, state, nonce and PKCE verifiers
// (RFC 7636 4.1 wants 43 to 128 characters).
func randomToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b)
}

// partyKey identifies a relying party: a change of any part in the
// control database (or of the secret) makes a new one.
type partyKey struct {
	issuer, clientID, secret, redirect string
}

// Bounds of the relying-party cache: the discovery document is trusted
// for partyTTL, as the bearer verifier trusts it (docs/decisions/0022),
// and at most maxParties registrations are kept.
const (
	partyTTL   = time.Hour
	maxParties = 1000
	// discoveryTimeout bounds each request to a provider.
	discoveryTimeout = 10 * time.Second
)

// relyingParties caches zitadel relying parties: building one fetches the
// provider's discovery document. Failures are not cached, so a provider
// that comes back is used at once. Safe for concurrent use.
type relyingParties struct {
	clock  func() time.Time
	client *http.Client
	mu     sync.Mutex
	cached map[partyKey]cachedParty
}

type cachedParty struct {
	party rp.RelyingParty
	until time.Time
}

func newRelyingParties(clock func() time.Time) *relyingParties {
	return &relyingParties{clock: clock, client: &http.Client{Timeout: discoveryTimeout}, cached: map[partyKey]cachedParty{}}
}

func (r *relyingParties) get(ctx context.Context, k partyKey) (rp.RelyingParty, error) {
	now := r.clock()
	r.mu.Lock()
	c, ok := r.cached[k]
	r.mu.Unlock()
	if ok && now.Before(c.until) {
		return c.party, nil
	}
	party, err := rp.NewRelyingPartyOIDC(ctx, k.issuer, k.clientID, k.secret, k.redirect, loginScopes,
		rp.WithHTTPClient(r.client),
		// zitadel's own log could hold request details; ours says what
		// matters.
		rp.WithLogger(slog.New(slog.DiscardHandler)),
		rp.WithVerifierOpts(rp.WithNonce(expectedNonce), rp.WithSupportedSigningAlgorithms(idTokenAlgorithms...)))
	if err != nil {
		return nil, fmt.Errorf("discovery: %w", err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.cached) >= maxParties {
		for key, c := range r.cached {
			if !now.Before(c.until) || len(r.cached) >= maxParties {
				delete(r.cached, key)
			}
		}
	}
	r.cached[k] = cachedParty{party: party, until: now.Add(partyTTL)}
	return party, nil
}
