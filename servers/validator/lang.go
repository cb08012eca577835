package main

import (
	"github.com/labstack/echo/v4"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/ports"
)

// Languages (docs/decisions/0038). The API answers in the language its
// caller's Accept-Language prefers among English, German, French and
// Italian, English when none of them; the pages in the one the browser
// chose last with ?lang= (kept in its session, and in a cookie for pages
// before a sign-in), else in the one its Accept-Language prefers.
const (
	headerAcceptLanguage  = "Accept-Language"
	headerContentLanguage = "Content-Language"
	// langQuery switches a page's language.
	langQuery = "lang"
)

// apiLanguage is the language of a JSON answer, which the answer says in
// Content-Language; caches learn that it varies with Accept-Language.
func apiLanguage(c echo.Context) catalog.Lang {
	l := catalog.Negotiate(c.Request().Header.Get(headerAcceptLanguage))
	h := c.Response().Header()
	h.Set(headerContentLanguage, string(l))
	h.Add(echo.HeaderVary, headerAcceptLanguage)
	return l
}

// pageLanguage is the language of a page for session s (the zero Session
// before a sign-in): a valid ?lang= first, which the browser keeps (its
// session, its language cookie); then the session's choice, the cookie's
// (a choice made before the sign-in, which the session then keeps), and
// the browser's Accept-Language. The page says it in Content-Language and
// in its html lang.
func (u *ui) pageLanguage(c echo.Context, s ports.Session) catalog.Lang {
	l, chosen := u.chosenLanguage(c, s)
	if chosen {
		u.lang.set(c, string(l))
	}
	if fromCookie := !chosen && s.Language == "" && u.lang.read(c) == string(l); s.ID != "" && s.Language != string(l) && (chosen || fromCookie) {
		if err := u.a.SetLanguage(c.Request().Context(), s.ID, l); err != nil {
			// The page is still shown in it; the cookie remembers it.
			u.logger.WarnContext(c.Request().Context(), "ui language not kept in the session", "error", err.Error())
		}
	}
	h := c.Response().Header()
	h.Set(headerContentLanguage, string(l))
	h.Add(echo.HeaderVary, headerAcceptLanguage)
	return l
}

// chosenLanguage is the page's language, and whether the request chose
// it with ?lang=.
func (u *ui) chosenLanguage(c echo.Context, s ports.Session) (catalog.Lang, bool) {
	if q := c.QueryParam(langQuery); q != "" {
		if l, err := catalog.ParseLang(q); err == nil {
			return l, true
		}
	}
	for _, v := range []string{s.Language, u.lang.read(c)} {
		if l, err := catalog.ParseLang(v); err == nil && v != "" {
			return l, false
		}
	}
	return catalog.Negotiate(c.Request().Header.Get(headerAcceptLanguage)), false
}
