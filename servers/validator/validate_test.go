package main

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// signedWorld is a validator trusting fixture lists that name the fixture
// PKI of a running PKI server, so that OCSP and CRL answer on 127.0.0.1.
func signedWorld(t *testing.T, env ...string) (*pki.Server, *servertest.Server) {
	t.Helper()
	srv := pki.Start(t)
	_, base := ecosystemFor(t, srv.PKI)
	base = append(base,
		"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S",
		"SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false", // the fixture OCSP and CRL are on 127.0.0.1
	)
	s := start(t, nil, append(base, env...)...)
	waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	return srv, s
}

func post(t *testing.T, url string, parts map[string][]byte) (*http.Response, []byte) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	for name, data := range parts {
		field := strings.SplitN(name, "#", 2)[0] // "detached#2" sends a second detached part
		fw, err := w.CreateFormFile(field, name+".bin")
		if err != nil {
			t.Fatal(err)
		}
		fw.Write(data)
	}
	w.Close()
	res, err := http.Post(url+"/api/validate", w.FormDataContentType(), &b)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, body
}

func TestValidateCAdES(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
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
	tests := []struct {
		name       string
		parts      map[string][]byte
		indication verdict.Indication
		sub        verdict.SubIndication
		format     string
	}{
		{"B attached", map[string][]byte{"file": sign(cades.B, false, 0)}, "TOTAL_PASSED", "", "CAdES_BASELINE_B"},
		{"T detached", map[string][]byte{"file": sign(cades.T, true, 0), "detached": content}, "TOTAL_PASSED", "", "CAdES_BASELINE_T"},
		{"detached without its content", map[string][]byte{"file": sign(cades.B, true, 0)}, "INDETERMINATE", "SIGNED_DATA_NOT_FOUND", "CAdES_BASELINE_B"},
		{"tampered content", map[string][]byte{"file": sign(cades.B, false, cades.TamperedContent)}, "TOTAL_FAILED", "HASH_FAILURE", "CAdES_BASELINE_B"},
		{"bad signature value", map[string][]byte{"file": sign(cades.B, false, cades.BadSignatureValue)}, "TOTAL_FAILED", "SIG_CRYPTO_FAILURE", "CAdES_BASELINE_B"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := post(t, s.URL, tt.parts)
			is.Equal(res.StatusCode, 200)
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal(body, &sum))
			is.Equal(sum.SignatureCount, 1)
			r := sum.Signatures[0]
			is.Equal(r.Indication, tt.indication) // body: see sub-indication below
			var sub verdict.SubIndication
			if r.SubIndication != nil {
				sub = *r.SubIndication
			}
			is.Equal(sub, tt.sub)
			is.Equal(r.SignatureFormat, tt.format)
			is.Equal(sum.Valid, tt.indication == "TOTAL_PASSED")
			is.Equal(r.TrustFramework, "CH_ZERTES") // the CA is on the Swiss list too: Swiss precedence
			is.Equal(*r.AnchorCountry, "CH")
			is.True(sum.TrustData.Current)
		})
	}
}

func TestValidateRefusesUnreadableUploads(t *testing.T) {
	t.Parallel()
	s := dev(t)
	tests := []struct {
		name   string
		parts  map[string][]byte
		detail string
	}{
		{"no file part", map[string][]byte{"detached": []byte("x")}, `unreadable document: the part "file" is missing`},
		{"empty file", map[string][]byte{"file": {}}, "unreadable document: the uploaded file is empty"},
		{"not a signature", map[string][]byte{"file": []byte("hello, world")}, "unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := post(t, s.URL, tt.parts)
			is.Equal(res.StatusCode, 400)
			var p servertest.Problem
			is.NoErr(json.Unmarshal(body, &p))
			is.Equal(p.Type, "urn:svc-dss:problem:unreadable-upload")
			is.Equal(p.Detail, tt.detail)
		})
	}
	is := is.New(t)
	res, err := http.Post(s.URL+"/api/validate", "application/json", strings.NewReader("{}"))
	is.NoErr(err)
	defer res.Body.Close()
	is.Equal(res.StatusCode, 400)
	p := servertest.Decode[servertest.Problem](t, res.Body)
	is.Equal(p.Detail, `unreadable document: send the document as multipart/form-data with a part named "file"`)
}

// "Egress control": with deny-private-networks on (the default), the
// fixture PKI's OCSP and CRL on 127.0.0.1 are refused. The refusal is a
// validation outcome, not an error: a signature that needs online
// revocation data is INDETERMINATE/TRY_LATER, one that carries its own
// passes, and the log says which fetch was blocked and why.
func TestBlockedRevocationFetchIsAnOutcome(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t, "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=true")
	content := []byte("contract text, signed")
	sign := func(level cades.Level) []byte {
		t.Helper()
		now := time.Now().Truncate(time.Second)
		sig, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: level,
			SigningTime: now.Add(-time.Hour), RevocationDataTime: now.Add(-time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	tests := []struct {
		name       string
		level      cades.Level
		indication verdict.Indication
		sub        verdict.SubIndication
	}{
		{"B needs an online fetch", cades.B, "INDETERMINATE", "TRY_LATER"},
		{"LT carries its revocation data", cades.LT, "TOTAL_PASSED", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := post(t, s.URL, map[string][]byte{"file": sign(tt.level)})
			is.Equal(res.StatusCode, 200)
			var sum verdict.ValidationSummary
			is.NoErr(json.Unmarshal(body, &sum))
			r := sum.Signatures[0]
			is.Equal(r.Indication, tt.indication)
			var sub verdict.SubIndication
			if r.SubIndication != nil {
				sub = *r.SubIndication
			}
			is.Equal(sub, tt.sub)
		})
	}
	logs := s.Logs.String()
	is := is.New(t)
	is.True(strings.Contains(logs, `"msg":"revocation fetch failed"`))
	is.True(strings.Contains(logs, `"blocked":true`))
	is.True(strings.Contains(logs, `"blockReason":"private or special-purpose address"`))
}

// §3 "Degraded behaviour" 3: with no trusted list loaded, a signature
// reaches no anchor, and its verdict says the validator is at fault.
func TestNeverLoadedIsAConfigurationProblem(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://127.0.0.1:9")
	is.NoErr(err)
	sig, err := cades.Sign([]byte("contract"), cades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	is.NoErr(err)
	s := start(t, nil, "SVC_DSS_VALIDATOR_PERMIT_ALL=true") // list URLs on a closed port
	res, body := post(t, s.URL, map[string][]byte{"file": sig})
	is.Equal(res.StatusCode, 200)
	var sum verdict.ValidationSummary
	is.NoErr(json.Unmarshal(body, &sum))
	r := sum.Signatures[0]
	is.Equal(r.Indication, verdict.Indeterminate)
	is.Equal(*r.SubIndication, verdict.SubNoCertificateChainFound)
	is.Equal(sum.TrustData.State, "NEVER_LOADED")
	is.True(!sum.TrustData.AnchorDataAuthenticated)
	is.True(slices.ContainsFunc(r.Warnings, func(m verdict.Message) bool { return m.Code == verdict.CodeNoTrustedListLoaded }))
}
