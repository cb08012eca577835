package main

import (
	"bytes"
	"context"
	"encoding/pem"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	op "github.com/svc-dss/dss/fixtures/oidc"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// get requests path with an optional bearer token.
func get(t *testing.T, url, token string) (int, servertest.Problem) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	return res.StatusCode, servertest.Decode[servertest.Problem](t, res.Body)
}

// The resource-server filter on the non-public paths other than sign-ska
// (signing-server.md §5 rule 4): with each key source, a good token
// passes (the path then does not exist: 404) and a bad one is 401 with
// its reason; with none, everything is denied unless permit-all.
func TestResourceServerFilter(t *testing.T) {
	t.Parallel()
	idp := op.Start(t, op.Options{Name: "proxies", DistinctKeys: true})
	other := op.Start(t, op.Options{Name: "other", DistinctKeys: true})
	keyFile := filepath.Join(t.TempDir(), "proxy.pem")
	if err := os.WriteFile(keyFile, idp.PublicKeyPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims := func(mod func(map[string]any)) map[string]any {
		c := idp.ClaimSet(t, op.Claims{Subject: "ops"})
		if mod != nil {
			mod(c)
		}
		return c
	}
	good := idp.Token(t, op.Claims{Subject: "ops"})
	bad := []struct {
		name, token, detail string
	}{
		{"no token", "", "the request carries no bearer token"},
		{"expired", idp.Sign(t, nil, claims(func(c map[string]any) { c["exp"] = now.Add(-time.Hour).Unix() })), "the token has expired"},
		{"not yet valid", idp.Sign(t, nil, claims(func(c map[string]any) { c["nbf"] = now.Add(time.Hour).Unix() })), "the token is not valid yet"},
		{"issued in the future", idp.Sign(t, nil, claims(func(c map[string]any) { c["iat"] = now.Add(time.Hour).Unix() })), "the token is issued in the future"},
		{"alg none", idp.Unsigned(t, claims(nil)), "the token is not a JWT signed with an accepted algorithm"},
		{"another signer", other.Sign(t, map[string]any{"kid": idp.KeyID()}, claims(nil)), "the token's signature does not verify"},
	}
	sources := []struct {
		name string
		env  string
	}{
		{"jwk-set-uri", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI=" + idp.JWKSURI},
		{"public-key-location", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLICKEYLOCATION=file:" + keyFile},
		{"issuer-uri", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_ISSUERURI=" + idp.Issuer},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, src.env)
			is := is.New(t)
			status, _ := get(t, s.URL+"/api/other", good)
			is.Equal(status, 404) // through the filter
			res, err := http.Get(s.URL + "/actuator/health")
			is.NoErr(err)
			res.Body.Close()
			is.True(res.StatusCode != 401) // public
			for _, b := range bad {
				t.Run(b.name, func(t *testing.T) {
					is := is.New(t)
					status, p := get(t, s.URL+"/api/other", b.token)
					is.Equal(status, 401)
					is.Equal(p.Type, "urn:svc-dss:problem:unauthenticated")
					if p.Detail != b.detail {
						t.Fatalf("detail %q, want %q", p.Detail, b.detail)
					}
					is.True(!strings.Contains(p.Detail, "127.0.0.1")) // never the key source's host
				})
			}
		})
	}

	t.Run("no key source", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		s := start(t)
		status, p := get(t, s.URL+"/api/other", good)
		is.Equal(status, 401)
		is.Equal(p.Detail, "this path needs a bearer token and no JWT key source is configured")
	})
	t.Run("permit-all", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		s := start(t, "SVC_DSS_SECURITY_PERMIT_ALL=true")
		status, _ := get(t, s.URL+"/api/other", "")
		is.Equal(status, 404)
	})
	t.Run("key source down", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		s := start(t, "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI=http://127.0.0.1:9/jwks")
		status, p := get(t, s.URL+"/api/other", good)
		is.Equal(status, 502)
		is.Equal(p.Detail, "the JWT key source did not answer")
	})
}

// A public-key file that does not hold a key stops the start-up with the
// reason.
func TestResourceServerKeyFileRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	priv := filepath.Join(dir, "private.pem")
	if err := os.WriteFile(priv, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{0}}), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"absent", filepath.Join(dir, "absent.pem"), "no such file or directory"},
		{"a private key", priv, `block 1 is a \"PRIVATE KEY\", not a public key or certificate`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var out, errs bytes.Buffer
			code := run(context.Background(), nil, []string{"SERVER_PORT=0", "FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_PUBLICKEYLOCATION=" + tt.path}, &out, &errs, nil)
			is.Equal(code, 1)
			is.True(strings.Contains(out.String(), "fw.security.oauth2.resourceserver.jwt.public-key-location "+tt.path))
			is.True(strings.Contains(out.String(), tt.want))
		})
	}
}
