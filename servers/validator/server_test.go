package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

func TestMain(m *testing.M) { redistest.Main(m, pgtest.Shutdown, removeBuilt) }

// start runs the validator in-process on a free port with args and env.
func start(t *testing.T, args []string, env ...string) *servertest.Server {
	t.Helper()
	requireDev(t, args)
	return servertest.Run(t, run, args, append(offline(t), env...))
}

// requireDev skips a test that runs development mode in a build without
// it (go test without -tags dev; go tool task test sets the tag).
func requireDev(t testing.TB, args []string) {
	t.Helper()
	if !devBuild && slices.Contains(args, "--dev") {
		t.Skip("development mode needs the build tag dev (go tool task test sets it)")
	}
}

// offline is the environment every test starts from: a free port, a
// private cache, and trusted-list URLs on a closed local port, so that no
// test reaches a real publisher. Later entries override these.
func offline(t testing.TB) []string {
	return []string{
		"SVC_DSS_VALIDATOR_PORT=0",
		"SVC_DSS_TL_CACHE=" + t.TempDir(),
		"SVC_DSS_VALIDATOR_LOTL_URL=http://127.0.0.1:9/eu-lotl.xml",
		"SVC_DSS_VALIDATOR_CH_TL_URL=http://127.0.0.1:9/tsl-ch.xml",
		// Development mode's PKI on a free port: tests run in parallel.
		"SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS=127.0.0.1:0",
		// One replica: the refreshes the tests wait for run at once.
		"SVC_DSS_VALIDATOR_REFRESH_JITTER=PT0S",
	}
}

func dev(t *testing.T, env ...string) *servertest.Server { return start(t, []string{"--dev"}, env...) }

