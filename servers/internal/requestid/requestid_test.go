package requestid_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/requestid"
)

func TestMiddlewareKeepsPlainIDs(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		keep bool
	}{
		{"abc-123_X.y", true},
		{"", false},
		{"has space", false},
		{"quote\"", false},
		{string(bytes.Repeat([]byte{'a'}, 65)), false},
		{string(bytes.Repeat([]byte{'a'}, 64)), true},
	}
	for _, tt := range tests {
		is := is.New(t)
		e := echo.New()
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set(echo.HeaderXRequestID, tt.in)
		rec := httptest.NewRecorder()
		var seen string
		err := requestid.Middleware()(func(c echo.Context) error {
			seen = requestid.From(c.Request().Context())
			return nil
		})(e.NewContext(req, rec))
		is.NoErr(err)
		got := rec.Header().Get(echo.HeaderXRequestID)
		is.Equal(seen, got)
		if tt.keep {
			is.Equal(got, tt.in)
		} else {
			is.Equal(len(got), 24)
		}
	}
}

func TestHandlerAddsTheID(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	var buf bytes.Buffer
	logger := slog.New(requestid.Handler{Handler: slog.NewJSONHandler(&buf, nil)}).With("component", "x")
	logger.InfoContext(requestid.With(context.Background(), "rid-1"), "hello")
	logger.Info("no context")
	dec := json.NewDecoder(&buf)
	var first, second map[string]any
	is.NoErr(dec.Decode(&first))
	is.NoErr(dec.Decode(&second))
	is.Equal(first["request_id"], "rid-1")
	is.Equal(first["component"], "x") // the wrapper survives With
	_, has := second["request_id"]
	is.True(!has)
}
