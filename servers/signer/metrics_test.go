package main

import (
	"crypto"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/servertest"
)

// metricsTokenForTests is a token of the length the configuration asks.
const metricsTokenForTests = "fedcba9876543210fedcba9876543210"

// TestMetricsNeedTheToken: the signer's metrics are not anonymous, and
// the resource-server filter does not stand in the way of the token (a
// scraper holds no client JWT); permit-all opens them.
func TestMetricsNeedTheToken(t *testing.T) {
	t.Parallel()
	withToken := servertest.Run(t, run, nil, []string{"SERVER_PORT=0", "SVC_DSS_SIGNER_METRICS_TOKEN=" + metricsTokenForTests})
	without := servertest.Run(t, run, nil, []string{"SERVER_PORT=0"})
	permitAll := servertest.Run(t, run, nil, []string{"SERVER_PORT=0", "SVC_DSS_SECURITY_PERMIT_ALL=true"})
	const refused = `{"type":"urn:svc-dss:problem:unauthenticated","title":"Unauthorized","status":401,"detail":"the metrics need the bearer token of svc.dss.signer.metrics.token","instance":"/actuator/prometheus","requestId":"%s"}`
	tests := []struct {
		name   string
		server *servertest.Server
		auth   string
		status int
	}{
		{"no token", withToken, "", 401},
		{"wrong token", withToken, "Bearer " + strings.Repeat("0", 32), 401},
		{"the token", withToken, "Bearer " + metricsTokenForTests, 200},
		{"none configured", without, "Bearer " + metricsTokenForTests, 401},
		{"permit-all", permitAll, "", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			req, err := http.NewRequest(http.MethodGet, tt.server.URL+"/actuator/prometheus", nil)
			is.NoErr(err)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			is.Equal(res.StatusCode, tt.status)
			if tt.status == 401 {
				is.Equal(res.Header.Get("WWW-Authenticate"), "Bearer")
				is.Equal(strings.TrimSpace(string(body)), strings.Replace(refused, "%s", res.Header.Get("X-Request-Id"), 1))
				return
			}
			is.True(strings.Contains(string(body), "# TYPE svc_dss_sign_replay_refusals_total counter"))
		})
	}
}

// TestSignerMetrics: a signature moves the calls by outcome, the
// signatures by algorithm, the HSM and control-database latencies and
// shows the partition's sessions; the same token again moves the replay
// refusals and the refusals by reason, as does a tenant without the
// dss.sign permission, and the 401 and 403 answers by reason.
func TestSignerMetrics(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newSignWorld(t, "SVC_DSS_SIGNER_METRICS_TOKEN="+metricsTokenForTests)
	scrape := func() servertest.Metrics { return servertest.Scrape(t, w.url, metricsTokenForTests) }
	before := scrape()
	b := body(w.a, "sign-p256", "SHA-256", "ECDSA", "", digest(crypto.SHA256, "metrics"), digest(crypto.SHA256, "twice"))
	auth := "Bearer " + w.a.token(t, b, nil)
	status, _ := post(t, w.url, auth, b)
	is.Equal(status, 200)
	after := scrape()
	delta := func(name string, labels map[string]string) float64 {
		return after.Value(name, labels) - before.Value(name, labels)
	}
	is.Equal(delta("svc_dss_sign_requests_total", map[string]string{"outcome": "signed", "reason": ""}), 1.0)
	is.Equal(delta("svc_dss_signatures_total", map[string]string{"algorithm": "ECDSA"}), 2.0)
	is.Equal(delta("svc_dss_hsm_operation_duration_seconds", map[string]string{"operation": "approve", "outcome": "ok"}), 1.0)
	is.Equal(delta("svc_dss_hsm_operation_duration_seconds", map[string]string{"operation": "sign", "outcome": "ok"}), 1.0)
	is.Equal(delta("svc_dss_hsm_operation_duration_seconds", map[string]string{"operation": "public-key", "outcome": "ok"}), 1.0)
	is.True(delta("svc_dss_control_db_query_duration_seconds", map[string]string{"outcome": "ok"}) >= 4) // key, licence, permission, partition
	is.True(after.Has("svc_dss_hsm_sessions_in_use", map[string]string{"partition": w.tokA.Label()}))
	is.Equal(after.Value("svc_dss_hsm_sessions_in_use", map[string]string{"partition": w.tokA.Label()}), 0.0) // given back

	before = after
	status, _ = post(t, w.url, auth, b) // the same token again
	is.Equal(status, 401)
	c := body(w.c, "sign-p256", "SHA-256", "ECDSA", "", digest(crypto.SHA256, "no permission"))
	status, _ = post(t, w.url, "Bearer "+w.c.token(t, c, nil), c)
	is.Equal(status, 403)
	after = scrape()
	is.Equal(delta("svc_dss_sign_replay_refusals_total", nil), 1.0)
	is.Equal(delta("svc_dss_sign_requests_total", map[string]string{"outcome": "unauthenticated", "reason": "token"}), 1.0)
	is.Equal(delta("svc_dss_sign_requests_total", map[string]string{"outcome": "forbidden", "reason": "permission"}), 1.0)
	is.Equal(delta("svc_dss_signatures_total", nil), 0.0)
	is.Equal(delta("svc_dss_http_error_responses_total", map[string]string{"status": "401", "reason": "unauthenticated"}), 1.0)
	is.Equal(delta("svc_dss_http_error_responses_total", map[string]string{"status": "403", "reason": "forbidden"}), 1.0)
}
