package pades

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
)

// pageView is what a revision shows of its pages: enough to tell whether
// a later incremental update changed what was signed.
type pageView struct {
	// contents identifies each page's content: the content streams'
	// object numbers and where they were written, so that a stream
	// rewritten under the same number counts as changed.
	contents []string
	// annots counts each page's annotations other than signature widgets.
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
			if err != nil || ad == nil || isSignatureWidget(f, ad) {
				continue
			}
			n++
		}
		v.annots = append(v.annots, n)
	}
	return v, nil
}

// isSignatureWidget reports whether the annotation d is the widget of a
// signature field: merged with the field, or its kid.
func isSignatureWidget(f *pdf.File, d types.Dict) bool {
	if ft := d.NameEntry("FT"); ft != nil {
		return *ft == "Sig"
	}
	if st := d.NameEntry("Subtype"); st == nil || *st != "Widget" {
		return false
	}
	parent, err := f.Dict(d["Parent"])
	if err != nil || parent == nil {
		return false
	}
	ft := parent.NameEntry("FT")
	return ft != nil && *ft == "Sig"
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

// changes is what the incremental updates after a signed revision did.
type changes struct {
	problems []ades.Problem
	// filled are the full names of the form fields, other than signature
	// fields, whose value or appearance changed.
	filled []string
	// annotsAdded and annotsChanged: annotations other than signature
	// widgets added to a page, or rewritten.
	annotsAdded, annotsChanged bool
}

// modifications compares the revision a signature covers, data[:end],
// with the final document, and reports what the later updates changed
// (ETSI EN 319 142-1, 5.4; ISO 32000-2, 12.8.2.2). Two comparisons:
//
//   - the pages: pages added or removed, or content changed on a signed
//     page, are format failures (the signed document is not the one
//     shown); annotations added are warnings;
//   - the objects: every object of the signed revision that a later
//     update rewrote is classified by what it is in the signed revision
//     (catalog, page, annotation, form field, validation data, a resource
//     a page shows, or none of these) and judged by that.
//
// Updates that add signatures, document time-stamps or validation data
// rewrite only the catalog's /DSS, /AcroForm and /Extensions, the form,
// signature fields and their widgets, and the /Annots of pages: they pass.
func modifications(data []byte, end int, final *pdf.File, finalView pageView) changes {
	if end <= 0 || end >= len(data) || len(bytes.TrimSpace(data[end:])) == 0 {
		return changes{} // the signature covers the whole document
	}
	signed, err := pdf.Open(data[:end])
	if err != nil {
		return changes{problems: []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the revision the signature covers (the first %d bytes) does not read: %v", end, err)}}}
	}
	was, err := viewOf(signed)
	if err != nil {
		return changes{problems: []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the pages of the signed revision do not read: %v", err)}}}
	}
	var out changes
	if len(finalView.contents) != len(was.contents) {
		out.problems = append(out.problems, ades.Problem{Code: CodePagesChanged, Message: fmt.Sprintf(
			"the document has %d pages, the revision the signature covers %d: pages were added or removed after signing", len(finalView.contents), len(was.contents))})
	}
	contentChanged := false
	for i := range min(len(was.contents), len(finalView.contents)) {
		if was.contents[i] != finalView.contents[i] {
			out.problems = append(out.problems, ades.Problem{Code: CodePageContentChanged, Message: fmt.Sprintf("the content of page %d was changed after signing", i+1)})
			contentChanged = true
			break
		}
	}
	for i := range min(len(was.annots), len(finalView.annots)) {
		if finalView.annots[i] > was.annots[i] {
			out.problems = append(out.problems, ades.Problem{Code: CodeAnnotationsAdded, Message: fmt.Sprintf(
				"annotations were added to page %d after signing (%d, then %d): they may cover signed content", i+1, was.annots[i], finalView.annots[i])})
			out.annotsAdded = true
			break
		}
	}
	c := comparison{signed: signed, final: final, roles: map[int]role{}, page: map[int]int{}, name: map[int]string{}}
	c.mapRoles()
	c.classify(&out, contentChanged)
	out.problems = slices.Clip(out.problems)
	return out
}

// role is what an object is in the signed revision.
type role uint8

const (
	roleNone     role = iota
	roleCatalog       // the document catalog
	rolePageTree      // an intermediate node of the page tree
	rolePage          // a page
	roleAnnots        // a page's /Annots array
	roleAnnot         // an annotation
	roleContent       // a page's content stream or /Contents array
	roleForm          // /AcroForm, its /Fields, a field's /Kids
	roleField         // a form field other than a signature field
	roleSigField      // a signature field
	roleDSS           // the document security store and its dictionaries
	roleMetadata      // the XMP stream and the document information dictionary
)

// comparison is the object comparison of a signed revision and the
// final document.
type comparison struct {
	signed, final *pdf.File
	roles         map[int]role
	page          map[int]int    // the page (from 1) of a page-bound object
	name          map[int]string // the full name of a form field
	resources     map[int]int    // lazily: objects a page shows, by page
	count         int            // objects visited, against MaxWalk
}

// mark records r for o when o is a reference not yet placed.
func (c *comparison) mark(o types.Object, r role) (int, bool) {
	ref, ok := o.(types.IndirectRef)
	if !ok {
		return 0, false
	}
	n := ref.ObjectNumber.Value()
	if _, seen := c.roles[n]; seen {
		return n, false
	}
	c.count++
	if c.count > MaxWalk {
		return n, false
	}
	c.roles[n] = r
	return n, true
}

// mapRoles places the objects of the signed revision: the form first, so
// that a widget merged with its field is the field.
func (c *comparison) mapRoles() {
	f := c.signed
	if r := f.RootRef(); r != nil {
		c.mark(*r, roleCatalog)
	}
	if r := f.InfoRef(); r != nil {
		c.mark(*r, roleMetadata)
	}
	root, err := f.Catalog()
	if err != nil {
		return
	}
	c.mark(root["Metadata"], roleMetadata)
	c.mark(root["AcroForm"], roleForm)
	if form, _ := f.Dict(root["AcroForm"]); form != nil {
		c.mark(form["Fields"], roleForm)
		fields, _ := f.Array(form["Fields"])
		c.fields(fields, "", "", 0)
	}
	c.mark(root["DSS"], roleDSS)
	if dss, _ := f.Dict(root["DSS"]); dss != nil {
		for _, v := range dss {
			c.mark(v, roleDSS)
		}
		if vri, _ := f.Dict(dss["VRI"]); vri != nil {
			for _, e := range vri {
				c.mark(e, roleDSS)
				if d, _ := f.Dict(e); d != nil {
					for _, v := range d {
						c.mark(v, roleDSS)
					}
				}
			}
		}
	}
	c.pages(root["Pages"], 0)
}

// fields places a level of the field tree.
func (c *comparison) fields(kids types.Array, parentName, ft string, depth int) {
	if depth > MaxFieldDepth {
		return
	}
	for _, k := range kids {
		d, _ := c.signed.Dict(k)
		if d == nil {
			continue
		}
		kft := ft
		if n := d.NameEntry("FT"); n != nil {
			kft = *n
		}
		name := parentName
		if t := fieldName(d); t != "" {
			name = strings.TrimPrefix(parentName+"."+t, ".")
		}
		r := roleField
		if kft == "Sig" {
			r = roleSigField
		}
		n, fresh := c.mark(k, r)
		if !fresh && n != 0 {
			continue // a cycle
		}
		if n != 0 {
			c.name[n] = name
		}
		c.mark(d["Kids"], roleForm)
		sub, _ := c.signed.Array(d["Kids"])
		c.fields(sub, name, kft, depth+1)
	}
}

// pages places the page tree, its pages and what they hold.
func (c *comparison) pages(o types.Object, depth int) {
	if depth > pdf.MaxDepth {
		return
	}
	d, _ := c.signed.Dict(o)
	if d == nil {
		return
	}
	if t := d.Type(); (t != nil && *t == "Pages") || (t == nil && d["Kids"] != nil) {
		if _, fresh := c.mark(o, rolePageTree); !fresh {
			if _, isRef := o.(types.IndirectRef); isRef {
				return
			}
		}
		kids, _ := c.signed.Array(d["Kids"])
		for _, k := range kids {
			c.pages(k, depth+1)
		}
		return
	}
	page := len(c.page) + 1
	if n, fresh := c.mark(o, rolePage); fresh {
		c.page[n] = page
	}
	if n, ok := c.mark(d["Annots"], roleAnnots); ok {
		c.page[n] = page
	}
	annots, _ := c.signed.Array(d["Annots"])
	for _, a := range annots {
		if n, ok := c.mark(a, roleAnnot); ok {
			c.page[n] = page
		}
	}
	c.mark(d["Contents"], roleContent)
	contents, _ := c.signed.Array(d["Contents"])
	for _, s := range contents {
		c.mark(s, roleContent)
	}
}

// Keys of the catalog that updates adding signatures and validation data
// rewrite (ISO 32000-2, 12.7.2 and 12.8; ETSI EN 319 142-1, 5.4), with
// /Pages, whose pages are compared one by one; and the keys of pages and
// page tree nodes that change what a page shows (ISO 32000-2, 7.7.3.3).
// Any other catalog change (/OpenAction, /Names, /Perms...) is reported.
var (
	catalogUpdates = []string{"AcroForm", "DSS", "Extensions", "Metadata", "Version", "Pages"}
	pageShows      = []string{"Contents", "Resources", "MediaBox", "CropBox", "Rotate", "UserUnit", "Group"}
)

// classify judges every object of the signed revision that a later update
// rewrote or freed.
func (c *comparison) classify(out *changes, contentChanged bool) {
	var rewritten []int
	for _, n := range c.signed.Numbers() {
		if c.signed.Where(n) != c.final.Where(n) {
			rewritten = append(rewritten, n)
		}
	}
	slices.Sort(rewritten)
	var other []string
	var shown []string
	var unplaced []int
	for _, n := range rewritten {
		was, _ := c.signed.Resolve(indirect(n))
		now, _ := c.final.Resolve(indirect(n))
		switch c.roles[n] {
		case roleCatalog:
			if keys := changedKeys(was, now, catalogUpdates); len(keys) > 0 {
				other = append(other, "the catalog's "+strings.Join(keys, ", "))
			}
		case rolePageTree:
			if keys := changedKeys(was, now, nil); len(intersect(keys, pageShows)) > 0 {
				shown = append(shown, fmt.Sprintf("a page tree node's %s (inherited by its pages)", strings.Join(intersect(keys, pageShows), ", ")))
			}
		case rolePage:
			// /Contents is compared above, by page.
			if keys := intersect(changedKeys(was, now, []string{"Contents"}), pageShows); len(keys) > 0 {
				shown = append(shown, fmt.Sprintf("page %d's %s", c.page[n], strings.Join(keys, ", ")))
			}
		case roleAnnot:
			d, _ := c.final.Dict(indirect(n))
			switch {
			case d != nil && isSignatureWidget(c.final, d):
			case d != nil && isWidget(d):
				out.filled = append(out.filled, c.fieldOf(d))
			default:
				out.annotsChanged = true
			}
		case roleField:
			out.filled = append(out.filled, c.name[n])
		case roleSigField, roleAnnots, roleForm, roleDSS, roleMetadata, roleContent:
		default:
			unplaced = append(unplaced, n)
		}
	}
	if len(unplaced) > 0 {
		res := c.shownByPages()
		for _, n := range unplaced {
			if p, ok := res[n]; ok {
				shown = append(shown, fmt.Sprintf("object %d%s, which page %d shows", n, describe(c.signed, n), p))
			} else {
				other = append(other, fmt.Sprintf("object %d%s", n, describe(c.signed, n)))
			}
		}
	}
	if len(shown) > 0 && !contentChanged {
		out.problems = append(out.problems, ades.Problem{Code: CodePageContentChanged, Message: "what a signed page shows was changed after signing: " + list(shown)})
	}
	if len(out.filled) > 0 {
		out.filled = slices.Compact(slices.Sorted(slices.Values(out.filled)))
		out.problems = append(out.problems, ades.Problem{Code: CodeFormFieldsChanged, Message: "form fields were filled in or changed after signing: " + list(out.filled)})
	}
	if out.annotsChanged {
		out.problems = append(out.problems, ades.Problem{Code: CodeAnnotationsChanged, Message: "annotations of the signed revision were changed or removed after signing"})
	}
	if len(other) > 0 {
		out.problems = append(out.problems, ades.Problem{Code: CodeObjectsChanged, Message: "objects of the signed revision that are no page, form field, annotation or validation data were changed after signing: " + list(other)})
	}
}

// shownByPages is every object the signed pages draw with: their
// resources, inherited ones included, and all these reach (fonts, images,
// form XObjects and their own resources), by the first page that shows
// it. It is walked only when an update rewrote an object nothing else
// accounts for.
func (c *comparison) shownByPages() map[int]int {
	if c.resources != nil {
		return c.resources
	}
	c.resources = map[int]int{}
	pages, err := c.signed.Pages(MaxPages)
	if err != nil {
		return c.resources
	}
	for i, p := range pages {
		c.reach(p.Dict["Resources"], i+1, 0)
		// Resources inherited from the page tree.
		parent := p.Dict["Parent"]
		for range pdf.MaxDepth {
			d, _ := c.signed.Dict(parent)
			if d == nil {
				break
			}
			c.reach(d["Resources"], i+1, 0)
			parent = d["Parent"]
		}
	}
	return c.resources
}

// reach records what o reaches, down the resource graph.
func (c *comparison) reach(o types.Object, page, depth int) {
	if depth > pdf.MaxDepth || len(c.resources) > MaxWalk {
		return
	}
	if ref, ok := o.(types.IndirectRef); ok {
		n := ref.ObjectNumber.Value()
		if _, seen := c.resources[n]; seen {
			return
		}
		c.resources[n] = page
	}
	v, err := c.signed.Resolve(o)
	if err != nil {
		return
	}
	switch v := v.(type) {
	case types.Dict:
		c.reachDict(v, page, depth)
	case types.StreamDict:
		c.reachDict(v.Dict, page, depth)
	case types.Array:
		for _, e := range v {
			c.reach(e, page, depth+1)
		}
	}
}

func (c *comparison) reachDict(d types.Dict, page, depth int) {
	for k, e := range d {
		if k == "Parent" || k == "P" {
			continue // up the tree, not into what is drawn
		}
		c.reach(e, page, depth+1)
	}
}

// fieldOf is the full name of the field a widget belongs to.
func (c *comparison) fieldOf(widget types.Dict) string {
	if r, ok := widget["Parent"].(types.IndirectRef); ok {
		if name, ok := c.name[r.ObjectNumber.Value()]; ok {
			return name
		}
	}
	return fieldName(widget)
}

func isWidget(d types.Dict) bool {
	st := d.NameEntry("Subtype")
	return st != nil && *st == "Widget"
}

func indirect(n int) types.IndirectRef { return *types.NewIndirectRef(n, 0) }

// changedKeys lists the keys whose values differ between the dictionaries
// (or streams' dictionaries) a and b, but for those in except.
func changedKeys(a, b types.Object, except []string) []string {
	da, db := dictOf(a), dictOf(b)
	var keys []string
	for k, v := range da {
		if w, ok := db[k]; !ok || !sameValue(v, w) {
			keys = append(keys, "/"+k)
		}
	}
	for k := range db {
		if _, ok := da[k]; !ok {
			keys = append(keys, "/"+k)
		}
	}
	keys = slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(except, k[1:]) })
	slices.Sort(keys)
	return keys
}

func dictOf(o types.Object) types.Dict {
	switch d := o.(type) {
	case types.Dict:
		return d
	case types.StreamDict:
		return d.Dict
	}
	return nil
}

func sameValue(a, b types.Object) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.PDFString() == b.PDFString()
}

func intersect(keys, names []string) []string {
	var out []string
	for _, k := range keys {
		if slices.Contains(names, k[1:]) {
			out = append(out, k)
		}
	}
	return out
}

// describe names what object n is: its /Type or /Subtype.
func describe(f *pdf.File, n int) string {
	d, _ := f.Dict(indirect(n))
	for _, k := range []string{"Type", "Subtype"} {
		if t := d.NameEntry(k); t != nil {
			return " (/" + *t + ")"
		}
	}
	return ""
}

// list joins at most five items, saying how many more there are.
func list(items []string) string {
	if len(items) <= 5 {
		return strings.Join(items, "; ")
	}
	return fmt.Sprintf("%s; and %d more", strings.Join(items[:5], "; "), len(items)-5)
}
