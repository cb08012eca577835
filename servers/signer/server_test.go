package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

func TestMain(m *testing.M) { redistest.Main(m, pgtest.Shutdown) }

func start(t *testing.T, env ...string) *servertest.Server {
	t.Helper()
	return servertest.Run(t, run, nil, append([]string{"SERVER_PORT=0"}, env...))
}

func TestHealth(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		env    []string
		status int
		body   string
	}{
		{"no control database", nil, 200, `{"status":"UP"}`},
		{"control database answers", []string{"SVC_DSS_CONTROL_DB_URL=" + pgtest.NewDatabaseURL(t)}, 200, `{"status":"UP"}`},
		{"control database does not answer", []string{"SVC_DSS_CONTROL_DB_URL=postgres://127.0.0.1:1/x?sslmode=disable&connect_timeout=1"}, 503, `{"status":"DOWN"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			s := start(t, tt.env...)
			res, err := http.Get(s.URL + "/actuator/health")
			is.NoErr(err)
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			is.Equal(res.StatusCode, tt.status)
			is.Equal(strings.TrimSpace(string(body)), tt.body)
		})
	}
}

func TestIndexAndAssetsArePublic(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := start(t) // permit-all false, no key source: only public paths open
	res, err := http.Get(s.URL + "/")
	is.NoErr(err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	is.Equal(res.StatusCode, 200)
	is.Equal(res.Header.Get("Content-Type"), "text/html; charset=UTF-8")
	is.True(strings.Contains(string(body), "<h1>Remote signing service</h1>"))
	is.True(strings.Contains(string(body), `<link rel="stylesheet" href="/static/ui.css">`))
	is.True(!strings.Contains(string(body), "<form")) // no signing surface
	is.Equal(res.Header.Get("Content-Security-Policy"), page.ContentSecurityPolicy)
	is.Equal(res.Header.Get("X-Frame-Options"), "DENY")

	res, err = http.Get(s.URL + "/static/ui.css")
	is.NoErr(err)
	css, _ := io.ReadAll(res.Body)
	res.Body.Close()
	is.Equal(res.StatusCode, 200)
	is.True(strings.HasPrefix(res.Header.Get("Content-Type"), "text/css"))
	is.True(bytes.Contains(css, []byte(".brand")))

	res, err = http.Get(s.URL + "/static/")
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 404) // no directory listing
}

func TestSignWithoutControlDatabase(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := start(t)
	res, err := http.Post(s.URL+signPath, "application/json", strings.NewReader(`{"tenantId":"t","moduleUuid":"m","digest":"AAAA"}`))
	is.NoErr(err)
	defer res.Body.Close()
	is.Equal(res.StatusCode, 503)
	is.Equal(res.Header.Get("Content-Type"), "application/problem+json")
	p := servertest.Decode[servertest.Problem](t, res.Body)
	is.Equal(p, servertest.Problem{
		Type: "urn:svc-dss:problem:signing-unavailable", Title: "Service Unavailable", Status: 503,
		Detail:   "signing is unavailable: no control database is configured (svc.dss.control-db.url)",
		Instance: signPath, RequestID: res.Header.Get("X-Request-Id"),
	})
}

func TestBrowsersGetTheStyledErrorPage(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := start(t)
	req, _ := http.NewRequest(http.MethodPost, s.URL+signPath, strings.NewReader("{}"))
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	res, err := http.DefaultClient.Do(req)
	is.NoErr(err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	is.Equal(res.StatusCode, 503)
	is.Equal(res.Header.Get("Content-Type"), "text/html; charset=UTF-8")
	page := string(body)
	is.True(strings.Contains(page, "<h1>503 · Service Unavailable</h1>"))
	is.True(strings.Contains(page, "no control database is configured"))
	is.True(strings.Contains(page, res.Header.Get("X-Request-Id")))
	is.True(strings.Contains(page, `href="/static/ui.css"`))
}

func TestStartupWarnings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		env  []string
		want []string
		not  []string
	}{
		{"defaults", nil,
			[]string{`"level":"WARN","msg":"no JWT key source is configured (fw.security.oauth2.resourceserver.jwt.*) and permit-all is false: every non-public path other than /api/server-signing/sign-ska is denied"`,
				`"level":"WARN","msg":"no control database is configured (svc.dss.control-db.url): /api/server-signing/sign-ska answers 503"`},
			[]string{"permit-all is true"}},
		{"permit-all", []string{"SVC_DSS_SECURITY_PERMIT_ALL=true"},
			[]string{`"level":"WARN","msg":"svc.dss.security.permit-all is true: the resource-server filter is off; /api/server-signing/sign-ska still verifies its own JWT; development only"`},
			[]string{"no JWT key source"}},
		{"key source", []string{"FW_SECURITY_OAUTH2_RESOURCESERVER_JWT_JWKSETURI=https://idp.example/jwks"}, nil,
			[]string{"no JWT key source", "permit-all is true"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := start(t, tt.env...)
			logs := s.Logs.String()
			for _, w := range tt.want {
				if !strings.Contains(logs, w) {
					t.Errorf("log lacks %s\n%s", w, logs)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(logs, n) {
					t.Errorf("log has %q\n%s", n, logs)
				}
			}
		})
	}
}

// rawRequest sends head (request line and headers) and then body on a
// raw connection and returns the status line's code. It reads the answer
// before sending the body when early is true.
func rawStatus(t *testing.T, addr, head string) int {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer before the body was sent: %v", err)
	}
	res.Body.Close()
	return res.StatusCode
}

func TestBodyLimit(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	def := start(t) // the spec's default: 16 MiB
	fallback := start(t, "SVC_DSS_SECURITY_MAX_REQUEST_BYTES=0")
	small := start(t, "SVC_DSS_SECURITY_MAX_REQUEST_BYTES=1024")

	t.Run("declared over the cap is refused before the body is sent", func(t *testing.T) {
		is := is.New(t)
		addr := strings.TrimPrefix(def.URL, "http://")
		head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", signPath, 16*mib+1)
		is.Equal(rawStatus(t, addr, head), 413) // no body byte was written
	})

	tests := []struct {
		name    string
		s       *servertest.Server
		size    int
		chunked bool
		status  int
		limit   int
	}{
		{"declared at the default cap", def, 16 * mib, false, 503, 0},
		{"declared over the default cap", def, 16*mib + 1, false, 413, 16 * mib},
		{"undeclared over the default cap", def, 16*mib + 1, true, 413, 16 * mib},
		{"undeclared at the default cap", def, 16 * mib, true, 503, 0},
		{"zero falls back to 16 MiB: at the cap", fallback, 16 * mib, true, 503, 0},
		{"zero falls back to 16 MiB: over the cap", fallback, 16*mib + 1, false, 413, 16 * mib},
		{"configured cap, undeclared", small, 1025, true, 413, 1024},
		{"configured cap, declared", small, 1025, false, 413, 1024},
		{"configured cap, within", small, 1024, true, 503, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var body io.Reader = bytes.NewReader(bytes.Repeat([]byte{' '}, tt.size))
			if tt.chunked {
				body = io.MultiReader(body) // no length: sent chunked
			}
			res, err := http.Post(tt.s.URL+signPath, "application/json", body)
			is.NoErr(err)
			defer res.Body.Close()
			is.Equal(res.StatusCode, tt.status)
			if tt.status == 413 {
				p := servertest.Decode[servertest.Problem](t, res.Body)
				is.Equal(p.Type, "urn:svc-dss:problem:payload-too-large")
				is.Equal(p.Detail, fmt.Sprintf("request body exceeds the limit of %d bytes (svc.dss.security.max-request-bytes)", tt.limit))
			}
		})
	}

	t.Run("the cap applies only under /api/", func(t *testing.T) {
		is := is.New(t)
		res, err := http.Post(small.URL+"/", "text/plain", io.MultiReader(strings.NewReader(strings.Repeat("x", 5000))))
		is.NoErr(err)
		res.Body.Close()
		is.Equal(res.StatusCode, 405) // GET only; not 413
	})
}

func TestInvalidConfigurationExits(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var stderr bytes.Buffer
	code := run(context.Background(), nil, []string{"SERVER_PORT=eighty"}, io.Discard, &stderr, nil)
	is.Equal(code, 2)
	is.Equal(stderr.String(), `config: server.port (env SERVER_PORT) = "eighty": not a TCP port (0 to 65535)`+"\n")
}

// TestGracefulShutdown runs the real binary, sends SIGTERM while a signing
// request's body is still arriving, and checks that the request is
// answered in full and the process exits 0.
func TestGracefulShutdown(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	bin := servertest.Build(t, "github.com/svc-dss/dss/servers/signer")
	p := servertest.Start(t, bin, "SERVER_PORT=0")

	pr, pw := io.Pipe()
	answered := make(chan int, 1)
	go func() {
		res, err := http.Post("http://"+p.Addr+signPath, "application/json", pr)
		if err != nil {
			answered <- -1
			return
		}
		res.Body.Close()
		answered <- res.StatusCode
	}()
	_, err := io.WriteString(pw, `{"tenantId":`)
	is.NoErr(err)
	time.Sleep(200 * time.Millisecond) // let the request reach the handler

	p.Signal(t, syscall.SIGTERM)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(p.Stdout(), `"msg":"shutting down"`) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	is.True(strings.Contains(p.Stdout(), `"msg":"shutting down"`))
	_, err = io.WriteString(pw, `"t"}`)
	is.NoErr(err)
	is.NoErr(pw.Close())

	is.Equal(<-answered, 503) // answered in full, not reset
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	code, err := p.Wait(ctx)
	is.NoErr(err)
	is.Equal(code, 0)
	_, err = net.DialTimeout("tcp", p.Addr, time.Second)
	is.True(err != nil)
}

// Issue 14: a Content-Length larger than the body, or headers that never
// end, held a connection for the 5-minute read timeout. The signer takes
// 64 KiB at the most and bounds its reads to match: a stalled body is a
// 408 and the connection closes; stalled headers close it. The server
// runs here with bounds of a fraction of a second, and the client waits
// three times as long.
func TestReadBounds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	tm := timeouts(30 * time.Second)
	is.Equal(tm.ReadHeader, 5*time.Second)
	is.Equal(tm.Read, 10*time.Second)
	is.Equal(tm.Write, 50*time.Second) // the body, 30 s of signing, the answer

	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	cfg, err := config.LoadSigner(nil, []string{"SVC_DSS_CONTROL_DB_URL=" + pgtest.NewDatabaseURL(t)}, io.Discard)
	is.NoErr(err)
	a, err := signer.New(cfg, logger)
	is.NoErr(err)
	t.Cleanup(func() { a.Close() })
	e, err := newServer(a, logger)
	is.NoErr(err)
	is.Equal(e.Server.ReadHeaderTimeout, readHeaderTimeout) // what the server runs with
	is.Equal(e.Server.ReadTimeout, readTimeout)
	const header, read = 200 * time.Millisecond, 500 * time.Millisecond
	e.Server.ReadHeaderTimeout, e.Server.ReadTimeout = header, read
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	go e.Server.Serve(ln)
	t.Cleanup(func() { e.Server.Close() })

	dial := func(t *testing.T, send string) net.Conn {
		t.Helper()
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		if _, err := io.WriteString(conn, send); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	// closed reports whether the server closed conn, as opposed to the
	// client's own deadline passing first.
	closed := func(conn net.Conn) bool {
		_, err := io.Copy(io.Discard, conn)
		ne, ok := errors.AsType[net.Error](err)
		return err == nil || !(ok && ne.Timeout()) // EOF, or reset by the server
	}

	t.Run("a body shorter than its Content-Length", func(t *testing.T) {
		is := is.New(t)
		body := `{"tenantId":`
		conn := dial(t, fmt.Sprintf("POST %s HTTP/1.1\r\nHost: signer\r\nContent-Type: application/json\r\nAuthorization: Bearer x.y.z\r\nContent-Length: %d\r\n\r\n%s", signPath, 1000, body))
		is.NoErr(conn.SetReadDeadline(time.Now().Add(3 * read)))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		is.NoErr(err) // answered within three read timeouts
		var p servertest.Problem
		is.NoErr(json.NewDecoder(res.Body).Decode(&p))
		res.Body.Close()
		is.Equal(res.StatusCode, http.StatusRequestTimeout)
		is.Equal(p.Detail, "the request body did not arrive in time: the signer reads a whole request within seconds")
		is.True(res.Close)    // the connection ends with the answer
		is.True(closed(conn)) // and is closed
	})
	t.Run("headers that never end", func(t *testing.T) {
		is := is.New(t)
		conn := dial(t, "POST "+signPath+" HTTP/1.1\r\nHost: signer\r\nContent-Length: 10\r\n")
		is.NoErr(conn.SetReadDeadline(time.Now().Add(3 * header)))
		is.True(closed(conn)) // closed by the server within three header timeouts
	})
	t.Run("a complete request is answered", func(t *testing.T) {
		is := is.New(t)
		conn := dial(t, "POST "+signPath+" HTTP/1.1\r\nHost: signer\r\nContent-Length: 2\r\n\r\n{}")
		is.NoErr(conn.SetReadDeadline(time.Now().Add(3 * read)))
		res, err := http.ReadResponse(bufio.NewReader(conn), nil)
		is.NoErr(err)
		res.Body.Close()
		is.Equal(res.StatusCode, http.StatusUnauthorized) // no token, but read and answered
	})
}
