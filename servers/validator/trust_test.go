package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// ecosystem publishes fixture lists on 127.0.0.1 and returns the
// environment that points a validator at them, with a keystore and Swiss
// certificate on disk and a private cache directory.
func ecosystem(t *testing.T) (*tl.Ecosystem, []string) {
	t.Helper()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	return ecosystemFor(t, p)
}

// ecosystemFor is ecosystem for the lists of p.
func ecosystemFor(t *testing.T, p *pki.PKI) (*tl.Ecosystem, []string) {
	t.Helper()
	eco, err := tl.NewEcosystem(p, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	dir := t.TempDir()
	lists, err := eco.ValidatorEnv(dir)
	if err != nil {
		t.Fatal(err)
	}
	return eco, append([]string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + filepath.Join(dir, "cache")}, lists...)
}

func command(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	requireDev(t, args)
	var out, errOut bytes.Buffer
	code := run(context.Background(), args, env, &out, &errOut, nil)
	return code, out.String(), errOut.String()
}

func TestTrustCommands(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	eco, env := ecosystem(t)

	// Before any refresh the cache is empty.
	code, out, _ := command(t, env, "trust", "status")
	is.Equal(code, 0)
	var td verdict.TrustData
	is.NoErr(json.Unmarshal([]byte(out), &td))
	is.Equal(td.State, "NEVER_LOADED")

	code, out, errOut := command(t, env, "trust", "refresh")
	is.Equal(code, 0)
	is.NoErr(json.Unmarshal([]byte(out), &td))
	is.Equal(td.State, "CURRENT")
	is.Equal(len(td.Lists), 4)
	is.True(strings.Contains(errOut, `"lists":"EU=ok DE=ok FR=ok CH=ok"`)) // the log line, on stderr

	// Status from the cache alone, now and a year on.
	code, out, _ = command(t, env, "trust", "status")
	is.Equal(code, 0)
	is.NoErr(json.Unmarshal([]byte(out), &td))
	is.Equal(td.State, "CACHE_ONLY")
	code, out, _ = command(t, env, "trust", "status", "--at", time.Now().AddDate(1, 0, 0).UTC().Format(time.RFC3339))
	is.Equal(code, 0)
	is.NoErr(json.Unmarshal([]byte(out), &td))
	is.Equal(td.State, "EXPIRED")

	// A refresh that reaches nothing says so.
	for _, terr := range []string{"EU", "DE", "FR", "CH"} {
		eco.Publisher.SetFault(eco.Path(terr), tl.NotFound)
	}
	code, _, errOut = command(t, env, "trust", "refresh")
	is.Equal(code, 1)
	is.True(strings.Contains(errOut, "trust refresh: no list could be confirmed with its publisher"))
}

func TestTrustCommandUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"trust", "status", "--at", "yesterday"}, 2, `trust status: --at "yesterday" is not an RFC 3339 time (2026-11-21T12:00:00Z)`},
		{[]string{"trust"}, 2, "usage:"},
		{[]string{"trust", "delete"}, 2, "usage:"},
		{[]string{"trust", "refresh", "now"}, 2, "usage:"},
	}
	for _, tt := range tests {
		is := is.New(t)
		code, _, errOut := command(t, []string{"SVC_DSS_TL_CACHE=" + t.TempDir(), "SVC_DSS_VALIDATOR_LOTL_URL=http://127.0.0.1:9/x.xml"}, tt.args...)
		is.Equal(code, tt.code)
		is.True(strings.Contains(errOut, tt.err))
	}
}

func getJSON[T any](t *testing.T, url string) (int, T) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var v T
	body, _ := io.ReadAll(res.Body)
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("%s: %v\n%s", url, err, body)
	}
	return res.StatusCode, v
}

