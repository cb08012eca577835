package pades

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
)

// What a page shows is compared by value, not by object identity: an
// update that points the document at new objects (a new page object
// reusing the signed content stream with another font or box, a page
// moved under a node with /CropBox or /Rotate, a new /Root or /Pages) is
// seen as surely as one that rewrites the signed objects.
//
// A page's print is a digest of its effective attributes (ISO 32000-2,
// 7.7.3.4: inherited /MediaBox, /CropBox, /Rotate and /Resources), taken
// both down the page tree as a viewer walks it and up the page's /Parent
// chain (viewers differ; an attacker would use the difference), of its
// /UserUnit and /Group, of its content streams in order and everything its
// resources reach (fonts, XObjects, patterns, optional-content groups), and
// of the catalog's optional-content configuration, which decides what of
// that is visible. Dictionaries and arrays are digested by value; a stream
// by its dictionary and where its bytes are: revisions are prefixes of one
// file, so a stream at the same place is the same bytes, and its data need
// not be read. That keeps the print linear in the objects the pages reach
// and independent of their size.

// shownParts are the parts of a page's print, named as a message names a
// changed one.
var shownParts = [...]string{"/MediaBox", "/CropBox", "/Rotate", "/UserUnit", "/Group", "/Resources", "/Contents", "the catalog's /OCProperties"}

// pagePrint is what one page shows, part by part.
type pagePrint [len(shownParts)][sha256.Size]byte

// errPrintLimit reports a page graph beyond MaxWalk objects or pdf.MaxDepth
// levels.
var errPrintLimit = errors.New("pades: the pages reach too many objects to compare")

// printer digests the objects of one revision. Objects never change
// within a revision, so each is digested once.
//
// The printer of an earlier revision takes the digests of the final
// document's printer for the objects that are clean: written at the same
// place in both revisions, as is everything they reach. Those are the
// same bytes all the way down, so their digests are too, and comparing
// many revisions of a large document costs what the updates changed, not
// the whole page graph once per revision.
type printer struct {
	f     *pdf.File
	memo  map[int][sha256.Size]byte
	busy  map[int]bool
	count int
	// stack holds the objects being digested; parents records, for each
	// object reached, the objects that reach it (the final document's
	// printer only).
	stack   []int
	parents map[int][]int
	// base is the final document's printer and dirty the objects whose
	// digests cannot be taken from it (an earlier revision's printer).
	base  *printer
	dirty map[int]bool
	// For the final document's printer: each page's object (-1 when
	// direct), the page tree nodes its attributes come from (down the tree
	// and up its /Parent chain), and its print. For an earlier revision's:
	// the pages whose print cannot be taken from the final's.
	pageObjs   []int
	pageNodes  [][]int
	pagePrints []pagePrint
	dirtyPages map[int]bool
	nodes      map[int]bool // treeNodes, once
}

func newPrinter(f *pdf.File) *printer {
	return &printer{f: f, memo: map[int][sha256.Size]byte{}, busy: map[int]bool{}, parents: map[int][]int{}}
}

// over returns a printer of f, an earlier revision of p's document, that
// reuses p's digests for the objects f has at the same place and that
// reach only such objects.
func (p *printer) over(f *pdf.File) *printer {
	r := &printer{f: f, memo: map[int][sha256.Size]byte{}, busy: map[int]bool{}, base: p, dirty: map[int]bool{}}
	var queue []int
	seed := func(n int) {
		if _, reached := p.memo[n]; reached && !r.dirty[n] && f.Where(n) != p.f.Where(n) {
			r.dirty[n] = true
			queue = append(queue, n)
		}
	}
	if changed, ok := p.f.ChangedSince(f); ok {
		for _, n := range changed {
			seed(n)
		}
	} else {
		for n := range p.memo {
			seed(n)
		}
	}
	for len(queue) > 0 {
		n := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, up := range p.parents[n] {
			if !r.dirty[up] {
				r.dirty[up] = true
				queue = append(queue, up)
			}
		}
	}
	// A page's print is the final's when the page, the tree nodes it
	// inherits from and everything its values reach are where they are in
	// the final document (its values' references reach the page's own
	// entry, pageID, in parents).
	r.dirtyPages = map[int]bool{}
	if !sameTreeRoot(f, p.f) {
		// Another page tree: its pages are walked and printed anew.
		for i := range p.pageNodes {
			r.dirtyPages[i] = true
		}
		return r
	}
	for i, nodes := range p.pageNodes {
		if r.dirty[pageID(i)] {
			r.dirtyPages[i] = true
			continue
		}
		for _, n := range nodes {
			if f.Where(n) != p.f.Where(n) {
				r.dirtyPages[i] = true
				break
			}
		}
	}
	return r
}

// treeNodes is the set of the final document's pages (false) and page
// tree nodes (true; down the tree and up the pages' /Parent chains).
func (p *printer) treeNodes() map[int]bool {
	if p.nodes == nil {
		p.nodes = map[int]bool{}
		for i, nodes := range p.pageNodes {
			for _, n := range nodes {
				if n != p.pageObjs[i] {
					p.nodes[n] = true
				} else if _, ok := p.nodes[n]; !ok {
					p.nodes[n] = false
				}
			}
		}
	}
	return p.nodes
}

