package pades

import (
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
)

// The permissions a signature grants (DocMDP, ISO 32000-2, 12.8.2.2) and
// the fields it locks (FieldMDP, 12.8.2.4, and the field's /Lock,
// 12.7.5.5) are read from the revision the signature covers, data[:end],
// never from the document as delivered. Every object there is under the
// signature but /Contents, so no later update can change them: an update
// that drops the catalog's /Perms, writes a new version of the signature
// dictionary or field, or points the form or /Perms at a copy with other
// permissions (the copy keeps /ByteRange and /Contents, so the signature
// still verifies) lifts nothing.

// asSigned is a signature as its own signed revision holds it.
type asSigned struct {
	file *pdf.File
	// dict is the signature dictionary, fieldDict the signature field
	// holding it; nil when the revision has no field whose value has the
	// signature's byte range.
	dict, fieldDict types.Dict
	// certifies: the revision's /Perms /DocMDP is this signature, and
	// docMDP is that dictionary (the one whose /Reference counts).
	certifies bool
	docMDP    types.Dict
}

// signedRevision reads f as its signed revision holds it. A signature
// without a sound byte range has no signed revision: ok is false.
func (rd *reading) signedRevision(f field) (s asSigned, ok bool) {
	if f.end <= 0 || len(f.problems) > 0 {
		return asSigned{}, false
	}
	file := rd.pdf
	if f.end < len(rd.data) {
		var err error
		if file, err = pdf.Open(rd.data[:f.end]); err != nil {
			return asSigned{}, false // reported by the comparison (modifications)
		}
	}
	s.file = file
	root, err := file.Catalog()
	if err != nil {
		return s, true
	}
	if perms, _ := file.Dict(root["Perms"]); perms != nil {
		if d, _ := file.Dict(perms["DocMDP"]); hasRange(d, f.byteRange) {
			s.certifies, s.docMDP = true, d
		}
	}
	form, _ := file.Dict(root["AcroForm"])
	if form == nil {
		return s, true
	}
	kids, _ := file.Array(form["Fields"])
	seen := map[types.IndirectRef]bool{}
	var walk func(kids types.Array, ft string, depth int) bool
	walk = func(kids types.Array, ft string, depth int) bool {
		if depth > MaxFieldDepth {
			return false
		}
		for _, k := range kids {
			if r, ok := k.(types.IndirectRef); ok {
				if seen[r] || len(seen) > MaxWalk {
					continue
				}
				seen[r] = true
			}
			d, _ := file.Dict(k)
			if d == nil {
				continue
			}
			kft := ft
			if n := d.NameEntry("FT"); n != nil {
				kft = *n
			}
			if kft == "Sig" {
				if v, _ := file.Dict(d["V"]); hasRange(v, f.byteRange) {
					s.dict, s.fieldDict = v, d
					return true
				}
			}
			if sub, _ := file.Array(d["Kids"]); walk(sub, kft, depth+1) {
				return true
			}
		}
		return false
	}
	walk(kids, "", 0)
	return s, true
}

// hasRange reports whether the signature dictionary d has the byte
// range r: it is the dictionary of the signature over r.
func hasRange(d types.Dict, r [4]int) bool {
	arr := d.ArrayEntry("ByteRange")
	if len(arr) != 4 {
		return false
	}
	for i, o := range arr {
		if n, ok := o.(types.Integer); !ok || int(n) != r[i] {
			return false
		}
	}
	return true
}

// certification is the certification signature of a document, if any,
// and the changes its author allowed after it.
type certification struct {
	field *field
	// p is /P of the DocMDP transform parameters: 1 no changes, 2 form
	// filling and signing, 3 also annotations (2 when absent).
	p int
	// after is what the updates after it changed.
	after changes
}

// of reports whether f is the certification signature. A signature is
// known by its byte range, not by the object holding its dictionary,
// which a later update may replace with a copy.
func (c certification) of(f field) bool {
	return c.field != nil && f.end > 0 && f.byteRange == c.field.byteRange
}

// docMDP finds the certification signature among fields: the earliest
// whose own signed revision's /Perms /DocMDP names it, with the /P of its
// /Reference there.
func (rd *reading) docMDP(fields []field) certification {
	var order []*field
	for i := range fields {
		if f := &fields[i]; !f.docTimestamp && f.end > 0 && len(f.problems) == 0 {
			order = append(order, f)
		}
	}
	slices.SortStableFunc(order, func(a, b *field) int { return a.end - b.end })
	for _, f := range order {
		s, ok := rd.signedRevision(*f)
		if !ok || !s.certifies {
			continue
		}
		c := certification{field: f, p: 2}
		refs, _ := s.file.Array(s.docMDP["Reference"])
		for _, o := range refs {
			sr, err := s.file.Dict(o)
			if err != nil || sr == nil {
				continue
			}
			if m := sr.NameEntry("TransformMethod"); m == nil || *m != "DocMDP" {
				continue
			}
			params, _ := s.file.Dict(sr["TransformParams"])
			if params == nil {
				continue
			}
			if n, ok := params["P"].(types.Integer); ok && n >= 1 && n <= 3 {
				c.p = int(n)
			}
		}
		c.after = rd.changesAfter(f.end)
		return c
	}
	return certification{}
}

