package pades_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
)

// TestChangesThroughNewObjects applies, after a signature, the updates of
// the shadow and incremental-saving attacks that point the document at
// new objects instead of rewriting signed ones, and the disguises of
// annotations; each must be reported with what it changed. Before the
// pages were compared by value (pageprint.go) and signature widgets were
// taken from the form alone, every row but the last passed unseen.
func TestChangesThroughNewObjects(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	text := func(s string) string {
		return fixture.Stream("", "BT /F1 18 Tf 72 720 Td ("+s+") Tj ET")
	}
	pageDict := func(o fixture.Objects, parent int, resources, extra string) string {
		return fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources %s /Contents %s%s >>",
			fixture.Ref(parent), resources, fixture.Ref(o.Contents[0]), extra)
	}
	fonts := func(font int) string { return fmt.Sprintf("<< /Font << /F1 %s >> >>", fixture.Ref(font)) }
	// shadow is the object number of the hidden content a document was
	// prepared with: allocated once per document.
	shadows := map[*fixture.Document]int{}
	shadow := func(d *fixture.Document) int {
		if _, ok := shadows[d]; !ok {
			shadows[d] = d.Alloc()
		}
		return shadows[d]
	}
	tests := []struct {
		name    string
		before  func(d *fixture.Document) // the document's own content, before the signature
		attack  func(d *fixture.Document)
		code    string
		message string // a part of the message naming the change
	}{
		{"a new page object reusing the signed content with another font", nil, func(d *fixture.Document) { d.RepageWithFont("Courier") },
			pades.CodePageContentChanged, "page 1's /Resources"},
		{"the page moved under a node that rotates it", nil, func(d *fixture.Document) { d.NestUnderNode("/Rotate 90") },
			pades.CodePageContentChanged, "page 1's /Rotate"},
		{"a new /Root and page tree whose page crops the signed content", nil, func(d *fixture.Document) {
			o := d.Objects()
			catalog, tree, page := d.Alloc(), d.Alloc(), d.Alloc()
			d.Update(map[int]string{
				catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s] /SigFlags 3 >> >>", fixture.Ref(tree), fixture.Ref(o.Fields[0])),
				tree:    fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", fixture.Ref(page)),
				page:    pageDict(o, tree, fonts(o.Font), fmt.Sprintf(" /CropBox [0 0 300 300] /Annots [%s]", fixture.Ref(o.Fields[0]))),
			}, catalog)
		}, pades.CodePageContentChanged, "page 1's /CropBox"},
		{"a new page object with other content", nil, func(d *fixture.Document) {
			o := d.Objects()
			content, page := d.Alloc(), d.Alloc()
			d.Update(map[int]string{
				content:    text("Pay 900 EUR"),
				page:       strings.Replace(pageDict(o, o.PageTree, fonts(o.Font), ""), fixture.Ref(o.Contents[0]), fixture.Ref(content), 1),
				o.PageTree: fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count 1 >>", fixture.Ref(page)),
			}, 0)
		}, pades.CodePageContentChanged, "page 1's /Contents"},
		{"shadow content prepared before signing, swapped in after (hide-and-replace)", func(d *fixture.Document) {
			// The signed revision holds the shadow stream, drawn by nothing.
			d.Update(map[int]string{shadow(d): text("Pay 900 EUR")}, 0)
		}, func(d *fixture.Document) {
			o := d.Objects()
			d.Update(map[int]string{o.Pages[0]: strings.Replace(pageDict(o, o.PageTree, fonts(o.Font), fmt.Sprintf(" /Annots [%s]", fixture.Ref(o.Fields[0]))),
				fixture.Ref(o.Contents[0]), fixture.Ref(shadow(d)), 1)}, 0)
		}, pades.CodePageContentChanged, "page 1's /Contents"},
		{"the catalog pointed at a page tree prepared before signing that rotates the page", func(d *fixture.Document) {
			o := d.Objects()
			d.Update(map[int]string{shadow(d): fmt.Sprintf("<< /Type /Pages /Kids [%s %s] /Count 2 /Rotate 90 >>", fixture.Ref(o.Pages[0]), fixture.Ref(o.Pages[1]))}, 0)
		}, func(d *fixture.Document) {
			o := d.Objects()
			d.Update(map[int]string{
				o.Catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s] /SigFlags 3 >> >>", fixture.Ref(shadow(d)), fixture.Ref(o.Fields[0])),
			}, 0)
		}, pades.CodePageContentChanged, "page 1's /Rotate"},
		{"a hidden form field with a script added", nil, func(d *fixture.Document) {
			o := d.Objects()
			field := d.Alloc()
			d.Update(map[int]string{
				field:     "<< /FT /Tx /T (hidden) /V (x) /AA << /K << /S /JavaScript /JS (app.alert\\(1\\)) >> >> >>",
				o.Catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s %s] /SigFlags 3 >> >>", fixture.Ref(o.PageTree), fixture.Ref(o.Fields[0]), fixture.Ref(field)),
			}, 0)
		}, pades.CodeObjectsChanged, "form fields added: hidden"},
		{"an XFA form added (shown instead of the pages by some viewers)", nil, func(d *fixture.Document) {
			o := d.Objects()
			xfa := d.Alloc()
			d.Update(map[int]string{
				xfa:       fixture.Stream("", "<xdp:xdp xmlns:xdp=\"http://ns.adobe.com/xdp/\"/>"),
				o.Catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s] /SigFlags 3 /XFA %s >> >>", fixture.Ref(o.PageTree), fixture.Ref(o.Fields[0]), fixture.Ref(xfa)),
			}, 0)
		}, pades.CodeObjectsChanged, "the form's /XFA"},
		{"optional content configured in the catalog", nil, func(d *fixture.Document) {
			// What each page shows depends on which layers are on.
			o := d.Objects()
			ocg := d.Alloc()
			d.Update(map[int]string{
				ocg: "<< /Type /OCG /Name (layer) >>",
				o.Catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s] /SigFlags 3 >> /OCProperties << /OCGs [%s] /D << /OFF [%s] >> >> >>",
					fixture.Ref(o.PageTree), fixture.Ref(o.Fields[0]), fixture.Ref(ocg), fixture.Ref(ocg)),
			}, 0)
		}, pades.CodePageContentChanged, "the catalog's /OCProperties"},
		{"an overlay disguised as a signature widget", nil, func(d *fixture.Document) { d.DisguiseOverlay() },
			pades.CodeShownAnnotationsChanged, "added after signing, on page 1 (1)"},
		{"a new empty signature field over the text", nil, func(d *fixture.Document) {
			o := d.Objects()
			ap, field := d.Alloc(), d.Alloc()
			d.Update(map[int]string{
				ap:         fixture.Stream("/Type /XObject /Subtype /Form /BBox [0 0 300 40]", "1 1 1 rg 0 0 300 40 re f"),
				field:      fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Sig /T (Empty) /Rect [60 700 360 740] /AP << /N %s >> /P %s >>", fixture.Ref(ap), fixture.Ref(o.Pages[0])),
				o.Pages[0]: pageDict(o, o.PageTree, fonts(o.Font), fmt.Sprintf(" /Annots [%s %s]", fixture.Ref(o.Fields[0]), fixture.Ref(field))),
				o.Catalog:  fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s %s] /SigFlags 3 >> >>", fixture.Ref(o.PageTree), fixture.Ref(o.Fields[0]), fixture.Ref(field)),
			}, 0)
		}, pades.CodeShownAnnotationsChanged, "added after signing, on page 1 (1)"},
		{"a covering annotation removed", func(d *fixture.Document) { d.AddAnnotation() }, func(d *fixture.Document) { d.RemoveAnnotations() },
			pades.CodeShownAnnotationsChanged, "removed after signing, on page 1 (1)"},
		{"a link added (draws nothing)", nil, func(d *fixture.Document) {
			o := d.Objects()
			link := d.Alloc()
			d.Update(map[int]string{
				link:       "<< /Type /Annot /Subtype /Link /Rect [60 700 360 740] /Border [0 0 0] /A << /S /URI /URI (https://example.org/) >> >>",
				o.Pages[0]: pageDict(o, o.PageTree, fonts(o.Font), fmt.Sprintf(" /Annots [%s %s]", fixture.Ref(o.Fields[0]), fixture.Ref(link))),
			}, 0)
		}, pades.CodeAnnotationsAdded, "draw nothing (links, hidden ones) were added after signing, on page 1 (1)"},
		{"a hidden square added", nil, func(d *fixture.Document) {
			o := d.Objects()
			sq := d.Alloc()
			d.Update(map[int]string{
				sq:         "<< /Type /Annot /Subtype /Square /F 2 /Rect [60 700 360 740] /Contents (later) >>",
				o.Pages[0]: pageDict(o, o.PageTree, fonts(o.Font), fmt.Sprintf(" /Annots [%s %s]", fixture.Ref(o.Fields[0]), fixture.Ref(sq))),
			}, 0)
		}, pades.CodeAnnotationsAdded, "on page 1 (1)"},
		{"a covering annotation's appearance rewritten in place", func(d *fixture.Document) { d.AddAnnotation() }, func(d *fixture.Document) {
			// AddAnnotation writes the appearance stream just before the
			// annotation.
			ap := d.Objects().Annots[0] - 1
			d.Update(map[int]string{ap: fixture.Stream("/Type /XObject /Subtype /Form /BBox [0 0 300 40]", "1 1 1 rg 0 0 300 40 re f BT /F1 18 Tf 12 12 Td (Pay 900 EUR) Tj ET")}, 0)
		}, pades.CodeShownAnnotationsChanged, "which the annotation"},
		{"the signature's appearance rewritten", nil, func(d *fixture.Document) {
			o := d.Objects()
			ap := d.Alloc()
			d.Update(map[int]string{
				ap:          fixture.Stream("/Type /XObject /Subtype /Form /BBox [0 0 200 40]", "BT /F1 12 Tf 0 10 Td (Signed by someone else) Tj ET"),
				o.Fields[0]: fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Sig /T (Signature1) /V %s /Rect [60 60 260 100] /F 132 /P %s /AP << /N %s >> >>", signatureValue(t, d), fixture.Ref(o.Pages[0]), fixture.Ref(ap)),
			}, 0)
		}, pades.CodeAnnotationsChanged, "the widgets of signatures"},
		{"a page action added", nil, func(d *fixture.Document) {
			o := d.Objects()
			d.Update(map[int]string{o.Pages[0]: pageDict(o, o.PageTree, fonts(o.Font), fmt.Sprintf(" /Annots [%s] /AA << /O << /S /JavaScript /JS (app.alert\\(1\\)) >> >>", fixture.Ref(o.Fields[0])))}, 0)
		}, pades.CodeObjectsChanged, "page 1's /AA"},
		{"an open action through a new /Root", nil, func(d *fixture.Document) {
			o := d.Objects()
			catalog := d.Alloc()
			d.Update(map[int]string{
				catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s] /SigFlags 3 >> /OpenAction << /S /JavaScript /JS (app.alert\\(1\\)) >> >>", fixture.Ref(o.PageTree), fixture.Ref(o.Fields[0])),
			}, catalog)
		}, pades.CodeObjectsChanged, "the catalog's /OpenAction"},
	}
	// An undefined change names where the document reaches the object.
	action := 0
	tests = append(tests, struct {
		name    string
		before  func(d *fixture.Document)
		attack  func(d *fixture.Document)
		code    string
		message string
	}{"a page's action rewritten in place", func(d *fixture.Document) {
		o := d.Objects()
		action = d.Alloc()
		d.Update(map[int]string{
			action:     "<< /S /JavaScript /JS (app.alert\\(1\\)) >>",
			o.Pages[1]: fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources %s /Contents %s /AA << /O %s >> >>", fixture.Ref(o.PageTree), fonts(o.Font), fixture.Ref(o.Contents[1]), fixture.Ref(action)),
		}, 0)
	}, func(d *fixture.Document) {
		d.Update(map[int]string{action: "<< /S /JavaScript /JS (this.submitForm\\(\\)) >>"}, 0)
	}, pades.CodeObjectsChanged, "page 2's /AA; object "})
	tests = append(tests, tests[len(tests)-1])
	tests[len(tests)-1].message = "at /Root/Pages/Kids[1]/AA/O"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := fixture.New(2)
			if tt.before != nil {
				tt.before(d)
			}
			if err := d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: signedAt}); err != nil {
				t.Fatal(err)
			}
			if got := read(t, d.Bytes())[0].Problems; len(got) != 0 {
				t.Fatalf("before the attack: %v", got)
			}
			tt.attack(d)
			sigs := read(t, d.Bytes())
			if len(sigs) != 1 {
				t.Fatalf("%d signatures, want the one", len(sigs))
			}
			if !sound(sigs[0]) {
				t.Fatalf("the signature itself does not verify")
			}
			if !hasProblem(sigs[0].Problems, tt.code, tt.message) {
				t.Errorf("problems %v, want %s naming %q", sigs[0].Problems, tt.code, tt.message)
			}
		})
	}
}

// hasProblem reports whether ps holds code with a message containing part.
func hasProblem(ps []ades.Problem, code, part string) bool {
	for _, p := range ps {
		if p.Code == code && strings.Contains(p.Message, part) {
			return true
		}
	}
	return false
}

// signatureValue is the reference to the document's signature dictionary,
// read from its field as the signing update wrote it.
func signatureValue(t *testing.T, d *fixture.Document) string {
	t.Helper()
	data := string(d.Bytes())
	i := strings.Index(data, "/FT /Sig /T (Signature1) /V ")
	if i < 0 {
		t.Fatal("no signature field")
	}
	rest := data[i+len("/FT /Sig /T (Signature1) /V "):]
	return rest[:strings.Index(rest, " R")+2]
}
