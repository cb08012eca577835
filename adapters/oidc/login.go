package oidc

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"sync"
	"time"

	"github.com/zitadel/oidc/v3/pkg/client/rp"
	zoidc "github.com/zitadel/oidc/v3/pkg/oidc"
	"golang.org/x/oauth2"
)

// A Registration is a client registered at a provider for the browser
// login of one tenant: the relying party's side of it.
type Registration struct {
	Issuer   string
	ClientID string
	// Secret is the client secret; "" for a public client, whose code
	// only PKCE binds.
	Secret      string
	RedirectURI string
}

// A LoginRequest is what an authorization request binds and its answer
// must match: all three random, single-use values.
type LoginRequest struct {
	State    string
	Nonce    string
	Verifier string // the PKCE code verifier (S256)
}

// An IDToken is a verified ID token of a login.
type IDToken struct {
	Subject string
	// Tenant is the token's TenantClaim, "" when it has none.
	Tenant string
}

// Bounds of the relying-party cache: the discovery document is trusted
// for partyTTL, as the bearer verifier trusts it, and at most maxParties
// registrations are kept.
const (
	partyTTL   = time.Hour
	maxParties = 1000
	// discoveryTimeout bounds each request to a provider.
	discoveryTimeout = 10 * time.Second
)

// loginScopes are the scopes the login asks for: only the ID token's.
var loginScopes = []string{zoidc.ScopeOpenID}

// RelyingParties runs the browser login's authorization-code flow with
// PKCE, one zitadel relying party per registration, built by discovery
// (the discovered issuer must equal the registered one) and kept for an
// hour. A failed discovery is not kept, so a provider that comes back is
// used at once. Safe for concurrent use.
//
// The ID token is verified by zitadel: signature with the provider's keys
// by an asymmetric algorithm (as bearer tokens: no HMAC with the client
// secret), iss, aud (the client ID), azp, exp, iat, and the nonce of this
// very login.
type RelyingParties struct {
	clock  func() time.Time
	client *http.Client
	mu     sync.Mutex
	cached map[Registration]cachedParty
}

type cachedParty struct {
	party rp.RelyingParty
	until time.Time
}

// NewRelyingParties returns an empty cache of relying parties whose ages
// are measured with clock.
func NewRelyingParties(clock func() time.Time) *RelyingParties {
	return &RelyingParties{clock: clock, client: &http.Client{Timeout: discoveryTimeout}, cached: map[Registration]cachedParty{}}
}

// AuthURL is where to send the browser to sign in under reg for login l.
// An error wraps ErrUnavailable: the provider's discovery failed.
func (r *RelyingParties) AuthURL(ctx context.Context, reg Registration, l LoginRequest) (string, error) {
	party, err := r.party(ctx, reg)
	if err != nil {
		return "", err
	}
	return rp.AuthURL(l.State, party,
		rp.WithCodeChallenge(zoidc.NewSHACodeChallenge(l.Verifier)),
		rp.AuthURLOpt(rp.WithURLParam("nonce", l.Nonce))), nil
}

// Exchange redeems code at reg's token endpoint with l's verifier and
// verifies the ID token it returns, nonce included. A refused code or an
// ID token that does not verify is a *LoginError (ErrUnauthenticated),
// with a short fixed reason (zitadel's own messages may quote the nonce);
// a provider that does not answer, or answers with a server error, is
// ErrUnavailable.
func (r *RelyingParties) Exchange(ctx context.Context, reg Registration, l LoginRequest, code string) (IDToken, error) {
	party, err := r.party(ctx, reg)
	if err != nil {
		return IDToken{}, err
	}
	tokens, err := rp.CodeExchange[*zoidc.IDTokenClaims](withNonce(ctx, l.Nonce), code, party, rp.WithCodeVerifier(l.Verifier))
	if err != nil {
		return IDToken{}, exchangeError(err)
	}
	claims := tokens.IDTokenClaims
	// zitadel checked the nonce through withNonce; this says it again
	// where it is read, in constant time.
	if subtle.ConstantTimeCompare([]byte(claims.Nonce), []byte(l.Nonce)) != 1 {
		return IDToken{}, unauthenticated("the ID token does not carry this sign-in's nonce")
	}
	tenant, _ := claims.Claims[TenantClaim].(string)
	return IDToken{Subject: claims.Subject, Tenant: tenant}, nil
}

