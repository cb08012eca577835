package ports

import "context"

// A TokenRefusedError is a token a verifier refused for what it is, or for
// who it authenticates: the caller's fault (401 or 403), never the
// verifier's. Every other error of a verifier is an infrastructure failure
// (502): a key source or control database that did not answer, or a
// registration that cannot be used.
type TokenRefusedError struct {
	// Forbidden is set when the token authenticates its bearer, who may
	// not act as it claims (403). Unset, it authenticates nobody (401).
	Forbidden bool
	// Reason says what is wrong with the token in fixed words a response
	// may carry: never the token, nor anything read from it before its
	// signature verified, nor what the key source or the control database
	// holds. Empty when the verifier has no such words; the caller then
	// uses its own.
	Reason string
	// Err is the verifier's own error, for the log: it may say more than
	// Reason. Errors of the adapter's kinds stay reachable through it.
	Err error
}

// Error is Err's message when there is one: a log reads the same as
// without the port in between.
func (e *TokenRefusedError) Error() string {
	switch {
	case e.Err != nil:
		return e.Err.Error()
	case e.Forbidden:
		return "token refused: forbidden: " + e.Reason
	}
	return "token refused: " + e.Reason
}

func (e *TokenRefusedError) Unwrap() error { return e.Err }

// A Caller is the signing proxy a sign-ska token authenticated
// (signing-server.md §5 item 1).
type Caller struct {
	Tenant  string // the tenant's UUID, lower case
	Module  string // the module instance's UUID, lower case
	Kid     string // the registered key the token verified with
	JTI     string // the token's ID, now used up
	Subject string // the sub claim, "" when absent
}

// A SignTokenVerifier authenticates a call to the signing endpoint: the
// self-issued JWT of a tenant's signing proxy, verified with the key the
// proxy registered and bound to the exact request body (signing-server.md
// §5 items 1 and 2).
type SignTokenVerifier interface {
	// VerifySignToken authenticates the Authorization header value
	// authorization for the request body body. A refused token is a
	// *TokenRefusedError: Forbidden when the token verified with a key
	// registered for another module than the one it claims. A token
	// verifies once; the same one again is refused. VerifySignToken does
	// not compare the body's tenantId and moduleUuid with the Caller: the
	// caller must.
	VerifySignToken(ctx context.Context, authorization string, body []byte) (Caller, error)
}

// A Bearer is who a bearer token authenticated.
type Bearer struct {
	// Tenant is the tenant's UUID, lower case; "" when the verifier knows
	// no tenants (a resource server's single key source).
	Tenant  string
	Subject string
}

// A BearerVerifier authenticates bearer tokens (RFC 6750): the access
// tokens of a tenant's OpenID provider (validation-service.md §5), or the
// client-signed JWTs of the signer's resource-server filter
// (signing-server.md §5 item 4).
type BearerVerifier interface {
	// VerifyBearer authenticates token, the part after "Bearer ". A
	// refused token is a *TokenRefusedError, never Forbidden: whether the
	// bearer may do what it asks is the caller's question.
	VerifyBearer(ctx context.Context, token string) (Bearer, error)
}
