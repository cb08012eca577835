package pades_test

import (
	"context"
	"errors"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/adapters/formats/pdf"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/ports"
)

// TestReadPdfcpuPanic: a document that makes pdfcpu panic is unreadable
// (a 400), with pdfcpu's panic kept in the error for the log; the
// reader's own panics are not caught here (pdf.Recover, whose tests
// cover them).
func TestReadPdfcpuPanic(t *testing.T) {
	t.Parallel()
	sigs, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "panic.pdf", Data: fixture.PdfcpuPanic()})
	if sigs != nil || !errors.Is(err, ports.ErrUnreadable) {
		t.Fatalf("want no signature and an error wrapping ports.ErrUnreadable, got %v, %v", sigs, err)
	}
	if _, ok := errors.AsType[*pdf.PanicError](err); !ok {
		t.Fatalf("want pdfcpu's panic in the error, got %v", err)
	}
}
