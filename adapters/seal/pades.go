package seal

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/cmssign"
	"github.com/svc-dss/dss/adapters/formats/pdf"
)

// ContentsCapacity is the room reserved for the CMS in /Contents: a
// signature, three certificates and a time-stamp token with the unit's
// chain take some 6 KiB.
const ContentsCapacity = 16 << 10

// maxPages bounds the page walk that finds the first page.
const maxPages = 1 << 16

// byteRangeWidth is the room of /ByteRange's four numbers; the file's
// length fits ten digits.
const byteRangeWidth = 4*10 + 3

// fieldName is the default signature field's name (/T).
const fieldName = "Validator seal"

// PDF returns doc with the seal's signature added as an incremental
// update on its first page: invisible (a widget of no size, hidden and
// locked), the document's only form field. The document must have
// neither a form nor encryption: the seal signs the reports it renders.
func (s *Seal) PDF(ctx context.Context, doc []byte) ([]byte, error) {
	u, err := readUpdate(doc)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	sigN, fieldN := u.size, u.size+1
	fieldRef := *types.NewIndirectRef(fieldN, 0)
	u.catalog["AcroForm"] = types.Dict{"Fields": types.Array{fieldRef}, "SigFlags": types.Integer(3)}
	annots, _ := u.page["Annots"].(types.Array)
	u.page["Annots"] = append(slices.Clone(annots), fieldRef)

	var b bytes.Buffer
	b.Write(doc)
	if !bytes.HasSuffix(doc, []byte("\n")) {
		b.WriteByte('\n')
	}
	offsets := map[int]int{}
	object := func(n int, body string) {
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	object(u.catalogN, u.catalog.PDFString())
	object(u.pageN, u.page.PDFString())

	at := s.now().UTC().Truncate(time.Second)
	head := fmt.Sprintf("%d 0 obj\n<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M (%s) /Name %s /ByteRange [",
		sigN, pdfDate(at), textString(s.Certificate().Subject.CommonName))
	offsets[sigN] = b.Len()
	b.WriteString(head)
	rangeAt := b.Len()
	b.WriteString(strings.Repeat(" ", byteRangeWidth) + "] /Contents ")
	contentsAt := b.Len()
	b.WriteString("<" + strings.Repeat("0", 2*ContentsCapacity) + ">")
	contentsEnd := b.Len()
	b.WriteString(" >>\nendobj\n")
	object(fieldN, fmt.Sprintf("<< /Type /Annot /Subtype /Widget /FT /Sig /T %s /V %d 0 R /Rect [0 0 0 0] /F 132 /P %d 0 R >>",
		textString(s.field), sigN, u.pageN))

	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	ns := slices.Sorted(func(yield func(int) bool) {
		for n := range offsets {
			if !yield(n) {
				return
			}
		}
	})
	for _, n := range ns {
		fmt.Fprintf(&b, "%d 1\n%010d 00000 n \n", n, offsets[n])
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R /Prev %d%s >>\nstartxref\n%d\n%%%%EOF\n", fieldN+1, u.catalogN, u.prev, u.info, xref)

	out := b.Bytes()
	ranges := fmt.Sprintf("0 %d %d %d", contentsAt, contentsEnd, len(out)-contentsEnd)
	copy(out[rangeAt:], ranges)
	signed := slices.Concat(out[:contentsAt], out[contentsEnd:])
	signer := cmssign.Signer{Certificate: s.Certificate(), Chain: s.chain[1:], Key: s.key, PSS: s.pss}
	if s.tsa != nil {
		signer.Timestamp = s.tsa.Timestamp
	}
	der, err := cmssign.SignDetached(ctx, signed, signer)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	if len(der) > ContentsCapacity {
		return nil, fmt.Errorf("seal: a CMS of %d bytes does not fit the %d reserved", len(der), ContentsCapacity)
	}
	hex.Encode(out[contentsAt+1:], der)
	return out, nil
}

// An update is what an incremental update of a document starts from.
type update struct {
	catalogN, pageN int
	catalog, page   types.Dict
	// size is the trailer's /Size: the first free object number.
	size int
	// prev is the offset of the last cross-reference section.
	prev int
	// info is the trailer's /Info entry, " /Info n 0 R", or "".
	info string
}

// startxref finds the last cross-reference offset. Compiled on first use:
// the validator links this package, and a pattern compiled at package
// initialisation costs each of its commands' starts (docs/decisions/0044).
var startxref = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`startxref\s+(\d+)\s+%%EOF\s*$`) })

// readUpdate reads what an update of doc needs: the catalog, the first
// page, the next object number and the last cross-reference section.
func readUpdate(doc []byte) (update, error) {
	f, err := pdf.OpenExact(doc)
	if err != nil {
		return update{}, err
	}
	if f.Repaired() {
		return update{}, fmt.Errorf("the PDF's cross-reference data does not hold")
	}
	m := startxref().FindSubmatch(doc[max(0, len(doc)-1024):])
	if m == nil {
		return update{}, fmt.Errorf("the PDF does not end with startxref and %%%%EOF")
	}
	prev, err := strconv.Atoi(string(m[1]))
	if err != nil {
		return update{}, fmt.Errorf("startxref %q: %w", m[1], err)
	}
	root := f.RootRef()
	if root == nil {
		return update{}, fmt.Errorf("the catalog is not an indirect object")
	}
	catalog, err := f.Catalog()
	if err != nil {
		return update{}, err
	}
	if _, ok := catalog["AcroForm"]; ok {
		return update{}, fmt.Errorf("the PDF has a form already: the seal signs the reports it renders")
	}
	pages, err := f.Pages(maxPages)
	if err != nil {
		return update{}, err
	}
	if len(pages) == 0 || pages[0].Ref == nil {
		return update{}, fmt.Errorf("the PDF has no first page to hold the seal's field")
	}
	u := update{catalogN: root.ObjectNumber.Value(), catalog: catalog.Clone().(types.Dict),
		pageN: pages[0].Ref.ObjectNumber.Value(), page: pages[0].Dict.Clone().(types.Dict), prev: prev}
	if annots, ok := u.page["Annots"]; ok {
		a, err := f.Array(annots)
		if err != nil {
			return update{}, err
		}
		u.page["Annots"] = a
	}
	for _, n := range f.Numbers() {
		u.size = max(u.size, n+1)
	}
	if info := f.InfoRef(); info != nil {
		u.info = " /Info " + info.PDFString()
	}
	return u, nil
}

// pdfDate writes t as a PDF date (ISO 32000-2, 7.9.4), in UTC.
func pdfDate(t time.Time) string { return t.UTC().Format("D:20060102150405Z") }

// textString writes s as a PDF text string: UTF-16BE with its byte order
// mark, in hex, so that no character needs escaping (ISO 32000-2, 7.9.2.2).
func textString(s string) string {
	var b strings.Builder
	b.WriteString("<FEFF")
	for _, u := range utf16.Encode([]rune(s)) {
		fmt.Fprintf(&b, "%04X", u)
	}
	b.WriteString(">")
	return b.String()
}
