// Package page is what the servers' HTML pages share: the branded layout,
// the stylesheet (served at /static/), a renderer, and the security
// headers of every page. Pages are html/template files embedded in each
// server; there is no script and no front-end build step.
//
// # Layout
//
// A server's page template defines "content" and may define "account"
// (the signed-in user, top right), "languages" (a language menu beside
// it), "banner" (a notice above the main content), and "lang" and "skip"
// (the page's language, "en" by default, and the words of the skip
// link); [Parse] adds the shared "layout", which renders them. The
// data of a page must have the fields Title (the document title) and
// Product (the name beside the brand).
//
// # Accessibility
//
// The layout sets the language, a viewport for phones, a skip link to the
// main content, one main landmark and a visible focus outline; the
// stylesheet keeps text contrast at 4.5:1 or more (WCAG 2.2 AA) and
// reflows to a single column on narrow screens.
package page

import (
	"bytes"
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"
)

//go:embed layout.html static
var files embed.FS

// StylesheetPath is where the layout links the stylesheet; serve
// [Static] at /static/.
const StylesheetPath = "/static/ui.css"

// Static returns the files to serve under /static/.
func Static() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the directory is embedded above
	}
	return sub
}

// Parse returns one template per page: for each file of fsys that
// patterns match, the shared layout, the files partials matches (the
// server's shared blocks; "" for none), the page and funcs. The result is
// keyed by the page's file name without its directory.
func Parse(fsys fs.FS, funcs template.FuncMap, partials string, patterns ...string) (map[string]*template.Template, error) {
	layout, err := template.New("layout.html").Funcs(funcs).ParseFS(files, "layout.html")
	if err != nil {
		return nil, fmt.Errorf("page: layout: %w", err)
	}
	if partials != "" {
		if layout, err = layout.ParseFS(fsys, partials); err != nil {
			return nil, fmt.Errorf("page: %s: %w", partials, err)
		}
	}
	pages := map[string]*template.Template{}
	for _, pattern := range patterns {
		names, err := fs.Glob(fsys, pattern)
		if err != nil {
			return nil, fmt.Errorf("page: %s: %w", pattern, err)
		}
		for _, name := range names {
			t, err := template.Must(layout.Clone()).ParseFS(fsys, name)
			if err != nil {
				return nil, fmt.Errorf("page: %s: %w", name, err)
			}
			pages[name[strings.LastIndex(name, "/")+1:]] = t
		}
	}
	return pages, nil
}

// Render writes t's layout with data as the response, with status. Pages
// are never cached: they belong to one session or describe one moment.
func Render(c echo.Context, status int, t *template.Template, data any) error {
	var b bytes.Buffer
	if err := t.ExecuteTemplate(&b, "layout", data); err != nil {
		return fmt.Errorf("page: render %s: %w", t.Name(), err)
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.HTMLBlob(status, b.Bytes())
}

// ContentSecurityPolicy allows the page's own stylesheet and images and
// nothing else: no script at all, no framing, no plugin, no base URL
// change, and forms only to this origin.
const ContentSecurityPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// OpenFormPolicy is ContentSecurityPolicy for a page whose form leads, by
// redirects, to another origin (a login at an identity provider):
// browsers apply form-action to the redirects after a submission, so it
// has none.
const OpenFormPolicy = "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'"

// Headers sets the security headers every response carries: the content
// security policy (pages may relax it with OpenFormPolicy), no MIME
// sniffing, no framing for older browsers, no referrer (a redirect from a
// login carries a code in its address), and a window of its own.
func Headers(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		h := c.Response().Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		return next(c)
	}
}

// Assets serves Static under /static/. Directories are not listed.
func Assets() echo.HandlerFunc {
	files := http.StripPrefix("/static/", http.FileServerFS(Static()))
	return func(c echo.Context) error {
		if strings.HasSuffix(c.Request().URL.Path, "/") {
			return echo.ErrNotFound
		}
		files.ServeHTTP(c.Response(), c.Request())
		return nil
	}
}
