package main

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/app/control"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/servers/internal/bodylimit"
	"github.com/svc-dss/dss/servers/internal/page"
	"github.com/svc-dss/dss/servers/internal/scrape"
	"github.com/svc-dss/dss/servers/internal/shell"
)

//go:embed web/*.html
var web embed.FS

// signPath is the whole signing surface (signing-server.md §4 rule 1).
const signPath = "/api/server-signing/sign-ska"

// product names the server beside the brand of the shared layout.
const product = "Remote signing"

// pages holds the embedded HTML templates, in the layout the servers
// share (servers/internal/page).
type pages struct {
	index *template.Template
	error *template.Template
}

func loadPages() (pages, error) {
	p, err := page.Parse(web, nil, "", "web/*.html")
	if err != nil {
		return pages{}, err
	}
	return pages{index: p["index.html"], error: p["error.html"]}, nil
}

// newServer builds the routes of the signing server.
func newServer(a *signer.Signer, logger *slog.Logger) (*echo.Echo, error) {
	cfg := a.Config()
	p, err := loadPages()
	if err != nil {
		return nil, err
	}
	e := shell.New(logger, countErrors(a.Metrics(), errorHandler(logger, p)), timeouts(cfg.SigningTimeout))
	e.Use(
		page.Headers,
		bodylimit.Middleware("/api/", cfg.MaxRequestBytes, "svc.dss.security.max-request-bytes"),
		resourceServer(a),
	)
	e.GET("/", index(p))
	e.GET("/static/*", page.Assets())
	e.GET("/actuator/health", health(a))
	serveMetrics(e, a)
	e.POST(signPath, signSKA(a))
	return e, nil
}

// The read bounds of the signer's HTTP server. Nothing it takes is larger
// than a sign request, at most 64 KiB (maxSignRequest), which a slow link
// sends in a second or two: a client that sends its headers slowly, or
// declares a Content-Length its body never reaches, holds a connection
// for seconds, not minutes (issue 14). Its body is read before anything
// else, because the token signs its exact bytes: a stalled body is a 408
// once readTimeout has passed since the request began.
const (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 10 * time.Second
	idleTimeout       = 2 * time.Minute
)

// timeouts are the server's timeouts for a signing timeout of signing.
// The write timeout runs from the end of the headers: it covers the
// body, the signing and the answer.
func timeouts(signing time.Duration) shell.Timeouts {
	return shell.Timeouts{ReadHeader: readHeaderTimeout, Read: readTimeout, Write: readTimeout + signing + 10*time.Second, Idle: idleTimeout}
}

// public reports the paths anyone may call: the index, its assets and the
// health probe (signing-server.md §4 rule 3). The styled error view has no
// path of its own; it is rendered in place.
func public(path string) bool {
	return path == "/" || path == "/actuator/health" || strings.HasPrefix(path, "/static/")
}

// resourceServer is the default-deny filter (signing-server.md §5 rule 4):
// public paths are open, and /sign-ska and the metrics authenticate
// themselves (the metrics with their own token: a scraper holds no
// client JWT); every other path needs a bearer token that verifies
// against the configured JWT key source, and is denied when none is
// configured. Permit-all turns the filter off
// (signer.Signer.Authenticate).
func resourceServer(a *signer.Signer) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			path := c.Request().URL.Path
			if public(path) || path == signPath || path == scrape.Path {
				return next(c)
			}
			if err := a.Authenticate(c.Request().Context(), c.Request().Header.Get(echo.HeaderAuthorization)); err != nil {
				return err
			}
			return next(c)
		}
	}
}

func index(p pages) echo.HandlerFunc {
	return func(c echo.Context) error {
		return page.Render(c, http.StatusOK, p.index, map[string]string{"Title": "Remote signing service", "Product": product})
	}
}

// health is the anonymous roll-up probe.
func health(a *signer.Signer) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := a.Health(c.Request().Context())
		status := http.StatusOK
		if h != control.Up {
			status = http.StatusServiceUnavailable
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(status, map[string]control.Health{"status": h})
	}
}

// maxSignRequest bounds a sign request's body: 16 digests in JSON take
// under 2 KiB, so 64 KiB leaves room and keeps JSON parsing cheap
// (docs/decisions/0023).
const maxSignRequest = 64 << 10

// errSignTooLarge is a sign request over maxSignRequest.
var errSignTooLarge = &bodylimit.TooLargeError{Limit: maxSignRequest, Setting: "the sign request limit, 64 KiB"}

// signSKA reads the body (the JWT binds its exact bytes), has the
// application sign it, and answers the signatures with the request id.
func signSKA(a *signer.Signer) echo.HandlerFunc {
	return func(c echo.Context) error {
		if err := a.Available(); err != nil {
			// Read the body anyway, so that the size cap of /api/ is
			// enforced for bodies of undeclared length: 413 before 503.
			if _, rerr := io.Copy(io.Discard, c.Request().Body); rerr != nil {
				return bodyError(rerr)
			}
			return err
		}
		body, err := io.ReadAll(io.LimitReader(c.Request().Body, maxSignRequest+1))
		if err != nil {
			return bodyError(err)
		}
		if len(body) > maxSignRequest {
			return errSignTooLarge
		}
		res, err := a.Sign(c.Request().Context(), c.Request().Header.Get(echo.HeaderAuthorization), body)
		if err != nil {
			return err
		}
		c.Response().Header().Set("Cache-Control", "no-store")
		return c.JSON(http.StatusOK, signResponse{RequestID: c.Response().Header().Get(echo.HeaderXRequestID), SignResult: res})
	}
}

// errBodyTimeout is a request body that did not arrive within
// readTimeout: 408.
var errBodyTimeout = errors.New("the request body did not arrive in time: the signer reads a whole request within seconds")

// bodyError is the outcome of a body read that failed with err.
func bodyError(err error) error {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return fmt.Errorf("%w: %w", errBodyTimeout, err)
	}
	return err
}

// signResponse is the JSON answer of sign-ska (docs/signing-api.yaml).
type signResponse struct {
	RequestID string `json:"requestId"`
	signer.SignResult
}