func TestHealth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		env    []string
		args   []string
		status int
		body   string
	}{
		{name: "development, no database", args: []string{"--dev"}, status: 200, body: `{"status":"UP"}`},
		{name: "database answers", env: []string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_CONTROL_DB_URL=" + pgtest.NewDatabaseURL(t)}, status: 200, body: `{"status":"UP"}`},
		{name: "database does not answer", args: nil, env: []string{"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_CONTROL_DB_URL=postgres://127.0.0.1:1/none?sslmode=disable&connect_timeout=1"}, status: 503, body: `{"status":"DOWN"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			s := start(t, tt.args, tt.env...)
			res, err := http.Get(s.URL + "/actuator/health")
			is.NoErr(err)
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			is.Equal(res.StatusCode, tt.status)
			is.Equal(strings.TrimSpace(string(body)), tt.body)
			is.Equal(res.Header.Get("Content-Type"), "application/json")
		})
	}
}

func TestRequestIDOnResponseAndLogs(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := dev(t)
	req, _ := http.NewRequest(http.MethodGet, s.URL+"/actuator/health", nil)
	req.Header.Set("X-Request-Id", "trace-abc.123")
	res, err := http.DefaultClient.Do(req)
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.Header.Get("X-Request-Id"), "trace-abc.123") // a plain caller id is kept

	req.Header.Set("X-Request-Id", "evil\"id with spaces")
	res, err = http.DefaultClient.Do(req)
	is.NoErr(err)
	res.Body.Close()
	generated := res.Header.Get("X-Request-Id")
	is.Equal(len(generated), 24) // a dubious one is replaced

	var seen int
	for line := range strings.SplitSeq(s.Logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != "request" {
			continue
		}
		is.True(rec["request_id"] == "trace-abc.123" || rec["request_id"] == generated)
		seen++
	}
	is.Equal(seen, 2)
}

func TestProblemShape(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := dev(t)
	res, err := http.Get(s.URL + "/no/such/path")
	is.NoErr(err)
	defer res.Body.Close()
	is.Equal(res.StatusCode, 404)
	is.Equal(res.Header.Get("Content-Type"), "application/problem+json")
	p := servertest.Decode[servertest.Problem](t, res.Body)
	is.Equal(p, servertest.Problem{Type: "about:blank", Title: "Not Found", Status: 404, Instance: "/no/such/path", RequestID: res.Header.Get("X-Request-Id")})
}

// multipartBody builds a multipart upload with the UI's form token (none
// when csrf is "") and file parts of the given sizes.
func multipartBody(t *testing.T, csrf string, files map[string]int) (io.Reader, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	if csrf != "" {
		if err := w.WriteField("csrf", csrf); err != nil {
			t.Fatal(err)
		}
	}
	for field, size := range files {
		fw, err := w.CreateFormFile(field, field+".pdf")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fw.Write(bytes.Repeat([]byte{'%'}, size)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &b, w.FormDataContentType()
}

// The multipart limits hold on every path: on the API as problems, in
// the browser UI (signed in, with the form's token) as pages.
func TestMultipartLimits(t *testing.T) {
	t.Parallel()
	s := dev(t) // the spec's defaults: 20MB per file, 40MB per request
	b := (&uiWorld{url: s.URL}).browser(t)
	r := b.get("/validate")
	csrf := csrfOf(t, r.body)
	const mb = 1 << 20
	tests := []struct {
		name   string
		path   string
		files  map[string]int
		status int
		detail string
	}{
		{"file at the limit: read, and not a signature", "/validate", map[string]int{"file": 20 * mb}, 400,
			"unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST)"},
		{"file over the limit", "/validate", map[string]int{"file": 20*mb + 1}, 413,
			"a file exceeds the limit of 20971520 bytes (fw.servlet.multipart.max-file-size)"},
		{"request over the limit, each file within", "/validate", map[string]int{"file": 15 * mb, "detached": 15 * mb, "extra": 11 * mb}, 413,
			"multipart request exceeds the limit of 41943040 bytes (fw.servlet.multipart.max-request-size)"},
		{"file over the limit on the API", "/api/validate", map[string]int{"file": 20*mb + 1}, 413,
			"a file exceeds the limit of 20971520 bytes (fw.servlet.multipart.max-file-size)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			body, ct := multipartBody(t, csrf, tt.files)
			r := b.post(tt.path, ct, body)
			is.Equal(r.status, tt.status)
			if tt.path == "/validate" {
				is.Equal(text(r.body, "error-detail"), tt.detail)
				return
			}
			var p servertest.Problem
			is.NoErr(json.Unmarshal([]byte(r.body), &p))
			is.Equal(p.Type, "urn:svc-dss:problem:payload-too-large")
			is.Equal(p.Title, "Request Entity Too Large")
			is.Equal(p.Detail, tt.detail)
		})
	}
}

func TestMalformedMultipart(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := dev(t)
	res, err := http.Post(s.URL+"/api/validate", "multipart/form-data; boundary=xyz", strings.NewReader("--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a\"\r\n\r\nunterminated"))
	is.NoErr(err)
	defer res.Body.Close()
	is.Equal(res.StatusCode, 400)
	p := servertest.Decode[servertest.Problem](t, res.Body)
	is.Equal(p.Detail, "malformed multipart upload: the body ends before its closing boundary")

	res, err = http.Post(s.URL+"/api/validate", "multipart/form-data", strings.NewReader("x"))
	is.NoErr(err)
	defer res.Body.Close()
	is.Equal(res.StatusCode, 400)
	p = servertest.Decode[servertest.Problem](t, res.Body)
	is.Equal(p.Detail, "malformed multipart upload: no multipart boundary in Content-Type")
}

func TestAPIBodyLimit(t *testing.T) {
	t.Parallel()
	s := dev(t, "SVC_DSS_VALIDATOR_MAXREQUESTBYTES=1000")
	tests := []struct {
		name    string
		path    string
		size    int // bytes of the whole request body
		chunked bool
		status  int
	}{
		{"declared over the cap", "/api/validate", 1001, false, 413},
		{"undeclared over the cap", "/api/validate", 5000, true, 413},
		// Within the cap the upload reaches the handler: not a signature.
		{"at the cap", "/api/validate", 1000, false, 400},
		{"undeclared at the cap", "/api/validate", 1000, true, 400},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			raw, ct := multipartOfSize(t, tt.size)
			var r io.Reader = bytes.NewReader(raw)
			if tt.chunked {
				r = io.MultiReader(r) // hides the length: sent chunked
			}
			req, _ := http.NewRequest(http.MethodPost, s.URL+tt.path, r)
			req.Header.Set("Content-Type", ct)
			res, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			defer res.Body.Close()
			is.Equal(res.StatusCode, tt.status)
			if tt.status == 413 {
				p := servertest.Decode[servertest.Problem](t, res.Body)
				is.Equal(p.Detail, "request body exceeds the limit of 1000 bytes (svc.dss.validator.max-request-bytes)")
			}
		})
	}

	// Outside the API the cap does not apply: the UI's upload is read in
	// full and found not to be a signature.
	is := is.New(t)
	b := (&uiWorld{url: s.URL}).browser(t)
	body, ct := multipartBody(t, csrfOf(t, b.get("/validate").body), map[string]int{"file": 5000})
	r := b.post("/validate", ct, body)
	is.Equal(r.status, 400)
	is.Equal(text(r.body, "error-detail"), "unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST)")
}

// multipartOfSize returns a one-file multipart body of exactly size bytes.
func multipartOfSize(t *testing.T, size int) ([]byte, string) {
	t.Helper()
	build := func(n int) ([]byte, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		is.New(t).NoErr(w.SetBoundary("limit-test-boundary"))
		fw, err := w.CreateFormFile("file", "doc.pdf")
		is.New(t).NoErr(err)
		_, _ = fw.Write(bytes.Repeat([]byte{'%'}, n))
		is.New(t).NoErr(w.Close())
		return b.Bytes(), w.FormDataContentType()
	}
	empty, _ := build(0)
	if size < len(empty) {
		t.Fatalf("a multipart body cannot be smaller than %d bytes", len(empty))
	}
	raw, ct := build(size - len(empty))
	is.New(t).Equal(len(raw), size)
	return raw, ct
}

func TestInvalidConfigurationExits(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var stderr bytes.Buffer
	code := run(context.Background(), nil, []string{"SVC_DSS_VALIDATOR_TRUST_WARN_AFTER=soon"}, io.Discard, &stderr, nil)
	is.Equal(code, 2)
	is.Equal(stderr.String(), `config: svc.dss.validator.trust.warn-after (env SVC_DSS_VALIDATOR_TRUST_WARN_AFTER) = "soon": invalid ISO-8601 duration "soon": must start with P (e.g. P7D, PT30S)`+"\n")
}

func TestStartupWarnings(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := dev(t)
	logs := s.Logs.String()
	is.True(strings.Contains(logs, `"level":"WARN","msg":"DEVELOPMENT MODE (--dev): permit-all, no control database; never run this in production"`))
	is.True(strings.Contains(logs, `"level":"WARN","msg":"svc.dss.validator.security.permit-all is true`))

	s = start(t, nil, "SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL=postgres://127.0.0.1:1/x?sslmode=disable")
	is.True(!strings.Contains(s.Logs.String(), "permit-all is true"))
}

// TestGracefulShutdown runs the real binary, starts an upload, sends
// SIGTERM while it is in flight, and checks that the upload is still
// answered and the process exits 0.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	bin := servertest.Build(t, "github.com/svc-dss/dss/servers/validator")
	p := servertest.Start(t, bin, append(offline(t), "SVC_DSS_VALIDATOR_PERMIT_ALL=true")...)

	pr, pw := io.Pipe()
	req, _ := http.NewRequest(http.MethodPost, "http://"+p.Addr+"/api/validate", pr)
	w := multipart.NewWriter(pw)
	req.Header.Set("Content-Type", w.FormDataContentType())
	answered := make(chan int, 1)
	go func() {
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			answered <- -1
			return
		}
		res.Body.Close()
		answered <- res.StatusCode
	}()
	fw, _ := w.CreateFormFile("file", "doc.pdf")
	_, err := fw.Write([]byte("%PDF-1.7 first half"))
	is.NoErr(err)
	time.Sleep(200 * time.Millisecond)
	select {
	case c := <-answered:
		t.Fatalf("answered early: %d\n%s", c, p.Stdout())
	default:
	}

	p.Signal(t, syscall.SIGTERM)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(p.Stdout(), `"msg":"shutting down"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	is.True(strings.Contains(p.Stdout(), `"msg":"shutting down"`))
	_, err = fw.Write([]byte(" second half"))
	is.NoErr(err)
	is.NoErr(w.Close())
	is.NoErr(pw.Close())

	is.Equal(<-answered, 400) // answered in full (not a signature), and no reset
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, err := p.Wait(ctx)
	is.NoErr(err)
	is.Equal(code, 0)
	is.True(strings.Contains(p.Stdout(), `"msg":"stopped"`))
	_, err = net.DialTimeout("tcp", p.Addr, time.Second)
	is.True(err != nil) // no longer listening
}
