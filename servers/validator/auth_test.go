package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
	op "github.com/svc-dss/dss/fixtures/oidc"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// The seed's tenants: A and B licensed, C without the dss.validator
// license.
const (
	tenantA = "11111111-1111-4111-8111-111111111111"
	tenantB = "22222222-2222-4222-8222-222222222222"
	tenantC = "33333333-3333-4333-8333-333333333333"
)

// authWorld is a running validator on a real control database (schema and
// seed) whose tenants' providers are real OpenID providers.
type authWorld struct {
	url, dbURL string
	admin      string // a connection URL that may change the database
	a, b, c    *op.Provider
}

func newAuthWorld(t testing.TB, env ...string) *authWorld {
	t.Helper()
	w := &authWorld{admin: pgtest.NewDatabaseURL(t)}
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	if err := postgres.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := postgres.Seed(ctx, db); err != nil {
		t.Fatal(err)
	}
	w.a = op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
	w.b = op.Start(t, op.Options{Name: "tenant-b", DistinctKeys: true})
	w.c = op.Start(t, op.Options{Name: "tenant-c", DistinctKeys: true})
	for tenant, p := range map[string]*op.Provider{tenantA: w.a, tenantB: w.b, tenantC: w.c} {
		if _, err := db.ExecContext(ctx, `UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = $2`, p.Issuer, tenant); err != nil {
			t.Fatal(err)
		}
	}
	w.dbURL = w.admin
	w.url = servertest.Run(t, run, nil, append(offline(t), append([]string{"SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL=" + w.dbURL}, env...)...)).URL
	return w
}

// token is a valid token of tenant from its provider, for the audience
// the seed registers (dss-validator-a, -b, -c).
func (w *authWorld) token(t testing.TB, p *op.Provider, tenant string) string {
	t.Helper()
	aud := map[*op.Provider]string{w.a: "dss-validator-a", w.b: "dss-validator-b", w.c: "dss-validator-c"}[p]
	return p.Token(t, op.Claims{TenantID: tenant, Audience: []string{aud}})
}

// call sends an authenticated request to path ("" header: none) and
// returns the status and body.
func call(t testing.TB, base, method, path, header string) (int, string, http.Header) {
	t.Helper()
	var body io.Reader
	contentType := ""
	if method == http.MethodPost {
		b := "--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"doc.bin\"\r\n\r\nnot a signature\r\n--x--\r\n"
		body, contentType = strings.NewReader(b), "multipart/form-data; boundary=x"
	}
	req, err := http.NewRequest(method, base+path, body)
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if header != "" {
		req.Header.Set("Authorization", header)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b), res.Header
}

