package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/matryer/is"
	"software.sslmate.com/src/go-pkcs12"

	"github.com/svc-dss/dss/domain/svt"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/softhsm"
)

// sealEnv writes id as the report seal's PKCS#12 file and returns the
// settings that configure it, time-stamped by tsa when it is not empty.
func sealEnv(t *testing.T, id *pki.Identity, tsa string) []string {
	t.Helper()
	raw, err := pkcs12.Modern.Encode(id.Key, id.Certificate, id.Chain()[1:], "seal-pw")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "seal.p12")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=" + path, "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD=seal-pw"}
	if tsa != "" {
		env = append(env, "SVC_DSS_VALIDATOR_REPORT_SEAL_TSA_URL="+tsa)
	}
	return env
}

// postAs sends data as the part "file" named name to POST /api/validate
// with the Accept header accept (none when empty).
func postAs(t *testing.T, url, name string, data []byte, accept string) (*http.Response, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(data)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, url+"/api/validate", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

// pdfText is what pdftotext reads in pdf, its words joined by single
// spaces.
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return strings.Join(strings.Fields(string(out)), " ")
}

// signedContract is a CAdES-B signature our fixture lists trust.
func signedContract(t *testing.T, srv *pki.Server) []byte {
	t.Helper()
	sig, err := cades.Sign([]byte("contract text, signed"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// POST /api/validate with Accept: application/pdf answers the PDF
// report as an attachment: the document's name (umlauts intact), its
// SHA-256 and the verdict are in its text, and it is sealed: our own
// validator passes it as PAdES_BASELINE_T, and pdfsig finds it valid.
func TestValidateAPIReportPDF(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	_, s := signedWorld(t, sealEnv(t, srv.PKI.SignerECDSAQC, srv.TSAURL())...)
	is := is.New(t)
	doc := signedContract(t, srv)
	res, body := postAs(t, s.URL, "Prüfbericht-Müller.p7m", doc, "application/pdf")
	is.Equal(res.StatusCode, 200)
	is.Equal(res.Header.Get("Content-Type"), "application/pdf")
	_, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
	is.NoErr(err)
	is.Equal(params["filename"], "Prüfbericht-Müller-validation-report.pdf")
	is.Equal(res.Header.Get("Cache-Control"), "no-store")

	text := pdfText(t, body)
	sum := sha256.Sum256(doc)
	for _, want := range []string{"Prüfbericht-Müller.p7m", hexOf(sum[:]), "TOTAL_PASSED", "CAdES_BASELINE_B",
		"This report is sealed by " + srv.PKI.SignerECDSAQC.Certificate.Subject.String()} {
		if !strings.Contains(text, want) {
			t.Errorf("the report's text lacks %q:\n%s", want, text)
		}
	}

	// The report, validated in turn.
	res, body = postAs(t, s.URL, "report.pdf", body, "")
	is.Equal(res.StatusCode, 200)
	var v verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &v))
	is.Equal(len(v.Signatures), 1)
	is.Equal(v.Signatures[0].Indication, verdict.TotalPassed)
	is.Equal(v.Signatures[0].SignatureFormat, "PAdES_BASELINE_T")
}

// Without a report seal the PDF report is unsealed and says so on its
// first page, and a token is refused as not acceptable, in words.
func TestValidateAPIUnsealed(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	doc := signedContract(t, srv)
	is := is.New(t)
	res, body := postAs(t, s.URL, "contract.p7m", doc, "application/pdf")
	is.Equal(res.StatusCode, 200)
	is.Equal(res.Header.Get("Content-Type"), "application/pdf")
	first, _, _ := strings.Cut(pdfText(t, body), "Document Name")
	is.True(strings.Contains(first, "This report is not sealed: the validator has no seal key configured"))

	res, body = postAs(t, s.URL, "contract.p7m", doc, "application/jwt")
	is.Equal(res.StatusCode, 406)
	is.Equal(problemDetail(t, body), "This validator has no report seal configured (svc.dss.validator.report-seal.pkcs12-file, or a PKCS#11 key: svc.dss.validator.report-seal.pkcs11-module and pkcs11-key-label), so it issues no Signature Validation Token (application/jwt); ask for application/json, or application/pdf for an unsealed report.")
}

// An Accept header that names neither the PDF report nor the token gets
// the JSON summary, as before; one that prefers them gets them.
func TestValidateAPIAccept(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	_, s := signedWorld(t, sealEnv(t, srv.PKI.SignerECDSAQC, "")...)
	doc := signedContract(t, srv)
	tests := []struct {
		accept string
		want   string
	}{
		{"", "application/json"},
		{"text/csv", "application/json"},
		{"application/xml, text/html", "application/json"},
		{"*/*", "application/json"},
		{"application/json, application/pdf", "application/json"},
		{"application/json;q=0.5, application/pdf", "application/pdf"},
		{"application/pdf;q=0, application/json", "application/json"},
		{"application/jwt", "application/jwt"},
	}
	for _, tt := range tests {
		is := is.New(t)
		res, _ := postAs(t, s.URL, "contract.p7m", doc, tt.accept)
		is.Equal(res.StatusCode, 200)                                       // tt.accept
		is.True(strings.HasPrefix(res.Header.Get("Content-Type"), tt.want)) // tt.accept
	}
}

// POST /api/validate with Accept: application/jwt answers a Signature
// Validation Token (RFC 9321) signed by the seal, whose claims say what
// the JSON verdict of the same document says.
func TestValidateAPIToken(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	seal := srv.PKI.SignerECDSAQC
	_, s := signedWorld(t, append(sealEnv(t, seal, ""), "SVC_DSS_VALIDATOR_BASE_URL=https://validator.example.ch")...)
	doc := signedContract(t, srv)
	is := is.New(t)
	res, body := postAs(t, s.URL, "contract.p7m", doc, "")
	is.Equal(res.StatusCode, 200)
	var v verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &v))

	res, token := postAs(t, s.URL, "contract.p7m", doc, "application/jwt")
	is.Equal(res.StatusCode, 200)
	is.Equal(res.Header.Get("Content-Type"), "application/jwt")
	claims := verifyToken(t, token, seal)
	is.Equal(claims.Issuer, "https://validator.example.ch") // the service's base URL
	is.True(claims.JTI != "")
	is.True(time.Since(time.Unix(claims.IssuedAt, 0)) < time.Minute)
	c := claims.SigValClaims
	is.Equal(c.Version, "1.0")
	is.Equal(c.Profile, svt.ProfileCMS)
	is.Equal(c.HashAlgorithm, "http://www.w3.org/2001/04/xmlenc#sha256")
	is.Equal(c.Ext["document_sha256"], v.DocumentSHA256)
	is.Equal(c.Ext["document_name"], v.DocumentName)
	is.Equal(c.Ext["trust_state"], v.TrustData.State)
	is.True(v.TrustData.Snapshot != nil)
	is.Equal(c.Ext["trust_snapshot_sha256"], v.TrustData.Snapshot.SHA256) // the same trust data, by digest
	is.Equal(len(c.Signatures), len(v.Signatures))
	for i, sig := range c.Signatures {
		r := v.Signatures[i]
		is.Equal(sig.SigRef.ID, r.SignatureID)
		is.Equal(len(sig.SigRef.SigHash), 44) // a base64 SHA-256
		is.True(strings.HasPrefix(r.SignatureID, "S-"))
		is.Equal(sig.SigVal[0].Policy, svt.Policy)
		is.Equal(sig.SigVal[0].Result, "PASSED")
		is.Equal(sig.SigVal[0].Ext["indication"], string(r.Indication))
		is.Equal(sig.SigVal[0].Ext["signature_format"], r.SignatureFormat)
		is.Equal(sig.SigVal[0].Ext["trust_framework"], r.TrustFramework)
		is.Equal(sig.SignerCertRef.Type, "chain_hash")
		leaf := sha256.Sum256(srv.PKI.SignerRSAQC.Certificate.Raw)
		is.Equal(sig.SignerCertRef.Ref[0], b64(leaf[:])) // the signer first
		content := sha256.Sum256([]byte("contract text, signed"))
		is.Equal(len(sig.SigDataRef), 1)
		is.Equal(sig.SigDataRef[0].Hash, b64(content[:]))
	}
}

