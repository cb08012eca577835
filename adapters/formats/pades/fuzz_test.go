package pades_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/pades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/ports"
)

// FuzzRead: any input gives signatures, or an error wrapping
// ports.ErrNotThisFormat or ports.ErrUnreadable; never a panic.
func FuzzRead(f *testing.F) {
	p := testPKI(f)
	f.Add(fixture.New(1).Bytes())
	d := ltDocument(f, p, 0, 2)
	f.Add(d.Bytes())
	if err := d.AddDocumentTimestamp(fixture.TimestampOptions{PKI: p, At: signedAt.Add(2 * time.Hour)}); err != nil {
		f.Fatal(err)
	}
	f.Add(d.Bytes())
	f.Add([]byte("%PDF-1.7\n%%EOF\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "f.pdf", Data: data})
		if err != nil && !errors.Is(err, ports.ErrNotThisFormat) && !errors.Is(err, ports.ErrUnreadable) {
			t.Fatalf("unexpected error class: %v", err)
		}
	})
}
