package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/xades"
)

// signedUIWorld is a uiWorld that trusts fixture lists naming a running
// fixture PKI (OCSP and CRL on 127.0.0.1), once they are current.
func signedUIWorld(t *testing.T, env ...string) (*pki.Server, *uiWorld) {
	t.Helper()
	srv := pki.Start(t)
	_, eco := ecosystemFor(t, srv.PKI)
	w := newUIWorld(t, uiOptions{env: append(append(eco,
		"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S",
		"SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false"), env...)})
	deadline := time.Now().Add(20 * time.Second)
	for !w.app.Validation().TrustStatus(w.clock.Now()).Current {
		if time.Now().After(deadline) {
			t.Fatalf("the trusted lists never became current:\n%s", w.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
	return srv, w
}

// expected is what the API answers for doc at the world's now: the page
// must say the same.
func (w *uiWorld) expected(t *testing.T, doc validation.Document) verdict.ValidationSummary {
	t.Helper()
	res, err := w.app.Validation().Validate(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	return res.Summary
}

// checkSignatures checks that the result page shows every field of every
// signature of want, in words and codes.
func checkSignatures(t *testing.T, body string, want verdict.ValidationSummary) {
	t.Helper()
	is := is.NewRelaxed(t)
	cat, err := catalog.New()
	if err != nil {
		t.Fatal(err)
	}
	w := words{newBase(cat, catalog.English, pathResult, "ui.result.title")}
	is.Equal(text(body, "signature-count"), strconv.Itoa(want.SignatureCount))
	is.Equal(text(body, "document-summary"), want.Summary)
	for i, r := range want.Signatures {
		n := strconv.Itoa(i + 1)
		v := w.signature(i+1, len(want.Signatures), r, want.TrustData)
		is.True(strings.Contains(body, `id="signature-`+n+`-indication" data-indication="`+r.Indication.String()+`">`+v.Indication+`</span>`))
		if r.SubIndication != nil {
			is.Equal(text(body, "signature-"+n+"-subindication"), r.SubIndication.String())
		}
		is.Equal(text(body, "signature-"+n+"-format"), r.SignatureFormat)
		// Issue 23: the sentence, who and when, near the top.
		is.Equal(text(body, "signature-"+n+"-summary"), r.Summary)
		is.Equal(text(body, "signature-"+n+"-signed-by"), v.Signer)
		is.Equal(text(body, "signature-"+n+"-signing-time"), v.SigningTime)
		is.Equal(text(body, "signature-"+n+"-best-signature-time"), v.BestTime)
		if r.SignedBy != nil {
			is.True(strings.HasPrefix(v.Signer, r.SignedBy.Name))
		}
		is.Equal(strings.Contains(body, `id="signature-`+n+`-counter-signature-of"`), r.CounterSignatureOf != "")
		if r.CounterSignatureOf != "" {
			is.Equal(text(body, "signature-"+n+"-counter-signature-of"), "the signature "+r.CounterSignatureOf)
		}
		is.Equal(text(body, "signature-"+n+"-framework"), w.framework(r.TrustFramework))
		is.Equal(text(body, "signature-"+n+"-country"), v.Country+map[bool]string{true: "None: no trusted-list anchor reached"}[v.Country == ""])
		is.Equal(text(body, "signature-"+n+"-eidas"), v.EIDAS)
		is.Equal(text(body, "signature-"+n+"-swiss"), v.Swiss)
		is.Equal(text(body, "signature-"+n+"-handwritten"), v.Handwritten)
		for _, m := range append(r.Errors, r.Warnings...) {
			is.True(has(body, m.Message)) // m.Code
			is.True(strings.Contains(body, "<code>"+m.Code+"</code></li>"))
		}
		is.Equal(strings.Contains(body, `id="signature-`+n+`-pdf"`), r.PDF != nil)
		if r.PDF != nil {
			pdf := text(body, "signature-"+n+"-pdf")
			is.True(strings.HasPrefix(pdf, "Field "+r.PDF.Field))
		}
		is.Equal(strings.Contains(body, `id="signature-`+n+`-timestamps"`), len(r.Timestamps) > 0)
		is.Equal(strings.Contains(body, `id="signature-`+n+`-as-of"`), v.AsOf != nil)
	}
}

// Login, upload, result: §4's POST /validate in a browser.
func TestUIValidate(t *testing.T) {
	t.Parallel()
	srv, w := signedUIWorld(t, "SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT=P10D", "SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT=P20D")
	signedAt := time.Now().Add(-time.Hour).Truncate(time.Second)
	d := pades.New(1)
	if err := d.Sign(pades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.T, SigningTime: signedAt, Reason: "Approved"}); err != nil {
		t.Fatal(err)
	}
	pdf := d.Bytes()
	content := []byte("contract text, signed")
	sign := func(detached bool, defect cades.Defect) []byte {
		sig, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B, Detached: detached, SigningTime: signedAt, Defect: defect})
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	counterSigned, err := xades.Sign([]byte("<contract>signed and counter-signed</contract>"), xades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC,
		Level: xades.B, SigningTime: signedAt, CounterSigner: srv.PKI.SignerECDSA})
	if err != nil {
		t.Fatal(err)
	}
	// The counter-signature's ds:SignatureValue, the document's last,
	// altered: it fails, its parent passes.
	brokenCounter := bytes.Clone(counterSigned)
	end := bytes.LastIndex(brokenCounter, []byte("</ds:SignatureValue>"))
	if end < 0 {
		t.Fatal("no counter-signature value")
	}
	i := bytes.LastIndexByte(brokenCounter[:end], '>') + 1 + 8 // a base64 digit inside the value
	if brokenCounter[i] == 'A' {
		brokenCounter[i] = 'B'
	} else {
		brokenCounter[i] = 'A'
	}
	b := w.browser(t)
	r := b.login(tenantA, alice)
	is.New(t).Equal(r.status, 200)
	is.New(t).True(!strings.Contains(r.body, `id="trust-banner"`)) // current lists: no banner
	csrf := csrfOf(t, r.body)

	tests := []struct {
		name       string
		doc        validation.Document
		valid      bool
		indication verdict.Indication
		verdict    string // "" for the usual words
	}{
		{"PAdES T", validation.Document{Name: "contract.pdf", Data: pdf}, true, "TOTAL_PASSED", ""},
		{"CAdES detached, with its content", validation.Document{Name: "contract.p7s", Data: sign(true, 0), Detached: []validation.Part{{Name: "contract.txt", Data: content}}}, true, "TOTAL_PASSED", ""},
		{"CAdES with tampered content", validation.Document{Name: "tampered.p7m", Data: sign(false, cades.TamperedContent)}, false, "TOTAL_FAILED", ""},
		{"XAdES with a counter-signature", validation.Document{Name: "countersigned.xml", Data: counterSigned}, true, "TOTAL_PASSED", ""},
		{"XAdES with a broken counter-signature", validation.Document{Name: "countersigned.xml", Data: brokenCounter}, true, "TOTAL_PASSED",
			"Valid: every signature of the document passed; a counter-signature did not"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			parts := []part{{"file", tt.doc.Name, tt.doc.Data}}
			for _, d := range tt.doc.Detached {
				parts = append(parts, part{"detached", d.Name, d.Data})
			}
			r := b.upload(csrf, parts...)
			is.Equal(r.status, 200)
			is.Equal(r.header.Get("Content-Type"), "text/html; charset=UTF-8")
			is.Equal(r.header.Get("Cache-Control"), "no-store")
			is.Equal(text(r.body, "page-title"), "Validation result")
			is.Equal(text(r.body, "document-name"), tt.doc.Name)
			digest := sha256.Sum256(tt.doc.Data)
			is.Equal(text(r.body, "document-sha256"), hex.EncodeToString(digest[:]))
			switch {
			case tt.verdict != "":
				is.True(strings.Contains(r.body, `id="verdict" data-valid="true">`+tt.verdict+`</span>`))
			case tt.valid:
				is.True(strings.Contains(r.body, `id="verdict" data-valid="true">Valid: every signature passed</span>`))
			default:
				is.True(strings.Contains(r.body, `id="verdict" data-valid="false">Not valid: not every signature passed</span>`))
			}
			want := w.expected(t, tt.doc)
			is.Equal(want.Signatures[0].Indication, tt.indication)
			if len(tt.doc.Detached) > 0 {
				// The part the signature covers, by its name.
				is.Equal(text(r.body, "signature-1-signed-data"), tt.doc.Detached[0].Name)
			}
			checkSignatures(t, r.body, want)
			// The trust data the verdict was reached with, always.
			is.True(strings.Contains(r.body, `<h2 id="trust-heading">Trust data at validation</h2>`))
			is.True(strings.Contains(r.body, `id="trust-state" data-state="CURRENT"><code>CURRENT</code>, confirmed current</dd>`))
			is.True(!strings.Contains(r.body, `id="trust-banner"`))
			is.True(!strings.Contains(r.body, `id="never-loaded"`))
			is.True(strings.Contains(r.body, `<a href="/validate/report/detailed" id="report-detailed">`))
			is.True(strings.Contains(r.body, `<a href="/validate/report/etsi" id="report-etsi">`))
			is.True(strings.Contains(r.body, `<a href="/validate?tenantId=`+tenantA+`" id="validate-another">`))
		})
	}

	is := is.New(t)
	// The PAdES signature in words: placed in its field, time-stamped,
	// Swiss because the CA is on the Swiss list too.
	r = b.upload(csrf, part{"file", "contract.pdf", pdf})
	is.True(strings.Contains(r.body, `id="signature-1-indication" data-indication="TOTAL_PASSED">Passed</span>`))
	is.Equal(text(r.body, "signature-1-format"), "PAdES_BASELINE_T")
	is.Equal(text(r.body, "signature-1-framework"), "Swiss ZertES")
	is.Equal(text(r.body, "signature-1-country"), "CH")
	is.True(strings.Contains(text(r.body, "signature-1-pdf"), "covers the whole document; reason “Approved”"))
	is.True(strings.Contains(r.body, "<li>Signature time-stamp at "))
	is.True(strings.Contains(w.logs.String(), `"msg":"ui validation","tenant":"`+tenantA+`","document_sha256":"`))

	// §3: a week and a day on, the lists are stale. The form and the
	// result carry the banner; the signature's own list is behind, so it
	// says as of when; the gateway and error pages stay without.
	w.clock.Advance(8 * 24 * time.Hour)
	banner := w.app.Validation().TrustStatus(w.clock.Now()).Banner
	is.True(banner != nil)
	r = b.get("/validate?tenantId=" + tenantA)
	is.Equal(r.status, 200)
	is.True(strings.Contains(r.body, `<div class="banner" id="trust-banner" role="alert" data-category="`+banner.Category+`">`))
	is.Equal(text(r.body, "trust-banner-text"), banner.Text)
	is.True(strings.Contains(banner.Text, "stale; trust data last confirmed "))
	r = b.upload(csrf, part{"file", "contract.pdf", pdf})
	is.Equal(r.status, 200)
	is.Equal(text(r.body, "trust-banner-text"), banner.Text)
	want := w.expected(t, validation.Document{Name: "contract.pdf", Data: pdf})
	is.True(!want.TrustData.Current)
	is.True(strings.Contains(r.body, `id="trust-state" data-state="`+want.TrustData.State+`"><code>`+want.TrustData.State+`</code>, not confirmed current</dd>`))
	checkSignatures(t, r.body, want)
	ch := list(want.TrustData, "CH")
	is.Equal(text(r.body, "signature-1-as-of"), "As of "+ch.LastOnlineConfirmation.UTC().Format(time.DateOnly)+": the CH trusted list that anchors this signature is "+ch.State+
		" (list signature VALID). No re-check has been possible since; later changes to its trust services, withdrawals included, are not reflected.")
	is.True(strings.Contains(r.body, "<code>"+verdict.CodeAnchorListNotCurrent+"</code></li>"))

	for name, r := range map[string]response{
		"gateway":        w.browser(t).get("/validate"),
		"unknown tenant": w.browser(t).get("/validate?tenantId=not-a-tenant"),
		"wrong token":    b.upload("wrong", part{"file", "contract.pdf", pdf}),
		"unreadable":     b.upload(csrf, part{"file", "empty.pdf", nil}),
	} {
		t.Run("no banner on the "+name+" page", func(t *testing.T) {
			is := is.New(t)
			is.True(r.status == 200 || r.status >= 400)
			is.True(!strings.Contains(r.body, `id="trust-banner"`))
			is.True(!strings.Contains(r.body, banner.Text))
		})
	}
}

