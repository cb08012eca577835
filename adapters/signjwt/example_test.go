package signjwt_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/adapters/signjwt"
)

// The proxy signs a token over the request body with its ES256 key; the
// server verifies it against the key registered as "proxy-2025".
func ExampleVerifier_Verify() {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	priv, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	jwk, _ := json.Marshal(jose.JSONWebKey{Key: &priv.PublicKey})

	// The server side: the registered key, and a verifier.
	lookup := func(_ context.Context, tenant, kid string) (signjwt.Key, error) {
		if tenant != tenantA || kid != "proxy-2025" {
			return signjwt.Key{}, signjwt.ErrUnknownKey
		}
		return signjwt.Key{Tenant: tenantA, Module: moduleA, Kid: kid, Algorithm: "ES256", PublicKey: string(jwk)}, nil
	}
	clock := func() time.Time { return now }
	v := signjwt.NewVerifier(lookup, replay.New(10_000, clock), signjwt.Options{Clock: clock})

	// The proxy side: the token for this very body.
	body := []byte(`{"tenantId":"` + tenantA + `","moduleUuid":"` + moduleA + `"}`)
	claims, _ := json.Marshal(map[string]any{
		"iss":                   moduleA,
		"aud":                   signjwt.Audience,
		"jti":                   "7f1c0e2a-5b7d-4c1e-9a53-0d4b8e6f2c11",
		"iat":                   now.Unix(),
		"exp":                   now.Add(time.Minute).Unix(),
		signjwt.ClaimTenant:     tenantA,
		signjwt.ClaimModule:     moduleA,
		signjwt.ClaimBodySHA256: signjwt.BodyDigest(body),
	})
	signer, _ := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: priv},
		(&jose.SignerOptions{}).WithType(signjwt.Type).WithHeader("kid", "proxy-2025"))
	jws, _ := signer.Sign(claims)
	token, _ := jws.CompactSerialize()

	id, err := v.Verify(context.Background(), "Bearer "+token, body)
	fmt.Println(id.Tenant, id.Module, id.Kid, err)
	_, err = v.Verify(context.Background(), "Bearer "+token, body)
	fmt.Println(err)
	// Output:
	// 11111111-1111-4111-8111-111111111111 aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa proxy-2025 <nil>
	// signjwt: not authenticated: the token's jti was used before (kid "proxy-2025")
}