// pageID stands for page i in parents: object numbers are positive.
func pageID(i int) int { return -(i + 1) }

// reusable reports whether page i, object n of this revision, prints as
// the final document's page i does.
func (p *printer) reusable(i int, n int) bool {
	return p.base != nil && i < len(p.base.pagePrints) && n >= 0 && p.base.pageObjs[i] == n && !p.dirtyPages[i]
}

// inherited are the page attributes a page tree node passes down.
var inherited = [...]string{"MediaBox", "CropBox", "Rotate", "Resources"}

// prints returns the print of every page of p.f, in page order, walking
// the page tree from the catalog as a viewer does.
func (p *printer) prints(limit int) ([]pagePrint, error) {
	root, err := p.f.Catalog()
	if err != nil {
		return nil, err
	}
	oc, err := p.digest(root["OCProperties"], 0)
	if err != nil {
		return nil, err
	}
	pages, err := p.f.Pages(limit)
	if err != nil {
		return nil, err
	}
	down, paths := p.inheritedDown(root["Pages"])
	out := make([]pagePrint, len(pages))
	record := p.base == nil
	if record {
		p.pageObjs, p.pageNodes = make([]int, len(pages)), make([][]int, len(pages))
	}
	for i, pg := range pages {
		n := -1
		if pg.Ref != nil {
			n = pg.Ref.ObjectNumber.Value()
		}
		if p.reusable(i, n) {
			out[i] = p.base.pagePrints[i]
			out[i][len(shownParts)-1] = oc // the revision's own catalog
			continue
		}
		// The references the page's values hold are reached from the page.
		p.stack = append(p.stack[:0], pageID(i))
		var pr pagePrint
		var fromTree [len(inherited)]types.Object
		if i < len(down) {
			fromTree = down[i]
		}
		up, chain := p.inheritedUp(pg.Dict)
		if record {
			p.pageObjs[i] = n
			nodes := append([]int{n}, chain...)
			if i < len(paths) {
				nodes = append(nodes, paths[i]...)
			}
			p.pageNodes[i] = nodes
		}
		for j, key := range inherited {
			var (
				h   = sha256.New()
				err error
			)
			for _, o := range [2]types.Object{fromTree[j], up[j]} {
				d, derr := p.digest(o, 0)
				if derr != nil {
					err = derr
					break
				}
				h.Write(d[:])
			}
			if err != nil {
				return nil, err
			}
			pr[slices.Index(shownParts[:], "/"+key)] = [sha256.Size]byte(h.Sum(nil))
		}
		for _, key := range []string{"UserUnit", "Group", "Contents"} {
			d, err := p.digest(pg.Dict[key], 0)
			if err != nil {
				return nil, err
			}
			pr[slices.Index(shownParts[:], "/"+key)] = d
		}
		pr[len(shownParts)-1] = oc
		out[i] = pr
		p.stack = p.stack[:0]
	}
	if record {
		p.pagePrints = out
	}
	return out, nil
}

// inheritedDown walks the page tree from node as pdf.File.Pages does and
// returns, for each page in order, the inherited attributes as the walk
// passes them down (a page's own entries first), and the tree nodes on
// its way.
func (p *printer) inheritedDown(node types.Object) ([][len(inherited)]types.Object, [][]int) {
	var (
		out   [][len(inherited)]types.Object
		paths [][]int
		path  []int
	)
	var walk func(o types.Object, from [len(inherited)]types.Object, depth int)
	walk = func(o types.Object, from [len(inherited)]types.Object, depth int) {
		if depth > pdf.MaxDepth {
			return // pdf.File.Pages has refused the tree already
		}
		d, _ := p.f.Dict(o)
		if d == nil {
			return
		}
		for i, key := range inherited {
			if v, ok := d[key]; ok {
				from[i] = v
			}
		}
		if t := d.Type(); (t != nil && *t == "Pages") || (t == nil && d["Kids"] != nil) {
			if r, ok := o.(types.IndirectRef); ok {
				path = append(path, r.ObjectNumber.Value())
				defer func() { path = path[:len(path)-1] }()
			}
			kids, _ := p.f.Array(d["Kids"])
			for _, k := range kids {
				walk(k, from, depth+1)
			}
			return
		}
		out = append(out, from)
		paths = append(paths, slices.Clone(path))
	}
	walk(node, [len(inherited)]types.Object{}, 0)
	return out, paths
}