// party returns the relying party of reg, discovering it when it is not
// cached or its time is up.
func (r *RelyingParties) party(ctx context.Context, reg Registration) (rp.RelyingParty, error) {
	now := r.clock()
	r.mu.Lock()
	c, ok := r.cached[reg]
	r.mu.Unlock()
	if ok && now.Before(c.until) {
		return c.party, nil
	}
	algs := make([]string, len(algorithms))
	for i, a := range algorithms {
		algs[i] = string(a)
	}
	party, err := rp.NewRelyingPartyOIDC(ctx, reg.Issuer, reg.ClientID, reg.Secret, reg.RedirectURI, loginScopes,
		rp.WithHTTPClient(r.client),
		// zitadel's own log could hold request details; ours says what
		// matters.
		rp.WithLogger(slog.New(slog.DiscardHandler)),
		rp.WithVerifierOpts(rp.WithNonce(expectedNonce), rp.WithSupportedSigningAlgorithms(algs...)))
	if err != nil {
		return nil, fmt.Errorf("%w: discovery of %s: %w", ErrUnavailable, reg.Issuer, err)
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
	r.cached[reg] = cachedParty{party: party, until: now.Add(partyTTL)}
	return party, nil
}

// exchangeError classifies a failed code exchange or ID-token check.
func exchangeError(err error) error {
	if re, ok := errors.AsType[*oauth2.RetrieveError](err); ok {
		if re.Response != nil && re.Response.StatusCode >= http.StatusInternalServerError {
			return fmt.Errorf("%w: token endpoint: %s", ErrUnavailable, re.Response.Status)
		}
		code := ErrorCode(re.ErrorCode)
		if re.ErrorCode == "" {
			code = "an error"
		}
		return unauthenticated("the identity provider refused the code (%s)", code)
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return fmt.Errorf("%w: token endpoint: %w", ErrUnavailable, err)
	}
	if _, ok := errors.AsType[*url.Error](err); ok {
		return fmt.Errorf("%w: token endpoint: %w", ErrUnavailable, err)
	}
	for _, f := range idTokenFaults {
		if errors.Is(err, f.err) {
			return unauthenticated("the ID token %s", f.reason)
		}
	}
	return unauthenticated("the ID token is not valid")
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

// A LoginError is a refused login: the provider refused the code, or
// the ID token it returned does not verify (401). It matches
// ErrUnauthenticated, and Reason says why in fixed words a page may
// carry: never zitadel's own message (it may quote the nonce), nor
// anything of the provider's answer but an OAuth error code fit to be
// shown ([ErrorCode]).
type LoginError struct {
	Reason string
}

func (e *LoginError) Error() string { return ErrUnauthenticated.Error() + ": " + e.Reason }

// Is makes a LoginError match ErrUnauthenticated.
func (e *LoginError) Is(target error) bool { return target == ErrUnauthenticated }

// unauthenticated is a refused login, for a reason in fixed words.
func unauthenticated(format string, args ...any) error {
	return &LoginError{Reason: fmt.Sprintf(format, args...)}
}

// errorCodePattern is the shape of an OAuth error code (RFC 6749 A.7,
// narrowed to what providers send).
var errorCodePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9_]{1,64}$`) })

// ErrorCode returns an OAuth error code a provider sent, fit to be shown
// and logged, or a fixed phrase when it is not shaped like one: the
// value comes from the browser's query string.
func ErrorCode(s string) string {
	if errorCodePattern().MatchString(s) {
		return s
	}
	return "an unrecognised error"
}

// nonceKey carries the expected nonce of a code exchange to the ID-token
// verifier, which every login of the registration shares.
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
