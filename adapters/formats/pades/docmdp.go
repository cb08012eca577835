package pades

import (
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/domain/ades"
)

// certification is the certification signature of a document, if any
// (ISO 32000-2, 12.8.2.2: the catalog's /Perms /DocMDP), and the changes
// its author allowed after it.
type certification struct {
	field *field
	// p is /P of the DocMDP transform parameters: 1 no changes, 2 form
	// filling and signing, 3 also annotations (2 when absent).
	p int
	// after is what the updates after it changed.
	after changes
}

// docMDP finds the certification signature among fields.
func (rd *reading) docMDP(fields []field) certification {
	x := rd.pdf
	root, err := x.Catalog()
	if err != nil {
		return certification{}
	}
	perms, err := x.Dict(root["Perms"])
	if err != nil || perms == nil {
		return certification{}
	}
	ref, ok := perms["DocMDP"].(types.IndirectRef)
	if !ok {
		return certification{}
	}
	for i := range fields {
		f := &fields[i]
		if f.ref == nil || *f.ref != ref {
			continue
		}
		c := certification{field: f, p: 2}
		refs, _ := x.Array(f.dict["Reference"])
		for _, o := range refs {
			sr, err := x.Dict(o)
			if err != nil || sr == nil {
				continue
			}
			if m := sr.NameEntry("TransformMethod"); m == nil || *m != "DocMDP" {
				continue
			}
			params, _ := x.Dict(sr["TransformParams"])
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

// violations reports the changes after the certification signature that
// its /P does not allow (ISO 32000-2, 12.8.2.2.2). Document security
// store updates and document time-stamps are always allowed (ETSI EN
// 319 142-1, 5.4); pages or content changed are format failures anyway.
func (c certification) violations(fields []field) []ades.Problem {
	if c.field == nil {
		return nil
	}
	var out []ades.Problem
	later := 0
	for _, f := range fields {
		if !f.docTimestamp && f.end > c.field.end {
			later++
		}
	}
	if c.p == 1 && later > 0 {
		out = append(out, ades.Problem{Code: CodeDocMDPViolated, Message: fmt.Sprintf(
			"the document was certified with no changes permitted (DocMDP /P 1), and %d signature(s) were added after it", later)})
	}
	if c.p == 1 && len(c.after.filled) > 0 {
		out = append(out, ades.Problem{Code: CodeDocMDPViolated, Message: fmt.Sprintf(
			"the document was certified with no changes permitted (DocMDP /P 1), and form fields were filled in after it: %s", list(c.after.filled))})
	}
	if c.p < 3 && (c.after.annotsAdded || c.after.annotsChanged) {
		out = append(out, ades.Problem{Code: CodeDocMDPViolated, Message: fmt.Sprintf(
			"the document was certified with DocMDP /P %d, which does not permit adding or changing annotations, and annotations were added or changed after it", c.p)})
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

// locks reads the locks of a signature field.
func (rd *reading) locks(f field) []lock {
	x := rd.pdf
	var specs []types.Dict
	if d, _ := x.Dict(f.fieldDict["Lock"]); d != nil {
		specs = append(specs, d)
	}
	refs, _ := x.Array(f.dict["Reference"])
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

// fieldLockViolations reports the fields a signature locked that were
// changed after it.
func (rd *reading) fieldLockViolations(f field) []ades.Problem {
	locks := rd.locks(f)
	if len(locks) == 0 || len(f.problems) > 0 {
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
