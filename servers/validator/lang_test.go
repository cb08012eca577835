package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// bareToken is a time-stamp token sent without the data it time-stamps:
// its entry is INDETERMINATE/SIGNED_DATA_NOT_FOUND whatever the trust
// data, with an error of a known sentence.
func bareToken(t *testing.T) []byte {
	t.Helper()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte("contract text"))
	token, err := cades.TimestampToken(p, sum[:], time.Now().Add(-time.Hour).Truncate(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return token
}

// postIn posts file to POST /api/validate with the Accept-Language header
// acceptLanguage ("" for none).
func postIn(t *testing.T, base string, file []byte, acceptLanguage string) (*http.Response, verdict.ValidationSummary) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile("file", "token.tsr")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(file)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, base+"/api/validate", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	if acceptLanguage != "" {
		req.Header.Set("Accept-Language", acceptLanguage)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var sum verdict.ValidationSummary
	if err := json.Unmarshal(body, &sum); err != nil {
		t.Fatalf("%v: %s", err, body)
	}
	return res, sum
}

// TestAPIMessagesInLanguages (issue 23): POST /api/validate answers in
// the language Accept-Language prefers among en, de, fr and it, by its
// q-values, English for any other, messages and summary sentence alike;
// the codes are the same in every language, and Content-Language says
// which it is.
func TestAPIMessagesInLanguages(t *testing.T) {
	t.Parallel()
	s := dev(t)
	token := bareToken(t)
	const (
		enSummary = "The validity of the document could not be established: at least one of its signatures or time-stamps could not be judged."
		deSummary = "Die Gültigkeit des Dokuments konnte nicht festgestellt werden: Mindestens eine seiner Signaturen oder Zeitstempel konnte nicht beurteilt werden."
	)
	tests := []struct {
		name, header, lang, message, summary string
	}{
		{"no header", "", "en", "the time-stamped data was not found", enSummary},
		{"German", "de", "de", "die mit Zeitstempel versehenen Daten wurden nicht gefunden", deSummary},
		{"Swiss German", "de-CH", "de", "die mit Zeitstempel versehenen Daten wurden nicht gefunden", deSummary},
		{"French first by q-value", "en;q=0.5, fr-CH, fr;q=0.9", "fr", "les données horodatées sont introuvables",
			"La validité du document n’a pas pu être établie : au moins une de ses signatures ou de ses horodatages n’a pas pu être évalué."},
		{"Italian, the only one spoken", "es, it;q=0.3", "it", "i dati con marca temporale non sono stati trovati",
			"Non è stato possibile stabilire la validità del documento: almeno una delle sue firme o marche temporali non ha potuto essere valutata."},
		{"an unknown language is English", "es", "en", "the time-stamped data was not found", enSummary},
		{"a malformed header is English", "de;q=x;;", "en", "the time-stamped data was not found", enSummary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			res, sum := postIn(t, s.URL, token, tt.header)
			is.Equal(res.StatusCode, 200)
			is.Equal(res.Header.Get("Content-Language"), tt.lang)
			is.True(strings.Contains(res.Header.Get("Vary"), "Accept-Language"))
			is.Equal(len(sum.Timestamps), 1)
			e := sum.Timestamps[0]
			is.Equal(e.Errors, []verdict.Message{{Code: "SIGNED_DATA_NOT_FOUND", Message: tt.message}}) // the code in every language
			is.Equal(sum.Summary, tt.summary)                                                           // the document's sentence too
		})
	}
	t.Run("trust status", func(t *testing.T) {
		is := is.New(t)
		req, err := http.NewRequest(http.MethodGet, s.URL+"/api/trust-status", nil)
		is.NoErr(err)
		req.Header.Set("Accept-Language", "it-CH")
		res, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		res.Body.Close()
		is.Equal(res.StatusCode, 200)
		is.Equal(res.Header.Get("Content-Language"), "it")
	})
}

// getIn is GET path in browser b with the Accept-Language header
// acceptLanguage.
func (b *browser) getIn(path, acceptLanguage string) response {
	b.t.Helper()
	req, err := http.NewRequest(http.MethodGet, b.abs(path), nil)
	if err != nil {
		b.t.Fatal(err)
	}
	req.Header.Set("Accept-Language", acceptLanguage)
	return b.do(req)
}

// dropLanguageCookie makes the browser forget the language cookie.
func (b *browser) dropLanguageCookie() {
	u, _ := url.Parse(b.w.url)
	b.jar.SetCookies(u, []*http.Cookie{{Name: plainLanguageCookieName, Value: "", Path: "/", MaxAge: -1}})
}