// The attack matrix, on both API endpoints alike: each refused token gets
// its status and a problem document whose detail is the reason's fixed
// sentence: it never echoes the token nor anything it claims, and never
// names the tenant's provider.
func TestBearerAuthentication(t *testing.T) {
	t.Parallel()
	w := newAuthWorld(t)
	good := func(p *op.Provider, tenant, aud string, mod func(map[string]any)) map[string]any {
		c := p.ClaimSet(t, op.Claims{TenantID: tenant, Audience: []string{aud}})
		if mod != nil {
			mod(c)
		}
		return c
	}
	now := time.Now()
	valid := w.token(t, w.a, tenantA)
	stranger := op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true}) // registered for no tenant
	// A tenant claim of 10 KB: markup, a NUL, and the look of a detail.
	hostile := strings.Repeat(`<img src=x onerror=alert(1)>`, 360) + "\x00" + `", "detail": "owned`
	const required = "a valid bearer token of a tenant is required: "
	tests := []struct {
		name   string
		header string
		status int
		kind   string // the problem type's slug; "" for a success
		detail string
	}{
		{"valid token of a licensed tenant", "Bearer " + valid, 0, "", ""},
		{"scheme in lower case", "bearer " + valid, 0, "", ""},
		{"typed at+jwt (RFC 9068)", "Bearer " + w.a.Sign(t, map[string]any{"typ": "at+jwt"}, good(w.a, tenantA, "dss-validator-a", nil)), 0, "", ""},
		{"no header", "", 401, "unauthenticated", required + "the request carries no bearer token"},
		{"not Bearer", "Basic " + valid, 401, "unauthenticated", required + "the request carries no bearer token"},
		{"garbage", "Bearer garbage", 401, "unauthenticated", required + "the token is not a JWT signed with an accepted algorithm"},
		{"alg none", "Bearer " + w.a.Unsigned(t, good(w.a, tenantA, "dss-validator-a", nil)), 401, "unauthenticated", required + "the token is not a JWT signed with an accepted algorithm"},
		{"HS256 keyed with the provider's public key", "Bearer " + w.a.HS256WithPublicKey(t, good(w.a, tenantA, "dss-validator-a", nil)), 401, "unauthenticated", required + "the token is not a JWT signed with an accepted algorithm"},
		{"unknown kid", "Bearer " + w.a.UnknownKid(t, good(w.a, tenantA, "dss-validator-a", nil)), 401, "unauthenticated", required + "the token is signed with a key its issuer does not publish"},
		{"tenant A's token with tenant B's claim", "Bearer " + w.a.Token(t, op.Claims{TenantID: tenantB, Audience: []string{"dss-validator-b"}}), 401, "unauthenticated", required + "the token is signed with a key its issuer does not publish"},
		{"wrong audience", "Bearer " + w.a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"dss-validator-b"}}), 401, "unauthenticated", required + "the token is not for this service"},
		{"expired", "Bearer " + w.a.Sign(t, nil, good(w.a, tenantA, "dss-validator-a", func(c map[string]any) { c["exp"] = now.Add(-time.Hour).Unix() })), 401, "unauthenticated", required + "the token has expired"},
		{"not yet valid", "Bearer " + w.a.Sign(t, nil, good(w.a, tenantA, "dss-validator-a", func(c map[string]any) {
			c["nbf"], c["exp"] = now.Add(time.Hour).Unix(), now.Add(2*time.Hour).Unix()
		})), 401, "unauthenticated", required + "the token is not valid yet"},
		{"issued in the future", "Bearer " + w.a.Sign(t, nil, good(w.a, tenantA, "dss-validator-a", func(c map[string]any) { c["iat"] = now.Add(time.Hour).Unix() })), 401, "unauthenticated", required + "the token is issued in the future"},
		{"no expiry", "Bearer " + w.a.Sign(t, nil, good(w.a, tenantA, "dss-validator-a", func(c map[string]any) { delete(c, "exp") })), 401, "unauthenticated", required + "the token has no expiry"},
		{"another issuer's name", "Bearer " + w.a.Sign(t, nil, good(w.a, tenantA, "dss-validator-a", func(c map[string]any) { c["iss"] = w.b.Issuer })), 401, "unauthenticated", required + "the token is from another issuer"},
		{"issuer not registered: another provider's token for tenant A", "Bearer " + stranger.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"dss-validator-a"}}), 401, "unauthenticated", required + "the token is signed with a key its issuer does not publish"},
		{"no tenant claim", "Bearer " + w.a.Token(t, op.Claims{Audience: []string{"dss-validator-a"}}), 401, "unauthenticated", required + "the token names no tenant"},
		{"tenant unknown", "Bearer " + w.a.Token(t, op.Claims{TenantID: "44444444-4444-4444-8444-444444444444", Audience: []string{"dss-validator-a"}}), 401, "unauthenticated", required + "the token's tenant is not known"},
		{"a tenant id that is no UUID", "Bearer " + w.a.Token(t, op.Claims{TenantID: "'; DROP TABLE tenants; --", Audience: []string{"dss-validator-a"}}), 401, "unauthenticated", required + "the token's tenant is not known"},
		{"a 10 KB tenant claim of markup and a NUL", "Bearer " + w.a.Sign(t, nil, good(w.a, hostile, "dss-validator-a", nil)), 401, "unauthenticated", required + "the token's tenant is not known"},
		{"an ID token (nonce, at_hash)", "Bearer " + w.a.Sign(t, nil, good(w.a, tenantA, "dss-validator-a", func(c map[string]any) {
			c["nonce"], c["at_hash"] = "n-0S6_WzA2Mj", "77QmUPtjPfzWtF2AnpK9RQ"
		})), 401, "unauthenticated", required + "the token is not an access token"},
		{"a logout token", "Bearer " + w.a.Sign(t, map[string]any{"typ": "logout+jwt"}, good(w.a, tenantA, "dss-validator-a", nil)), 401, "unauthenticated", required + "the token is not an access token"},
		{"tenant without the license", "Bearer " + w.token(t, w.c, tenantC), 403, "forbidden", "tenant " + tenantC + " does not hold the dss.validator license"},
	}
	// What no detail may name: the providers, their host, their keys.
	secret := []string{w.a.Issuer, w.b.Issuer, w.c.Issuer, stranger.Issuer, "127.0.0.1", "localhost", "<img", "onerror", "owned", "DROP TABLE", "\\u0000"}
	for _, p := range []*op.Provider{w.a, w.b, w.c, stranger} {
		secret = append(secret, p.KeyIDs()...)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			for _, ep := range []struct{ method, path string }{{http.MethodGet, "/api/trust-status"}, {http.MethodPost, "/api/validate"}} {
				status, body, h := call(t, w.url, ep.method, ep.path, tt.header)
				if tt.kind == "" {
					is.True(status != 401 && status != 403 && status != 502) // authenticated: the request is processed
					continue
				}
				is.Equal(status, tt.status) // ep.path
				var p struct{ Type, Detail string }
				is.NoErr(json.Unmarshal([]byte(body), &p))
				is.Equal(p.Type, "urn:svc-dss:problem:"+tt.kind) // ep.path
				is.Equal(p.Detail, tt.detail)                    // ep.path
				is.Equal(h.Get("Content-Type"), "application/problem+json")
				if tt.status == 401 {
					is.Equal(h.Get("WWW-Authenticate"), `Bearer realm="svc-dss"`)
				}
				if token := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(tt.header, "Bearer"), "Basic")); len(token) > 8 {
					is.True(!strings.Contains(body, token)) // the token is never echoed
				}
				for _, s := range secret {
					if strings.Contains(body, s) {
						t.Fatalf("%s %s: the problem names %q: %s", ep.method, ep.path, s, body)
					}
				}
			}
		})
	}

	// The health probe stays anonymous and says nothing more.
	is := is.New(t)
	status, body, _ := call(t, w.url, http.MethodGet, "/actuator/health", "")
	is.Equal(status, 200)
	is.Equal(strings.TrimSpace(body), `{"status":"UP"}`)
}

