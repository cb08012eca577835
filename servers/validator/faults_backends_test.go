//go:build linux

package main

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	op "github.com/svc-dss/dss/fixtures/oidc"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// TestValidatorBackendFaults runs the validator binary, built once,
// against a real control database and Redis, and stops each while it
// serves. The control database authenticates API callers (each tenant's
// OpenID provider, decision 0022); Redis holds the browser UI's sessions
// (decision 0040). While one is down, what needs it answers 502 and
// nothing is let through that should not be; what does not need it goes
// on; when it is back, the service recovers without a restart.
func TestValidatorBackendFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the validator and stops its control database and Redis under it")
	}
	t.Parallel()
	bin := buildValidator(t)

	t.Run("control database stopped and started", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cluster, err := pgtest.StartCluster(ctx)
		is.NoErr(err)
		t.Cleanup(func() { _ = cluster.Stop() })
		seedControl(t, cluster.URL())
		a := op.Start(t, op.Options{Name: "tenant-a", DistinctKeys: true})
		b := op.Start(t, op.Options{Name: "tenant-b", DistinctKeys: true})
		execOn(t, cluster.URL(), `UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = $2`, a.Issuer, tenantA)
		execOn(t, cluster.URL(), `UPDATE oidc_providers SET issuer = $1 WHERE tenant_id = $2`, b.Issuer, tenantB)
		srv := serveValidator(t, bin, append(offline(t), "SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL="+cluster.URL()))

		tokenA := "Bearer " + a.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"dss-validator-a"}})
		tokenB := "Bearer " + b.Token(t, op.Claims{TenantID: tenantB, Audience: []string{"dss-validator-b"}})
		// Tenant B's claims from tenant A's provider: never B's caller.
		foreignB := "Bearer " + a.Token(t, op.Claims{TenantID: tenantB, Audience: []string{"dss-validator-b"}})
		status, _, _ := call(t, srv.url, http.MethodGet, "/api/trust-status", tokenA)
		is.Equal(status, 200) // tenant A's provider is now cached
		p, err := pki.New("http://127.0.0.1:9")
		is.NoErr(err)
		doc, err := cades.Sign([]byte("signed before the outage"), cades.Options{PKI: p, Signer: p.SignerRSAQC, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
		is.NoErr(err)
		status, want := validateAs(t, srv, tokenA, doc)
		is.Equal(status, 200)
		is.Equal(want.SignatureCount, 1)

		is.NoErr(cluster.Restart(ctx, func() {
			// Tenant A's provider comes from the cache: A is served, and
			// served the same.
			status, got := validateAs(t, srv, tokenA, doc)
			is.Equal(status, 200)
			is.Equal(verdictOf(got), verdictOf(want))
			// Tenant B's must be read: 502, for the good token and the
			// foreign one alike; nothing is let through.
			for _, auth := range []string{tokenB, foreignB} {
				status, body, _ := call(t, srv.url, http.MethodGet, "/api/trust-status", auth)
				is.Equal(status, 502)
				p := servertest.Decode[servertest.Problem](t, strings.NewReader(body))
				is.Equal(p.Type, "urn:svc-dss:problem:infrastructure-failure")
				is.True(!strings.Contains(body, cluster.URL()))
			}
			status, _, _ = call(t, srv.url, http.MethodGet, "/api/trust-status", "")
			is.Equal(status, 401) // no token needs no database
		}))

		// Back, without a restart: B is served, and the foreign token
		// refused as before the outage.
		status, _, _ = call(t, srv.url, http.MethodGet, "/api/trust-status", tokenB)
		is.Equal(status, 200)
		status, _, _ = call(t, srv.url, http.MethodGet, "/api/trust-status", foreignB)
		is.Equal(status, 401)
		if t.Failed() {
			t.Logf("validator logs:\n%s", tail(srv.logs.String(), 4<<10))
		}
	})

	t.Run("Redis stopped and started", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		own := redistest.StartT(t, redistest.Options{})
		// The provider's clients know the redirect URI, which names the
		// port: take a free one first.
		port := freePort(t)
		w := &uiWorld{url: "http://127.0.0.1:" + strconv.Itoa(port), admin: controlDatabase(t), logs: &servertest.Buffer{}}
		redirect := []string{w.url + validator.LoginCallbackPath}
		w.op = op.Start(t, op.Options{
			Name:    "shared",
			Users:   []op.User{alice},
			Clients: []op.Client{{ID: "dss-validator-a", Secret: secrets["SVC_DSS_DEV_OIDC_SECRET_A"], RedirectURIs: redirect}},
		})
		w.exec(t, `UPDATE oidc_providers SET issuer = $1`, w.op.Issuer)
		env := append(offline(t), "SVC_DSS_VALIDATOR_PORT="+strconv.Itoa(port), "SVC_DSS_VALIDATOR_BASE_URL="+w.url,
			"SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL="+w.admin,
			"SVC_DSS_DEV_OIDC_SECRET_A="+secrets["SVC_DSS_DEV_OIDC_SECRET_A"])
		srv := serveValidator(t, bin, append(env, redistest.Env(own.URL(), "faults:")...))
		token := "Bearer " + w.op.Token(t, op.Claims{TenantID: tenantA, Audience: []string{"dss-validator-a"}})

		br := w.browser(t)
		is.Equal(br.login(tenantA, alice).status, 200)
		sid := br.cookie()
		is.True(sid != "")

		is.NoErr(own.Stop())
		for _, path := range []string{"/validate?tenantId=" + tenantA, "/validate/report/detailed"} {
			br.seen = nil
			res := br.get(path)
			is.Equal(res.status, 502) // path
			is.Equal(text(res.body, "error-detail"), "Your session could not be read or saved: the session store did not answer. You are not signed out; try again in a moment, and quote the request id when reporting it.")
			is.Equal(len(br.seen), 1)  // no new login started
			is.Equal(br.cookie(), sid) // nor the session forgotten
		}
		// The API needs no session: it goes on.
		status, _, _ := call(t, srv.url, http.MethodGet, "/api/trust-status", token)
		is.Equal(status, 200)

		// Redis back where it was, without the sessions (no persistence):
		// the browser signs in again, on the same validator process.
		redistest.StartT(t, redistest.Options{Port: redistest.PortOf(t, own.URL())})
		res := br.login(tenantA, alice)
		is.Equal(res.status, 200)
		is.Equal(text(res.body, "account-subject"), "alice")
		is.True(br.cookie() != sid)
		is.True(strings.Contains(srv.logs.String(), `"error":"app: session store unavailable: session: redis: dial tcp`))
		if t.Failed() {
			t.Logf("validator logs:\n%s", tail(srv.logs.String(), 4<<10))
		}
	})
}

// verdictOf is what a summary says of its signatures.
func verdictOf(s verdict.ValidationSummary) string {
	out := fmt.Sprintf("valid=%t", s.Valid)
	for _, sig := range s.Signatures {
		out += " " + string(sig.Indication)
		if sig.SubIndication != nil {
			out += "/" + string(*sig.SubIndication)
		}
	}
	return out
}

// execOn runs a statement on the control database at url.
func execOn(t *testing.T, url, query string, args ...any) {
	t.Helper()
	(&uiWorld{admin: url}).exec(t, query, args...)
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
