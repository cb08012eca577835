package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/fixtures/cades"
)

// TestValidateAudit: every POST /api/validate that reaches validation
// leaves one audit record, under the request's id, with the tenant, the
// document's SHA-256, its formats and indications and the duration; the
// document itself, its name and what it says never reach the record.
func TestValidateAudit(t *testing.T) {
	t.Parallel()
	srv, s := signedWorld(t)
	content := []byte("audit-marker contract text")
	sig, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	tampered, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.PKI.SignerRSAQC, Level: cades.B,
		SigningTime: time.Now().Add(-time.Hour).Truncate(time.Second), Defect: cades.TamperedContent})
	if err != nil {
		t.Fatal(err)
	}
	unreadable := []byte("audit-marker: no signature in here")
	truncated := sig[:len(sig)/2]
	tests := []struct {
		name        string
		file        []byte
		status      int
		outcome     string
		formats     []any
		indications []any
		reason      any
	}{
		{"signed", sig, 200, "validated", []any{"CAdES_BASELINE_B"}, []any{"TOTAL_PASSED"}, nil},
		{"tampered", tampered, 200, "validated", []any{"CAdES_BASELINE_B"}, []any{"TOTAL_FAILED/HASH_FAILURE"}, nil},
		{"no signature format", unreadable, 400, "unreadable", nil, nil,
			"unreadable document: not a signature format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST)"},
		// The reader's own message may quote the document: the record
		// gives the answer's fixed words.
		{"unreadable structure", truncated, 400, "unreadable", nil, nil,
			"unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST), but its structure cannot be read"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var b bytes.Buffer
			w := multipart.NewWriter(&b)
			fw, _ := w.CreateFormFile("file", "Jane Doe's contract.p7m")
			fw.Write(tt.file)
			w.Close()
			id := "audit-" + strings.ReplaceAll(tt.name, " ", "-")
			req, _ := http.NewRequest(http.MethodPost, s.URL+"/api/validate", &b)
			req.Header.Set("Content-Type", w.FormDataContentType())
			req.Header.Set("X-Request-Id", id)
			res, err := http.DefaultClient.Do(req)
			is.NoErr(err)
			res.Body.Close()
			is.Equal(res.StatusCode, tt.status)

			rec := auditRecord(t, s.Logs.String(), id)
			digest := sha256.Sum256(tt.file)
			is.Equal(rec["outcome"], tt.outcome)
			is.Equal(rec["tenant"], validator.DevelopmentTenant) // permit-all
			is.Equal(rec["document_sha256"], hex.EncodeToString(digest[:]))
			is.Equal(rec["document_bytes"], float64(len(tt.file)))
			is.Equal(rec["formats"], any(tt.formats))
			is.Equal(rec["indications"], any(tt.indications))
			is.Equal(rec["reason"], tt.reason)
			_, timed := rec["duration_ms"].(float64)
			is.True(timed)
		})
	}
	// The server's other lines may quote a document its reader could
	// not read (the "unreadable document" line); the audit records never.
	is := is.New(t)
	for line := range strings.SplitSeq(s.Logs.String(), "\n") {
		if !strings.Contains(line, `"msg":"validate"`) {
			continue
		}
		is.True(!strings.Contains(line, "audit-marker"))   // no document content
		is.True(!strings.Contains(line, "Jane Doe"))       // no document name
		is.True(!strings.Contains(line, string(sig[:64]))) // no document bytes
	}
}

// auditRecord is the one validation audit record of request id in logs.
func auditRecord(t *testing.T, logs, id string) map[string]any {
	t.Helper()
	var found []map[string]any
	for line := range strings.SplitSeq(logs, "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "validate" && rec["request_id"] == id {
			found = append(found, rec)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d audit records for request %s, want 1:\n%s", len(found), id, logs)
	}
	return found[0]
}