// A provider registered with access_tokens 'at+jwt' has only tokens
// typed at+jwt accepted: its token endpoint's access tokens (typ JWT) and
// its ID tokens, with or without nonce, get 401 "not an access token" on
// both endpoints. The rule is per provider: tenant A's provider keeps the
// default, under which its typ JWT access token is served.
func TestBearerAuthenticationATJWTOnly(t *testing.T) {
	t.Parallel()
	w := newAuthWorld(t)
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Before the first request: nothing of tenant B is cached yet.
	if _, err := db.ExecContext(context.Background(), `UPDATE oidc_providers SET access_tokens = 'at+jwt' WHERE tenant_id = $1`, tenantB); err != nil {
		t.Fatal(err)
	}
	claims := func(mod func(map[string]any)) map[string]any {
		c := w.b.ClaimSet(t, op.Claims{TenantID: tenantB, Audience: []string{"dss-validator-b"}})
		if mod != nil {
			mod(c)
		}
		return c
	}
	const notAT = "a valid bearer token of a tenant is required: the token is not an access token"
	tests := []struct {
		name   string
		token  string
		detail string // "": served
	}{
		{"typed at+jwt", w.b.Sign(t, map[string]any{"typ": "at+jwt"}, claims(nil)), ""},
		{"typed application/at+jwt", w.b.Sign(t, map[string]any{"typ": "application/at+jwt"}, claims(nil)), ""},
		{"access token of the token endpoint (typ JWT)", w.token(t, w.b, tenantB), notAT},
		{"typ JWT", w.b.Sign(t, map[string]any{"typ": "JWT"}, claims(nil)), notAT},
		{"no typ", w.b.Sign(t, map[string]any{"typ": nil}, claims(nil)), notAT},
		{"an ID token (nonce, at_hash)", w.b.Sign(t, map[string]any{"typ": "JWT"}, claims(func(c map[string]any) {
			c["nonce"], c["at_hash"] = "n-0S6_WzA2Mj", "77QmUPtjPfzWtF2AnpK9RQ"
		})), notAT},
		{"an ID token without nonce or hashes", w.b.Sign(t, map[string]any{"typ": "JWT"}, claims(func(c map[string]any) {
			delete(c, "client_id")
			delete(c, "scope")
			c["azp"], c["auth_time"] = "dss-validator-b", time.Now().Unix()
		})), notAT},
		{"tenant A's provider keeps the default: typ JWT", w.token(t, w.a, tenantA), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			for _, ep := range []struct{ method, path string }{{http.MethodGet, "/api/trust-status"}, {http.MethodPost, "/api/validate"}} {
				status, body, h := call(t, w.url, ep.method, ep.path, "Bearer "+tt.token)
				if tt.detail == "" {
					is.True(status != 401 && status != 403 && status != 502) // ep.path: processed
					continue
				}
				is.Equal(status, 401) // ep.path
				is.Equal(h.Get("WWW-Authenticate"), `Bearer realm="svc-dss"`)
				var p struct{ Type, Detail string }
				is.NoErr(json.Unmarshal([]byte(body), &p))
				is.Equal(p.Type, "urn:svc-dss:problem:unauthenticated")
				is.Equal(p.Detail, tt.detail) // ep.path
			}
		})
	}
}

