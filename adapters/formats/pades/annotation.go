package pades

import (
	"bytes"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
)

// maxAppearanceBytes bounds the decoded appearance stream read to tell
// whether an annotation draws anything: beyond it, it does.
const maxAppearanceBytes = 1 << 20

// annotationShows reports whether the annotation o draws on its page as
// viewers show it (ISO 32000-2, 12.5): an annotation added or removed
// after signing that draws changes what the signed page looks like, an
// invisible one (a link, a hidden note) does not.
//
// An annotation does not show when its flags hide it (Hidden, NoView),
// when it is a pop-up (drawn only when its parent is opened), when its
// /Rect is missing or has no area, or when its normal appearance draws
// nothing. Without an appearance, widgets and links draw nothing, but
// viewers draw the other kinds (a FreeText, a Square, a Stamp) from their
// entries, so those show. Anything that does not read is taken to show:
// the failure is on the side of the signed content.
func annotationShows(f *pdf.File, o types.Object) bool {
	d, err := f.Dict(o)
	if err != nil {
		return true
	}
	if d == nil {
		return false
	}
	const hidden, noView = 1 << 1, 1 << 5
	if flags, ok := d["F"].(types.Integer); ok && int(flags)&(hidden|noView) != 0 {
		return false
	}
	subtype := ""
	if st := d.NameEntry("Subtype"); st != nil {
		subtype = *st
	}
	if subtype == "Popup" {
		return false
	}
	if !hasArea(f, d["Rect"]) {
		return false
	}
	ap, err := f.Dict(d["AP"])
	if err != nil {
		return true
	}
	if ap == nil || ap["N"] == nil {
		return subtype != "Widget" && subtype != "Link"
	}
	normal, err := f.Resolve(ap["N"])
	if err != nil {
		return true
	}
	if states, ok := normal.(types.Dict); ok {
		// Appearance states (a check box): the one /AS selects.
		as := d.NameEntry("AS")
		if as == nil || states[*as] == nil {
			return false
		}
		normal = states[*as]
	}
	content, err := f.Stream(normal, maxAppearanceBytes)
	if err != nil {
		return true
	}
	return len(bytes.TrimSpace(content)) > 0
}

// hasArea reports whether o is a rectangle of four numbers with a width
// and a height.
func hasArea(f *pdf.File, o types.Object) bool {
	r, err := f.Array(o)
	if err != nil || len(r) != 4 {
		return false
	}
	var v [4]float64
	for i, e := range r {
		e, _ = f.Resolve(e)
		switch n := e.(type) {
		case types.Integer:
			v[i] = float64(n)
		case types.Float:
			v[i] = float64(n)
		default:
			return false
		}
	}
	return v[0] != v[2] && v[1] != v[3]
}
