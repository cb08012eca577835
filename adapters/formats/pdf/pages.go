package pdf

import (
	"errors"
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Page is a leaf of the page tree.
type Page struct {
	// Ref is the page object, nil when the page is a direct dictionary.
	Ref  *types.IndirectRef
	Dict types.Dict
}

// ErrLimit is the error of a walk stopped at the caller's limit: what was
// not walked is not known to be broken.
var ErrLimit = errors.New("pdf: limit reached")

// Pages walks the page tree in order (ISO 32000-2, 7.7.3) and returns at
// most limit pages; more is an error. A node seen twice is a cycle and an
// error, as a viewer could show no single order of pages.
func (f *File) Pages(limit int) ([]Page, error) {
	nodes := -1
	return f.PagesWithin(limit, &nodes)
}

// PagesWithin is Pages that also counts the tree nodes it visits down
// from *nodes, and stops with ErrLimit when they run out (a negative
// *nodes is no limit). A caller walking many revisions' trees shares one
// budget among them, so that the walks together stay linear in the file.
func (f *File) PagesWithin(limit int, nodes *int) ([]Page, error) {
	root, err := f.Catalog()
	if err != nil {
		return nil, err
	}
	var out []Page
	seen := map[types.IndirectRef]bool{}
	var walk func(o types.Object, depth int) error
	walk = func(o types.Object, depth int) error {
		if depth > MaxDepth {
			return fmt.Errorf("pdf: page tree deeper than %d", MaxDepth)
		}
		if *nodes == 0 {
			return fmt.Errorf("%w: page tree nodes", ErrLimit)
		}
		if *nodes > 0 {
			*nodes--
		}
		var ref *types.IndirectRef
		if r, ok := o.(types.IndirectRef); ok {
			if seen[r] {
				return fmt.Errorf("pdf: page tree node %d is reached twice", r.ObjectNumber)
			}
			seen[r] = true
			ref = &r
		}
		d, err := f.Dict(o)
		if err != nil {
			return fmt.Errorf("pdf: page tree: %w", err)
		}
		if d == nil {
			return nil // a null kid shows nothing
		}
		if t := d.Type(); (t != nil && *t == "Pages") || (t == nil && d["Kids"] != nil) {
			kids, err := f.Array(d["Kids"])
			if err != nil {
				return fmt.Errorf("pdf: page tree: %w", err)
			}
			for _, k := range kids {
				if err := walk(k, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if len(out) == limit {
			return fmt.Errorf("pdf: more than %d pages", limit)
		}
		out = append(out, Page{Ref: ref, Dict: d})
		return nil
	}
	pages, ok := root.Find("Pages")
	if !ok {
		return nil, errors.New("pdf: the catalog has no page tree")
	}
	if err := walk(pages, 0); err != nil {
		return nil, err
	}
	return out, nil
}
