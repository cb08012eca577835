package main

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/servers/internal/page"
)

// Every upload the form refuses gets a page with its status and the exact
// reason, never the trust banner (§7: the error page cannot carry it).
// Permit-all: the checks are the same for every tenant.
func TestUIUploadRefusals(t *testing.T) {
	t.Parallel()
	w := newUIWorld(t, uiOptions{permitAll: true, env: []string{
		"FW_SERVLET_MULTIPART_MAXFILESIZE=1KB", "FW_SERVLET_MULTIPART_MAXREQUESTSIZE=2KB",
	}})
	b := w.browser(t)
	r := b.get("/validate")
	is.New(t).Equal(r.status, 200)
	csrf := csrfOf(t, r.body)
	const refused = "The form was refused: its security token is missing or does not match your session. Reload the page and submit the form again."
	small := []byte("%PDF-1.7 not signed")
	multi := func(csrf string, parts ...part) func() (string, *bytes.Buffer) {
		return func() (string, *bytes.Buffer) {
			body, ct := form(t, csrf, parts...)
			var buf bytes.Buffer
			buf.ReadFrom(body)
			return ct, &buf
		}
	}
	raw := func(ct, body string) func() (string, *bytes.Buffer) {
		return func() (string, *bytes.Buffer) { return ct, bytes.NewBufferString(body) }
	}
	tests := []struct {
		name   string
		body   func() (string, *bytes.Buffer)
		cookie bool // send the session cookie
		status int
		detail string
	}{
		{"no session", multi(csrf, part{"file", "a.pdf", small}), false, 401,
			"You are not signed in, or your session has ended. Sign in again to continue."},
		{"no form token", multi("", part{"file", "a.pdf", small}), true, 403, refused},
		{"wrong form token", multi(strings.Repeat("A", 43), part{"file", "a.pdf", small}), true, 403, refused},
		{"two form tokens", multi(csrf, part{"csrf", "", []byte(csrf)}, part{"file", "a.pdf", small}), true, 403, refused},
		// The token must open the form: it is checked before the document is read.
		{"the token after the file", multi("", part{"file", "a.pdf", small}, part{"csrf", "", []byte(csrf)}), true, 403, refused},
		{"a form broken before its token", raw("multipart/form-data; boundary=xyz", "--xyz\r\n<script>\r\n\r\n"+csrf), true, 403, refused},
		{"a cross-site text/plain post", raw("text/plain", "csrf="+csrf), true, 403, refused},
		{"URL-encoded, not multipart", raw("application/x-www-form-urlencoded", "csrf="+csrf), true, 400,
			`unreadable document: send the document as multipart/form-data with a part named "file"`},
		{"no file part", multi(csrf, part{"detached", "a.bin", small}), true, 400, `unreadable document: the part "file" is missing`},
		{"empty file", multi(csrf, part{"file", "a.pdf", nil}), true, 400, "unreadable document: the uploaded file is empty"},
		{"not a signature", multi(csrf, part{"file", "a.txt", []byte("hello, world")}), true, 400,
			"unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST)"},
		{"broken multipart", raw("multipart/form-data; boundary=xyz", "--xyz\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n"+csrf+"\r\n--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nunterminated"), true, 400,
			"malformed multipart upload: the body ends before its closing boundary"},
		{"no boundary", raw("multipart/form-data", "x"), true, 400, "malformed multipart upload: no multipart boundary in Content-Type"},
		{"file over the limit", multi(csrf, part{"file", "a.pdf", bytes.Repeat([]byte{'%'}, 1025)}), true, 413,
			"a file exceeds the limit of 1024 bytes (fw.servlet.multipart.max-file-size)"},
		{"request over the limit", multi(csrf, part{"file", "a.pdf", bytes.Repeat([]byte{'%'}, 1000)}, part{"detached", "b.bin", bytes.Repeat([]byte{'%'}, 1000)}), true, 413,
			"multipart request exceeds the limit of 2048 bytes (fw.servlet.multipart.max-request-size)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			ct, body := tt.body()
			req, err := http.NewRequest(http.MethodPost, w.url+"/validate", body)
			is.NoErr(err)
			req.Header.Set("Content-Type", ct)
			if tt.cookie {
				req.AddCookie(&http.Cookie{Name: plainCookieName, Value: b.cookie()})
			}
			res, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			defer res.Body.Close()
			var got bytes.Buffer
			got.ReadFrom(res.Body)
			is.Equal(res.StatusCode, tt.status)
			is.Equal(res.Header.Get("Content-Type"), "text/html; charset=UTF-8")
			is.Equal(text(got.String(), "page-title"), fmt.Sprintf("%d · %s", tt.status, http.StatusText(tt.status)))
			is.Equal(text(got.String(), "error-detail"), tt.detail)
			is.True(!strings.Contains(got.String(), `id="trust-banner"`))
			is.True(!strings.Contains(got.String(), `id="account"`))
		})
	}
}

