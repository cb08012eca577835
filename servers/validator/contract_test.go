package main

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/xades"
	"github.com/svc-dss/dss/servers/internal/contracttest"
)

// contractPath is the validator's OpenAPI document.
const contractPath = "../../docs/validate-api.yaml"

// uploadRequest is a POST /api/validate of parts, each under its name.
func uploadRequest(t *testing.T, url string, parts []part) *http.Request {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for _, p := range parts {
		fw, err := w.CreateFormFile(p.field, p.name)
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(p.data)
	}
	w.Close()
	req, err := http.NewRequest(http.MethodPost, url+"/api/validate", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	return req
}

// TestContract: the API's real answers, verdicts, refused uploads, the
// trust status and the health probe, keep docs/validate-api.yaml, and
// so do the requests a client sends by it.
func TestContract(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	srv, s := signedWorld(t, "SVC_DSS_VALIDATOR_MAXREQUESTBYTES=1048576")
	content := []byte("contract text, signed")
	sign := func(level cades.Level, detached bool, d cades.Defect) []byte {
		t.Helper()
		sig, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: level, Detached: detached,
			SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second), Defect: d})
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	counterSigned, err := xades.Sign([]byte("<contract>signed and counter-signed</contract>"), xades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC,
		Level: xades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second), CounterSigner: srv.PKI.SignerECDSA})
	if err != nil {
		t.Fatal(err)
	}
	get := func(path string) func() *http.Request {
		return func() *http.Request {
			req, _ := http.NewRequest(http.MethodGet, s.URL+path, nil)
			return req
		}
	}
	upload := func(parts ...part) func() *http.Request {
		return func() *http.Request { return uploadRequest(t, s.URL, parts) }
	}
	tests := []struct {
		name   string
		req    func() *http.Request
		status int
		// malformed requests break the contract on purpose; their
		// answers must keep it.
		malformed bool
	}{
		{"CAdES B", upload(part{"file", "contract.p7m", sign(cades.B, false, 0)}), 200, false},
		{"CAdES T detached with its content", upload(part{"file", "contract.p7s", sign(cades.T, true, 0)}, part{"detached", "contract.txt", content}), 200, false},
		{"CAdES LT", upload(part{"file", "contract.p7m", sign(cades.LT, false, 0)}), 200, false},
		{"detached without its content", upload(part{"file", "contract.p7s", sign(cades.B, true, 0)}), 200, false},
		{"tampered", upload(part{"file", "contract.p7m", sign(cades.B, false, cades.TamperedContent)}), 200, false},
		{"a part no signature covers", upload(part{"file", "contract.p7m", sign(cades.B, false, 0)}, part{"detached", "other.txt", []byte("other")}), 200, false},
		{"XAdES counter-signed", upload(part{"file", "contract.xml", counterSigned}), 200, false},
		{"not a signature", upload(part{"file", "hello.txt", []byte("hello, world")}), 400, false},
		{"empty file", upload(part{"file", "empty.p7m", nil}), 400, false},
		{"no file part", upload(part{"detached", "contract.txt", content}), 400, true},
		{"not multipart", func() *http.Request {
			req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/validate", strings.NewReader("{}"))
			req.Header.Set("Content-Type", "application/json")
			return req
		}, 400, true},
		{"over max-request-bytes", upload(part{"file", "big.p7m", bytes.Repeat([]byte{0}, 2<<20)}), 413, false},
		{"trust status", get("/api/trust-status"), 200, false},
		{"health", get("/actuator/health"), 200, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			req := tt.req()
			req.Header.Set("X-Request-Id", "contract-test")
			res, _ := c.Do(t, req, !tt.malformed)
			is.Equal(res.StatusCode, tt.status)
		})
	}
}

