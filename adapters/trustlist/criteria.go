package trustlist

import (
	"fmt"
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

// qualification reads one QualificationElement. Its CriteriaList (TS 119
// 612 §5.5.9.2.2) is kept as the tree it is: an assert (all, atLeastOne,
// none) over criteria, where each KeyUsage element, each PolicySet, each
// nested CriteriaList and each otherCriteriaList entry is one criterion.
//
// What the tree cannot hold is returned as the details of a
// [NoticeCriteriaNotRepresented]: KeyUsageBit values that are not xsd
// booleans (the bit is left out of its KeyUsage criterion) and
// otherCriteriaList entries other than CertSubjectDNAttribute,
// ExtendedKeyUsage (additional types namespace) and QcStatementSet (MRA
// namespace), which are named in [trust.Criteria].Unknown.
//
// Identifiers written as URNs (urn:oid:1.2.3, Qualifier="OIDAsURN") are
// reduced to the dotted OID, as EU DSS does. Every criterion is kept,
// even one left empty (a PolicySet whose identifiers are all blank), so
// that the number of criteria an assert counts is the document's.
func qualification(r *rawQualElement, critical bool) (trust.Qualification, []string) {
	q := trust.Qualification{Critical: critical}
	for _, qu := range r.Qualifiers {
		if u := strings.TrimSpace(qu.URI); u != "" {
			q.Qualifiers = append(q.Qualifiers, u)
		}
	}
	var lost []string
	q.Criteria = criteria(&r.Criteria, &lost)
	return q, lost
}

// criteria converts one CriteriaList and, recursively, its nested lists.
// The recursion is as deep as the document nests, which MaxDepth bounds
// while the tokens stream in (limits.go).
func criteria(c *rawCriteria, lost *[]string) trust.Criteria {
	out := trust.Criteria{Assert: strings.TrimSpace(c.Assert)}
	for _, ku := range c.KeyUsage {
		var bits []trust.KeyUsageBit
		for _, b := range ku.Bits {
			name := strings.TrimSpace(b.Name)
			switch strings.TrimSpace(b.Value) {
			case "true", "1":
				bits = append(bits, trust.KeyUsageBit{Name: name, Value: true})
			case "false", "0":
				bits = append(bits, trust.KeyUsageBit{Name: name, Value: false})
			default:
				*lost = appendOnce(*lost, fmt.Sprintf("KeyUsageBit %s has no boolean value", clip(name)))
			}
		}
		out.KeyUsage = append(out.KeyUsage, bits)
	}
	for _, ps := range c.PolicySets {
		out.PolicySets = append(out.PolicySets, oids(ps.Identifiers))
	}
	for i := range c.Nested {
		out.Nested = append(out.Nested, criteria(&c.Nested[i], lost))
	}
	if o := c.Other; o != nil {
		for _, a := range o.SubjectAttributes {
			out.SubjectAttributes = append(out.SubjectAttributes, oids(a.OIDs))
		}
		for _, e := range o.ExtendedKeyUsage {
			out.ExtendedKeyUsage = append(out.ExtendedKeyUsage, oids(e.OIDs))
		}
		for i := range o.QcStatementSets {
			out.QcStatements = append(out.QcStatements, qcStatements(&o.QcStatementSets[i]))
		}
		for _, u := range o.Unknown {
			out.Unknown = append(out.Unknown, clip(u.XMLName.Local))
			*lost = appendOnce(*lost, fmt.Sprintf("otherCriteriaList {%s}%s", clip(u.XMLName.Space), clip(u.XMLName.Local)))
		}
	}
	return out
}

// qcStatements converts a QcStatementSet: every statement, with the
// QcType OIDs and QcCClegislation country codes its QcStatementInfo asks
// for.
func qcStatements(s *rawQcStatementSet) []trust.QcStatementCriterion {
	var out []trust.QcStatementCriterion
	for _, st := range s.Statements {
		qc := trust.QcStatementCriterion{ID: policyOID(st.ID.Identifier)}
		for _, info := range st.Info {
			qc.Types = append(qc.Types, oids(info.Types)...)
			for _, l := range info.Legislation {
				if v := strings.TrimSpace(l.Value); v != "" {
					qc.Legislation = append(qc.Legislation, v)
				}
				qc.Legislation = append(qc.Legislation, nonEmpty(l.Countries)...)
			}
		}
		out = append(out, qc)
	}
	return out
}

// oids returns the non-empty identifiers of ObjectIdentifierType elements
// as dotted OIDs.
func oids(ids []rawOID) []string {
	var out []string
	for _, id := range ids {
		if oid := policyOID(id.Identifier); oid != "" {
			out = append(out, oid)
		}
	}
	return out
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
