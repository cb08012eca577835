package validation

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

// panickingReader is a ports.DocumentReader with a bug: it panics.
type panickingReader struct{}

func (panickingReader) Read(_ context.Context, doc ports.Document) ([]ades.Signature, error) {
	var sigs []ades.Signature
	return sigs[:len(doc.Data)+1], nil // index out of range: a bug
}

// oneSignature reads every document as one signature by cert.
type oneSignature struct{ cert *x509.Certificate }

func (r oneSignature) Read(context.Context, ports.Document) ([]ades.Signature, error) {
	return []ades.Signature{{ID: "S1", SigningCertificate: r.cert}}, nil
}

// panickingIssuers is a ports.CertificateSource with a bug: it panics,
// on a signature worker's goroutine.
type panickingIssuers struct{}

func (panickingIssuers) Issuers(context.Context, *x509.Certificate) ([]*x509.Certificate, error) {
	panic("issuers: boom")
}

// syncBuffer is a log that goroutines may write while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// records are the log's records with the message msg.
func (s *syncBuffer) records(t *testing.T, msg string) []map[string]any {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []map[string]any
	for line := range strings.SplitSeq(s.b.String(), "\n") {
		var rec map[string]any
		if line == "" {
			continue
		}
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if rec["msg"] == msg {
			out = append(out, rec)
		}
	}
	return out
}

// recoveryValidator is a Validator with no trusted list, offline, with
// the given readers (the real ones when none).
func recoveryValidator(t *testing.T, readers ...ports.DocumentReader) (*Validator, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	opts := []Option{Offline(), WithLogger(slog.New(slog.NewJSONHandler(logs, nil))), WithTime(pki.ReferenceTime)}
	if len(readers) > 0 {
		opts = append(opts, WithReaders(readers...))
	}
	v, err := New(context.Background(), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return v, logs
}

// TestValidationPanic: a panic anywhere in a validation, on the caller's
// goroutine (a reader) or on a signature worker's, ends that validation
// with a *PanicError and one ERROR line with the stack, and nothing
// else: the process goes on, and the next validation runs.
func TestValidationPanic(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		reader ports.DocumentReader
		setup  func(v *Validator)
		value  string // in the panic
		frame  string // a function the stack names
	}{
		{"a reader panics", panickingReader{}, nil, "slice bounds out of range", "validation.panickingReader.Read"},
		{"a signature worker panics", oneSignature{p.SignerRSA.Certificate}, func(v *Validator) { v.issuers = panickingIssuers{} },
			"issuers: boom", "validation.panickingIssuers.Issuers"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v, logs := recoveryValidator(t, tt.reader)
			if tt.setup != nil {
				tt.setup(v)
			}
			doc := Document{Name: "contract.p7m", Data: []byte("a document")}
			for range 2 { // the process is still there, and so is the Validator
				_, err := v.Validate(context.Background(), doc)
				pe, ok := errors.AsType[*PanicError](err)
				if !ok {
					t.Fatalf("want a *PanicError, got %v", err)
				}
				if errors.Is(err, ErrUnreadable) || !strings.Contains(pe.Error(), tt.value) {
					t.Errorf("error %q: want the panic %q, and not unreadable", err, tt.value)
				}
			}
			recs := logs.records(t, PanicLogMessage)
			if len(recs) != 2 {
				t.Fatalf("want one %q line per validation, got %d", PanicLogMessage, len(recs))
			}
			sum := sha256.Sum256(doc.Data)
			rec := recs[0]
			if rec["level"] != "ERROR" || !strings.Contains(rec["panic"].(string), tt.value) ||
				rec["document_sha256"] != hex.EncodeToString(sum[:]) || !strings.Contains(rec["stack"].(string), tt.frame) {
				t.Errorf("log line %v: want ERROR, the panic, the document's SHA-256 and a stack through %s", rec, tt.frame)
			}
		})
	}
}

// TestValidationPdfcpuPanic: pdfcpu's panic, in the real PAdES reader,
// is an unreadable document (a 400), never a bug of ours; its stack is
// logged, as a warning.
func TestValidationPdfcpuPanic(t *testing.T) {
	t.Parallel()
	v, logs := recoveryValidator(t)
	_, err := v.Validate(context.Background(), Document{Name: "panic.pdf", Data: fixture.PdfcpuPanic()})
	if _, ok := errors.AsType[*UnreadableError](err); !ok {
		t.Fatalf("want an *UnreadableError, got %v", err)
	}
	if _, ok := errors.AsType[*pdf.PanicError](err); !ok {
		t.Fatalf("want pdfcpu's panic in the error, got %v", err)
	}
	if _, ok := errors.AsType[*PanicError](err); ok {
		t.Fatalf("pdfcpu's panic taken for a bug of ours: %v", err)
	}
	if n := len(logs.records(t, PanicLogMessage)); n != 0 {
		t.Errorf("%d %q lines for pdfcpu's panic", n, PanicLogMessage)
	}
	recs := logs.records(t, "pdfcpu panicked: the document is unreadable")
	if len(recs) != 1 || recs[0]["level"] != "WARN" || !strings.Contains(recs[0]["stack"].(string), "github.com/pdfcpu/pdfcpu/") {
		t.Errorf("want one WARN line with pdfcpu's stack, got %v", recs)
	}
}