// TestUILanguages (issue 23): the pages speak the language the browser's
// Accept-Language prefers until it chooses one with the language menu;
// the choice is remembered in the session (and in a cookie) across
// requests, and covers the result page, its messages and the error
// pages.
func TestUILanguages(t *testing.T) {
	t.Parallel()
	s := dev(t)
	w := &uiWorld{url: s.URL}

	t.Run("negotiated", func(t *testing.T) {
		is := is.New(t)
		r := w.browser(t).getIn("/validate", "fr-CH, de;q=0.5")
		is.Equal(r.status, 200)
		is.Equal(r.header.Get("Content-Language"), "fr")
		is.True(strings.Contains(r.body, `<html lang="fr">`))
		is.Equal(text(r.body, "page-title"), "Valider un document signé")
		// The menu offers the four languages, the page's marked.
		for _, l := range []string{"en", "de", "fr", "it"} {
			is.True(strings.Contains(element(r.body, "language-"+l), `href="/validate?tenantId=00000000-0000-4000-8000-000000000000&amp;lang=`+l+`"`))
		}
		is.True(strings.Contains(element(r.body, "language-fr"), `aria-current="true"`))
		is.Equal(text(r.body, "language-it"), "Italiano")
	})

	t.Run("chosen and remembered", func(t *testing.T) {
		is := is.New(t)
		b := w.browser(t)
		r := b.getIn("/validate?lang=de", "en")
		is.Equal(text(r.body, "page-title"), "Ein signiertes Dokument prüfen")
		is.Equal(r.header.Get("Content-Language"), "de")
		r = b.getIn("/validate", "en") // remembered across requests
		is.Equal(text(r.body, "page-title"), "Ein signiertes Dokument prüfen")
		b.dropLanguageCookie()
		r = b.getIn("/validate", "fr") // the session remembers it without the cookie
		is.Equal(text(r.body, "page-title"), "Ein signiertes Dokument prüfen")

		// The result page and its messages, in German; the codes stay.
		r = b.upload(csrfOf(t, r.body), part{field: "file", name: "token.tsr", data: bareToken(t)})
		is.Equal(r.status, 200)
		is.Equal(text(r.body, "page-title"), "Ergebnis der Validierung")
		is.True(strings.Contains(element(r.body, "timestamp-1-errors"), "<li>die mit Zeitstempel versehenen Daten wurden nicht gefunden <code>SIGNED_DATA_NOT_FOUND</code></li>"))
		is.True(strings.Contains(element(r.body, "language-it"), `href="/validate/result?lang=it"`))

		// Switched on the result page: the same result, in Italian.
		r = b.getIn("/validate/result?lang=it", "de")
		is.Equal(r.status, 200)
		is.Equal(text(r.body, "page-title"), "Risultato della convalida")
		is.True(strings.Contains(element(r.body, "timestamp-1-errors"), "<li>i dati con marca temporale non sono stati trovati <code>SIGNED_DATA_NOT_FOUND</code></li>"))
		r = b.getIn("/validate", "de")
		is.Equal(text(r.body, "page-title"), "Convalidare un documento firmato") // Italian now
	})

	t.Run("error page", func(t *testing.T) {
		is := is.New(t)
		b := w.browser(t)
		b.getIn("/validate?lang=fr", "en")
		r := b.getIn("/validate/report/etsi", "en")
		is.Equal(r.status, 404)
		is.Equal(text(r.body, "page-title"), "404 · Introuvable")
		is.Equal(text(r.body, "error-detail"), "Aucun document n’a encore été validé dans cette session : validez-en un, puis téléchargez ses rapports.")
		is.Equal(text(r.body, "error-next"), "Retour au formulaire de téléversement")
	})
}

// TestValidateCommandLanguage (issue 23): validate --lang words the
// messages in that language, English by default; the codes stay.
func TestValidateCommandLanguage(t *testing.T) {
	t.Parallel()
	file := write(t, t.TempDir(), "token.tsr", bareToken(t))
	tests := []struct {
		args    []string
		message string
	}{
		{nil, "the time-stamped data was not found"},
		{[]string{"--lang", "en"}, "the time-stamped data was not found"},
		{[]string{"--lang=de"}, "die mit Zeitstempel versehenen Daten wurden nicht gefunden"},
		{[]string{"--lang", "FR"}, "les données horodatées sont introuvables"},
		{[]string{"--lang", "it"}, "i dati con marca temporale non sono stati trovati"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, logs := command(t, offline(t), append([]string{"validate", file, "--offline"}, tt.args...)...)
			is.Equal(code, 0)
			if t.Failed() {
				t.Log(logs)
			}
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal([]byte(out), &sum))
			is.Equal(sum.Timestamps[0].Errors, []verdict.Message{{Code: "SIGNED_DATA_NOT_FOUND", Message: tt.message}})
		})
	}
}

// TestUILanguageThroughTheLogin (issue 23): a language chosen on the
// tenant gateway, before any session, is kept through the provider's
// login, and the session then remembers it.
func TestUILanguageThroughTheLogin(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newUIWorld(t, uiOptions{})
	b := w.browser(t)
	r := b.getIn("/validate?lang=it", "de")
	is.Equal(r.status, 200)
	is.Equal(text(r.body, "page-title"), "Cliente richiesto")
	is.True(strings.Contains(r.body, `<html lang="it">`))
	is.True(strings.Contains(element(r.body, "language-fr"), `href="/validate?lang=fr"`))
	r = b.login(tenantA, alice)
	is.Equal(r.status, 200)
	is.Equal(text(r.body, "page-title"), "Convalidare un documento firmato")
	b.dropLanguageCookie()
	r = b.getIn("/validate?tenantId="+tenantA, "fr")
	is.Equal(text(r.body, "page-title"), "Convalidare un documento firmato") // the session keeps it
}
