package oidc

import (
	"context"
	"errors"

	"github.com/svc-dss/dss/ports"
)

var (
	_ ports.BearerVerifier = (*Verifier)(nil)
	_ ports.BearerVerifier = (*ResourceServer)(nil)
)

// VerifyBearer is [Verifier.Verify] as the [ports.BearerVerifier] port.
func (v *Verifier) VerifyBearer(ctx context.Context, token string) (ports.Bearer, error) {
	id, err := v.Verify(ctx, token)
	if err != nil {
		return ports.Bearer{}, bearerError(err)
	}
	return ports.Bearer{Tenant: id.Tenant, Subject: id.Subject}, nil
}

// VerifyBearer is [ResourceServer.Verify] as the [ports.BearerVerifier]
// port. The Bearer names no tenant: a resource server knows none.
func (r *ResourceServer) VerifyBearer(ctx context.Context, token string) (ports.Bearer, error) {
	s, err := r.Verify(ctx, token)
	if err != nil {
		return ports.Bearer{}, bearerError(err)
	}
	return ports.Bearer{Subject: s.Subject}, nil
}

// bearerError is err as the port states it: a token that does not
// authenticate its bearer (ErrUnauthenticated) is a
// *ports.TokenRefusedError that wraps err, with the sentence of its
// Reason when err is a *TokenError; anything else is returned as it is.
func bearerError(err error) error {
	if !errors.Is(err, ErrUnauthenticated) {
		return err
	}
	refusal := &ports.TokenRefusedError{Err: err}
	if e, ok := errors.AsType[*TokenError](err); ok {
		refusal.Reason = e.Reason.String()
	}
	return refusal
}