// waitFor polls the trust status until cond holds; the catch-up refresh
// runs in the background.
func waitFor(t *testing.T, url string, cond func(verdict.TrustData) bool) verdict.TrustData {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, td := getJSON[verdict.TrustData](t, url+"/api/trust-status")
		if cond(td) {
			return td
		}
		if time.Now().After(deadline) {
			t.Fatalf("trust status never reached the expected state: %+v", td)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestTrustStatusEndpointAfterCatchUp(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, env := ecosystem(t)
	s := start(t, nil, append(env, "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S")...)
	td := waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	is.Equal(td.State, "CURRENT")
	is.True(td.AnchorDataAuthenticated)
	is.Equal(len(td.Lists), 4)
	is.True(strings.Contains(s.Logs.String(), "catch-up refresh scheduled"))
}

func TestHealthAndTheEmptyStore(t *testing.T) {
	t.Parallel()
	unreachable := []string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_VALIDATOR_LOTL_URL=http://127.0.0.1:9/lotl.xml", "SVC_DSS_VALIDATOR_SWISS_ENABLED=false", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP=false"}
	tests := []struct {
		name   string
		env    []string
		status int
	}{
		{"empty store, default: UP", nil, 200},
		{"empty store, health-down-when-never-loaded: DOWN", []string{"SVC_DSS_VALIDATOR_TRUST_HEALTH_DOWN_WHEN_NEVER_LOADED=true"}, 503},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			env := append(append([]string{"SVC_DSS_TL_CACHE=" + t.TempDir()}, unreachable...), tt.env...)
			s := start(t, nil, env...)
			code, body := getJSON[map[string]string](t, s.URL+"/actuator/health")
			is.Equal(code, tt.status)
			is.Equal(len(body), 1) // the status only, no list details
			_, td := getJSON[verdict.TrustData](t, s.URL+"/api/trust-status")
			is.Equal(td.State, "NEVER_LOADED")
		})
	}
}

// Stale, expired and failing lists keep the probe UP (§3).
func TestHealthStaysUpWhenStale(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	eco, env := ecosystem(t)
	spec := eco.Spec("DE")
	spec.NextUpdate = time.Now().Add(-time.Hour) // already past
	is.NoErr(eco.Publish("DE", spec, 0))
	s := start(t, nil, append(env, "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S", "SVC_DSS_VALIDATOR_TRUST_HEALTH_DOWN_WHEN_NEVER_LOADED=true")...)
	td := waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.State != "NEVER_LOADED" && td.State != "CACHE_ONLY" })
	is.Equal(td.State, "STALE")
	code, _ := getJSON[map[string]string](t, s.URL+"/actuator/health")
	is.Equal(code, 200)
}

func TestPrivateCAOnTheTrustSurface(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dir := t.TempDir()
	s := start(t, nil, "SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE="+t.TempDir(), "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP=false",
		"SVC_DSS_VALIDATOR_PRIVATE_CA_ENABLED=true", "SVC_DSS_VALIDATOR_PRIVATE_CA_DIR=file://"+dir)
	_, td := getJSON[verdict.TrustData](t, s.URL+"/api/trust-status")
	is.True(td.PrivateCA.Enabled)
	is.True(td.PrivateCA.LoadedNothing) // enabled but empty: shown, not only logged
	is.True(strings.Contains(s.Logs.String(), "private CA anchors enabled but none was loaded"))
}

func TestDevelopmentModeShowsAHealthyStore(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := dev(t)
	td := waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	is.Equal(td.State, "CURRENT")
	is.True(td.AnchorDataAuthenticated)
	is.True(strings.Contains(s.Logs.String(), "DEVELOPMENT MODE: fixture trust data in use"))
}

// §1 "Runtime prerequisites": a missing EU keystore is a warning, not a
// refusal; the lists are held unauthenticated and the banner names the
// file to supply.
func TestMissingKeystoreIsAnnounced(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, env := ecosystem(t)
	missing := filepath.Join(t.TempDir(), "tl", "eu-oj-keystore.p12")
	s := start(t, nil, append(env, "SVC_DSS_VALIDATOR_OJ_KEYSTORE="+missing, "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S")...)
	is.True(strings.Contains(s.Logs.String(), `"level":"WARN","msg":"EU LOTL signer keystore unusable`))
	td := waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.State == "CURRENT" })
	is.True(!td.Current)
	is.True(!td.AnchorDataAuthenticated)
	is.Equal(list(td, "EU").Authenticity, "NOT_CHECKED")
	is.Equal(list(td, "CH").Authenticity, "VALID") // the Swiss list has its own certificate
	is.Equal(td.Banner.Category, "signature-not-checked")
	is.True(strings.Contains(td.Banner.Text, missing))
}

func list(td verdict.TrustData, territory string) verdict.ListStatus {
	for _, l := range td.Lists {
		if l.Territory == territory {
			return l
		}
	}
	return verdict.ListStatus{}
}
