package main

import (
	"bytes"
	"context"
	"crypto"
	"encoding/json"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// Two signers sharing one Redis are one replay store: a token used on
// one is refused on the other, whichever comes first.
func TestSignSKAReplicasShareUsedTokens(t *testing.T) {
	t.Parallel()
	r := redistest.New(t)
	w := newSignWorld(t, redistest.Env(r.URL, r.Prefix)...)
	other := servertest.Run(t, run, nil, append([]string{"SERVER_PORT=0", "SVC_DSS_CONTROL_DB_URL=" + w.admin}, redistest.Env(r.URL, r.Prefix)...)).URL
	d := digest(crypto.SHA256, "document")
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d)
	tests := []struct {
		name          string
		first, second string
	}{
		{"first replica, then the other", w.url, other},
		{"other replica, then the first", other, w.url},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			auth := "Bearer " + w.a.token(t, good, nil)
			status, _ := post(t, tt.first, auth, good)
			is.Equal(status, 200)
			status, raw := post(t, tt.second, auth, good)
			is.Equal(status, 401)
			p := servertest.Decode[servertest.Problem](t, bytes.NewReader(raw))
			is.Equal(p.Type, "urn:svc-dss:problem:unauthenticated")
			is.Equal(p.Detail, "the token's jti was used before")
		})
	}
	// Without the shared store each replica would accept the token once.
	t.Run("a fresh token still signs on both", func(t *testing.T) {
		is := is.New(t)
		for _, u := range []string{w.url, other} {
			status, _ := post(t, u, "Bearer "+w.a.token(t, good, nil), good)
			is.Equal(status, 200)
		}
	})
}

// Redis down: sign-ska answers 502 with the reason, never signs (fail
// closed), and the token may be sent again once Redis is back.
func TestSignSKARedisDown(t *testing.T) {
	t.Parallel()
	own := redistest.StartT(t, redistest.Options{})
	w := newSignWorld(t, redistest.Env(own.URL(), "down:")...)
	d := digest(crypto.SHA256, "document")
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d)
	is := is.New(t)
	status, _ := post(t, w.url, "Bearer "+w.a.token(t, good, nil), good)
	is.Equal(status, 200) // Redis up

	is.NoErr(own.Stop())
	refused := "Bearer " + w.a.token(t, good, nil)
	status, raw := post(t, w.url, refused, good)
	is.Equal(status, 502)
	var p servertest.Problem
	is.NoErr(json.Unmarshal(raw, &p))
	is.Equal(p, servertest.Problem{
		Type: "urn:svc-dss:problem:infrastructure-failure", Title: "Bad Gateway", Status: 502,
		Detail:    "signing refused: the store of used token IDs failed (it did not answer, or it is full), and a token that cannot be recorded as used is not accepted; send a new token later, and quote the request id when reporting it",
		Instance:  p.Instance,
		RequestID: p.RequestID,
	})
	w.noInternals(t, p.Detail)
	is.True(strings.Contains(w.logs.String(), `"outcome":"failed"`))
	is.True(strings.Contains(w.logs.String(), "app: the store of used token IDs failed: replay: redis: dial tcp"))

	// Redis back where it was: the signer recovers without a restart;
	// the token refused while it was down signs once, and only once.
	redistest.StartT(t, redistest.Options{Port: redistest.PortOf(t, own.URL())})
	status, _ = post(t, w.url, refused, good)
	is.Equal(status, 200)
	status, raw = post(t, w.url, refused, good)
	is.Equal(status, 401)
	is.Equal(servertest.Decode[servertest.Problem](t, bytes.NewReader(raw)).Detail, "the token's jti was used before")
}

// The control database stopped and started again: sign-ska refuses
// while it is down, signs nothing meanwhile, and recovers without a
// restart of the signer.
func TestSignSKAControlDatabaseRestart(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cluster, err := pgtest.StartCluster(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cluster.Stop() })
	w := newSignWorldOn(t, cluster.URL())
	d := digest(crypto.SHA256, "document")
	good := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", d)
	is := is.New(t)
	status, _ := post(t, w.url, "Bearer "+w.a.token(t, good, nil), good)
	is.Equal(status, 200)

	refused := "Bearer " + w.a.token(t, good, nil)
	is.NoErr(cluster.Restart(ctx, func() {
		status, raw := post(t, w.url, refused, good)
		is.Equal(status, 502)
		p := servertest.Decode[servertest.Problem](t, bytes.NewReader(raw))
		is.Equal(p.Type, "urn:svc-dss:problem:infrastructure-failure")
		w.noInternals(t, p.Detail)
	}))
	status, raw := post(t, w.url, refused, good)
	is.Equal(status, 200)
	var out signed
	is.NoErr(json.Unmarshal(raw, &out))
	is.Equal(len(out.Signatures), 1)
}

// Redis settings that cannot work stop the start-up with one clear line:
// the configuration's (exit 2) or the client's (exit 1).
func TestRedisConfigurationRefused(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		env    []string
		code   int
		stderr string
		log    string
	}{
		{"not a Redis URL, password hidden", []string{"SVC_DSS_REDIS_URL=https://:hunter2@redis.internal"}, 2,
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "https://:%2A%2A%2A%2A%2A%2A@redis.internal": not a Redis URL (redis://host:6379/0, or rediss://host:6380/0 for TLS)` + "\n", ""},
		{"CA file without TLS", []string{"SVC_DSS_REDIS_URL=redis://redis.internal", "SVC_DSS_REDIS_CA_FILE=/etc/ca.pem"}, 2,
			`config: svc.dss.redis.ca-file (env SVC_DSS_REDIS_CA_FILE) = "/etc/ca.pem": a CA file needs TLS: svc.dss.redis.url must be a rediss:// URL` + "\n", ""},
		{"CA file missing", []string{"SVC_DSS_REDIS_URL=rediss://:hunter2@redis.internal", "SVC_DSS_REDIS_CA_FILE=/nonexistent/ca.pem"}, 1,
			"", `"msg":"start-up failed","error":"app: svc.dss.redis: redisconn: CA file: open /nonexistent/ca.pem: no such file or directory"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), nil, append([]string{"SERVER_PORT=0"}, tt.env...), &stdout, &stderr, func(net.Addr) { t.Error("served") })
			is.Equal(code, tt.code)
			is.Equal(stderr.String(), tt.stderr)
			is.True(strings.Contains(stdout.String(), tt.log)) // stdout.String()
			is.True(!strings.Contains(stdout.String()+stderr.String(), "hunter2"))
		})
	}
}