// TestContractOfTheReports: the answers Accept chooses, the PDF report
// and the Signature Validation Token, keep docs/validate-api.yaml with
// and without a report seal, and so do their refusals: a token without
// a seal (406), a token of a document without signatures (422).
func TestContractOfTheReports(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	unsealedPKI, unsealed := signedWorld(t)
	seal := pki.Start(t)
	sealedPKI, sealed := signedWorld(t, sealEnv(t, seal.PKI.SignerECDSAQC, "")...)
	unsigned := pades.New(1).Bytes()
	tests := []struct {
		name        string
		url         string
		file        string
		data        []byte
		accept      string
		status      int
		contentType string
	}{
		{"PDF report, unsealed", unsealed.URL, "contract.p7m", signedContract(t, unsealedPKI), "application/pdf", 200, "application/pdf"},
		{"PDF report, sealed", sealed.URL, "contract.p7m", signedContract(t, sealedPKI), "application/pdf", 200, "application/pdf"},
		{"PDF report of a name beyond ASCII", sealed.URL, "Prüfbericht.p7m", signedContract(t, sealedPKI), "application/pdf", 200, "application/pdf"},
		{"PDF report of a document without signatures", sealed.URL, "unsigned.pdf", unsigned, "application/pdf", 200, "application/pdf"},
		{"token", sealed.URL, "contract.p7m", signedContract(t, sealedPKI), "application/jwt", 200, "application/jwt"},
		{"token preferred by quality", sealed.URL, "contract.p7m", signedContract(t, sealedPKI), "application/json;q=0.5, application/jwt", 200, "application/jwt"},
		{"token without a seal", unsealed.URL, "contract.p7m", signedContract(t, unsealedPKI), "application/jwt", 406, "application/problem+json"},
		{"token of a document without signatures", sealed.URL, "unsigned.pdf", unsigned, "application/jwt", 422, "application/problem+json"},
		{"JSON when the token is refused by q=0", sealed.URL, "contract.p7m", signedContract(t, sealedPKI), "application/jwt;q=0", 200, "application/json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			req := uploadRequest(t, tt.url, []part{{"file", tt.file, tt.data}})
			req.Header.Set("Accept", tt.accept)
			res, _ := c.Do(t, req, true)
			is.Equal(res.StatusCode, tt.status)
			is.Equal(res.Header.Get("Content-Type"), tt.contentType)
		})
	}
}

// TestContractCatchesAChangedField: a field renamed, added, dropped or
// of another type in a real answer, without the document changing,
// breaks the contract, so TestContract fails on it.
func TestContractCatchesAChangedField(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	srv, s := signedWorld(t)
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.T,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	res, body := c.Do(t, uploadRequest(t, s.URL, []part{{"file", "contract.p7m", sig}}), true)
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	tests := []struct {
		name   string
		change func(sum, sig map[string]any)
	}{
		{"unchanged", func(sum, sig map[string]any) {}},
		{"summary field renamed", func(sum, sig map[string]any) { sum["isValid"] = sum["valid"]; delete(sum, "valid") }},
		{"signature field added", func(sum, sig map[string]any) { sig["signer"] = "CN=Test Signer" }},
		{"signature field dropped", func(sum, sig map[string]any) { delete(sig, "anchorCountry") }},
		{"indication not of the enumeration", func(sum, sig map[string]any) { sig["indication"] = "PASSED_TOTALLY" }},
		{"trust data field of another type", func(sum, sig map[string]any) { sum["trustData"].(map[string]any)["current"] = "yes" }},
		{"summary sentence dropped", func(sum, sig map[string]any) { delete(sum, "summary") }},
		{"signer as a string", func(sum, sig map[string]any) { sig["signedBy"] = "CN=Test Signer" }},
		{"signer kind not of the enumeration", func(sum, sig map[string]any) { sig["signedBy"].(map[string]any)["kind"] = "legal-person" }},
		{"signing time not a date-time", func(sum, sig map[string]any) { sig["signingTime"] = "yesterday" }},
		{"scope kind not of the enumeration", func(sum, sig map[string]any) { sig["signatureScope"].([]any)[0].(map[string]any)["kind"] = "WHOLE" }},
		{"chain certificate field dropped", func(sum, sig map[string]any) {
			delete(sig["certificateChain"].([]any)[0].(map[string]any), "revocation")
		}},
		{"revocation source not of the enumeration", func(sum, sig map[string]any) {
			sig["certificateChain"].([]any)[0].(map[string]any)["revocation"].(map[string]any)["source"] = "LDAP"
		}},
		{"snapshot dropped", func(sum, sig map[string]any) { delete(sum["trustData"].(map[string]any), "snapshot") }},
		{"snapshot list field added", func(sum, sig map[string]any) {
			sum["trustData"].(map[string]any)["snapshot"].(map[string]any)["lists"].([]any)[0].(map[string]any)["url"] = "http://lists.example/tl.xml"
		}},
		{"time-stamp field added", func(sum, sig map[string]any) {
			sig["timestamps"].([]any)[0].(map[string]any)["tsa"] = "CN=Test TSA"
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var sum map[string]any
			is.NoErr(json.Unmarshal(body, &sum))
			tt.change(sum, sum["signatures"].([]any)[0].(map[string]any))
			changed, err := json.Marshal(sum)
			is.NoErr(err)
			req := uploadRequest(t, s.URL, []part{{"file", "contract.p7m", sig}})
			broken := c.Response(req, 200, res.Header, changed)
			is.Equal(broken == "", tt.name == "unchanged") // broken: the contract is broken
		})
	}
}

