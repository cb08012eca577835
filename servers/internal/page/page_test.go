package page_test

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/labstack/echo/v4"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/servers/internal/page"
)

func TestParseAndRender(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	fsys := fstest.MapFS{
		"web/partials/account.html": {Data: []byte(`{{define "account"}}<span id="who">{{.Who}}</span>{{end}}`)},
		"web/hello.html":            {Data: []byte(`{{define "content"}}<h1>{{.Title}}</h1><p>{{shout .Text}}</p>{{end}}`)},
		"web/plain.html":            {Data: []byte(`{{define "content"}}<p>plain</p>{{end}}`)},
	}
	pages, err := page.Parse(fsys, map[string]any{"shout": strings.ToUpper}, "web/partials/*.html", "web/*.html")
	is.NoErr(err)
	is.Equal(len(pages), 2)

	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec)
	data := struct{ Title, Product, Who, Text string }{"Hello", "Tests", "alice", "<b>hi</b>"}
	is.NoErr(page.Render(c, http.StatusTeapot, pages["hello.html"], data))
	is.Equal(rec.Code, http.StatusTeapot)
	is.Equal(rec.Header().Get("Cache-Control"), "no-store")
	body := rec.Body.String()
	for _, want := range []string{
		`<html lang="en">`,
		`<meta name="viewport" content="width=device-width, initial-scale=1">`,
		`<title>Hello · SVC DSS</title>`,
		`<link rel="stylesheet" href="` + page.StylesheetPath + `">`,
		`<a class="skip" href="#main">Skip to main content</a>`,
		`<span class="product">Tests</span>`,
		`<span id="who">alice</span>`,
		`<main id="main" tabindex="-1">`,
		`<p>&lt;B&gt;HI&lt;/B&gt;</p>`, // escaped, through the page's funcs
	} {
		is.True(strings.Contains(body, want)) // want
	}
	is.True(!strings.Contains(body, "<script"))

	_, err = page.Parse(fstest.MapFS{"web/bad.html": {Data: []byte(`{{define "content"}}{{.Nope`)}}, nil, "", "web/*.html")
	is.True(err != nil)
}

func TestHeaders(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := echo.New()
	rec := httptest.NewRecorder()
	c := e.NewContext(httptest.NewRequest(http.MethodGet, "/", nil), rec)
	is.NoErr(page.Headers(func(echo.Context) error { return nil })(c))
	h := rec.Header()
	is.Equal(h.Get("Content-Security-Policy"), "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'")
	is.Equal(h.Get("X-Content-Type-Options"), "nosniff")
	is.Equal(h.Get("X-Frame-Options"), "DENY")
	is.Equal(h.Get("Referrer-Policy"), "no-referrer")
	is.Equal(h.Get("Cross-Origin-Opener-Policy"), "same-origin")
	is.True(!strings.Contains(page.OpenFormPolicy, "form-action"))
	is.True(!strings.Contains(page.ContentSecurityPolicy, "script-src")) // default-src 'none' covers scripts
}

func TestStatic(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	css, err := fs.ReadFile(page.Static(), strings.TrimPrefix(page.StylesheetPath, "/static/"))
	is.NoErr(err)
	is.True(strings.Contains(string(css), ":focus-visible"))
}
