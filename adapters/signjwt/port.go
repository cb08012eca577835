package signjwt

import (
	"context"
	"errors"

	"github.com/svc-dss/dss/ports"
)

var _ ports.SignTokenVerifier = (*Verifier)(nil)

// VerifySignToken is [Verifier.Verify] as the [ports.SignTokenVerifier]
// port: a [*RefusalError] becomes a [*ports.TokenRefusedError] with its
// Reason (Forbidden for ErrForbidden) that wraps it; any other error is
// returned as it is, an infrastructure failure.
func (v *Verifier) VerifySignToken(ctx context.Context, authorization string, body []byte) (ports.Caller, error) {
	id, err := v.Verify(ctx, authorization, body)
	if err != nil {
		if r, ok := errors.AsType[*RefusalError](err); ok {
			return ports.Caller{}, &ports.TokenRefusedError{Forbidden: errors.Is(r, ErrForbidden), Reason: r.Reason, Err: err}
		}
		return ports.Caller{}, err
	}
	return ports.Caller{Tenant: id.Tenant, Module: id.Module, Kid: id.Kid, JTI: id.JTI, Subject: id.Subject}, nil
}
