package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/ports"
	"github.com/svc-dss/dss/servers/internal/servertest"
	"github.com/svc-dss/dss/servers/internal/shell"
)

// panickingReader is a document reader with a bug: it panics.
type panickingReader struct{}

func (panickingReader) Read(context.Context, ports.Document) ([]ades.Signature, error) {
	var sigs []ades.Signature
	i := len("a bug")
	return sigs[:i], nil // slice bounds out of range
}

// panicServer serves the validator's routes in process, under permit-all,
// with readers in place of the real ones when given.
func panicServer(t *testing.T, readers ...ports.DocumentReader) (*httptest.Server, *servertest.Buffer) {
	t.Helper()
	cfg, err := config.LoadValidator(nil, append(offline(t), "SVC_DSS_VALIDATOR_PERMIT_ALL=true"), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs := &servertest.Buffer{}
	logger := shell.NewLogger(logs, slog.LevelInfo)
	var opts []validator.Option
	if len(readers) > 0 {
		opts = append(opts, validator.WithReaders(readers...))
	}
	a, err := validator.New(context.Background(), cfg, logger, time.Now, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e, err := newServer(a, logger)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return srv, logs
}

// Issue 17: a validation that panics is a 500 with a fixed answer, its
// stack in the log under a stable message; the process stays up and
// answers the next requests.
func TestValidatePanicIs500(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, logs := panicServer(t, panickingReader{})
	for range 2 {
		res, body := post(t, srv.URL, map[string][]byte{"file": []byte("a document")})
		is.Equal(res.StatusCode, http.StatusInternalServerError)
		is.Equal(res.Header.Get("Content-Type"), "application/problem+json")
		var p servertest.Problem
		is.NoErr(json.Unmarshal(body, &p))
		is.Equal(p, servertest.Problem{Type: "urn:svc-dss:problem:internal-error", Title: "Internal Server Error", Status: 500,
			Detail:   "validation could not run: an internal error of this service, not a fault of the document; quote the request id when reporting it",
			Instance: "/api/validate", RequestID: res.Header.Get("X-Request-Id")})
		is.True(!strings.Contains(string(body), "slice bounds")) // the panic stays in the log
	}
	res, err := http.Get(srv.URL + "/actuator/health")
	is.NoErr(err)
	res.Body.Close()
	is.Equal(res.StatusCode, 200) // still serving

	var bugs int
	for line := range strings.SplitSeq(logs.String(), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) != nil || rec["msg"] != validation.PanicLogMessage {
			continue
		}
		bugs++
		is.Equal(rec["level"], "ERROR")
		is.True(strings.Contains(rec["panic"].(string), "slice bounds out of range"))
		is.True(strings.Contains(rec["stack"].(string), "panickingReader.Read")) // where it panicked
		is.True(rec["request_id"] != nil && rec["request_id"] != "")             // under the request's id
	}
	is.Equal(bugs, 2) // one line per validation
}

// A document that makes pdfcpu panic, through the real readers: the
// document is unreadable (400), not a bug of ours.
func TestValidatePdfcpuPanicIs400(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, logs := panicServer(t)
	res, body := post(t, srv.URL, map[string][]byte{"file": fixture.PdfcpuPanic()})
	is.Equal(res.StatusCode, http.StatusBadRequest)
	var p servertest.Problem
	is.NoErr(json.Unmarshal(body, &p))
	is.Equal(p.Type, "urn:svc-dss:problem:unreadable-upload")
	is.Equal(p.Detail, "unreadable document: it is in a format this service reads (CAdES, PAdES, XAdES, ASiC, JAdES, TST), but its structure cannot be read")
	is.True(strings.Contains(logs.String(), `"msg":"pdfcpu panicked: the document is unreadable"`)) // with pdfcpu's stack
	is.True(!strings.Contains(logs.String(), validation.PanicLogMessage))
}