// undefinedChanges are the codes of changes no DocMDP permission allows
// (ISO 32000-2, 12.8.2.2.2, Table 257): /P 3 at most adds annotations to
// form filling and signing, and validation data and document time-stamps
// are always allowed (ETSI EN 319 142-1, 5.4).
var undefinedChanges = []string{CodePagesChanged, CodePageContentChanged, CodeObjectsChanged}

// violations reports the changes after the certification signature that
// its /P does not allow, each naming the change. Changes to pages or
// content are format failures anyway; they are named here too, since the
// certifier allowed none.
func (c certification) violations(fields []field) []ades.Problem {
	if c.field == nil {
		return nil
	}
	var out []ades.Problem
	violated := func(format string, args ...any) {
		out = append(out, ades.Problem{Code: CodeDocMDPViolated, Message: fmt.Sprintf(
			"the document was certified with DocMDP /P %d, ", c.p) + fmt.Sprintf(format, args...)})
	}
	var later []string
	for _, f := range fields {
		if !f.docTimestamp && f.end > c.field.end {
			later = append(later, f.name)
		}
	}
	if c.p == 1 && len(later) > 0 {
		violated("which permits no change, and signatures were added after it: %s", list(later))
	}
	if c.p == 1 && len(c.after.filled) > 0 {
		violated("which permits no change, and form fields were filled in after it: %s", list(c.after.filled))
	}
	if c.p < 3 && (c.after.annotsAdded || c.after.annotsChanged) {
		violated("which does not permit adding or changing annotations, and annotations were added or changed after it")
	}
	for _, p := range c.after.problems {
		if slices.Contains(undefinedChanges, p.Code) {
			violated("which permits no such change, and after it %s", p.Message)
		}
	}
	return out
}

// lock is what a signature locks of the form (ISO 32000-2, 12.7.5.5 and
// 12.8.2.4): the signature field's /Lock, and the FieldMDP transforms of
// its signature dictionary.
type lock struct {
	action string // All, Include or Exclude
	fields []string
}

func (l lock) covers(name string) bool {
	switch l.action {
	case "All":
		return true
	case "Include":
		return slices.Contains(l.fields, name)
	case "Exclude":
		return !slices.Contains(l.fields, name)
	}
	return false
}

// locks reads the locks of a signature as its signed revision holds them.
func (s asSigned) locks() []lock {
	x := s.file
	var specs []types.Dict
	if d, _ := x.Dict(s.fieldDict["Lock"]); d != nil {
		specs = append(specs, d)
	}
	refs, _ := x.Array(s.dict["Reference"])
	for _, o := range refs {
		sr, _ := x.Dict(o)
		if sr == nil {
			continue
		}
		if m := sr.NameEntry("TransformMethod"); m == nil || *m != "FieldMDP" {
			continue
		}
		if p, _ := x.Dict(sr["TransformParams"]); p != nil {
			specs = append(specs, p)
		}
	}
	var out []lock
	for _, d := range specs {
		a := d.NameEntry("Action")
		if a == nil {
			continue
		}
		l := lock{action: *a}
		names, _ := x.Array(d["Fields"])
		for _, n := range names {
			if v, _ := x.Resolve(n); v != nil {
				if s, err := types.StringOrHexLiteral(v); err == nil && s != nil {
					l.fields = append(l.fields, *s)
				}
			}
		}
		out = append(out, l)
	}
	return out
}

// fieldLockViolations reports the fields a signature locked, as signed,
// that were changed after it.
func (rd *reading) fieldLockViolations(f field) []ades.Problem {
	if f.end <= 0 || f.end >= len(rd.data) || len(f.problems) > 0 {
		return nil // nothing after it, or no sound byte range
	}
	s, ok := rd.signedRevision(f)
	if !ok {
		return nil
	}
	locks := s.locks()
	if len(locks) == 0 {
		return nil
	}
	var hit []string
	for _, name := range rd.changesAfter(f.end).filled {
		if slices.ContainsFunc(locks, func(l lock) bool { return l.covers(name) }) {
			hit = append(hit, name)
		}
	}
	if len(hit) == 0 {
		return nil
	}
	return []ades.Problem{{Code: CodeFieldMDPViolated, Message: "form fields this signature locked were changed after it: " + list(hit)}}
}