// verifyToken checks token's signature with the seal's certificate and
// that its header names the seal's chain, and returns its claims.
func verifyToken(t *testing.T, token []byte, seal *pki.Identity) svt.Claims {
	t.Helper()
	is := is.New(t)
	jws, err := jose.ParseSigned(string(token), []jose.SignatureAlgorithm{jose.ES256, jose.RS256})
	is.NoErr(err)
	h := jws.Signatures[0].Protected
	is.Equal(h.ExtraHeaders[jose.HeaderType], "JWT")
	certs, err := h.Certificates(x509Options(seal))
	is.NoErr(err)
	is.True(certs[0][0].Equal(seal.Certificate))
	payload, err := jws.Verify(seal.Certificate.PublicKey)
	is.NoErr(err)
	var c svt.Claims
	is.NoErr(json.Unmarshal(payload, &c))
	return c
}

// The seal's configuration is checked at start-up: a wrong password or
// a file that is not there (the PKCS#12 file, a PKCS#11 key's
// certificate) stops the service with a message that names the setting.
func TestReportSealMisconfigured(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	good := sealEnv(t, p.SignerECDSAQC, "")
	file := strings.TrimPrefix(good[0], "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=")
	missing := filepath.Join(t.TempDir(), "nope.p12")
	tests := []struct {
		name string
		env  []string
		want string
	}{
		{"wrong password", []string{good[0], "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_PASSWORD=guess"},
			"app: svc.dss.validator.report-seal.pkcs12-file (" + file + "): keystore: " + file + ": the password is wrong"},
		{"missing file", []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS12_FILE=" + missing},
			"app: svc.dss.validator.report-seal.pkcs12-file (" + missing + "): keystore: stat " + missing + ": no such file or directory"},
		{"PKCS#11 seal without its certificate file", []string{"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE=/usr/lib/softhsm/libsofthsm2.so",
			"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN=seal", "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL=seal",
			"SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE=" + missing},
			"app: svc.dss.validator.report-seal.certificate (" + missing + "): keystore: stat " + missing + ": no such file or directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var out strings.Builder
			env := append(offline(t), "SVC_DSS_VALIDATOR_PERMIT_ALL=true")
			code := run(context.Background(), nil, append(env, tt.env...), &out, io.Discard, nil) // the server logs on stdout
			is.Equal(code, 1)
			quoted, _ := json.Marshal(tt.want)
			is.True(strings.Contains(out.String(), `"msg":"start-up failed","error":`+string(quoted))) // the log says why
		})
	}
}

