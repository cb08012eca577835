package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/redistest"
)

// Two validators sharing one Redis are one session store: a browser
// signed in on one is signed in on the other (its requests go to either,
// as a load balancer without sticky sessions sends them), and signing
// out on one signs it out of both.
func TestUISessionSharedByReplicas(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := redistest.New(t)
	first := newUIWorld(t, uiOptions{env: redistest.Env(r.URL, r.Prefix)})
	second := newUIWorld(t, uiOptions{env: append(redistest.Env(r.URL, r.Prefix), "SVC_DSS_VALIDATOR_BASE_URL="+first.url), replicaOf: first})
	b := first.browser(t)
	is.Equal(b.login(tenantA, alice).status, 200)
	sid := b.cookie()
	is.True(sid != "")

	// Both replicas listen on 127.0.0.1: the browser sends the same
	// cookie to either, as it would to one host behind a balancer.
	b.seen = nil
	res := b.get(second.url + "/validate?tenantId=" + tenantA)
	is.Equal(res.status, 200)
	is.Equal(len(b.seen), 1) // no detour by the provider
	is.Equal(text(res.body, "account-subject"), "alice")
	is.Equal(text(res.body, "account-tenant"), tenantA)
	csrf := csrfOf(t, res.body)
	is.True(strings.Contains(second.logs.String(), `"msg":"browser UI sessions are kept in Redis, shared by the replicas","redis":"`+r.URL+`"`))

	// The page language chosen on the first is the session's on the
	// second: a browser that holds nothing but the session cookie (no
	// language cookie) gets it there.
	is.Equal(b.get(first.url+"/validate?tenantId="+tenantA+"&lang=de").status, 200)
	other := second.browser(t)
	u, err := url.Parse(second.url)
	is.NoErr(err)
	other.jar.SetCookies(u, []*http.Cookie{{Name: plainCookieName, Value: sid, Path: "/"}})
	res = other.get("/validate?tenantId=" + tenantA)
	is.Equal(res.status, 200)
	is.True(strings.Contains(res.body, `<html lang="de">`)) // the session's language
	is.Equal(text(res.body, "account-subject"), "alice")

	form := url.Values{"csrf": {csrf}}
	res = b.post(second.url+"/validate/logout", "application/x-www-form-urlencoded", strings.NewReader(form.Encode()))
	is.Equal(res.status, 200) // signed out on the second
	// The browser forgot the cookie; one who kept it is signed out too.
	u, err = url.Parse(first.url)
	is.NoErr(err)
	b.jar.SetCookies(u, []*http.Cookie{{Name: plainCookieName, Value: sid, Path: "/"}})
	res = b.get(first.url + "/validate?tenantId=" + tenantA)
	is.True(strings.HasPrefix(res.url.String(), first.op.Issuer)) // and so on the first: to the provider again
}

