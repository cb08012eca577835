package signjwt_test

import (
	"context"
	"errors"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/ports"
)

// VerifySignToken is Verify through the port: the caller it
// authenticated, a refusal as a *ports.TokenRefusedError with Verify's
// reason (Forbidden for a key of another module) that still wraps
// Verify's error, and an outage unchanged.
func TestVerifySignToken(t *testing.T) {
	t.Parallel()
	v := newVerifier(t, nil)
	ctx := context.Background()

	c, err := v.VerifySignToken(ctx, "Bearer "+es256(t, nil), body)
	if err != nil {
		t.Fatal(err)
	}
	if c != (ports.Caller{Tenant: tenantA, Module: moduleA, Kid: kidEC, JTI: c.JTI, Subject: "proxy-1"}) || c.JTI == "" {
		t.Fatalf("caller %+v", c)
	}

	tests := []struct {
		name      string
		header    string
		forbidden bool
		reason    string
		class     error
	}{
		{"no header", "", false, "no Authorization header", signjwt.ErrUnauthenticated},
		{"unknown kid", "Bearer " + sign(t, token{alg: jose.ES256, key: keys().ec, kid: "nobody", typ: signjwt.Type, claims: claims(nil)}),
			false, signjwt.ReasonSignature, signjwt.ErrUnauthenticated},
		{"key of another module", "Bearer " + sign(t, token{alg: jose.RS256, key: keys().rsaModuleB, kid: kidModuleB, typ: signjwt.Type, claims: claims(nil)}),
			true, "the token's key is registered for another module than its module claim", signjwt.ErrForbidden},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := v.VerifySignToken(ctx, tt.header, body)
			r, ok := errors.AsType[*ports.TokenRefusedError](err)
			if !ok || r.Forbidden != tt.forbidden || r.Reason != tt.reason || !errors.Is(err, tt.class) || c != (ports.Caller{}) {
				t.Fatalf("VerifySignToken = %+v, %v", c, err)
			}
		})
	}

	t.Run("lookup down", func(t *testing.T) {
		t.Parallel()
		_, err := v.VerifySignToken(ctx, "Bearer "+sign(t, token{alg: jose.ES256, key: keys().ec, kid: kidDown, typ: signjwt.Type, claims: claims(nil)}), body)
		if _, ok := errors.AsType[*ports.TokenRefusedError](err); ok || !errors.Is(err, signjwt.ErrUnavailable) || !errors.Is(err, errDown) {
			t.Fatalf("VerifySignToken = %v", err)
		}
	})
}