// x509Options verify a chain of the fixture PKI that id belongs to.
func x509Options(id *pki.Identity) x509.VerifyOptions {
	chain := id.Chain()
	roots, inter := x509.NewCertPool(), x509.NewCertPool()
	roots.AddCert(chain[len(chain)-1])
	for _, c := range chain[1 : len(chain)-1] {
		inter.AddCert(c)
	}
	return x509.VerifyOptions{Roots: roots, Intermediates: inter, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}
}

// problemDetail is the detail of a problem+json body.
func problemDetail(t *testing.T, body []byte) string {
	t.Helper()
	var p struct {
		Detail string `json:"detail"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("not a problem: %v: %s", err, body)
	}
	return p.Detail
}

func hexOf(b []byte) string { return hex.EncodeToString(b) }

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// The result page offers the PDF report of the session's last document
// and, with a report seal, its token: GET /validate/report/pdf and
// /validate/report/svt, each a clear 404 page before there is a
// document; then the sealed PDF and a token the seal signed.
func TestUIReportPDFAndToken(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	seal := srv.PKI.SignerECDSAQC
	_, w := signedUIWorld(t, sealEnv(t, seal, "")...)
	b := w.browser(t)
	r := b.login(tenantA, alice)
	csrf := csrfOf(t, r.body)

	const none = "No document has been validated in this session yet: validate one, then download its reports."
	for _, path := range []string{pathPDF, pathSVT} {
		is := is.New(t)
		r := b.get(path)
		is.Equal(r.status, 404) // path
		is.Equal(text(r.body, "error-detail"), none)
	}

	is := is.New(t)
	doc := signedContract(t, srv)
	r = b.upload(csrf, part{"file", "Vertrag März.p7m", doc})
	is.Equal(r.status, 200)
	is.True(strings.Contains(r.body, `<a href="/validate/report/pdf" id="report-pdf">Sealed PDF report</a>`))
	is.True(strings.Contains(r.body, `<a href="/validate/report/svt" id="report-svt">Signature Validation Token (JWT)</a>`))

	r = b.get(pathPDF)
	is.Equal(r.status, 200)
	is.Equal(r.header.Get("Content-Type"), "application/pdf")
	is.Equal(dispositionName(t, r.header.Get("Content-Disposition")), "Vertrag_März-validation-report.pdf")
	text := pdfText(t, []byte(r.body))
	is.True(strings.Contains(text, "Vertrag März.p7m"))
	is.True(strings.Contains(text, "TOTAL_PASSED"))
	is.True(strings.Contains(text, "This report is sealed by"))

	r = b.get(pathSVT)
	is.Equal(r.status, 200)
	is.Equal(r.header.Get("Content-Type"), "application/jwt")
	is.Equal(dispositionName(t, r.header.Get("Content-Disposition")), "Vertrag_März-svt.jwt")
	sum := sha256.Sum256(doc)
	is.Equal(verifyToken(t, []byte(r.body), seal).SigValClaims.Ext["document_sha256"], hexOf(sum[:]))
}

// Without a report seal the result page offers the unsealed PDF report
// and no token; asked for anyway, the token is a clear 404 page.
func TestUIReportUnsealed(t *testing.T) {
	t.Parallel()
	srv, w := signedUIWorld(t)
	b := w.browser(t)
	csrf := csrfOf(t, b.login(tenantA, alice).body)
	is := is.New(t)
	r := b.upload(csrf, part{"file", "contract.p7m", signedContract(t, srv)})
	is.Equal(r.status, 200)
	is.True(strings.Contains(r.body, `<a href="/validate/report/pdf" id="report-pdf">PDF report (not sealed)</a>`))
	is.True(!strings.Contains(r.body, `id="report-svt"`))
	r = b.get(pathPDF)
	is.Equal(r.status, 200)
	is.True(strings.Contains(pdfText(t, []byte(r.body)), "This report is not sealed"))
	r = b.get(pathSVT)
	is.Equal(r.status, 404)
	is.Equal(text(r.body, "error-detail"), "This validator has no report seal configured, so it issues no Signature Validation Token. Its PDF report is available, unsealed.")
}

// Development mode seals its reports with a fixture seal of the
// development PKI, time-stamped by its TSA: the report validates in the
// same service as PAdES_BASELINE_T, and pdfsig finds it valid.
func TestDevelopmentModeSealsReports(t *testing.T) {
	t.Parallel()
	s := dev(t)
	waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	is := is.New(t)
	res, report := postAs(t, s.URL, "unsigned.pdf", pades.New(1).Bytes(), "application/pdf")
	is.Equal(res.StatusCode, 200)
	is.True(strings.Contains(pdfText(t, report), "This report is sealed by CN=SVC DSS Test AG Regulated Seal"))

	res, body := postAs(t, s.URL, "report.pdf", report, "")
	is.Equal(res.StatusCode, 200)
	var v verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &v))
	is.Equal(len(v.Signatures), 1)
	is.Equal(v.Signatures[0].SignatureFormat, "PAdES_BASELINE_T")
	is.Equal(v.Signatures[0].Indication, verdict.TotalPassed)

	if _, err := exec.LookPath("pdfsig"); err != nil {
		t.Skip("pdfsig (poppler-utils) is not installed")
	}
	path := filepath.Join(t.TempDir(), "report.pdf")
	is.NoErr(os.WriteFile(path, report, 0o600))
	out, err := exec.Command("pdfsig", "-nocert", path).CombinedOutput()
	is.NoErr(err)                                                                       // pdfsig exits 0
	is.True(strings.Contains(string(out), "Signature Validation: Signature is Valid.")) // pdfsig
}

// A seal key in a PKCS#11 token (SoftHSM2) seals the report as a key in
// a PKCS#12 file does: our validator passes the report, pdfsig finds it
// valid, and the token signs the Signature Validation Token too.
func TestValidateAPIReportPKCS11Seal(t *testing.T) {
	t.Parallel()
	srv := pki.Start(t)
	tok := softhsm.New(t)
	kp, err := tok.GenerateECKey("report-seal", []byte{1})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := tok.PublicKey(kp.Public)
	if err != nil {
		t.Fatal(err)
	}
	// The token's key certified by the fixture's issuing CA, with its
	// CRL, as an operator's seal certificate would be.
	ca := srv.PKI.Intermediate
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(0x5ea1), Subject: pkix.Name{CommonName: "Validator Seal in a Token", Organization: []string{"SVC DSS Test"}, Country: []string{"CH"}},
		NotBefore: time.Now().Add(-24 * time.Hour), NotAfter: time.Now().Add(365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment, CRLDistributionPoints: []string{srv.PKI.CRLURL(ca)},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.Certificate, pub, ca.Key)
	if err != nil {
		t.Fatal(err)
	}
	var chain bytes.Buffer
	for _, c := range append([][]byte{der}, ders(ca.Chain())...) {
		pem.Encode(&chain, &pem.Block{Type: "CERTIFICATE", Bytes: c})
	}
	certFile := filepath.Join(t.TempDir(), "seal.pem")
	if err := os.WriteFile(certFile, chain.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	_, s := signedWorld(t,
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_MODULE="+tok.ModulePath(), "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_TOKEN="+tok.Label(),
		"SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_PIN="+tok.UserPIN(), "SVC_DSS_VALIDATOR_REPORT_SEAL_PKCS11_KEY_LABEL=report-seal",
		"SVC_DSS_VALIDATOR_REPORT_SEAL_CERTIFICATE="+certFile)
	is := is.New(t)
	doc := signedContract(t, srv)
	res, report := postAs(t, s.URL, "contract.p7m", doc, "application/pdf")
	is.Equal(res.StatusCode, 200)
	is.True(strings.Contains(pdfText(t, report), "This report is sealed by CN=Validator Seal in a Token,O=SVC DSS Test,C=CH"))

	res, body := postAs(t, s.URL, "report.pdf", report, "")
	is.Equal(res.StatusCode, 200)
	var v verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &v))
	is.Equal(len(v.Signatures), 1)
	is.Equal(v.Signatures[0].SignatureFormat, "PAdES_BASELINE_B")
	is.Equal(v.Signatures[0].Indication, verdict.TotalPassed) // v.Signatures[0]

	if _, err := exec.LookPath("pdfsig"); err == nil {
		path := filepath.Join(t.TempDir(), "report.pdf")
		is.NoErr(os.WriteFile(path, report, 0o600))
		out, err := exec.Command("pdfsig", "-nocert", path).CombinedOutput()
		is.NoErr(err)
		is.True(strings.Contains(string(out), "Signature Validation: Signature is Valid."))
	}

	res, token := postAs(t, s.URL, "contract.p7m", doc, "application/jwt")
	is.Equal(res.StatusCode, 200)
	jws, err := jose.ParseSigned(string(token), []jose.SignatureAlgorithm{jose.ES256})
	is.NoErr(err)
	_, err = jws.Verify(pub)
	is.NoErr(err) // the token's key signed it
}

func ders(certs []*x509.Certificate) [][]byte {
	out := make([][]byte, len(certs))
	for i, c := range certs {
		out[i] = c.Raw
	}
	return out
}
