package app_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
	"github.com/svc-dss/dss/ports"
)

// What a signed page shows, changed after signing through new objects,
// is a format failure of the signature (decision 0020); an overlay
// disguised as a signature widget, a warning. Before the pages were
// compared by value, the first two came out TOTAL_PASSED with no warning.
func TestPAdESChangesThroughNewObjects(t *testing.T) {
	t.Parallel()
	s := newValidationWith(t, pki.ReferenceTime, tl.EcosystemOptions{})
	p := s.pki.PKI
	tests := []struct {
		name       string
		attack     func(d *pades.Document)
		indication string
		sub        string
		warning    string
	}{
		{"a new page object reusing the signed content with another font", func(d *pades.Document) {
			o := d.Objects()
			font, page := d.Alloc(), d.Alloc()
			d.Update(map[int]string{
				font: "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>",
				page: fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources << /Font << /F1 %s >> >> /Contents %s /Annots [%s] >>",
					pades.Ref(o.PageTree), pades.Ref(font), pades.Ref(o.Contents[0]), pades.Ref(o.Fields[0])),
				o.PageTree: fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", pades.Ref(page)),
			}, 0)
		}, "TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"the page moved under a node that crops it", func(d *pades.Document) {
			o := d.Objects()
			node := d.Alloc()
			d.Update(map[int]string{
				node:       fmt.Sprintf("<< /Type /Pages /Parent %s /Kids [%s] /Count 1 /CropBox [0 0 200 200] >>", pades.Ref(o.PageTree), pades.Ref(o.Pages[0])),
				o.PageTree: fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", pades.Ref(node)),
			}, 0)
		}, "TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"an overlay disguised as a signature widget", func(d *pades.Document) {
			o := d.Objects()
			annot := d.Alloc()
			d.Update(map[int]string{
				annot: fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Sig /Rect [60 700 360 740] /P %s >>", pades.Ref(o.Pages[0])),
				o.Pages[0]: fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources << /Font << /F1 %s >> >> /Contents %s /Annots [%s %s] >>",
					pades.Ref(o.PageTree), pades.Ref(o.Font), pades.Ref(o.Contents[0]), pades.Ref(o.Fields[0]), pades.Ref(annot)),
			}, 0)
		}, "TOTAL_PASSED", "", "PDF_ANNOTATIONS_ADDED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := pades.New(1)
			is.NoErr(d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: s.at.AddDate(0, 0, -1)}))
			tt.attack(d)
			sum, err := s.v.Validate(context.Background(), ports.Document{Name: "doc.pdf", Data: d.Bytes()}, app.ValidateOptions{At: s.at})
			is.NoErr(err)
			r := sum.Signatures[0]
			is.Equal(r.Indication, tt.indication)
			if tt.sub != "" {
				is.Equal(*r.SubIndication, tt.sub)
			}
			if tt.warning != "" {
				found := false
				for _, w := range r.Warnings {
					found = found || w.Code == tt.warning
				}
				is.True(found)
			}
		})
	}
}
