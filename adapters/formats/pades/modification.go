package pades

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
)

// pageView is what a revision shows of its pages: enough to tell whether
// a later incremental update changed what was signed.
type pageView struct {
	// prints is what each page shows (pageprint.go).
	prints []pagePrint
	// annots are each page's annotations, in /Annots order, named by
	// object number (or by value when direct), and as they are written.
	annots    [][]string
	annotObjs [][]types.Object
	// extras digest each page's entries other than what it shows, its
	// annotations and its place in the tree (/AA actions, say), by key.
	extras []map[string][sha256.Size]byte
	// root and pageTree name the catalog and the page tree's root: a new
	// one is a change whatever it holds.
	root, pageTree string
	// printer is what digested the pages, kept for earlier revisions.
	printer *printer
	// form is the revision's AcroForm.
	form form
}

// viewOf reads the pages of f. With the view of a later revision of the
// same document, it reuses what that view digested of the objects the two
// revisions share.
func viewOf(f *pdf.File, later *pageView) (pageView, error) {
	pr := newPrinter(f)
	if later != nil && later.printer != nil {
		pr = later.printer.over(f)
	}
	prints, err := pr.prints(MaxPages)
	if err != nil {
		return pageView{}, err
	}
	pages, err := f.Pages(MaxPages)
	if err != nil {
		return pageView{}, err
	}
	fm := formOf(f)
	v := pageView{prints: prints, form: fm, printer: pr}
	if r := f.RootRef(); r != nil {
		v.root = r.String()
	}
	if root, err := f.Catalog(); err == nil && root["Pages"] != nil {
		v.pageTree = root["Pages"].String()
	}
	for i, p := range pages {
		annots, _ := f.Array(p.Dict["Annots"])
		ids := make([]string, 0, len(annots))
		for _, a := range annots {
			ids = append(ids, annotID(a))
		}
		v.annots = append(v.annots, ids)
		v.annotObjs = append(v.annotObjs, annots)
		if p.Ref != nil && pr.reusable(i, p.Ref.ObjectNumber.Value()) {
			v.extras = append(v.extras, later.extras[i])
			continue
		}
		extra := map[string][sha256.Size]byte{}
		// What these entries reach is reached from the page, so that an
		// earlier revision reuses them only where nothing was rewritten.
		pr.stack = append(pr.stack[:0], pageID(i))
		for k, e := range p.Dict {
			if slices.Contains(pageShows, k) || slices.Contains(pageBookkeeping, k) {
				continue
			}
			d, err := pr.digest(e, 0)
			if err != nil {
				return pageView{}, err
			}
			extra[k] = d
		}
		pr.stack = pr.stack[:0]
		v.extras = append(v.extras, extra)
	}
	return v, nil
}

// pageBookkeeping are the page entries that neither show anything nor act:
// its place in the tree, its annotations (compared one by one) and the
// bookkeeping writers rewrite freely.
var pageBookkeeping = []string{"Type", "Parent", "Annots", "StructParents", "Tabs", "PieceInfo", "LastModified", "Metadata"}

// changedEntries names the keys whose digests differ between a and b.
func changedEntries(a, b map[string][sha256.Size]byte) []string {
	var keys []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			keys = append(keys, "/"+k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, "/"+k)
		}
	}
	slices.Sort(keys)
	return keys
}

// missing lists the entries of a that b lacks, as multisets.
func missing(a, b []string) []string {
	have := map[string]int{}
	for _, id := range b {
		have[id]++
	}
	var out []string
	for _, id := range a {
		if have[id] > 0 {
			have[id]--
			continue
		}
		out = append(out, id)
	}
	return out
}

// showing counts the annotations of page i of v, named by ids, that draw
// on the page (annotationShows).
func (v pageView) showing(i int, ids []string) int {
	n := 0
	for _, id := range ids {
		if j := slices.Index(v.annots[i], id); j >= 0 && annotationShows(v.printer.f, v.annotObjs[i][j]) {
			n++
		}
	}
	return n
}

// annotID names an entry of /Annots: its object, or its value when
// direct.
func annotID(o types.Object) string {
	if o == nil {
		return "null"
	}
	if r, ok := o.(types.IndirectRef); ok {
		return r.String()
	}
	return o.PDFString()
}

