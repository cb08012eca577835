package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// metricsTokenForTests is a token of the length the configuration asks.
const metricsTokenForTests = "0123456789abcdef0123456789abcdef"

// scrapeAs asks GET /actuator/prometheus with the Authorization header
// auth ("" sends none) and returns the status and body.
func scrapeAs(t *testing.T, base, auth string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/actuator/prometheus", nil)
	if err != nil {
		t.Fatal(err)
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// TestMetricsNeedTheToken: the metrics are not anonymous; the token
// configured lets a scraper in, and nothing else does, not even a token
// when none is configured. Development mode (permit-all) opens them.
func TestMetricsNeedTheToken(t *testing.T) {
	t.Parallel()
	db := "SVC_DSS_CONTROL_DB_URL=" + pgtest.NewDatabaseURL(t)
	withToken := start(t, nil, db, "SVC_DSS_VALIDATOR_METRICS_TOKEN="+metricsTokenForTests)
	without := start(t, nil, db)
	const refused = `{"type":"urn:svc-dss:problem:unauthenticated","title":"Unauthorized","status":401,"detail":"the metrics need the bearer token of svc.dss.validator.metrics.token","instance":"/actuator/prometheus","requestId":"%s"}`
	tests := []struct {
		name   string
		server *servertest.Server
		auth   string
		status int
	}{
		{"no token", withToken, "", 401},
		{"wrong token", withToken, "Bearer " + strings.Repeat("x", 32), 401},
		{"token as basic credentials", withToken, "Basic " + metricsTokenForTests, 401},
		{"token with a suffix", withToken, "Bearer " + metricsTokenForTests + "0", 401},
		{"the token", withToken, "Bearer " + metricsTokenForTests, 200},
		{"the token, scheme in lower case", withToken, "bearer " + metricsTokenForTests, 200},
		{"none configured", without, "Bearer " + metricsTokenForTests, 401},
		{"none configured, none sent", without, "", 401},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := scrapeAs(t, tt.server.URL, tt.auth)
			is.Equal(res.StatusCode, tt.status)
			if tt.status == 401 {
				is.Equal(res.Header.Get("WWW-Authenticate"), "Bearer")
				is.Equal(res.Header.Get("Content-Type"), "application/problem+json")
				is.Equal(strings.TrimSpace(body), strings.Replace(refused, "%s", res.Header.Get("X-Request-Id"), 1))
				return
			}
			is.True(strings.Contains(body, "# TYPE svc_dss_validation_duration_seconds histogram"))
		})
	}
	t.Run("development mode", func(t *testing.T) {
		is := is.New(t)
		res, body := scrapeAs(t, dev(t).URL, "")
		is.Equal(res.StatusCode, 200)
		is.True(strings.Contains(body, "svc_dss_trusted_list_state{"))
	})
}

