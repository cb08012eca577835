package pades

import (
	"fmt"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	fixture "github.com/svc-dss/dss/fixtures/pades"
)

// An earlier revision's view taken with the final document's digests
// (viewOf with a later view) is the view taken from scratch, for every
// revision of documents whose updates rewrite, add and repoint what the
// pages show: the reuse is an optimisation, never a change of verdict.
func TestPrintReuseIsExact(t *testing.T) {
	t.Parallel()
	ref := fixture.Ref
	docs := map[string]func(d *fixture.Document){
		"fonts, a node that rotates, a page action": func(d *fixture.Document) {
			o := d.Objects()
			font, node, action := d.Alloc(), d.Alloc(), d.Alloc()
			d.Update(map[int]string{font: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>"}, 0)
			d.Update(map[int]string{o.Font: "<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman >>"}, 0)
			d.Update(map[int]string{
				node:       fmt.Sprintf("<< /Type /Pages /Parent %s /Kids [%s] /Count 1 /Rotate 90 >>", ref(o.PageTree), ref(o.Pages[1])),
				o.PageTree: fmt.Sprintf("<< /Type /Pages /Kids [%s %s] /Count 2 >>", ref(o.Pages[0]), ref(node)),
			}, 0)
			d.Update(map[int]string{
				action:     "<< /S /JavaScript /JS (1) >>",
				o.Pages[0]: fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources << /Font << /F1 %s >> >> /Contents %s /AA << /O %s >> >>", ref(o.PageTree), ref(font), ref(o.Contents[0]), ref(action)),
			}, 0)
			d.Update(map[int]string{action: "<< /S /JavaScript /JS (2) >>"}, 0)
		},
		"another tree, optional content, a cropped copy": func(d *fixture.Document) {
			o := d.Objects()
			tree, catalog, page, ocg := d.Alloc(), d.Alloc(), d.Alloc(), d.Alloc()
			d.Update(map[int]string{tree: fmt.Sprintf("<< /Type /Pages /Kids [%s %s] /Count 2 /CropBox [0 0 10 10] >>", ref(o.Pages[0]), ref(o.Pages[1]))}, 0)
			d.Update(map[int]string{catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s >>", ref(tree))}, catalog)
			d.Update(map[int]string{
				ocg:     "<< /Type /OCG /Name (l) >>",
				catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /OCProperties << /OCGs [%s] /D << /OFF [%s] >> >> >>", ref(tree), ref(ocg), ref(ocg)),
			}, catalog)
			d.Update(map[int]string{
				page: fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources << /Font << /F1 %s >> >> /Contents %s >>", ref(tree), ref(o.Font), ref(o.Contents[1])),
				tree: fmt.Sprintf("<< /Type /Pages /Kids [%s %s] /Count 2 >>", ref(o.Pages[0]), ref(page)),
			}, catalog)
		},
		"a tree prepared early, the catalog pointed at it later": func(d *fixture.Document) {
			o := d.Objects()
			tree := d.Alloc()
			d.Update(map[int]string{tree: fmt.Sprintf("<< /Type /Pages /Kids [%s %s] /Count 2 /Rotate 90 >>", ref(o.Pages[0]), ref(o.Pages[1]))}, 0)
			d.Update(map[int]string{o.Catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s >>", ref(tree))}, 0)
		},
	}
	for name, build := range docs {
		t.Run(name, func(t *testing.T) {
			d := fixture.New(2)
			build(d)
			data := d.Bytes()
			final, err := pdf.Open(data)
			if err != nil {
				t.Fatal(err)
			}
			later, err := viewOf(final, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, end := range final.Revisions() {
				fresh, err := pdf.OpenExact(data[:end])
				if err != nil {
					t.Fatal(err)
				}
				want, err := viewOf(fresh, nil)
				if err != nil {
					t.Fatal(err)
				}
				shared, err := final.Revision(end)
				if err != nil {
					t.Fatal(err)
				}
				got, err := viewOf(shared, &later)
				if err != nil {
					t.Fatal(err)
				}
				if fmt.Sprint(got.prints) != fmt.Sprint(want.prints) || fmt.Sprint(got.extras) != fmt.Sprint(want.extras) {
					t.Errorf("revision of %d bytes: reused and fresh views differ", end)
				}
			}
		})
	}
}
