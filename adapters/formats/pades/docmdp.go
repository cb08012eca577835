package pades

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
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

// revision opens the revision f covers. A signature without a sound byte
// range has none; one that does not open is reported by the comparison
// (modifications).
func (rd *reading) revision(f field) *pdf.File {
	if f.end <= 0 || len(f.problems) > 0 {
		return nil
	}
	if f.end == len(rd.data) {
		return rd.pdf
	}
	file, err := rd.revisionAt(f.end)
	if err != nil {
		return nil
	}
	return file
}

// certifiedBy returns the signature dictionary that the /Perms /DocMDP of
// file, the revision f covers, names when it is f's own (it has f's byte
// range), or nil.
func certifiedBy(file *pdf.File, f field) types.Dict {
	root, err := file.Catalog()
	if err != nil {
		return nil
	}
	perms, _ := file.Dict(root["Perms"])
	if perms == nil {
		return nil
	}
	if d, _ := file.Dict(perms["DocMDP"]); hasRange(d, f.byteRange) {
		return d
	}
	return nil
}

// signedField finds, in file, the revision f covers, the signature field
// whose value has f's byte range: the field and signature dictionary as
// signed. Both are nil when there is none.
func signedField(file *pdf.File, f field) (fieldDict, dict types.Dict) {
	root, err := file.Catalog()
	if err != nil {
		return nil, nil
	}
	form, _ := file.Dict(root["AcroForm"])
	if form == nil {
		return nil, nil
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
					fieldDict, dict = d, v
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
	return fieldDict, dict
}

// blankAfter reports whether nothing but white space follows data[:end].
func blankAfter(data []byte, end int) bool {
	return len(bytes.TrimSpace(data[min(end, len(data)):])) == 0
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
		// A signature over the whole document has nothing after it to
		// judge, and nothing later can be the certification.
		if f := &fields[i]; !f.docTimestamp && f.end > 0 && len(f.problems) == 0 && !blankAfter(rd.data, f.end) {
			order = append(order, f)
		}
	}
	slices.SortStableFunc(order, func(a, b *field) int { return a.end - b.end })
	for _, f := range order {
		file := rd.revision(*f)
		if file == nil {
			continue
		}
		sig := certifiedBy(file, *f)
		if sig == nil {
			continue
		}
		c := certification{field: f, p: 2}
		refs, _ := file.Array(sig["Reference"])
		for _, o := range refs {
			sr, err := file.Dict(o)
			if err != nil || sr == nil {
				continue
			}
			if m := sr.NameEntry("TransformMethod"); m == nil || *m != "DocMDP" {
				continue
			}
			params, _ := file.Dict(sr["TransformParams"])
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
// are always allowed (ETSI EN 319 142-1, 5.4). A page tree that does not
// read after the certification is among them: what changed cannot be
// shown to be allowed.
var undefinedChanges = []string{CodePagesChanged, CodePageContentChanged, CodePageTreeUnreadable, CodeObjectsChanged}

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
	for _, p := range c.after.problems {
		switch {
		case c.p < 3 && (p.Code == CodeAnnotationsAdded || p.Code == CodeAnnotationsChanged || p.Code == CodeShownAnnotationsChanged):
			violated("which does not permit adding, changing or removing annotations, and after it %s", p.Message)
		case slices.Contains(undefinedChanges, p.Code):
			violated("which permits no such change, and after it %s", p.Message)
		}
	}
	return out
}

// permit turns the changes to annotations that draw on the page, made
// after signature f, into the warning they are when the document was
// certified before f, or by f, with /P 3: the certifier permitted
// annotations (ISO 32000-2, Table 257), and what a later signer saw
// could be annotated under that permission.
func (c certification) permit(f field, problems []ades.Problem) {
	if c.field == nil || c.p != 3 || f.end < c.field.end {
		return
	}
	for i, p := range problems {
		if p.Code == CodeShownAnnotationsChanged {
			// The same sentence, said of a change the certification
			// permits: its variant "permitted-" and the shown one's.
			problems[i] = ades.Say(CodeAnnotationsChanged, "permitted-"+strings.TrimPrefix(p.ID, p.Code+"."), p.Message+" (the certification signature permits annotations)", p.Params...)
		}
	}
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

// locks reads the locks of a signature as x, its signed revision, holds
// them: fieldDict is its field there, dict its signature dictionary.
func locks(x *pdf.File, fieldDict, dict types.Dict) []lock {
	var specs []types.Dict
	if d, _ := x.Dict(fieldDict["Lock"]); d != nil {
		specs = append(specs, d)
	}
	refs, _ := x.Array(dict["Reference"])
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
	if f.end <= 0 || len(f.problems) > 0 || blankAfter(rd.data, f.end) {
		return nil // no sound byte range, or nothing after it
	}
	// The revision is opened only when a field was filled after it.
	filled := rd.changesAfter(f.end).filled
	if len(filled) == 0 {
		return nil
	}
	file := rd.revision(f)
	if file == nil {
		return nil
	}
	fieldDict, dict := signedField(file, f)
	ls := locks(file, fieldDict, dict)
	var hit []string
	for _, name := range filled {
		if slices.ContainsFunc(ls, func(l lock) bool { return l.covers(name) }) {
			hit = append(hit, name)
		}
	}
	if len(hit) == 0 {
		return nil
	}
	return []ades.Problem{ades.Say(CodeFieldMDPViolated, "fields", "form fields this signature locked were changed after it: "+list(hit), verdict.TextParam("Fields", list(hit)))}
}
