package pades_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
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

// BenchmarkReadManyRevisions reads a document of about 100,000 objects
// (10,000 pages, each with its content stream, a font with its
// descriptor and file, a form XObject and graphics states) carrying 50
// signatures, each in its own revision: every revision is compared with
// the final document, so the comparison must stay linear in what the
// pages reach.
func BenchmarkReadManyRevisions(b *testing.B) {
	p := testPKI(b)
	d := manyObjects(10000)
	for i := range 50 {
		if err := d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: signedAt.Add(time.Duration(i) * time.Minute)}); err != nil {
			b.Fatal(err)
		}
	}
	data := d.Bytes()
	doc := ports.Document{Name: "doc.pdf", Data: data}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		sigs, err := pades.NewReader().Read(context.Background(), doc)
		if err != nil || len(sigs) != 50 {
			b.Fatalf("%d signatures, %v", len(sigs), err)
		}
		for _, s := range sigs {
			if len(s.Problems) > 0 {
				b.Fatalf("a signature of the unchanged document has problems: %v", s.Problems)
			}
		}
	}
}

// manyObjects is a document of pages pages, each drawing with resources of
// its own: ten objects a page.
func manyObjects(pages int) *fixture.Document {
	d := fixture.New(pages)
	o := d.Objects()
	objs := map[int]string{}
	for i, pg := range o.Pages {
		font, desc, file, xo := d.Alloc(), d.Alloc(), d.Alloc(), d.Alloc()
		gs := []int{d.Alloc(), d.Alloc(), d.Alloc(), d.Alloc()}
		objs[file] = fixture.Stream("", fmt.Sprintf("font program %d", i))
		objs[desc] = fmt.Sprintf("<< /Type /FontDescriptor /FontName /F%d /Flags 32 /FontFile %s >>", i, fixture.Ref(file))
		objs[font] = fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /F%d /FontDescriptor %s >>", i, fixture.Ref(desc))
		objs[xo] = fixture.Stream(fmt.Sprintf("/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Resources << /Font << /F1 %s >> >>", fixture.Ref(font)), "BT /F1 8 Tf (x) Tj ET")
		var states string
		for j, g := range gs {
			objs[g] = fmt.Sprintf("<< /Type /ExtGState /CA %d >>", j)
			states += fmt.Sprintf(" /G%d %s", j, fixture.Ref(g))
		}
		if i == 0 {
			continue // the signatures rewrite the first page their own way
		}
		objs[pg] = fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources << /Font << /F1 %s >> /XObject << /X1 %s >> /ExtGState <<%s >> >> /Contents %s >>",
			fixture.Ref(o.PageTree), fixture.Ref(font), fixture.Ref(xo), states, fixture.Ref(o.Contents[i]))
	}
	d.Update(objs, 0)
	return d
}