// TestValidationMetrics: a validation moves the counter of its
// signature's format, indication, framework and qualification, the
// duration and upload-size histograms, and the revocation fetch; the
// same document again is served from the revocation cache; an
// unreadable upload is counted as a 400 by its reason; the refresh and
// the list gauges show the fixture lists.
func TestValidationMetrics(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t, "SVC_DSS_VALIDATOR_METRICS_TOKEN="+metricsTokenForTests)
	is := is.New(t)

	m := servertest.Scrape(t, s.URL, metricsTokenForTests)
	is.True(m.Value("svc_dss_trust_refresh_duration_seconds", nil) >= 1)
	lotl := map[string]string{"territory": "EU", "kind": "LOTL"}
	is.True(m.Value("svc_dss_trusted_list_refreshes_total", map[string]string{"territory": "EU", "kind": "LOTL", "outcome": "ok"}) >= 1)
	is.Equal(m.Value("svc_dss_trusted_list_state", map[string]string{"territory": "EU", "kind": "LOTL", "state": "CURRENT"}), 1.0)
	is.Equal(m.Value("svc_dss_trusted_list_authenticity", map[string]string{"territory": "EU", "kind": "LOTL", "authenticity": "VALID"}), 1.0)
	is.Equal(m.Value("svc_dss_trusted_list_consecutive_failures", lotl), 0.0)
	age := m.Value("svc_dss_trusted_list_seconds_since_online_confirmation", lotl)
	is.True(m.Has("svc_dss_trusted_list_seconds_since_online_confirmation", lotl) && age >= 0 && age < 60)
	var anchors float64
	for _, l := range m["svc_dss_trusted_list_anchors"].GetMetric() {
		anchors += l.GetGauge().GetValue()
	}
	is.True(anchors > 0) // the member lists' services

	doc, err := cades.Sign([]byte("metrics"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	is.NoErr(err)
	before := m
	res, body := post(t, s.URL, map[string][]byte{"file": doc})
	is.Equal(res.StatusCode, 200)
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &sum))
	sig := sum.Signatures[0]
	is.Equal(sig.Indication, verdict.TotalPassed)
	qualification := "none"
	switch {
	case sig.EIDASQualification != nil:
		qualification = *sig.EIDASQualification
	case sig.SwissQualification != nil:
		qualification = *sig.SwissQualification
	}
	labels := map[string]string{"format": "CAdES_BASELINE_B", "indication": "TOTAL_PASSED", "framework": sig.TrustFramework, "qualification": qualification}
	after := servertest.Scrape(t, s.URL, metricsTokenForTests)
	delta := func(name string, labels map[string]string) float64 {
		return after.Value(name, labels) - before.Value(name, labels)
	}
	is.Equal(delta("svc_dss_validations_total", labels), 1.0)
	is.Equal(delta("svc_dss_validation_duration_seconds", nil), 1.0)
	is.Equal(delta("svc_dss_validation_upload_size_bytes", nil), 1.0)
	size := after["svc_dss_validation_upload_size_bytes"].GetMetric()[0].GetHistogram().GetSampleSum() -
		before["svc_dss_validation_upload_size_bytes"].GetMetric()[0].GetHistogram().GetSampleSum()
	is.Equal(size, float64(len(doc)))
	is.Equal(delta("svc_dss_revocation_fetches_total", map[string]string{"kind": "ocsp", "outcome": "ok"}), 1.0)

	before = after
	res, _ = post(t, s.URL, map[string][]byte{"file": doc})
	is.Equal(res.StatusCode, 200)
	after = servertest.Scrape(t, s.URL, metricsTokenForTests)
	is.Equal(delta("svc_dss_revocation_cache_hits_total", map[string]string{"kind": "ocsp"}), 1.0)
	is.Equal(delta("svc_dss_revocation_fetches_total", nil), 0.0)
	is.Equal(delta("svc_dss_validations_total", labels), 1.0)

	before = after
	res, err = http.Post(s.URL+"/api/validate", "text/plain", strings.NewReader("not a form"))
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 400)
	after = servertest.Scrape(t, s.URL, metricsTokenForTests)
	is.Equal(delta("svc_dss_http_error_responses_total", map[string]string{"status": "400", "reason": "unreadable-upload"}), 1.0)
	is.Equal(delta("svc_dss_validations_total", nil), 0.0)
}

// TestRevocationBlockedMetric: a fetch the private-network guard refuses
// is counted as blocked, OCSP and CRL alike.
func TestRevocationBlockedMetric(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, s := signedWorld(t, "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=true")
	doc, err := cades.Sign([]byte("blocked"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	is.NoErr(err)
	res, _ := post(t, s.URL, map[string][]byte{"file": doc})
	is.Equal(res.StatusCode, 200)
	m := servertest.Scrape(t, s.URL, "") // permit-all: open
	is.True(m.Value("svc_dss_revocation_fetches_total", map[string]string{"kind": "ocsp", "outcome": "blocked"}) >= 1)
	is.True(m.Value("svc_dss_revocation_fetches_total", map[string]string{"kind": "crl", "outcome": "blocked"}) >= 1)
	is.Equal(m.Value("svc_dss_revocation_fetches_total", map[string]string{"outcome": "ok"}), 0.0)
}
