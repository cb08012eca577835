package main

import (
	"crypto/sha256"
	"encoding/json"
	"encoding/pem"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// Issue 20: a time-stamp-only ASiC-S and a bare RFC 3161 token with its
// data are answered by POST /api/validate with a time-stamp entry under
// timestamps, field by field as docs/validate-api.md lists them, and no
// signature.
func TestValidateTimestamps(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	p := srv.PKI
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	content := []byte("contract text, time-stamped")
	sum := sha256.Sum256(content)
	token, err := cades.TimestampToken(p, sum[:], at)
	if err != nil {
		t.Fatal(err)
	}
	container, err := asic.Build(asic.DefaultFiles()[:1], asic.Options{PKI: p, Container: asic.ASiCS, Inner: asic.TimestampOnly, SigningTime: at})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		parts     map[string][]byte
		entry     string
		container any
		ind       string
		sub       any
		data      []any
	}{
		{"time-stamp-only ASiC-S", map[string][]byte{"file": container}, asic.TimestampTST, "ASiC-S", "PASSED", nil, []any{"document.txt"}},
		{"bare token with its data", map[string][]byte{"file": token, "detached": content}, "file.bin", nil, "PASSED", nil, []any{"detached.bin"}},
		{"bare token, data altered", map[string][]byte{"file": token, "detached": []byte("other")}, "file.bin", nil, "FAILED", "HASH_FAILURE", []any{}},
		{"bare token without data", map[string][]byte{"file": token}, "file.bin", nil, "INDETERMINATE", "SIGNED_DATA_NOT_FOUND", []any{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			res, body := post(t, s.URL, tt.parts)
			is.Equal(res.StatusCode, 200)
			var doc map[string]any
			is.NoErr(json.Unmarshal(body, &doc))
			is.Equal(doc["signatureCount"], float64(0))
			is.Equal(doc["signatures"], []any{})
			is.Equal(doc["valid"], tt.ind == "PASSED")
			entries := doc["timestamps"].([]any)
			is.Equal(len(entries), 1)
			e := entries[0].(map[string]any)
			var keys []string
			for k := range e {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			is.Equal(keys, []string{"anchorCountry", "container", "errors", "generationTime", "id", "indication", "name",
				"qualification", "subIndication", "timestampedData", "trustFramework", "tsa", "warnings"})
			is.True(strings.HasPrefix(e["id"].(string), "T-"))
			is.Equal(e["name"], tt.entry)
			is.Equal(e["container"], tt.container)
			is.Equal(e["indication"], tt.ind)
			is.Equal(e["subIndication"], tt.sub)
			is.Equal(e["generationTime"], at.UTC().Format(time.RFC3339))
			is.Equal(e["tsa"], p.TSA.Certificate.Subject.String())
			is.Equal(e["timestampedData"], tt.data)
			if tt.ind == "PASSED" {
				is.Equal(e["errors"], []any{})
				// The fixture TSA is a qualified time-stamping service
				// of the EU list of DE.
				is.Equal(e["trustFramework"], "EU_EIDAS")
				is.Equal(e["anchorCountry"], "DE")
				is.Equal(e["qualification"], "QTSA")
			} else {
				is.Equal(e["errors"].([]any)[0].(map[string]any)["code"], tt.sub)
			}
			var typed verdict.ValidationSummary
			is.NoErr(json.Unmarshal(body, &typed))
			is.Equal(string(typed.Timestamps[0].Indication), tt.ind)
		})
	}
}

// The validate command prints the summary JSON: a bare token given with
// --detached is a time-stamp entry there too, named by its file, its
// data by theirs; the TSA is trusted through --trust-anchor.
func TestValidateCommandTimestamp(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return pki.ReferenceTime })
	dir := t.TempDir()
	content := []byte("contract")
	sum := sha256.Sum256(content)
	resp, err := cades.TimestampResponse(srv.PKI, srv.PKI.TSA, sum[:], pki.ReferenceTime.Add(-24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	tsr := write(t, dir, "contract.tsr", resp)
	data := write(t, dir, "contract.txt", content)
	root := write(t, dir, "root.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.PKI.Root.Certificate.Raw}))
	env := append(offline(t), "SVC_DSS_VALIDATOR_EGRESS_DENY_PRIVATE=false")
	code, out, logs := command(t, env, "validate", tsr, "--detached", data, "--at="+pki.ReferenceTime.Format(time.RFC3339), "--trust-anchor", root)
	is.Equal(code, 0)
	if t.Failed() {
		t.Log(logs)
	}
	var s verdict.ValidationSummary
	is.NoErr(json.Unmarshal([]byte(out), &s))
	is.Equal(s.SignatureCount, 0)
	is.Equal(len(s.Timestamps), 1)
	e := s.Timestamps[0]
	is.Equal(e.Name, "contract.tsr")
	is.Equal(e.Indication, verdict.Passed)
	is.Equal(e.TimestampedData, []string{"contract.txt"})
	is.Equal(e.TrustFramework, "UNKNOWN") // a private anchor
	is.Equal(e.Qualification, "NA")
	is.True(s.Valid)
}

// The result page shows the time-stamp entries: indication, time, TSA,
// qualification, covered files, and the verdict counts them.
func TestUITimestamps(t *testing.T) {
	t.Parallel()
	srv, w := signedUIWorld(t)
	p := srv.PKI
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	content := []byte("contract text, time-stamped")
	sum := sha256.Sum256(content)
	token, err := cades.TimestampToken(p, sum[:], at)
	if err != nil {
		t.Fatal(err)
	}
	b := w.browser(t)
	r := b.login(tenantA, alice)
	is.New(t).Equal(r.status, 200)
	csrf := csrfOf(t, r.body)
	tests := []struct {
		name  string
		parts []part
		valid bool
		ind   string
		data  string
	}{
		{"with its data", []part{{"file", "contract.tst", token}, {"detached", "contract.txt", content}}, true, "PASSED", "contract.txt"},
		{"without its data", []part{{"file", "contract.tst", token}}, false, "INDETERMINATE", "None found intact"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			r := b.upload(csrf, tt.parts...)
			is.Equal(r.status, 200)
			if tt.valid {
				is.True(strings.Contains(r.body, `id="verdict" data-valid="true">Valid: every signature and time-stamp passed</span>`))
			} else {
				is.True(strings.Contains(r.body, `id="verdict" data-valid="false">Not valid: not every signature and time-stamp passed</span>`))
			}
			is.Equal(text(r.body, "signature-count"), "0")
			is.Equal(text(r.body, "timestamp-count"), "1")
			is.True(strings.Contains(r.body, `id="timestamp-1-indication" data-indication="`+tt.ind+`"`))
			is.Equal(text(r.body, "timestamp-1-time"), when(at))
			is.Equal(text(r.body, "timestamp-1-tsa"), p.TSA.Certificate.Subject.String())
			is.Equal(text(r.body, "timestamp-1-qualification"), "Qualified time-stamping service (QTSA)")
			is.Equal(text(r.body, "timestamp-1-country"), "DE")
			is.Equal(text(r.body, "timestamp-1-data"), tt.data)
			if !tt.valid {
				is.True(strings.Contains(r.body, "<code>SIGNED_DATA_NOT_FOUND</code></li>"))
			}
		})
	}
}

// A time-stamp that cannot be read is a 400, as in every format: a token
// cut short, and a response that grants no token.
func TestValidateUnreadableTimestamp(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	content := []byte("contract")
	sum := sha256.Sum256(content)
	token, err := cades.TimestampToken(srv.PKI, sum[:], time.Now().Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"truncated token":            token[:len(token)-16],
		"granted response, no token": {0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x00},
	} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			res, body := post(t, s.URL, map[string][]byte{"file": data, "detached": content})
			is.Equal(res.StatusCode, 400)
			var p struct {
				Type, Detail string
			}
			is.NoErr(json.Unmarshal(body, &p))
			is.Equal(p.Type, "urn:svc-dss:problem:unreadable-upload")
			is.Equal(p.Detail, "unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST), but its structure cannot be read")
		})
	}
}
