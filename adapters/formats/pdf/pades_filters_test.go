package pdf_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/cades"
	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

// The CCITTFaxDecode stream of the finding (issue 17), on which pdfcpu
// decodes for ever, where the PAdES reader decodes streams: an appearance
// added after signing, and a certificate of the DSS. Each is read at once
// (run under go test -timeout 30s): the appearance, which does not
// decode, is taken to draw (the conservative answer), the DSS entry is
// unreadable. An appearance that decodes to nothing draws nothing, so the
// answer is the filter's.
func TestPAdESReaderOnCCITTFaxStreams(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://pki.test")
	if err != nil {
		t.Fatal(err)
	}
	const ccitt = "/Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns 0 /Rows -89 >>"
	stream := func(dict, data string) string {
		return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
	}
	annotation := func(appearance string) func(d *fixture.Document) {
		return func(d *fixture.Document) {
			o := d.Objects()
			ap, sq := d.Alloc(), d.Alloc()
			d.Update(map[int]string{
				ap: appearance,
				sq: fmt.Sprintf("<< /Type /Annot /Subtype /Square /Rect [60 700 360 740] /AP << /N %s >> >>", fixture.Ref(ap)),
				o.Pages[0]: fmt.Sprintf("<< /Type /Page /Parent %s /MediaBox [0 0 595 842] /Resources << /Font << /F1 %s >> >> /Contents %s /Annots [%s %s] >>",
					fixture.Ref(o.PageTree), fixture.Ref(o.Font), fixture.Ref(o.Contents[0]), fixture.Ref(o.Fields[0]), fixture.Ref(sq)),
			}, 0)
		}
	}
	form := "/Type /XObject /Subtype /Form /BBox [0 0 300 40] "
	for _, tt := range []struct {
		name   string
		update func(d *fixture.Document)
		code   string
		part   string // of the problem's message
	}{
		{"an appearance of CCITTFaxDecode draws", annotation(stream(form+ccitt, "\x00\x00\x00\x00")),
			pades.CodeShownAnnotationsChanged, "page 1"},
		{"an empty appearance draws nothing", annotation(stream(form, "")),
			pades.CodeAnnotationsAdded, "page 1"},
		{"a DSS certificate of CCITTFaxDecode is unreadable", func(d *fixture.Document) {
			o := d.Objects()
			cert := d.Alloc()
			d.Update(map[int]string{
				cert: stream(ccitt, "\x00\x00\x00\x00"),
				o.Catalog: fmt.Sprintf("<< /Type /Catalog /Pages %s /AcroForm << /Fields [%s] /SigFlags 3 >> /DSS << /Certs [%s] >> >>",
					fixture.Ref(o.PageTree), fixture.Ref(o.Fields[0]), fixture.Ref(cert)),
			}, 0)
		}, pades.CodeDSSUnreadable, "CCITTFaxDecode"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := fixture.New(1)
			if err := d.Sign(fixture.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)}); err != nil {
				t.Fatal(err)
			}
			tt.update(d)
			sigs, err := pades.NewReader().Read(context.Background(), ports.Document{Name: "doc.pdf", Data: d.Bytes()})
			if err != nil {
				t.Fatal(err)
			}
			if len(sigs) != 1 {
				t.Fatalf("%d signatures, want the one", len(sigs))
			}
			if !hasProblem(sigs[0].Problems, tt.code, tt.part) {
				t.Fatalf("problems %v, want %s naming %q", sigs[0].Problems, tt.code, tt.part)
			}
		})
	}
}

func hasProblem(ps []ades.Problem, code, part string) bool {
	for _, p := range ps {
		if p.Code == code && strings.Contains(p.Message, part) {
			return true
		}
	}
	return false
}