// The browser login's ID token is no API bearer token, though it comes
// from the tenant's own provider, names the tenant and carries the
// registered audience (the UI's client ID): it is refused on both API
// endpoints, while the access token of the same login is accepted.
func TestUILoginIDTokenIsNoBearerToken(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newUIWorld(t, uiOptions{})
	r := w.browser(t).login(tenantA, alice)
	is.Equal(r.status, 200) // signed in
	issued := w.op.IssuedTokens()
	is.Equal(len(issued), 1)
	tokens := issued[0]
	is.True(tokens.IDToken != "" && tokens.AccessToken != "")
	for _, ep := range []struct{ method, path string }{{http.MethodGet, "/api/trust-status"}, {http.MethodPost, "/api/validate"}} {
		status, body, h := call(t, w.url, ep.method, ep.path, "Bearer "+tokens.IDToken)
		is.Equal(status, 401) // ep.path
		is.Equal(h.Get("WWW-Authenticate"), `Bearer realm="svc-dss"`)
		var p struct{ Detail string }
		is.NoErr(json.Unmarshal([]byte(body), &p))
		is.Equal(p.Detail, "a valid bearer token of a tenant is required: the token is not an access token")

		status, _, _ = call(t, w.url, ep.method, ep.path, "Bearer "+tokens.AccessToken)
		is.True(status != 401 && status != 403 && status != 502) // ep.path: processed
	}
}

// A control database that does not answer is 502, and the service
// recovers by itself when it answers again: here the service's role loses
// and regains its access.
func TestControlDatabaseOutage(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	admin := pgtest.NewDatabaseURL(t)
	db, err := postgres.OpenWritable(postgres.Options{URL: admin})
	is.NoErr(err)
	defer db.Close()
	ctx := context.Background()
	is.NoErr(postgres.Migrate(ctx, db))
	is.NoErr(postgres.Seed(ctx, db))
	a := op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
	b := op.Start(t, op.Options{Name: "tenant-b", DistinctKeys: true})
	_, err = db.ExecContext(ctx, `UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = $2`, a.Issuer, tenantA)
	is.NoErr(err)
	_, err = db.ExecContext(ctx, `UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = $2`, b.Issuer, tenantB)
	is.NoErr(err)
	// The service connects as a role of its own, with read access only.
	role := fmt.Sprintf("svc_reader_%d", time.Now().UnixNano())
	for _, q := range []string{
		`CREATE ROLE ` + role + ` LOGIN`,
		`GRANT USAGE ON SCHEMA public TO ` + role,
		`GRANT SELECT ON ALL TABLES IN SCHEMA public TO ` + role,
	} {
		_, err := db.ExecContext(ctx, q)
		is.NoErr(err)
	}
	t.Cleanup(func() {
		db.ExecContext(context.Background(), `REASSIGN OWNED BY `+role+` TO CURRENT_USER`)
		db.ExecContext(context.Background(), `DROP OWNED BY `+role)
		db.ExecContext(context.Background(), `DROP ROLE `+role)
	})
	u, err := url.Parse(admin)
	is.NoErr(err)
	u.User = url.User(role)
	s := start(t, nil, "SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL="+u.String())

	tokenA := a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"dss-validator-a"}})
	tokenB := b.Token(t, op.Claims{TenantID: tenantB, Audience: []string{"dss-validator-b"}})
	status, _, _ := call(t, s.URL, http.MethodGet, "/api/trust-status", "Bearer "+tokenA)
	is.Equal(status, 200)

	_, err = db.ExecContext(ctx, `REVOKE SELECT ON ALL TABLES IN SCHEMA public FROM `+role)
	is.NoErr(err)
	// Tenant B is not cached: its lookup reaches the database, which refuses.
	status, body, _ := call(t, s.URL, http.MethodGet, "/api/trust-status", "Bearer "+tokenB)
	is.Equal(status, 502)
	is.True(strings.Contains(body, "urn:svc-dss:problem:infrastructure-failure"))
	is.True(!strings.Contains(body, "permission denied")) // the cause is for the log

	_, err = db.ExecContext(ctx, `GRANT SELECT ON ALL TABLES IN SCHEMA public TO `+role)
	is.NoErr(err)
	status, _, _ = call(t, s.URL, http.MethodGet, "/api/trust-status", "Bearer "+tokenB)
	is.Equal(status, 200) // recovered: errors are never cached
}