// form is what a revision's AcroForm holds.
type form struct {
	// sigWidgets are the widgets of the signature fields (ISO 32000-2,
	// 12.7.5.5), by object: the field itself when merged with its widget,
	// else its widget kids; true when the field holds a signature (its /V
	// a signature or document time-stamp dictionary). Nothing else is a
	// signature widget: an annotation calling itself /FT /Sig outside the
	// form is an annotation.
	sigWidgets map[string]bool
	// fields are the terminal fields by object, each with its full name
	// and whether it is a signature field.
	fields map[string]formField
	// dict is the AcroForm dictionary itself.
	dict types.Dict
}

type formField struct {
	name string
	sig  bool
}

// formOf walks f's AcroForm field tree.
func formOf(f *pdf.File) form {
	out := form{sigWidgets: map[string]bool{}, fields: map[string]formField{}}
	root, err := f.Catalog()
	if err != nil {
		return out
	}
	out.dict, _ = f.Dict(root["AcroForm"])
	if out.dict == nil {
		return out
	}
	fields, _ := f.Array(out.dict["Fields"])
	seen := map[string]bool{}
	count := 0
	var walk func(kids types.Array, ft, parent string, depth int)
	walk = func(kids types.Array, ft, parent string, depth int) {
		if depth > MaxFieldDepth {
			return
		}
		for _, k := range kids {
			id := annotID(k)
			if seen[id] || count > MaxWalk {
				continue
			}
			seen[id] = true
			count++
			d, _ := f.Dict(k)
			if d == nil {
				continue
			}
			name, kft := fieldOf(d, parent, ft)
			sub, _ := f.Array(d["Kids"])
			if kft == "Sig" {
				signed := holdsSignature(f, d)
				if isWidget(d) {
					out.sigWidgets[id] = signed
				}
				for _, w := range sub {
					if wd, _ := f.Dict(w); wd != nil && isWidget(wd) && wd["T"] == nil {
						out.sigWidgets[annotID(w)] = signed
					}
				}
			}
			if d["T"] != nil && !hasFieldKids(f, sub) {
				out.fields[id] = formField{name: name, sig: kft == "Sig"}
			}
			walk(sub, kft, name, depth+1)
		}
	}
	walk(fields, "", "", 0)
	return out
}

// hasFieldKids reports whether kids holds a field (a dictionary with /T),
// not only widgets.
func hasFieldKids(f *pdf.File, kids types.Array) bool {
	for _, k := range kids {
		if d, _ := f.Dict(k); d != nil && d["T"] != nil {
			return true
		}
	}
	return false
}

// formChanges names what an update did to the form beyond filling its
// fields and signing: fields added (but signature fields) or removed, and
// entries of the AcroForm other than those signing rewrites (/XFA, which
// some viewers show instead of the pages; /CO, calculation scripts).
func formChanges(was, now form) []string {
	var out []string
	var added, removed []string
	for id, fd := range now.fields {
		if _, ok := was.fields[id]; !ok && !fd.sig {
			added = append(added, fd.name)
		}
	}
	for id, fd := range was.fields {
		if _, ok := now.fields[id]; !ok {
			removed = append(removed, fd.name)
		}
	}
	if len(added) > 0 {
		out = append(out, "form fields added: "+strings.Join(slices.Sorted(slices.Values(added)), ", "))
	}
	if len(removed) > 0 {
		out = append(out, "form fields removed: "+strings.Join(slices.Sorted(slices.Values(removed)), ", "))
	}
	if keys := changedKeys(was.dict, now.dict, formUpdates); len(keys) > 0 {
		out = append(out, "the form's "+strings.Join(keys, ", "))
	}
	return out
}

// formUpdates are the AcroForm entries that signing rewrites.
var formUpdates = []string{"Fields", "SigFlags", "DA", "DR", "NeedAppearances"}

// holdsSignature reports whether the field's value is a signature or
// document time-stamp dictionary.
func holdsSignature(f *pdf.File, field types.Dict) bool {
	v, _ := f.Dict(field["V"])
	if v == nil {
		return false
	}
	t := v.Type()
	return (t != nil && (*t == "Sig" || *t == "DocTimeStamp")) || (t == nil && v["ByteRange"] != nil && v["Contents"] != nil)
}