// inheritedUp returns page's inherited attributes found up its /Parent
// chain, as viewers that look an attribute up the chain find them, and the
// chain's objects.
func (p *printer) inheritedUp(page types.Dict) ([len(inherited)]types.Object, []int) {
	var (
		out   [len(inherited)]types.Object
		chain []int
	)
	d := page
	for range pdf.MaxDepth {
		for i, key := range inherited {
			if v, ok := d[key]; ok && out[i] == nil {
				out[i] = v
			}
		}
		ref, ok := d["Parent"].(types.IndirectRef)
		parent, _ := p.f.Dict(d["Parent"])
		if parent == nil {
			break
		}
		if ok {
			chain = append(chain, ref.ObjectNumber.Value())
		}
		d = parent
	}
	return out, chain
}

// digest is the value digest of o, references followed.
func (p *printer) digest(o types.Object, depth int) ([sha256.Size]byte, error) {
	if depth > pdf.MaxDepth {
		return [sha256.Size]byte{}, errPrintLimit
	}
	h := sha256.New()
	switch v := o.(type) {
	case nil:
		h.Write([]byte{'n'})
	case types.IndirectRef:
		n := v.ObjectNumber.Value()
		if p.parents != nil && len(p.stack) > 0 {
			p.parents[n] = append(p.parents[n], p.stack[len(p.stack)-1])
		}
		if d, ok := p.memo[n]; ok {
			return d, nil
		}
		if p.base != nil && !p.dirty[n] {
			if d, ok := p.base.memo[n]; ok {
				return d, nil
			}
		}
		if p.busy[n] {
			// A cycle (a form XObject that draws itself): named by number,
			// which a copy of the graph under new numbers changes.
			fmt.Fprintf(h, "c%d", n)
			break
		}
		if p.count++; p.count > MaxWalk {
			return [sha256.Size]byte{}, errPrintLimit
		}
		p.busy[n] = true
		p.stack = append(p.stack, n)
		d, err := p.indirect(n, depth)
		p.stack = p.stack[:len(p.stack)-1]
		delete(p.busy, n)
		if err != nil {
			return d, err
		}
		p.memo[n] = d
		return d, nil
	case types.Dict:
		if err := p.dict(h, v, depth); err != nil {
			return [sha256.Size]byte{}, err
		}
	case types.StreamDict:
		// A direct stream cannot be written; digested by its dictionary.
		if err := p.dict(h, v.Dict, depth); err != nil {
			return [sha256.Size]byte{}, err
		}
	case types.Array:
		fmt.Fprintf(h, "a%d", len(v))
		for _, e := range v {
			d, err := p.digest(e, depth+1)
			if err != nil {
				return d, err
			}
			h.Write(d[:])
		}
	default:
		fmt.Fprintf(h, "v%T:%s", v, v.PDFString())
	}
	return [sha256.Size]byte(h.Sum(nil)), nil
}

// indirect digests object n: a stream by where its bytes are and its
// dictionary, anything else by its value.
func (p *printer) indirect(n, depth int) ([sha256.Size]byte, error) {
	v, err := p.f.Resolve(indirect(n))
	if err != nil {
		// An object that does not read shows nothing a viewer could draw
		// the same way twice: named by number and place.
		at := p.f.Where(n)
		h := sha256.New()
		fmt.Fprintf(h, "e%d@%d.%d", n, at.Offset, at.Index)
		return [sha256.Size]byte(h.Sum(nil)), nil
	}
	if sd, ok := v.(types.StreamDict); ok {
		at := p.f.Where(n)
		h := sha256.New()
		h.Write([]byte{'s'})
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], uint64(at.Offset))
		binary.BigEndian.PutUint64(b[8:], uint64(at.Index))
		h.Write(b[:])
		if err := p.dict(h, sd.Dict, depth); err != nil {
			return [sha256.Size]byte{}, err
		}
		return [sha256.Size]byte(h.Sum(nil)), nil
	}
	return p.digest(v, depth+1)
}

// dict writes the digest of d's entries to h in key order, leaving out
// the keys that point up a tree rather than into what is drawn.
func (p *printer) dict(h interface{ Write([]byte) (int, error) }, d types.Dict, depth int) error {
	keys := make([]string, 0, len(d))
	for k := range d {
		if k == "Parent" || k == "P" {
			continue
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	fmt.Fprintf(h, "d%d", len(keys))
	for _, k := range keys {
		e, err := p.digest(d[k], depth+1)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "/%s", k)
		h.Write(e[:])
	}
	return nil
}

// changedParts names the parts of two prints that differ.
func changedParts(was, now pagePrint) []string {
	var out []string
	for i := range was {
		if was[i] != now[i] {
			out = append(out, shownParts[i])
		}
	}
	return out
}

// sameTreeRoot reports whether a and b name the same catalog and the same
// page tree root: only then can a page reached the same way in both
// inherit the same attributes.
func sameTreeRoot(a, b *pdf.File) bool {
	ra, rb := a.RootRef(), b.RootRef()
	if ra == nil || rb == nil || *ra != *rb {
		return false
	}
	ca, err := a.Catalog()
	if err != nil {
		return false
	}
	cb, err := b.Catalog()
	if err != nil {
		return false
	}
	pa, oka := ca["Pages"].(types.IndirectRef)
	pb, okb := cb["Pages"].(types.IndirectRef)
	return oka && okb && pa == pb
}
