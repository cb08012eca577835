package pades

import (
	"fmt"

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
	// annotsAdded is whether annotations were added after it.
	annotsAdded bool
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
		for _, pr := range rd.changesAfter(f.end) {
			if pr.Code == CodeAnnotationsAdded {
				c.annotsAdded = true
			}
		}
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
	if c.p < 3 && c.annotsAdded {
		out = append(out, ades.Problem{Code: CodeDocMDPViolated, Message: fmt.Sprintf(
			"the document was certified with DocMDP /P %d, which does not permit adding annotations, and annotations were added after it", c.p)})
	}
	return out
}
