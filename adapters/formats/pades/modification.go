package pades

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
)

// pageView is what a revision shows of its pages: enough to tell whether
// a later incremental update changed what was signed.
type pageView struct {
	// contents identifies each page's content: the content streams'
	// object numbers and the offsets they were written at, so that a
	// stream rewritten under the same number counts as changed.
	contents []string
	// annots counts each page's annotations other than signature fields.
	annots []int
}

// viewOf reads the pages of f.
func viewOf(f *pdf.File) (pageView, error) {
	pages, err := f.Pages(MaxPages)
	if err != nil {
		return pageView{}, err
	}
	var v pageView
	for _, p := range pages {
		v.contents = append(v.contents, contentID(f, p.Dict["Contents"]))
		annots, _ := f.Array(p.Dict["Annots"])
		n := 0
		for _, a := range annots {
			ad, err := f.Dict(a)
			if err != nil || ad == nil {
				continue
			}
			if ft := ad.NameEntry("FT"); ft != nil && *ft == "Sig" {
				continue
			}
			n++
		}
		v.annots = append(v.annots, n)
	}
	return v, nil
}

// contentID names a page's /Contents: each stream's object number and
// where it was written, or the printed value of a direct one.
func contentID(f *pdf.File, o types.Object) string {
	var refs []types.IndirectRef
	switch c := o.(type) {
	case types.IndirectRef:
		if arr, err := f.Array(c); err == nil && arr != nil {
			for _, e := range arr {
				if r, ok := e.(types.IndirectRef); ok {
					refs = append(refs, r)
				}
			}
		}
		// The array object rewritten counts as well.
		refs = append(refs, c)
	case types.Array:
		for _, e := range c {
			if r, ok := e.(types.IndirectRef); ok {
				refs = append(refs, r)
			}
		}
	case nil:
		return ""
	default:
		return c.String()
	}
	var b []byte
	for _, r := range refs {
		n := r.ObjectNumber.Value()
		at := f.Where(n)
		b = strconv.AppendInt(append(b, ' '), int64(n), 10)
		b = strconv.AppendInt(append(b, '@'), at.Offset, 10)
		b = strconv.AppendInt(append(b, '.'), int64(at.Index), 10)
	}
	return string(b)
}

// modifications compares the revision a signature covers, data[:end],
// with the final document final, and reports what the later updates
// changed (ETSI EN 319 142-1, 5.4; ISO 32000-2, 12.8.2.2): pages added or
// removed and content changed on a signed page are format failures (the
// signed document is not the one shown); annotations added are warnings.
// Updates that add signatures, document time-stamps or validation data
// touch none of these.
func modifications(data []byte, end int, final pageView) []ades.Problem {
	if end <= 0 || end >= len(data) || len(bytes.TrimSpace(data[end:])) == 0 {
		return nil // the signature covers the whole document
	}
	signed, err := pdf.Open(data[:end])
	if err != nil {
		return []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the revision the signature covers (the first %d bytes) does not read: %v", end, err)}}
	}
	was, err := viewOf(signed)
	if err != nil {
		return []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the pages of the signed revision do not read: %v", err)}}
	}
	var out []ades.Problem
	if len(final.contents) != len(was.contents) {
		out = append(out, ades.Problem{Code: CodePagesChanged, Message: fmt.Sprintf(
			"the document has %d pages, the revision the signature covers %d: pages were added or removed after signing", len(final.contents), len(was.contents))})
	}
	for i := range min(len(was.contents), len(final.contents)) {
		if was.contents[i] != final.contents[i] {
			out = append(out, ades.Problem{Code: CodePageContentChanged, Message: fmt.Sprintf("the content of page %d was changed after signing", i+1)})
			break
		}
	}
	for i := range min(len(was.annots), len(final.annots)) {
		if final.annots[i] > was.annots[i] {
			out = append(out, ades.Problem{Code: CodeAnnotationsAdded, Message: fmt.Sprintf(
				"annotations were added to page %d after signing (%d, then %d)", i+1, was.annots[i], final.annots[i])})
			break
		}
	}
	return slices.Clip(out)
}