// The last validation's reports live beside the session: a document
// validated on one replica is downloaded from another.
func TestUIReportsAcrossReplicas(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := redistest.New(t)
	srv, first := signedUIWorld(t, redistest.Env(r.URL, r.Prefix)...)
	second := newUIWorld(t, uiOptions{env: append(redistest.Env(r.URL, r.Prefix), "SVC_DSS_VALIDATOR_BASE_URL="+first.url), replicaOf: first})
	b := first.browser(t)
	csrf := csrfOf(t, b.login(tenantA, alice).body)
	doc, err := cades.Sign([]byte("text"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	is.NoErr(err)
	is.Equal(b.upload(csrf, part{"file", "letter.p7m", doc}).status, 200)

	digest := sha256.Sum256(doc)
	for _, k := range []struct{ path, root, file string }{
		{pathDetailed, "DetailedReport", "letter-detailed-report.xml"},
		{pathETSI, "ValidationReport", "letter-etsi-validation-report.xml"},
	} {
		res := b.get(second.url + k.path)
		is.Equal(res.status, 200) // k.path
		is.Equal(dispositionName(t, res.header.Get("Content-Disposition")), k.file)
		is.Equal(rootOf(t, res.body), k.root)
		if k.root == "DetailedReport" {
			is.True(strings.Contains(res.body, `SHA256="`+hex.EncodeToString(digest[:])+`"`))
		}
	}
}

// A sign-in started on one replica may come back from the provider to
// another: it completes there when both have the same login key, and is
// refused as no sign-in in progress when they have none (each process
// then seals with a key of its own).
func TestUILoginAcrossReplicas(t *testing.T) {
	t.Parallel()
	const key = "0123456789abcdef0123456789abcdef"
	tests := []struct {
		name   string
		env    []string
		status int
		title  string
	}{
		{"same login key: completes on the other", []string{"SVC_DSS_VALIDATOR_SESSION_LOGIN_KEY=" + key}, 200, "Validate a signed document"},
		{"no login key: refused on the other", nil, 401, "401 · Unauthorized"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			r := redistest.New(t)
			env := append(redistest.Env(r.URL, r.Prefix), tt.env...)
			first := newUIWorld(t, uiOptions{env: env})
			// Behind one balancer, both have its address as base URL.
			second := newUIWorld(t, uiOptions{env: append(env, "SVC_DSS_VALIDATOR_BASE_URL="+first.url), replicaOf: first})
			if tt.env == nil {
				is.True(strings.Contains(first.logs.String(), `"msg":"no login key is configured (svc.dss.validator.session.login-key): a sign-in completes only on the replica that started it`))
			}
			b := first.browser(t)
			// The balancer sends the provider's callback to the second.
			b.c.CheckRedirect = func(req *http.Request, _ []*http.Request) error {
				if req.URL.Path == validator.LoginCallbackPath {
					req.URL.Host = strings.TrimPrefix(second.url, "http://")
				}
				return nil
			}
			res := b.login(tenantA, alice)
			is.Equal(res.status, tt.status)
			is.True(strings.HasPrefix(res.url.String(), second.url+validator.LoginCallbackPath) || strings.HasPrefix(res.url.String(), second.url+"/validate?")) // res.url
			is.Equal(text(res.body, "page-title"), tt.title)
			if tt.status == 200 {
				is.Equal(text(res.body, "account-subject"), "alice")
				is.True(strings.Contains(second.logs.String(), `"msg":"ui login","tenant":"`+tenantA+`","subject":"alice"`))
			}
		})
	}
}

// Redis down: the UI answers 502 with a page that says the session store
// failed, not that the browser is signed out; with Redis back, the same
// session is served again.
func TestUIRedisDown(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	own := redistest.StartT(t, redistest.Options{})
	w := newUIWorld(t, uiOptions{env: redistest.Env(own.URL(), "down:")})
	b := w.browser(t)
	is.Equal(b.login(tenantA, alice).status, 200)

	is.NoErr(own.Stop())
	for _, path := range []string{"/validate?tenantId=" + tenantA, "/validate/report/detailed"} {
		res := b.get(path)
		is.Equal(res.status, 502) // path
		is.Equal(text(res.body, "page-title"), "502 · Bad Gateway")
		is.Equal(text(res.body, "error-detail"), "Your session could not be read or saved: the session store did not answer. You are not signed out; try again in a moment, and quote the request id when reporting it.")
		is.True(b.cookie() != "") // the cookie is kept: the session may well live
	}
	is.True(strings.Contains(w.logs.String(), `"msg":"request failed","status":502,"error":"app: session store unavailable: session: redis: dial tcp`))
}

// Redis settings that cannot work stop the start-up with one clear line.
func TestUIRedisConfigurationRefused(t *testing.T) {
	t.Parallel()
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		env    []string
		code   int
		stderr string
		log    string
	}{
		{"database by name", []string{"SVC_DSS_REDIS_URL=redis://redis.internal/sessions"}, 2,
			`config: svc.dss.redis.url (env SVC_DSS_REDIS_URL) = "redis://redis.internal/sessions": the path names the database by its number (redis://host:6379/0), not "sessions"` + "\n", ""},
		{"password without URL", []string{"SVC_DSS_REDIS_PASSWORD=hunter2"}, 2,
			`config: svc.dss.redis.password (env SVC_DSS_REDIS_PASSWORD) = "******": set, but svc.dss.redis.url is empty: no Redis is used` + "\n", ""},
		{"CA file that is no certificate", []string{"SVC_DSS_REDIS_URL=rediss://:hunter2@redis.internal", "SVC_DSS_REDIS_CA_FILE=" + notPEM}, 1,
			"", `"msg":"start-up failed","error":"app: svc.dss.redis: redisconn: CA file ` + notPEM + ` holds no PEM certificate"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			var stdout, stderr bytes.Buffer
			env := append(append(offline(t), "SVC_DSS_VALIDATOR_PORT=0", "SVC_DSS_VALIDATOR_PERMIT_ALL=true"), tt.env...)
			code := run(context.Background(), nil, env, &stdout, &stderr, func(net.Addr) { t.Error("served") })
			is.Equal(code, tt.code)
			is.Equal(stderr.String(), tt.stderr)
			is.True(strings.Contains(stdout.String(), tt.log)) // stdout.String()
			is.True(!strings.Contains(stdout.String()+stderr.String(), "hunter2"))
		})
	}
}