// Without a control database and without permit-all the service refuses
// to start, and says what to set.
func TestNoControlDatabaseRefusesToServe(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var out strings.Builder
	code := run(context.Background(), nil, append(offline(t), "SVC_DSS_VALIDATOR_PERMIT_ALL=false"), &out, io.Discard, nil) // the server logs on stdout
	is.Equal(code, 1)
	is.True(strings.Contains(out.String(), "svc.dss.control-db.url is blank"))
}

// db migrate brings an empty database to the current schema, again
// without change, and refuses what it cannot do, with its exit codes.
func TestDBMigrateCommand(t *testing.T) {
	t.Parallel()
	url := pgtest.NewDatabaseURL(t)
	tests := []struct {
		name string
		args []string
		env  []string
		code int
		out  string // in stdout, or stderr when the code is not 0
	}{
		{"migrate and seed", []string{"db", "migrate", "--seed"}, []string{"SVC_DSS_CONTROL_DB_URL=" + url}, 0, "control database schema is up to date"},
		{"again: nothing to do", []string{"db", "migrate"}, []string{"SVC_DSS_CONTROL_DB_URL=" + url}, 0, "control database schema is up to date"},
		{"no database configured", []string{"db", "migrate"}, nil, 2, "svc.dss.control-db.url (env SVC_DSS_CONTROL_DB_URL) is blank"},
		{"unknown subcommand", []string{"db", "drop"}, []string{"SVC_DSS_CONTROL_DB_URL=" + url}, 2, "usage:"},
		{"extra argument", []string{"db", "migrate", "now"}, []string{"SVC_DSS_CONTROL_DB_URL=" + url}, 2, "usage:"},
		{"database down", []string{"db", "migrate"}, []string{"SVC_DSS_CONTROL_DB_URL=postgres://127.0.0.1:1/x?sslmode=disable&connect_timeout=1"}, 1, "db migrate:"},
	}
	for _, tt := range tests {
		// Sequential: the first two rows share the database.
		is := is.New(t)
		var out, errOut strings.Builder
		code := run(context.Background(), tt.args, append(offline(t), tt.env...), &out, &errOut, nil)
		is.Equal(code, tt.code) // tt.name
		got := out.String()
		if tt.code != 0 {
			got = errOut.String()
		}
		is.True(strings.Contains(got, tt.out)) // tt.name
	}
	// The seeded tenants are there.
	is := is.New(t)
	db, err := postgres.OpenWritable(postgres.Options{URL: url})
	is.NoErr(err)
	defer db.Close()
	var n int
	is.NoErr(db.GetContext(context.Background(), &n, `SELECT count(*) FROM tenants`))
	is.Equal(n, 3)
}

// BenchmarkAPIAuthentication is what a bearer token costs an API request
// with warm caches (provider, keys and license cached): the same small
// upload through the whole server under permit-all and under bearer
// authentication; the difference is the overhead.
func BenchmarkAPIAuthentication(b *testing.B) {
	w := newAuthWorld(b)
	open := servertest.Run(b, run, nil, append(offline(b), "SVC_DSS_VALIDATOR_PERMIT_ALL=true")).URL
	header := "Bearer " + w.token(b, w.a, tenantA)
	for _, bb := range []struct {
		name, url, header string
	}{{"permit-all", open, ""}, {"bearer", w.url, header}} {
		b.Run(bb.name, func(b *testing.B) {
			if status, _, _ := call(b, bb.url, http.MethodPost, "/api/validate", bb.header); status != 400 {
				b.Fatalf("status %d, want 400 (processed, not a signature)", status)
			}
			b.ReportAllocs()
			for b.Loop() {
				call(b, bb.url, http.MethodPost, "/api/validate", bb.header)
			}
		})
	}
}