// TestContractOfTheSamples: every sample of fixtures/samples (PAdES with
// its placement, XAdES, JAdES, ASiC containers, time-stamp entries,
// private-CA anchors, every qualification) answers as the document says.
func TestContractOfTheSamples(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	addr := freeAddress(t)
	dir, m := samplesFor(t, addr)
	s := dev(t, "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS="+addr)
	waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	for _, sample := range m.Samples {
		t.Run(sample.File, func(t *testing.T) {
			parts := []part{{field: "file", name: sample.File, data: read(t, dir, sample.File)}}
			for _, d := range sample.Detached {
				parts = append(parts, part{field: "detached", name: d, data: read(t, dir, d)})
			}
			res, body := c.Do(t, uploadRequest(t, s.URL, parts), true)
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
		})
	}
}

// TestContractOfRefusals: a call without a token, with a refused one, or
// of a tenant without the license answers as the document says, and so
// does a scrape of the metrics without their token, with a wrong one or
// with it.
func TestContractOfRefusals(t *testing.T) {
	t.Parallel()
	c := contracttest.Load(t, contractPath)
	w := newAuthWorld(t, "SVC_DSS_VALIDATOR_METRICS_TOKEN="+metricsTokenForTests)
	tests := []struct {
		name, method, path, auth string
		status                   int
	}{
		{"validate without a token", http.MethodPost, "/api/validate", "", 401},
		{"trust status without a token", http.MethodGet, "/api/trust-status", "", 401},
		{"a token that is no JWT", http.MethodGet, "/api/trust-status", "Bearer not-a-jwt", 401},
		{"tenant without the license", http.MethodGet, "/api/trust-status", "Bearer " + w.token(t, w.c, tenantC), 403},
		{"licensed tenant", http.MethodGet, "/api/trust-status", "Bearer " + w.token(t, w.a, tenantA), 200},
		{"licensed tenant, unreadable upload", http.MethodPost, "/api/validate", "Bearer " + w.token(t, w.a, tenantA), 400},
		{"metrics without a token", http.MethodGet, "/actuator/prometheus", "", 401},
		{"metrics with a wrong token", http.MethodGet, "/actuator/prometheus", "Bearer " + strings.Repeat("x", 32), 401},
		{"metrics with a tenant's token", http.MethodGet, "/actuator/prometheus", "Bearer " + w.token(t, w.a, tenantA), 401},
		{"metrics with their token", http.MethodGet, "/actuator/prometheus", "Bearer " + metricsTokenForTests, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var req *http.Request
			if tt.method == http.MethodPost {
				req = uploadRequest(t, w.url, []part{{"file", "doc.bin", []byte("not a signature")}})
			} else {
				req, _ = http.NewRequest(tt.method, w.url+tt.path, nil)
			}
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			res, _ := c.Do(t, req, true)
			is.Equal(res.StatusCode, tt.status)
		})
	}
	t.Run("a part policy naming no configured policy", func(t *testing.T) {
		is := is.New(t)
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		fw, err := mw.CreateFormFile("file", "doc.bin")
		is.NoErr(err)
		fw.Write([]byte("not a signature"))
		is.NoErr(mw.WriteField("policy", "nope"))
		mw.Close()
		req, err := http.NewRequest(http.MethodPost, w.url+"/api/validate", &b)
		is.NoErr(err)
		req.Header.Set("Content-Type", mw.FormDataContentType())
		req.Header.Set("Authorization", "Bearer "+w.token(t, w.a, tenantA))
		res, _ := c.Do(t, req, true)
		is.Equal(res.StatusCode, 400)
	})
}
