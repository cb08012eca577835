package validation_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// Issue 15 end to end: a signed document whose later update swaps the
// page's content and breaks the page tree, or changes what the page shows
// through new objects, is TOTAL_FAILED/FORMAT_FAILURE (not valid with a
// warning); bytes appended after the last %%EOF, or an overlay disguised
// as a signature widget, leave the signature valid with a warning naming
// them.
func TestValidatePAdESAfterSigning(t *testing.T) {
	t.Parallel()
	s := newValidation(t, pki.ReferenceTime)
	p := s.pki.PKI
	swapped := func(d *pades.Document) map[int]string {
		o := d.Objects()
		return map[int]string{o.Contents[0]: pades.Stream("", "BT /F1 24 Tf 72 700 Td (Pay Mallory) Tj ET")}
	}
	tests := []struct {
		name          string
		after         func(d *pades.Document)
		indication    verdict.Indication
		subIndication verdict.SubIndication
		warning       string
	}{
		{"nothing after", func(*pades.Document) {}, "TOTAL_PASSED", "", ""},
		{"content swapped, a kid not a dictionary", func(d *pades.Document) {
			objs := swapped(d)
			o := d.Objects()
			objs[o.PageTree] = fmt.Sprintf("<< /Type /Pages /Kids [%s (kid)] /Count 1 >>", pades.Ref(o.Pages[0]))
			d.Update(objs, 0)
		}, "TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"content swapped, the tree 70 deep", func(d *pades.Document) {
			objs := swapped(d)
			o := d.Objects()
			kid := o.Pages[0]
			for range 70 {
				n := d.Alloc()
				objs[n] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", pades.Ref(kid))
				kid = n
			}
			objs[o.PageTree] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", pades.Ref(kid))
			d.Update(objs, 0)
		}, "TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"an object appended after the last %%EOF", func(d *pades.Document) {
			d.Append([]byte("9 0 obj\n<< /Type /Page >>\nendobj\n"))
		}, "TOTAL_PASSED", "", "PDF_UNSIGNED_TRAILING_CONTENT"},
		// Changes through new objects: what the page shows is compared by
		// value (before, these two came out TOTAL_PASSED with no warning).
		{"a new page object reusing the signed content with another font", func(d *pades.Document) { d.RepageWithFont("Courier") },
			"TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"the page moved under a node that crops it", func(d *pades.Document) { d.NestUnderNode("/CropBox [0 0 200 200]") },
			"TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"an overlay disguised as a signature widget", (*pades.Document).DisguiseOverlay, "TOTAL_FAILED", "FORMAT_FAILURE", ""},
		{"a covering annotation added", (*pades.Document).AddAnnotation, "TOTAL_FAILED", "FORMAT_FAILURE", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			d := pades.New(1)
			is.NoErr(d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: s.at.Add(-time.Hour)}))
			tt.after(d)
			sum, err := validate(s.v, validation.Document{Name: "doc.pdf", Data: d.Bytes()}, s.at)
			is.NoErr(err)
			is.Equal(sum.SignatureCount, 1)
			got := sum.Signatures[0]
			t.Logf("%s %s warnings=%v errors=%v", got.Indication, deref(got.SubIndication), codes(got.Warnings), codes(got.Errors))
			is.Equal(got.Indication, tt.indication)
			is.Equal(deref(got.SubIndication), tt.subIndication)
			if tt.warning != "" {
				is.True(slices.Contains(codes(got.Warnings), tt.warning))
			}
		})
	}
}
