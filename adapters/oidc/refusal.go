package oidc

import (
	"encoding/json"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// A Reason is why a bearer token does not authenticate its bearer. Its
// String is a fixed sentence a 401 may carry: it never holds the token nor
// anything read from it before its signature was verified (the tenant
// claim, the key ID, the issuer), nor the provider's URL.
type Reason int

const (
	// ReasonMissing: no token at all.
	ReasonMissing Reason = iota + 1
	// ReasonMalformed: not a compact JWS with exactly one signature by an
	// accepted algorithm (RS, PS or ES; never none or HMAC).
	ReasonMalformed
	// ReasonClaims: the payload is not a JSON claim set.
	ReasonClaims
	// ReasonNoTenant: no tenant claim, or one that is not a string.
	ReasonNoTenant
	// ReasonUnknownTenant: the tenant claim names no tenant with a
	// provider.
	ReasonUnknownTenant
	// ReasonUnknownKey: the key ID is not in the provider's key set, even
	// after fetching it again (when that was allowed).
	ReasonUnknownKey
	// ReasonSignature: the signature does not verify with the key.
	ReasonSignature
	// ReasonIssuer: iss is not the expected issuer.
	ReasonIssuer
	// ReasonAudience: aud does not hold the registered audience.
	ReasonAudience
	// ReasonNotAccessToken: the token is of another kind, such as the ID
	// token of a browser login, or is not typed at+jwt while its provider
	// has AccessTokensATJWTOnly (see accessToken).
	ReasonNotAccessToken
	// ReasonNoExpiry: no exp.
	ReasonNoExpiry
	// ReasonExpired: exp has passed, skew included.
	ReasonExpired
	// ReasonNotYetValid: nbf is still to come, skew included.
	ReasonNotYetValid
	// ReasonIssuedInFuture: iat is still to come, skew included.
	ReasonIssuedInFuture
)

var reasons = map[Reason]string{
	ReasonMissing:        "the request carries no bearer token",
	ReasonMalformed:      "the token is not a JWT signed with an accepted algorithm",
	ReasonClaims:         "the token's claims cannot be read",
	ReasonNoTenant:       "the token names no tenant",
	ReasonUnknownTenant:  "the token's tenant is not known",
	ReasonUnknownKey:     "the token is signed with a key its issuer does not publish",
	ReasonSignature:      "the token's signature does not verify",
	ReasonIssuer:         "the token is from another issuer",
	ReasonAudience:       "the token is not for this service",
	ReasonNotAccessToken: "the token is not an access token",
	ReasonNoExpiry:       "the token has no expiry",
	ReasonExpired:        "the token has expired",
	ReasonNotYetValid:    "the token is not valid yet",
	ReasonIssuedInFuture: "the token is issued in the future",
}

func (r Reason) String() string {
	if s, ok := reasons[r]; ok {
		return s
	}
	return "the token is not valid"
}

// A TokenError is a refused bearer token: 401. It wraps
// ErrUnauthenticated, and its message is the Reason's sentence after
// ErrUnauthenticated's, nothing else, so that a server may show the end of
// the message as it is.
type TokenError struct {
	Reason Reason
}

func (e *TokenError) Error() string { return ErrUnauthenticated.Error() + ": " + e.Reason.String() }

// Is makes a TokenError match ErrUnauthenticated.
func (e *TokenError) Is(target error) bool { return target == ErrUnauthenticated }

func refused(r Reason) error { return &TokenError{Reason: r} }

// parse reads token as a compact JWS with one signature by an accepted
// algorithm. The JSON serialization is refused: its unprotected header
// is not signed.
func parse(token string) (*jose.JSONWebSignature, error) {
	if token == "" {
		return nil, refused(ReasonMissing)
	}
	jws, err := jose.ParseSignedCompact(token, algorithms)
	if err != nil || len(jws.Signatures) != 1 {
		return nil, refused(ReasonMalformed)
	}
	return jws, nil
}

// checkTimes checks exp (required), nbf and iat against now, with skew of
// clock difference either way.
func (c claims) checkTimes(now time.Time, skew time.Duration) error {
	switch {
	case c.Expiry == nil:
		return refused(ReasonNoExpiry)
	case now.Add(-skew).After(c.Expiry.AsTime()):
		return refused(ReasonExpired)
	case c.NotBefore != nil && now.Add(skew).Before(c.NotBefore.AsTime()):
		return refused(ReasonNotYetValid)
	case c.IssuedAt != nil && now.Add(skew).Before(c.IssuedAt.AsTime()):
		return refused(ReasonIssuedInFuture)
	}
	return nil
}

// accessToken reports whether a verified token is an access token, not an
// ID token or a JWT of another kind, by the provider's rule
// (docs/decisions/0022):
//
//   - typ at+jwt (RFC 9068 §2.1; "application/at+jwt" alike, in any case):
//     an access token, under either rule;
//   - typ JWT, or none: what most providers, zitadel's op among them, put
//     on access tokens and ID tokens alike. Under AccessTokensByClaims it
//     is an access token unless it carries a claim only ID tokens carry
//     (OpenID Connect Core §2, §3.1.3.6, §3.3.2.11): nonce, at_hash,
//     c_hash or s_hash. The browser login always sends a nonce, and an ID
//     token must then carry it, so the ID token of our own login is
//     refused. Under AccessTokensATJWTOnly it is not an access token;
//   - any other typ (logout+jwt, secevent+jwt, dpop+jwt…): a JWT of
//     another kind (RFC 8725 §3.11).
//
// A rule that is neither accepts typ at+jwt only.
func accessToken(rule AccessTokenRule, h jose.Header, c claims) bool {
	raw, typed := h.ExtraHeaders[jose.HeaderType]
	typ, _ := raw.(string)
	switch {
	case mediaType(typ) == "at+jwt":
		return true
	case rule != AccessTokensByClaims:
		return false
	case !typed, mediaType(typ) == "jwt":
		return c.Nonce == nil && c.AtHash == nil && c.CHash == nil && c.SHash == nil
	}
	return false
}

// mediaType is a typ header as a media type in lower case, without the
// "application/" prefix RFC 7515 §4.1.9 lets a typ omit.
func mediaType(typ string) string {
	return strings.TrimPrefix(strings.ToLower(typ), "application/")
}

// idTokenClaims are the claims only an ID token carries; present, with
// any value, they make a token of typ JWT an ID token.
type idTokenClaims struct {
	Nonce  json.RawMessage `json:"nonce"`
	AtHash json.RawMessage `json:"at_hash"`
	CHash  json.RawMessage `json:"c_hash"`
	SHash  json.RawMessage `json:"s_hash"`
}