// §3 "Degraded behaviour" 3: with no list loaded, the form's banner and
// the result page say the validator is misconfigured, not the document
// broken, and every signature says it reached no anchor.
func TestUINeverLoaded(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newUIWorld(t, uiOptions{permitAll: true}) // list URLs on a closed port
	b := w.browser(t)
	r := b.get("/validate")
	is.Equal(r.status, 200)
	is.True(strings.Contains(r.body, `data-category="no-list-loaded"`))
	is.Equal(text(r.body, "trust-banner-text"), "No trusted list is loaded. This is a configuration problem of the validator, not a property of the document.")
	is.True(strings.Contains(r.body, `id="account-development"`)) // nobody signs in
	is.True(!strings.Contains(r.body, `id="logout-button"`))

	p, err := pki.New("http://127.0.0.1:9")
	is.NoErr(err)
	sign := func(content string) []byte {
		sig, err := cades.Sign([]byte(content), cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
		is.NoErr(err)
		return sig
	}
	r = b.upload(csrfOf(t, r.body), part{"file", "one.p7m", sign("one")})
	is.Equal(r.status, 200)
	is.Equal(text(r.body, "never-loaded"), "No trusted list is loaded, so no signature could reach a trust anchor of the EU or Swiss lists. This is a configuration problem of the validator, not a property of the document.")
	is.Equal(text(r.body, "signature-1-no-anchor"), "No trust anchor was reached: no trusted list is loaded. This is a configuration problem of the validator, not a property of the document.")
	is.Equal(text(r.body, "signature-1-subindication"), "NO_CERTIFICATE_CHAIN_FOUND")
	is.Equal(text(r.body, "signature-1-country"), "None: no trusted-list anchor reached")
	is.True(strings.Contains(r.body, `id="trust-state" data-state="NEVER_LOADED"><code>NEVER_LOADED</code>, not confirmed current</dd>`))
	is.Equal(text(r.body, "trust-banner-text"), "No trusted list is loaded. This is a configuration problem of the validator, not a property of the document.")
	is.True(strings.Contains(r.body, "<code>NO_TRUSTED_LIST_LOADED</code></li>"))
}

// What `task run` serves: --dev through run, permit-all, the UI at
// /validate without a login.
func TestUIDevelopmentMode(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := dev(t)
	w := &uiWorld{url: s.URL}
	b := w.browser(t)
	r := b.get("/validate")
	is.Equal(r.status, 200)
	is.Equal(r.url.String(), s.URL+"/validate") // no redirect: nobody signs in
	is.Equal(text(r.body, "page-title"), "Validate a signed document")
	is.Equal(text(r.body, "account-tenant"), "00000000-0000-4000-8000-000000000000")
	csrfOf(t, r.body)
	is.True(b.cookie() != "")
	// The same session on the next visit.
	first := b.cookie()
	is.Equal(b.get("/validate?tenantId=whatever").status, 200)
	is.Equal(b.cookie(), first)
	is.True(strings.Contains(s.Logs.String(), `"level":"WARN","msg":"svc.dss.validator.security.permit-all is true: tenant authentication and licensing are bypassed, on the API and in the browser UI`))
}

// The pages' headers, the stylesheet, and the errors of paths that do
// not exist.
func TestUIHeadersAndAssets(t *testing.T) {
	t.Parallel()
	w := newUIWorld(t, uiOptions{})
	b := w.browser(t)
	tests := []struct {
		name, path string
		status     int
		ctype      string
		csp        string
	}{
		{"gateway", "/validate", 200, "text/html; charset=UTF-8", page.OpenFormPolicy},
		{"upload form", "/validate?tenantId=" + tenantA, 200, "text/html; charset=UTF-8", page.ContentSecurityPolicy},
		{"stylesheet", page.StylesheetPath, 200, "text/css; charset=utf-8", page.ContentSecurityPolicy},
		{"no directory listing", "/static/", 404, "text/html; charset=UTF-8", page.ContentSecurityPolicy},
		{"no such UI page", "/validate/nothing", 404, "text/html; charset=UTF-8", page.ContentSecurityPolicy},
		{"a report without a session", "/validate/report/etsi", 401, "text/html; charset=UTF-8", page.ContentSecurityPolicy},
	}
	is.New(t).Equal(b.login(tenantA, alice).status, 200)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			bb := b
			if tt.status == 401 {
				bb = w.browser(t)
			}
			r := bb.get(tt.path)
			is.Equal(r.status, tt.status)
			is.Equal(r.header.Get("Content-Type"), tt.ctype)
			is.Equal(r.header.Get("Content-Security-Policy"), tt.csp)
			is.Equal(r.header.Get("X-Content-Type-Options"), "nosniff")
			is.Equal(r.header.Get("X-Frame-Options"), "DENY")
			is.Equal(r.header.Get("Referrer-Policy"), "no-referrer")
		})
	}
	// Wrong methods on UI paths are pages too.
	is := is.New(t)
	req, _ := http.NewRequest(http.MethodPut, w.url+"/validate", nil)
	res, err := http.DefaultClient.Do(req)
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 405)
	is.Equal(res.Header.Get("Content-Type"), "text/html; charset=UTF-8")
	// The API keeps its problems.
	res, err = http.Get(w.url + "/api/trust-status")
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 401)
	is.Equal(res.Header.Get("Content-Type"), "application/problem+json")
}
