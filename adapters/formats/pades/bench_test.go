package pades_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/ports"
)

// BenchmarkRead reads PAdES-LT documents of 100 KB, 1 MB and 10 MB with 1
// and 5 signatures (each signature T, then one DSS): the reader's share of
// a validation, pdfcpu parsing included. B/op against the file size is the
// memory the reader needs.
func BenchmarkRead(b *testing.B) {
	p := testPKI(b)
	for _, size := range []int{100 << 10, 1 << 20, 10 << 20} {
		for _, n := range []int{1, 5} {
			data := ltDocument(b, p, size, n).Bytes()
			b.Run(fmt.Sprintf("%dKB/%dsig", size>>10, n), func(b *testing.B) {
				doc := ports.Document{Name: "doc.pdf", Data: data}
				b.SetBytes(int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					sigs, err := pades.NewReader().Read(context.Background(), doc)
					if err != nil || len(sigs) != n {
						b.Fatalf("%d signatures, %v", len(sigs), err)
					}
				}
			})
		}
	}
}