// plainAnnots are page i's annotations of view v other than signature
// widgets. In the signed revision (before nil) every widget of a
// signature field is one. After it (before the signed revision's
// signature widgets), a widget is one when its field holds a signature or
// when it was a signature field's widget already: a signature field added
// later without a signature is an annotation like any other.
func plainAnnots(v pageView, i int, before map[string]bool) []string {
	var out []string
	for _, id := range v.annots[i] {
		filled, sig := v.form.sigWidgets[id]
		_, wasSig := before[id]
		if sig && (before == nil || filled || wasSig) {
			continue
		}
		out = append(out, id)
	}
	return out
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
func modifications(data []byte, end int, open func(end int) (*pdf.File, error), final *pdf.File, finalView pageView) changes {
	if end <= 0 || end >= len(data) || len(bytes.TrimSpace(data[end:])) == 0 {
		return changes{} // the signature covers the whole document
	}
	signed, err := open(end)
	if err != nil {
		return changes{problems: []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the revision the signature covers (the first %d bytes) does not read: %v", end, err)}}}
	}
	was, err := viewOf(signed, &finalView)
	if err != nil {
		return changes{problems: []ades.Problem{{Code: CodeRevisionUnreadable, Message: fmt.Sprintf("the pages of the signed revision do not read: %v", err)}}}
	}
	var out changes
	if len(finalView.prints) != len(was.prints) {
		out.problems = append(out.problems, ades.Say(CodePagesChanged, "pages", fmt.Sprintf(
			"the document has %d pages, the revision the signature covers %d: pages were added or removed after signing", len(finalView.prints), len(was.prints)),
			verdict.NumberParam("Pages", len(finalView.prints)), verdict.NumberParam("Signed", len(was.prints))).Failure())
	}
	var shown []string
	for i := range min(len(was.prints), len(finalView.prints)) {
		if parts := changedParts(was.prints[i], finalView.prints[i]); len(parts) > 0 {
			shown = append(shown, fmt.Sprintf("page %d's %s", i+1, strings.Join(parts, ", ")))
		}
	}
	// Annotations added or removed: those that draw change what the
	// signed page looks like (a covering rectangle, a "900" over "100",
	// or one removed to reveal what it hid), the others are noted.
	var added, removed, shownAdded, shownRemoved []string
	for i := range min(len(was.annots), len(finalView.annots)) {
		before, after := plainAnnots(was, i, nil), plainAnnots(finalView, i, was.form.sigWidgets)
		more, less := missing(after, before), missing(before, after)
		if n := finalView.showing(i, more); n > 0 {
			shownAdded = append(shownAdded, fmt.Sprintf("page %d (%d)", i+1, n))
		} else if len(more) > 0 {
			added = append(added, fmt.Sprintf("page %d (%d)", i+1, len(more)))
		}
		if n := was.showing(i, less); n > 0 {
			shownRemoved = append(shownRemoved, fmt.Sprintf("page %d (%d)", i+1, n))
		} else if len(less) > 0 {
			removed = append(removed, fmt.Sprintf("page %d (%d)", i+1, len(less)))
		}
	}
	if len(shownAdded) > 0 {
		out.problems = append(out.problems, ades.Say(CodeShownAnnotationsChanged, "added", "annotations that draw on the page were added after signing, on "+list(shownAdded)+": the page no longer looks as it was signed",
			verdict.TextParam("Where", list(shownAdded))).Failure())
		out.annotsAdded = true
	}
	if len(shownRemoved) > 0 {
		out.problems = append(out.problems, ades.Say(CodeShownAnnotationsChanged, "removed", "annotations that drew on the signed page were removed after signing, on "+list(shownRemoved)+": what they covered shows now",
			verdict.TextParam("Where", list(shownRemoved))).Failure())
		out.annotsChanged = true
	}
	if len(added) > 0 {
		out.problems = append(out.problems, ades.Say(CodeAnnotationsAdded, "added", "annotations that draw nothing (links, hidden ones) were added after signing, on "+list(added),
			verdict.TextParam("Where", list(added))))
		out.annotsAdded = true
	}
	if len(removed) > 0 {
		out.problems = append(out.problems, ades.Say(CodeAnnotationsChanged, "removed", "annotations of the signed revision that drew nothing were removed after signing, on "+list(removed),
			verdict.TextParam("Where", list(removed))))
		out.annotsChanged = true
	}
	var other []string
	if was.root != finalView.root {
		other = append(other, fmt.Sprintf("the trailer's /Root (%s, then %s)", was.root, finalView.root))
	}
	if was.pageTree != finalView.pageTree {
		other = append(other, fmt.Sprintf("the catalog's /Pages (%s, then %s)", was.pageTree, finalView.pageTree))
	}
	other = append(other, formChanges(was.form, finalView.form)...)
	for i := range min(len(was.extras), len(finalView.extras)) {
		if keys := changedEntries(was.extras[i], finalView.extras[i]); len(keys) > 0 {
			other = append(other, fmt.Sprintf("page %d's %s", i+1, strings.Join(keys, ", ")))
		}
	}
	wasRoot, _ := signed.Catalog()
	nowRoot, _ := final.Catalog()
	// The catalog is compared by value, whichever object holds it now.
	// /OCProperties is part of what every page shows (pageprint.go).
	if keys := changedKeys(wasRoot, nowRoot, append(catalogUpdates, "OCProperties")); len(keys) > 0 {
		other = append(other, "the catalog's "+strings.Join(keys, ", "))
	}
	c := comparison{signed: signed, final: final, roles: map[int]role{}, page: map[int]int{}, name: map[int]string{}, signedSigs: was.form.sigWidgets}
	c.mapRoles()
	c.classify(&out, shown, other)
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
	page          map[int]int     // the page (from 1) of a page-bound object
	name          map[int]string  // the full name of a form field
	signedSigs    map[string]bool // the signed revision's signature widgets
	resources     map[int]int     // lazily: objects a page shows, by page
	drawn         map[int]int     // lazily: objects annotations draw, by index in looks
	looks         []annotation    // the signed revision's annotations that draw something
	count         int             // objects visited, against MaxWalk
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
		name, kft := fieldOf(d, parentName, ft)
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
	// widgetShows are the entries of a widget that change how it looks.
	widgetShows = []string{"AP", "AS", "Rect", "F", "MK", "BS", "Border", "C", "DA"}
	// annotationLooks are the entries of an annotation that change how it
	// looks: a widget's, and those viewers draw markup annotations from
	// (ISO 32000-2, 12.5.6).
	annotationLooks = append(slices.Clip(widgetShows), "Contents", "RC", "DS", "IC", "CA", "QuadPoints", "InkList", "Vertices", "L", "LE", "Name", "RD", "Path")
	pageShows       = []string{"Contents", "Resources", "MediaBox", "CropBox", "Rotate", "UserUnit", "Group"}
)

// classify judges every object of the signed revision that a later update
// rewrote or freed.
func (c *comparison) classify(out *changes, shown, other []string) {
	var rewritten []int
	candidates, ok := c.final.ChangedSince(c.signed)
	if !ok {
		candidates = c.signed.Numbers()
	}
	for _, n := range candidates {
		if at := c.signed.Where(n); at.Offset >= 0 && at != c.final.Where(n) {
			rewritten = append(rewritten, n)
		}
	}
	slices.Sort(rewritten)
	var (
		unplaced      []int
		sigWidgets    []string
		shownAnnots   []string
		annotsChanged bool
	)
	for _, n := range rewritten {
		was, _ := c.signed.Resolve(indirect(n))
		now, _ := c.final.Resolve(indirect(n))
		id := indirect(n).String()
		switch c.roles[n] {
		case roleCatalog, rolePageTree, rolePage:
			// Compared by value above: the catalog, and what each page
			// shows and holds, whichever objects hold them now.
		case roleAnnot, roleSigField:
			filled, sig := c.signedSigs[id]
			d, _ := c.final.Dict(indirect(n))
			switch {
			case sig && filled:
				// A signature's widget: its appearance is part of what
				// was signed (a rewritten one could show another name).
				if keys := intersect(changedKeys(was, now, nil), widgetShows); len(keys) > 0 {
					sigWidgets = append(sigWidgets, fmt.Sprintf("object %d's %s", n, strings.Join(keys, ", ")))
				}
			case sig:
				// An empty signature field, signed since: its widget
				// gets the new signature's appearance.
			case c.roles[n] == roleSigField:
			case d != nil && isWidget(d):
				out.filled = append(out.filled, c.fieldOf(d))
			default:
				keys := intersect(changedKeys(was, now, nil), annotationLooks)
				if len(keys) > 0 && (annotationShows(c.signed, indirect(n)) || annotationShows(c.final, indirect(n))) {
					shownAnnots = append(shownAnnots, fmt.Sprintf("object %d%s's %s on page %d", n, describe(c.signed, n), strings.Join(keys, ", "), c.page[n]))
					continue
				}
				annotsChanged = true
			}
		case roleField:
			out.filled = append(out.filled, c.name[n])
		case roleAnnots, roleForm, roleDSS, roleMetadata, roleContent:
		default:
			unplaced = append(unplaced, n)
		}
	}
	if len(unplaced) > 0 {
		res := c.shownByPages()
		var paths map[int]string
		for _, n := range unplaced {
			if p, ok := res[n]; ok {
				shown = append(shown, fmt.Sprintf("object %d%s, which page %d shows", n, describe(c.signed, n), p))
				continue
			}
			if i, ok := c.drawnByAnnotations()[n]; ok {
				an := c.looks[i]
				switch {
				case an.signature:
					sigWidgets = append(sigWidgets, fmt.Sprintf("object %d%s, which the appearance of the signature widget %s draws with", n, describe(c.signed, n), annotID(an.ref)))
				case an.field != "":
					out.filled = append(out.filled, an.field)
				case annotationShows(c.signed, an.ref) || annotationShows(c.final, an.ref):
					shownAnnots = append(shownAnnots, fmt.Sprintf("object %d%s, which the annotation %s on page %d draws with", n, describe(c.signed, n), annotID(an.ref), an.page))
				default:
					annotsChanged = true
				}
				continue
			}
			if paths == nil {
				paths = pathsTo(c.final, unplaced)
			}
			at := ""
			if p, ok := paths[n]; ok {
				at = " at " + p
			}
			other = append(other, fmt.Sprintf("object %d%s%s", n, describe(c.signed, n), at))
		}
	}
	if len(shown) > 0 {
		out.problems = append(out.problems, ades.Say(CodePageContentChanged, "shown", "what a signed page shows was changed after signing: "+list(shown),
			verdict.TextParam("Where", list(shown))).Failure())
	}
	if len(out.filled) > 0 {
		out.filled = slices.Compact(slices.Sorted(slices.Values(out.filled)))
		out.problems = append(out.problems, ades.Say(CodeFormFieldsChanged, "filled", "form fields were filled in or changed after signing: "+list(out.filled),
			verdict.TextParam("Fields", list(out.filled))))
	}
	if len(shownAnnots) > 0 {
		out.problems = append(out.problems, ades.Say(CodeShownAnnotationsChanged, "drawn", "what annotations of the signed revision draw on the page was changed after signing: "+list(shownAnnots),
			verdict.TextParam("Where", list(shownAnnots))).Failure())
		out.annotsChanged = true
	}
	if annotsChanged {
		out.problems = append(out.problems, ades.Say(CodeAnnotationsChanged, "changed", "annotations of the signed revision were changed after signing"))
		out.annotsChanged = true
	}
	if len(sigWidgets) > 0 {
		out.problems = append(out.problems, ades.Say(CodeAnnotationsChanged, "widgets", "the widgets of signatures the revision holds were changed after signing: "+list(sigWidgets),
			verdict.TextParam("Where", list(sigWidgets))))
		out.annotsChanged = true
	}
	if len(other) > 0 {
		out.problems = append(out.problems, ades.Say(CodeObjectsChanged, "other", "changes after signing that no rule allows (no page, form filling, annotation, signature or validation data): "+list(other),
			verdict.TextParam("Where", list(other))))
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
		c.reach(c.resources, p.Dict["Resources"], i+1, 0)
		// Resources inherited from the page tree.
		parent := p.Dict["Parent"]
		for range pdf.MaxDepth {
			d, _ := c.signed.Dict(parent)
			if d == nil {
				break
			}
			c.reach(c.resources, d["Resources"], i+1, 0)
			parent = d["Parent"]
		}
	}
	return c.resources
}

// reach records in into, as v, what o reaches down the graph of what is
// drawn (resources, appearance streams), and stops at MaxWalk objects.
func (c *comparison) reach(into map[int]int, o types.Object, v, depth int) {
	if depth > pdf.MaxDepth || len(into) > MaxWalk {
		return
	}
	if ref, ok := o.(types.IndirectRef); ok {
		n := ref.ObjectNumber.Value()
		if _, seen := into[n]; seen {
			return
		}
		into[n] = v
	}
	obj, err := c.signed.Resolve(o)
	if err != nil {
		return
	}
	var d types.Dict
	switch obj := obj.(type) {
	case types.Dict:
		d = obj
	case types.StreamDict:
		d = obj.Dict
	case types.Array:
		for _, e := range obj {
			c.reach(into, e, v, depth+1)
		}
	}
	for k, e := range d {
		if k == "Parent" || k == "P" {
			continue // up the tree, not into what is drawn
		}
		c.reach(into, e, v, depth+1)
	}
}

// annotation is an annotation of the signed revision, as the objects its
// appearance draws with know it.
type annotation struct {
	page  int
	ref   types.Object
	field string // the full name of the form field of a widget
	// signature: the widget of a signature the revision holds.
	signature bool
}

// drawnByAnnotations is every object the signed revision's annotations
// draw with (their appearance streams and what these reach), by the first
// annotation that draws it. Walked, like shownByPages, only when an
// update rewrote an object nothing else accounts for.
func (c *comparison) drawnByAnnotations() map[int]int {
	if c.drawn != nil {
		return c.drawn
	}
	c.drawn = map[int]int{}
	pages, err := c.signed.Pages(MaxPages)
	if err != nil {
		return c.drawn
	}
	for i, p := range pages {
		annots, _ := c.signed.Array(p.Dict["Annots"])
		for _, a := range annots {
			d, _ := c.signed.Dict(a)
			if d == nil || d["AP"] == nil {
				continue
			}
			an := annotation{page: i + 1, ref: a}
			if filled, sig := c.signedSigs[annotID(a)]; sig {
				an.signature = filled
			} else if isWidget(d) {
				an.field = c.fieldOf(d)
			}
			c.looks = append(c.looks, an)
			c.reach(c.drawn, d["AP"], len(c.looks)-1, 0)
			if len(c.drawn) > MaxWalk {
				return c.drawn
			}
		}
	}
	return c.drawn
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

// openRevision opens the revision of final that ends at end, sharing the
// objects both parse (pdf.File.Revision); a revision its own
// cross-reference chain does not read goes to the repairing reader, as
// pdf.Open would.
func openRevision(final *pdf.File, data []byte, end int) (*pdf.File, error) {
	if f, err := final.Revision(end); err == nil {
		return f, nil
	}
	return pdf.Open(data[:end])
}

// pathsTo names where the document reaches each object of targets, as
// the first path from the trailer's /Root a breadth-first walk finds
// (/Root/Names/JavaScript/Names[1]), so that an undefined change says
// what the changed object is for. Up-pointers (/Parent, /P) are not
// followed; the walk stops at MaxWalk objects.
func pathsTo(f *pdf.File, targets []int) map[int]string {
	want := map[int]bool{}
	for _, n := range targets {
		want[n] = true
	}
	out := map[int]string{}
	root := f.RootRef()
	if root == nil {
		return out
	}
	type item struct {
		o    types.Object
		path string
	}
	seen := map[int]bool{}
	queue := []item{{*root, "/Root"}}
	for len(queue) > 0 && len(out) < len(want) && len(seen) <= MaxWalk {
		it := queue[0]
		queue = queue[1:]
		o := it.o
		if r, ok := o.(types.IndirectRef); ok {
			n := r.ObjectNumber.Value()
			if seen[n] {
				continue
			}
			seen[n] = true
			if want[n] {
				out[n] = it.path
			}
			v, err := f.Resolve(r)
			if err != nil {
				continue
			}
			o = v
		}
		switch v := o.(type) {
		case types.Dict:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if k != "Parent" && k != "P" {
					queue = append(queue, item{v[k], it.path + "/" + k})
				}
			}
		case types.StreamDict:
			for _, k := range slices.Sorted(maps.Keys(v.Dict)) {
				if k != "Parent" && k != "P" {
					queue = append(queue, item{v.Dict[k], it.path + "/" + k})
				}
			}
		case types.Array:
			for i, e := range v {
				queue = append(queue, item{e, fmt.Sprintf("%s[%d]", it.path, i)})
			}
		}
	}
	return out
}
