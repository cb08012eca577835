// Package shell is what the two servers share around Echo: explicit
// timeouts, request ids, JSON access logs, panic recovery, and a Serve that
// shuts down gracefully.
//
// Routes, error mapping and everything a server decides stay in the
// server's own package.
package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/debug"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/servers/internal/requestid"
)

// Timeouts bound how long a connection may hold the server. Each server
// passes its own to New: they depend on the largest body it takes.
type Timeouts struct {
	// ReadHeader bounds the request line and headers. Keep it short:
	// headers are small, and slow headers are how connections get
	// hoarded.
	ReadHeader time.Duration
	// Read bounds the whole request, headers and body, as
	// http.Server.ReadTimeout does. A handler that takes a larger body
	// than Read allows extends its own request with AllowBody once it has
	// authenticated the caller.
	Read time.Duration
	// Write bounds the rest, from the end of the headers to the end of
	// the response (http.Server.WriteTimeout): the body, the handler and
	// writing the answer.
	Write time.Duration
	// Idle bounds the wait for the next request on a kept-alive
	// connection.
	Idle time.Duration
}

// ShutdownTimeout bounds the wait for in-flight requests on SIGTERM.
const ShutdownTimeout = 30 * time.Second

// NewLogger returns the JSON logger both servers use: every record logged
// with a request's context carries its request_id.
func NewLogger(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(requestid.Handler{Handler: slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})})
}

// New returns an Echo with the shared middleware, onError as its one
// error handler, and the server's timeouts. It panics when a timeout is
// not positive: a server without one is a wiring mistake.
func New(logger *slog.Logger, onError echo.HTTPErrorHandler, t Timeouts) *echo.Echo {
	if t.ReadHeader <= 0 || t.Read <= 0 || t.Write <= 0 || t.Idle <= 0 {
		panic(fmt.Sprintf("shell: every timeout must be positive: %+v", t))
	}
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.Logger.SetOutput(io.Discard) // slog is the only log
	e.HTTPErrorHandler = onError
	e.Server.ReadHeaderTimeout = t.ReadHeader
	e.Server.ReadTimeout = t.Read
	e.Server.WriteTimeout = t.Write
	e.Server.IdleTimeout = t.Idle
	e.Server.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	e.Pre(requestid.Middleware(), closeUnread)
	e.Use(accessLog(logger), recoverPanic(logger))
	return e
}

// AllowBody gives the request of c read more time for its body, from
// now, and write more time for the handler and the answer after it. A
// handler calls it once the caller is authenticated, so that only callers
// who may upload get the time an upload needs; everyone else keeps the
// server's Read timeout.
func AllowBody(c echo.Context, read, write time.Duration) error {
	rc := http.NewResponseController(c.Response())
	now := time.Now()
	if err := rc.SetReadDeadline(now.Add(read)); err != nil {
		return fmt.Errorf("shell: read deadline: %w", err)
	}
	if err := rc.SetWriteDeadline(now.Add(read + write)); err != nil {
		return fmt.Errorf("shell: write deadline: %w", err)
	}
	return nil
}

// closeUnread closes the connection after answering a request whose body
// was not read to its end: a refusal before the body (no token, no such
// route, too large) is sent at once. Without it, net/http first drains up
// to 256 KiB of the body to keep the connection, and a client that
// stalls would wait for its answer until the read timeout.
func closeUnread(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			return next(c)
		}
		body := &eofReader{ReadCloser: r.Body}
		r.Body = body
		c.Response().Before(func() {
			if !body.eof {
				c.Response().Header().Set("Connection", "close")
			}
		})
		return next(c)
	}
}

// eofReader notes that its reader reached the end.
type eofReader struct {
	io.ReadCloser
	eof bool
}

func (r *eofReader) Read(p []byte) (int, error) {
	n, err := r.ReadCloser.Read(p)
	if err == io.EOF {
		r.eof = true
	}
	return n, err
}

// accessLog writes one line per request after it is answered.
func accessLog(logger *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			start := time.Now()
			err := next(c)
			if err != nil {
				c.Error(err) // render now, so the line below has the final status
			}
			r := c.Request()
			logger.InfoContext(r.Context(), "request",
				slog.String("method", r.Method),
				slog.String("path", r.URL.Path),
				slog.Int("status", c.Response().Status),
				slog.Int64("bytes", c.Response().Size),
				slog.Float64("duration_ms", float64(time.Since(start).Microseconds())/1000),
				slog.String("remote", c.RealIP()),
			)
			return nil
		}
	}
}

// recoverPanic turns a handler panic into a 500 and a log line with the
// stack, instead of a dropped connection.
func recoverPanic(logger *slog.Logger) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) (err error) {
			defer func() {
				if v := recover(); v != nil {
					if v == http.ErrAbortHandler {
						panic(v)
					}
					logger.ErrorContext(c.Request().Context(), "panic", slog.Any("value", v), slog.String("stack", string(debug.Stack())))
					err = fmt.Errorf("panic: %v", v)
				}
			}()
			return next(c)
		}
	}
}

// Serve listens on addr and serves e until ctx is done, then stops
// accepting, lets in-flight requests finish for at most ShutdownTimeout,
// and returns. ready, if not nil, receives the bound address once the
// listener is open (tests listen on port 0).
func Serve(ctx context.Context, e *echo.Echo, addr string, logger *slog.Logger, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	e.Listener = ln
	logger.Info("listening", slog.String("addr", ln.Addr().String()), slog.Int("pid", os.Getpid()))
	if ready != nil {
		ready(ln.Addr())
	}
	served := make(chan error, 1)
	go func() { served <- e.Server.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	logger.Info("shutting down", slog.Duration("timeout", ShutdownTimeout))
	sctx, cancel := context.WithTimeout(context.Background(), ShutdownTimeout)
	defer cancel()
	if err := e.Server.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", err)
	}
	logger.Info("stopped")
	return nil
}
