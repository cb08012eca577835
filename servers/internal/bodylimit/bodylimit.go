// Package bodylimit caps request bodies: a declared Content-Length over
// the cap is refused before anything is read, and a body of undeclared
// length is cut off mid-read once it passes the cap.
package bodylimit

import (
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

// A TooLargeError reports a body over its cap. Setting names the
// configuration key of the cap, for the message.
type TooLargeError struct {
	Limit    int64
	Setting  string
	Declared bool // the Content-Length said so; nothing was read
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("request body exceeds the limit of %d bytes (%s)", e.Limit, e.Setting)
}

// Middleware applies limit to requests whose path starts with prefix ("" for
// every request). A request over the cap ends in a *TooLargeError: at once
// when declared, else from the body's Read, which the handler returns.
func Middleware(prefix string, limit int64, setting string) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			if !strings.HasPrefix(r.URL.Path, prefix) {
				return next(c)
			}
			if r.ContentLength > limit {
				return &TooLargeError{Limit: limit, Setting: setting, Declared: true}
			}
			if r.Body != nil && r.Body != http.NoBody {
				r.Body = &reader{rc: r.Body, left: limit, err: &TooLargeError{Limit: limit, Setting: setting}}
			}
			return next(c)
		}
	}
}

// reader passes at most left bytes and then fails. It reads one byte past
// the cap before failing, so that a body of exactly the cap is accepted.
type reader struct {
	rc   io.ReadCloser
	left int64
	err  *TooLargeError
}

func (r *reader) Read(p []byte) (int, error) {
	if r.left < 0 {
		return 0, r.err
	}
	if int64(len(p)) > r.left+1 {
		p = p[:r.left+1]
	}
	n, err := r.rc.Read(p)
	r.left -= int64(n)
	if r.left < 0 {
		return n - int(-r.left), r.err
	}
	return n, err
}

func (r *reader) Close() error { return r.rc.Close() }
