package oidc

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/svc-dss/dss/ports"
)

// The port's view of the verifiers' errors: a refused token is a
// *ports.TokenRefusedError with the Reason's sentence that still wraps
// the *TokenError (the validator's server reads it); an outage stays what
// it was.
func TestBearerError(t *testing.T) {
	t.Parallel()
	refused := fmt.Errorf("wrapped: %w", &TokenError{Reason: ReasonExpired})
	err := bearerError(refused)
	r, ok := errors.AsType[*ports.TokenRefusedError](err)
	if !ok || r.Forbidden || r.Reason != "the token has expired" || err.Error() != refused.Error() {
		t.Fatalf("bearerError(%v) = %#v", refused, err)
	}
	if te, ok := errors.AsType[*TokenError](err); !ok || te.Reason != ReasonExpired {
		t.Fatalf("the *TokenError is lost: %v", err)
	}

	// Unauthenticated without a TokenError: a refusal without a sentence.
	bare := fmt.Errorf("%w: the code was used before", ErrUnauthenticated)
	if r, ok := errors.AsType[*ports.TokenRefusedError](bearerError(bare)); !ok || r.Reason != "" {
		t.Fatalf("bearerError(%v) = %v", bare, bearerError(bare))
	}

	down := fmt.Errorf("%w: jwks: connection refused", ErrUnavailable)
	if err := bearerError(down); err != down {
		t.Fatalf("bearerError(%v) = %v; want it unchanged", down, err)
	}
}

// VerifyBearer refuses through the port what Verify refuses.
func TestVerifyBearerRefuses(t *testing.T) {
	t.Parallel()
	rs, err := NewResourceServer(KeySource{JWKSetURI: "http://127.0.0.1:1/jwks"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rs.VerifyBearer(context.Background(), "not-a-jwt")
	if r, ok := errors.AsType[*ports.TokenRefusedError](err); !ok || r.Reason != ReasonMalformed.String() {
		t.Fatalf("VerifyBearer = %v", err)
	}
	v := NewVerifier(func(context.Context, string) (Provider, error) { return Provider{}, ErrUnknownTenant }, Options{})
	_, err = v.VerifyBearer(context.Background(), "not-a-jwt")
	if r, ok := errors.AsType[*ports.TokenRefusedError](err); !ok || r.Reason != ReasonMalformed.String() {
		t.Fatalf("VerifyBearer = %v", err)
	}
}
