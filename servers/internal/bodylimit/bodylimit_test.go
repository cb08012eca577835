package bodylimit_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/bodylimit"
)

// read runs the middleware over a request of size bytes and returns what
// the handler could read and the error it got.
func read(t *testing.T, path string, size int, declared bool) (int, error) {
	t.Helper()
	e := echo.New()
	body := io.Reader(strings.NewReader(strings.Repeat("x", size)))
	if !declared {
		body = io.MultiReader(body)
	}
	req := httptest.NewRequest(http.MethodPost, path, body)
	if !declared {
		req.ContentLength = -1
	}
	c := e.NewContext(req, httptest.NewRecorder())
	var n int
	err := bodylimit.Middleware("/api/", 10, "test.cap")(func(c echo.Context) error {
		b, err := io.ReadAll(c.Request().Body)
		n = len(b)
		return err
	})(c)
	return n, err
}

func TestMiddleware(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		path     string
		size     int
		declared bool
		read     int
		tooLarge bool
		early    bool
	}{
		{"declared at the cap", "/api/x", 10, true, 10, false, false},
		{"declared over the cap: refused before reading", "/api/x", 11, true, 0, true, true},
		{"undeclared at the cap", "/api/x", 10, false, 10, false, false},
		{"undeclared over the cap: cut at the cap", "/api/x", 1000, false, 10, true, false},
		{"outside the prefix", "/other", 1000, false, 1000, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			n, err := read(t, tt.path, tt.size, tt.declared)
			is.Equal(n, tt.read)
			e, ok := errors.AsType[*bodylimit.TooLargeError](err)
			is.Equal(ok, tt.tooLarge)
			if ok {
				is.Equal(e.Declared, tt.early)
				is.Equal(e.Error(), "request body exceeds the limit of 10 bytes (test.cap)")
			} else {
				is.NoErr(err)
			}
		})
	}
}
