package main

import (
	"bytes"
	"crypto"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/contracttest"
)

// contractPath is the signer's OpenAPI document.
const contractPath = "../../docs/signing-api.yaml"

func signRequest(t *testing.T, url, auth string, body []byte) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url+signPath, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	return req
}

// TestContract: sign-ska's real answers, its signatures and each kind of
// refusal, keep docs/signing-api.yaml, and so do the requests a proxy
// sends by it, the health probe and the metrics, scraped with their
// token and refused without it.
func TestContract(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	w := newSignWorld(t, "SVC_DSS_SIGNER_METRICS_TOKEN="+metricsTokenForTests)
	bare := start(t, "SVC_DSS_SECURITY_MAX_REQUEST_BYTES=1024") // no control database
	d256 := digest(crypto.SHA256, "one")
	signed := func(p proxy, b []byte) string { return "Bearer " + p.token(t, b, nil) }
	rsa := body(w.a, "sign-rsa", "SHA-256", "RSA_PKCS1_V1_5", "", d256)
	pss := body(w.a, "sign-rsa", "SHA-256", "RSA_PSS", "", d256, digest(crypto.SHA256, "two"))
	ecdsa := body(w.a, "sign-p256", "SHA-256", "ECDSA", "RAW", d256)
	foreign := body(w.b, "sign-p256", "SHA-256", "ECDSA", "", d256)
	unlicensed := body(w.c, "sign-p256", "SHA-256", "ECDSA", "", d256)
	noKey := body(w.a, "no-such-key", "SHA-256", "ECDSA", "", d256)
	unknownMember := []byte(strings.Replace(string(ecdsa), `{`, `{"extra":1,`, 1))
	tests := []struct {
		name      string
		url, auth string
		body      []byte
		status    int
		// malformed requests break the contract on purpose; their
		// answers must keep it.
		malformed bool
	}{
		{"RSA PKCS#1 v1.5", w.url, signed(w.a, rsa), rsa, 200, false},
		{"RSA-PSS, two digests", w.url, signed(w.a, pss), pss, 200, false},
		{"ECDSA, raw encoding", w.url, signed(w.a, ecdsa), ecdsa, 200, false},
		{"no token", w.url, "", ecdsa, 401, false},
		{"not a JWT", w.url, "Bearer not-a-token", ecdsa, 401, false},
		{"token over another body", w.url, signed(w.a, rsa), ecdsa, 401, false},
		{"another tenant's body", w.url, signed(w.a, foreign), foreign, 403, false},
		{"tenant without dss.sign", w.url, signed(w.c, unlicensed), unlicensed, 403, false},
		{"no such key", w.url, signed(w.a, noKey), noKey, 400, false},
		{"unknown member", w.url, signed(w.a, unknownMember), unknownMember, 400, true},
		{"no control database", bare.URL, signed(w.a, ecdsa), ecdsa, 503, false},
		{"over max-request-bytes", bare.URL, "Bearer x", bytes.Repeat([]byte(" "), 2048), 413, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, _ := c.Do(t, signRequest(t, tt.url, tt.auth, tt.body), !tt.malformed)
			is.Equal(res.StatusCode, tt.status)
		})
	}
	for _, url := range []string{w.url, bare.URL} {
		t.Run("health", func(t *testing.T) {
			is := is.New(t)
			req, _ := http.NewRequest(http.MethodGet, url+"/actuator/health", nil)
			res, _ := c.Do(t, req, true)
			is.Equal(res.StatusCode, 200)
		})
	}
	scrapes := []struct {
		name, url, auth, accept string
		status                  int
		contentType             string
	}{
		{"metrics without a token", w.url, "", "", 401, "application/problem+json"},
		{"metrics with a wrong token", w.url, "Bearer " + strings.Repeat("0", 32), "", 401, "application/problem+json"},
		{"metrics with a proxy's token", w.url, signed(w.a, ecdsa), "", 401, "application/problem+json"},
		{"metrics, none configured", bare.URL, "Bearer " + metricsTokenForTests, "", 401, "application/problem+json"},
		{"metrics with their token", w.url, "Bearer " + metricsTokenForTests, "", 200, "text/plain; version=0.0.4; charset=utf-8"},
		{"metrics, protobuf asked", w.url, "Bearer " + metricsTokenForTests, protobufMetrics, 200, "text/plain; version=0.0.4; charset=utf-8"},
	}
	for _, tt := range scrapes {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			req, _ := http.NewRequest(http.MethodGet, tt.url+"/actuator/prometheus", nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			res, _ := c.Do(t, req, true)
			is.Equal(res.StatusCode, tt.status)
			is.Equal(res.Header.Get("Content-Type"), tt.contentType)
		})
	}
}

// protobufMetrics is the Accept header of a Prometheus server that asks
// for the protobuf exposition format (native histograms); the servers
// answer in the text format, which Prometheus reads as well.
const protobufMetrics = "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"

// TestContractCatchesAChangedField: a field renamed, added or of another
// type in a real signature answer, without the document changing,
// breaks the contract, so TestContract fails on it.
func TestContractCatchesAChangedField(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	w := newSignWorld(t)
	b := body(w.a, "sign-rsa", "SHA-256", "RSA_PSS", "", digest(crypto.SHA256, "one"))
	res, got := c.Do(t, signRequest(t, w.url, "Bearer "+w.a.token(t, b, nil), b), true)
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, got)
	}
	tests := []struct {
		name   string
		change func(m map[string]any)
	}{
		{"unchanged", func(m map[string]any) {}},
		{"field renamed", func(m map[string]any) { m["key"] = m["keyLabel"]; delete(m, "keyLabel") }},
		{"field added", func(m map[string]any) { m["certificate"] = "MII..." }},
		{"field of another type", func(m map[string]any) { m["signatures"] = "AAAA" }},
		{"nested field added", func(m map[string]any) { m["pss"].(map[string]any)["trailerField"] = 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var m map[string]any
			is.NoErr(json.Unmarshal(got, &m))
			tt.change(m)
			changed, err := json.Marshal(m)
			is.NoErr(err)
			broken := c.Response(signRequest(t, w.url, "", b), 200, res.Header, changed)
			is.Equal(broken == "", tt.name == "unchanged") // broken: the contract is broken
		})
	}
}
