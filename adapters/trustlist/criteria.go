package trustlist

import (
	"fmt"
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

// A CriteriaList (TS 119 612 §5.5.9.2.2) is a tree: an assert (all,
// atLeastOne, none) over criteria, where each KeyUsage element is one
// criterion (all its bits must match), each PolicySet is one criterion
// (all its identifiers must be present), each nested CriteriaList is one
// criterion, and otherCriteriaList adds more. [trust.Qualification] is
// flat: Assert over the criteria "certificate has policy OID x", one per
// PolicyOIDs entry, plus, when KeyUsage is non-empty, the one criterion
// "every named bit is set".
//
// qualification flattens the tree where that is exact and otherwise keeps
// a flattened approximation and says what was lost:
//
//   - a PolicySet of several identifiers splices into an "all" list;
//   - a nested list with one criterion and assert all or atLeastOne is
//     that criterion;
//   - a nested list with the same assert as its parent (all or
//     atLeastOne) splices into it, and so does an atLeastOne list inside
//     a "none" list (none(a, atLeastOne(b, c)) = none(a, b, c));
//   - several KeyUsage criteria merge into one only under "all".
//
// KeyUsageBit values of false ("the bit must be clear") cannot be
// expressed at all and are always reported. Identifiers written as URNs
// (urn:oid:1.2.3, Qualifier="OIDAsURN") are reduced to the dotted OID, as
// EU DSS does.
func qualification(r *rawQualElement, critical bool) (trust.Qualification, []string) {
	q := trust.Qualification{Critical: critical}
	for _, qu := range r.Qualifiers {
		if u := strings.TrimSpace(qu.URI); u != "" {
			q.Qualifiers = append(q.Qualifiers, u)
		}
	}
	f := flatten(&r.Criteria)
	q.Assert = f.assert
	q.PolicyOIDs = f.oids

	lost := f.lost
	set := map[string]bool{}
	for _, ku := range f.keyUsages {
		for _, b := range ku {
			if b.value {
				if !set[b.name] {
					set[b.name] = true
					q.KeyUsage = append(q.KeyUsage, b.name)
				}
			} else {
				lost = appendOnce(lost, "KeyUsageBit "+b.name+"=false")
			}
		}
	}
	if len(f.keyUsages) > 1 && f.assert != "all" {
		lost = appendOnce(lost, fmt.Sprintf("%d KeyUsage criteria under assert=%s", len(f.keyUsages), f.assert))
	}
	return q, lost
}

type keyUsageBit struct {
	name  string
	value bool
}

// flat is a CriteriaList after flattening: assert over oids (one
// criterion each) and keyUsages (one criterion each), plus what could not
// be represented.
type flat struct {
	assert    string
	oids      []string
	keyUsages [][]keyUsageBit
	lost      []string
}

func (f *flat) criteria() int { return len(f.oids) + len(f.keyUsages) }

func flatten(c *rawCriteria) flat {
	f := flat{assert: strings.TrimSpace(c.Assert)}
	for _, ku := range c.KeyUsage {
		bits := make([]keyUsageBit, 0, len(ku.Bits))
		for _, b := range ku.Bits {
			name := strings.TrimSpace(b.Name)
			switch strings.TrimSpace(b.Value) {
			case "true", "1":
				bits = append(bits, keyUsageBit{name, true})
			case "false", "0":
				bits = append(bits, keyUsageBit{name, false})
			default:
				f.lost = appendOnce(f.lost, fmt.Sprintf("KeyUsageBit %s has no boolean value", clip(name)))
			}
		}
		f.keyUsages = append(f.keyUsages, bits)
	}
	for _, ps := range c.PolicySets {
		var ids []string
		for _, id := range ps.Identifiers {
			if oid := policyOID(id.Identifier); oid != "" {
				ids = append(ids, oid)
			}
		}
		if len(ids) > 1 && f.assert != "all" {
			f.lost = appendOnce(f.lost, fmt.Sprintf("PolicySet of %d identifiers under assert=%s", len(ids), f.assert))
		}
		f.oids = append(f.oids, ids...)
	}
	for i := range c.Nested {
		n := flatten(&c.Nested[i])
		f.lost = append(f.lost, n.lost...)
		if !splices(f.assert, &n) {
			f.lost = appendOnce(f.lost, fmt.Sprintf("nested CriteriaList assert=%s inside assert=%s", n.assert, f.assert))
		}
		f.oids = append(f.oids, n.oids...)
		f.keyUsages = append(f.keyUsages, n.keyUsages...)
	}
	if c.Other != nil && len(c.Other.Children) > 0 {
		for _, o := range c.Other.Children {
			f.lost = appendOnce(f.lost, "otherCriteriaList "+clip(o.XMLName.Local))
		}
	}
	return f
}

// splices reports whether a nested list n can be merged into a parent with
// the given assert without changing its meaning.
func splices(parent string, n *flat) bool {
	switch {
	case n.criteria() == 1 && (n.assert == "all" || n.assert == "atLeastOne"):
		return true
	case n.assert == parent && (parent == "all" || parent == "atLeastOne"):
		return true
	case parent == "none" && n.assert == "atLeastOne":
		return true
	}
	return false
}

// policyOID reduces an Identifier to the dotted OID: lists write
// "1.2.3", "urn:oid:1.2.3" (OIDAsURN) and even "oid:1.2.3"; EU DSS keeps
// what follows the last colon, and so does this.
func policyOID(id string) string {
	id = strings.TrimSpace(id)
	if i := strings.LastIndexByte(id, ':'); i >= 0 {
		id = id[i+1:]
	}
	return id
}

func appendOnce(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}
