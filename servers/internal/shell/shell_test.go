package shell_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/shell"
)

// serve runs e on a free loopback port until the test ends.
func serve(t *testing.T, e *echo.Echo) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- shell.Serve(ctx, e, "127.0.0.1:0", slog.New(slog.DiscardHandler), func(a net.Addr) { addr <- a })
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	return (<-addr).String()
}

// A server with short timeouts: a handler that answers without reading,
// one that reads the body, and one that reads it after AllowBody.
func newTestServer(t *testing.T) string {
	e := shell.New(slog.New(slog.DiscardHandler), func(err error, c echo.Context) {
		status := http.StatusBadRequest // a body that did not arrive
		if he, ok := err.(*echo.HTTPError); ok {
			status = he.Code
		}
		_ = c.String(status, http.StatusText(status))
	},

		shell.Timeouts{ReadHeader: 200 * time.Millisecond, Read: 400 * time.Millisecond, Write: 2 * time.Second, Idle: time.Second})
	e.POST("/refuse", func(c echo.Context) error { return c.String(http.StatusUnauthorized, "no") })
	read := func(c echo.Context) error {
		b, err := io.ReadAll(c.Request().Body)
		if err != nil {
			return err
		}
		return c.String(http.StatusOK, string(b))
	}
	e.POST("/read", read)
	e.POST("/upload", func(c echo.Context) error {
		if err := shell.AllowBody(c, 2*time.Second, time.Second); err != nil {
			return err
		}
		return read(c)
	})
	return serve(t, e)
}

// dial opens a raw connection and sends head, then body after pause.
func dial(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	return conn
}

func TestTimeouts(t *testing.T) {
	t.Parallel()
	addr := newTestServer(t)
	post := func(path string, length int) string {
		return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + strconv.Itoa(length) + "\r\n\r\n"
	}
	tests := []struct {
		name   string
		head   string
		later  string        // sent after pause, if any
		pause  time.Duration // before later
		status int           // 0: the connection is closed without an answer
		body   string
		within time.Duration
	}{
		{"headers that never end are cut at ReadHeader", "POST /read HTTP/1.1\r\nHost: x\r\n", "", 0, 0, "", time.Second},
		{"a body that stalls is cut at Read", post("/read", 10) + "12345", "", 0, 400, "Bad Request", time.Second},
		{"a body within Read is read", post("/read", 10) + "12345", "67890", 100 * time.Millisecond, 200, "1234567890", time.Second},
		{"AllowBody gives an upload its own time", post("/upload", 10) + "12345", "67890", 700 * time.Millisecond, 200, "1234567890", 2 * time.Second},
		{"a refusal does not wait for a small stalled body", post("/refuse", 10) + "12345", "", 0, 401, "no", 100 * time.Millisecond},
		{"nor for a large one", post("/refuse", 40<<20) + "12345", "", 0, 401, "no", 100 * time.Millisecond},
		{"no such route does not wait either", post("/nothing", 10) + "12345", "", 0, 404, "", 100 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			start := time.Now()
			conn := dial(t, addr, tt.head)
			if tt.later != "" {
				time.Sleep(tt.pause)
				_, err := io.WriteString(conn, tt.later)
				is.NoErr(err)
			}
			is.NoErr(conn.SetReadDeadline(time.Now().Add(5 * time.Second)))
			res, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if tt.status == 0 {
				is.True(err != nil) // closed, no answer
				is.True(time.Since(start) < tt.within)
				return
			}
			is.NoErr(err)
			body, _ := io.ReadAll(res.Body)
			is.True(time.Since(start) < tt.within+tt.pause)
			is.Equal(res.StatusCode, tt.status)
			if tt.body != "" {
				is.Equal(string(body), tt.body)
			}
			is.Equal(res.Close, tt.later == "") // an unread body closes the connection
		})
	}
}

func TestNewRefusesZeroTimeouts(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	defer func() {
		v := recover()
		is.True(v != nil)
		is.True(strings.HasPrefix(v.(string), "shell: every timeout must be positive"))
	}()
	shell.New(slog.New(slog.DiscardHandler), nil, shell.Timeouts{ReadHeader: time.Second})
}
