package scrape_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/scrape"
)

const token = "0123456789abcdef0123456789abcdef"

// TestHandler: only the exact token after the Bearer scheme lets a
// scraper in, unless the path is open.
func TestHandler(t *testing.T) {
	metrics := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("metrics")) })
	tests := []struct {
		name   string
		token  string
		open   bool
		auth   string
		status int
	}{
		{"the token", token, false, "Bearer " + token, 200},
		{"scheme in capitals", token, false, "BEARER " + token, 200},
		{"no header", token, false, "", 401},
		{"scheme alone", token, false, "Bearer ", 401},
		{"two spaces", token, false, "Bearer  " + token, 401},
		{"a prefix of the token", token, false, "Bearer " + token[:31], 401},
		{"another scheme", token, false, "Token " + token, 401},
		{"no token configured, empty sent", "", false, "Bearer ", 401},
		{"open", "", true, "", 200},
		{"open, a wrong token", token, true, "Bearer nope", 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			e := echo.New()
			e.GET(scrape.Path, scrape.Handler(metrics, tt.token, tt.open, "the.key"))
			req := httptest.NewRequest(http.MethodGet, scrape.Path, nil)
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			rec := httptest.NewRecorder()
			e.ServeHTTP(rec, req)
			is.Equal(rec.Code, tt.status)
			if tt.status == 200 {
				is.Equal(rec.Body.String(), "metrics")
			}
		})
	}
}
