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

// Timeouts of the HTTP server. Reads and writes allow a 40 MB upload or
// report on a slow link; the header timeout is short because headers are
// small and slow headers are how connections get hoarded.
const (
	ReadHeaderTimeout = 10 * time.Second
	ReadTimeout       = 5 * time.Minute
	WriteTimeout      = 5 * time.Minute
	IdleTimeout       = 2 * time.Minute
	// ShutdownTimeout bounds the wait for in-flight requests on SIGTERM.
	ShutdownTimeout = 30 * time.Second
)

// NewLogger returns the JSON logger both servers use: every record logged
// with a request's context carries its request_id.
func NewLogger(w io.Writer, level slog.Leveler) *slog.Logger {
	return slog.New(requestid.Handler{Handler: slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level})})
}

// New returns an Echo with the shared middleware and onError as its one
// error handler.
func New(logger *slog.Logger, onError echo.HTTPErrorHandler) *echo.Echo {
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	e.Logger.SetOutput(io.Discard) // slog is the only log
	e.HTTPErrorHandler = onError
	e.Server.ReadHeaderTimeout = ReadHeaderTimeout
	e.Server.ReadTimeout = ReadTimeout
	e.Server.WriteTimeout = WriteTimeout
	e.Server.IdleTimeout = IdleTimeout
	e.Server.ErrorLog = slog.NewLogLogger(logger.Handler(), slog.LevelWarn)
	e.Pre(requestid.Middleware())
	e.Use(accessLog(logger), recoverPanic(logger))
	return e
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
