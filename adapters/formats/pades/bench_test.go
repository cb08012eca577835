package pades_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

// BenchmarkRead reads PAdES-LT documents of 100 KB, 1 MB and 10 MB with 1
// and 5 signatures (each signature T, then one DSS): the reader's share of
// a validation, pdfcpu parsing included. B/op against the file size is the
// memory the reader needs.
func BenchmarkRead(b *testing.B) {
	p, err := pki.New("http://pki.test")
	if err != nil {
		b.Fatal(err)
	}
	at := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	for _, size := range []int{100 << 10, 1 << 20, 10 << 20} {
		for _, n := range []int{1, 5} {
			d := fixture.NewSized(1, size)
			for i := range n {
				if err := d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.T, SigningTime: at.Add(time.Duration(i) * time.Minute)}); err != nil {
					b.Fatal(err)
				}
			}
			if err := d.AddDSS(fixture.DSSOptions{PKI: p, At: at.Add(time.Hour)}); err != nil {
				b.Fatal(err)
			}
			data := d.Bytes()
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