// Sessions end after the idle timeout, after the absolute one however
// busy, and at logout.
func TestUISessions(t *testing.T) {
	t.Parallel()
	w := newUIWorld(t, uiOptions{env: []string{"SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT=PT10M", "SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT=PT30M"}})
	const ended = "You are not signed in, or your session has ended. Sign in again to continue."

	t.Run("idle timeout", func(t *testing.T) {
		is := is.New(t)
		b := w.browser(t)
		r := b.login(tenantA, alice)
		csrf := csrfOf(t, r.body)
		for range 2 {
			w.clock.Advance(9 * time.Minute)
			b.seen = nil
			r = b.get("/validate?tenantId=" + tenantA)
			is.Equal(r.status, 200)
			is.Equal(len(b.seen), 1) // still signed in: each request restarts the idle timeout
		}
		w.clock.Advance(10*time.Minute + time.Second)
		r = b.upload(csrf, part{"file", "doc.pdf", []byte("%PDF-1.7")})
		is.Equal(r.status, 401)
		is.Equal(text(r.body, "page-title"), "401 · Unauthorized")
		is.Equal(text(r.body, "error-detail"), ended)
		is.True(strings.Contains(r.body, `<a href="/validate" id="error-next">Start again</a>`))
		r = b.get("/validate/report/detailed")
		is.Equal(r.status, 401)
		is.Equal(text(r.body, "error-detail"), ended)
	})

	t.Run("absolute timeout", func(t *testing.T) {
		is := is.New(t)
		w := newUIWorld(t, uiOptions{env: []string{"SVC_DSS_VALIDATOR_SESSION_IDLE_TIMEOUT=PT10M", "SVC_DSS_VALIDATOR_SESSION_ABSOLUTE_TIMEOUT=PT30M"}})
		b := w.browser(t)
		r := b.login(tenantA, alice)
		csrf := csrfOf(t, r.body)
		for range 3 {
			w.clock.Advance(8 * time.Minute)
			is.Equal(b.get("/validate?tenantId="+tenantA).status, 200)
		}
		w.clock.Advance(8 * time.Minute) // 32 minutes after the login
		r = b.upload(csrf, part{"file", "doc.pdf", []byte("%PDF-1.7")})
		is.Equal(r.status, 401)
		is.Equal(text(r.body, "error-detail"), ended)
	})

	t.Run("logout", func(t *testing.T) {
		is := is.New(t)
		b := w.browser(t)
		r := b.login(tenantA, alice)
		csrf := csrfOf(t, r.body)
		is.True(strings.Contains(r.body, `<form method="post" action="/validate/logout" id="logout-form"><input type="hidden" name="csrf" value="`+csrf+`"><button type="submit" id="logout-button">Sign out</button></form>`))
		const refused = "The form was refused: its security token is missing or does not match your session. Reload the page and submit the form again."
		for name, body := range map[string]string{"no token": "", "wrong token": "csrf=" + strings.Repeat("x", 43), "two tokens": "csrf=" + csrf + "&csrf=" + csrf} {
			t.Run(name, func(t *testing.T) {
				is := is.New(t)
				r := b.post("/validate/logout", "application/x-www-form-urlencoded", strings.NewReader(body))
				is.Equal(r.status, 403)
				is.Equal(text(r.body, "error-detail"), refused)
			})
		}
		sid := b.cookie()
		r = b.post("/validate/logout", "application/x-www-form-urlencoded", strings.NewReader("csrf="+csrf))
		is.Equal(r.status, 200)
		is.Equal(text(r.body, "page-title"), "Signed out")
		is.True(strings.Contains(r.body, `<a href="/validate?tenantId=`+tenantA+`" id="sign-in-again">Sign in again</a>`))
		is.Equal(b.cookie(), "") // the browser forgot it
		is.True(strings.Contains(w.logs.String(), `"msg":"ui logout","tenant":"`+tenantA+`","subject":"alice","session":"`+validator.Fingerprint(sid)+`"`))

		// The old cookie no longer opens anything.
		body, ct := form(t, csrf, part{"file", "doc.pdf", []byte("%PDF-1.7")})
		req, _ := http.NewRequest(http.MethodPost, w.url+"/validate", body)
		req.Header.Set("Content-Type", ct)
		req.AddCookie(&http.Cookie{Name: plainCookieName, Value: sid})
		res, err := http.DefaultClient.Do(req)
		is.NoErr(err)
		res.Body.Close()
		is.Equal(res.StatusCode, 401)
	})

	t.Run("a license revoked during the session", func(t *testing.T) {
		is := is.New(t)
		w := newUIWorld(t, uiOptions{})
		b := w.browser(t)
		r := b.login(tenantB, bob)
		is.Equal(r.status, 200)
		w.exec(t, `DELETE FROM tenant_features WHERE tenant_id = $1`, tenantB)
		w.clock.Advance(31 * time.Second) // past the control database's cache
		r = b.get("/validate?tenantId=" + tenantB)
		is.Equal(r.status, 403)
		is.Equal(text(r.body, "error-detail"), "Access refused: tenant "+tenantB+" does not hold the dss.validator license.")
	})
}
