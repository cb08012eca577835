package trustlist

import (
	"fmt"
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

// The TrustServiceEquivalenceStatus values of the MRA schema. Only the
// first, written exactly (after trimming white space), enacts an
// equivalence.
const (
	mraEnacted  = "http://ec.europa.eu/tools/lotl/mra/enacted"
	mraRepealed = "http://ec.europa.eu/tools/lotl/mra/repealed"
)

// mra converts a pointer's MutualRecognitionAgreementInformation. Nothing
// in it fails the list: the agreement is an addition to the pointer, and
// a flaw in it is resolved towards recognising less or, when ambiguous,
// towards the first value written (doc.go, "Mutual recognition"). Each
// flaw becomes a [NoticeMRANotRepresented] (or, inside a content
// declaration, a [NoticeCriteriaNotRepresented]) under path.
//
// The result is never nil, even without equivalences: the pointer still
// announces a third-country list, which must not be read as a member
// state's.
func (c *converter) mra(path string, r *rawMRA) *trust.MRA {
	m := &trust.MRA{}
	if len(r.Equivalences) > 0 {
		m.Equivalences = make([]trust.ServiceEquivalence, 0, len(r.Equivalences))
	}
	for i := range r.Equivalences {
		m.Equivalences = append(m.Equivalences,
			c.equivalence(fmt.Sprintf("%s/TrustServiceEquivalenceInformation[%d]", path, i), &r.Equivalences[i]))
	}
	return m
}

// equivalence converts one TrustServiceEquivalenceInformation.
//
// An equivalence is enacted only when its status is exactly the enacted
// URI and its starting time can be read: an agreement that cannot be
// placed in time cannot say which status periods it covers.
//
// Type and status lists pair each pointed-party value with the first
// pointing-party value (EU DSS substitutes the first status, and one of
// several types); more than one pointing-party value is ambiguous and
// noticed.
func (c *converter) equivalence(path string, r *rawEquivalence) trust.ServiceEquivalence {
	notice := func(format string, args ...any) {
		c.notice(NoticeMRANotRepresented, path, fmt.Sprintf(format, args...))
	}
	e := trust.ServiceEquivalence{LegalIdentifier: strings.TrimSpace(r.LegalIdentifier)}

	status := strings.TrimSpace(r.Status)
	if status != mraEnacted && status != mraRepealed {
		notice("TrustServiceEquivalenceStatus %q is neither enacted nor repealed: not enacted", clip(status))
	}
	from, err := parseDateTime(r.Start)
	switch {
	case err != nil:
		notice("TrustServiceEquivalenceStatusStartingTime: %v: not enacted", err)
	case from.IsZero():
		notice("no TrustServiceEquivalenceStatusStartingTime: not enacted")
	default:
		e.From = from
		e.Enacted = status == mraEnacted
	}

	e.Types = typeEquivalences(r.PointingTypes, r.PointedTypes, notice)
	e.ValidStatuses = statusEquivalences("a valid", r.ValidStatuses, notice)
	e.InvalidStatuses = statusEquivalences("an invalid", r.InvalidStatuses, notice)

	for _, q := range r.Qualifiers {
		ing, ed := strings.TrimSpace(q.Pointing.URI), strings.TrimSpace(q.Pointed.URI)
		if ing == "" || ed == "" {
			notice("a QualifierEquivalence without both qualifier URIs: dropped")
			continue
		}
		e.Qualifiers = append(e.Qualifiers, trust.URIEquivalence{Pointing: ing, Pointed: ed})
	}

	seen := make(map[string]bool, len(r.Content))
	for k := range r.Content {
		rc := &r.Content[k]
		var lost []string
		ce := trust.ContentEquivalence{
			Context:  strings.TrimSpace(rc.Context),
			Pointing: criteria(&rc.Pointing, &lost),
			Pointed:  criteria(&rc.Pointed, &lost),
		}
		cpath := fmt.Sprintf("%s/CertificateContentReferencesEquivalenceList/CertificateContentReferenceEquivalence[%d]", path, k)
		if len(lost) > 0 {
			c.notice(NoticeCriteriaNotRepresented, cpath, strings.Join(lost, "; "))
		}
		switch ce.Context {
		case trust.ContextQcCompliance, trust.ContextQcType, trust.ContextQcQSCD:
		default:
			// EU DSS keeps such an entry and applies no rule to it; so
			// does the domain, which reads the three contexts only.
			c.notice(NoticeMRANotRepresented, cpath, fmt.Sprintf("context %q is not QcCompliance, QcType or QcQSCD: kept, no rule reads it", clip(ce.Context)))
		}
		if seen[ce.Context] {
			c.notice(NoticeMRANotRepresented, cpath, fmt.Sprintf("context %q given more than once: each entry is kept", clip(ce.Context)))
		}
		seen[ce.Context] = true
		e.Content = append(e.Content, ce)
	}

	if n := len(r.History); n > 0 {
		notice("%d TrustServiceEquivalenceHistory dropped: an equivalence has no end time in the domain, so only the current one is kept", n)
	}
	return e
}

// typeEquivalences pairs every pointed-party type with the first
// pointing-party one.
func typeEquivalences(pointing, pointed []rawTypeRef, notice func(string, ...any)) []trust.TypeEquivalence {
	ing, ed := typeRefs(pointing, notice), typeRefs(pointed, notice)
	switch {
	case len(ed) == 0:
		notice("no pointed-party service type: the equivalence maps no service")
		return nil
	case len(ing) == 0:
		notice("no pointing-party service type: the equivalence maps no service")
		return nil
	case len(ing) > 1:
		notice("%d pointing-party service types: every pointed type maps to the first", len(ing))
	}
	out := make([]trust.TypeEquivalence, 0, len(ed))
	for _, t := range ed {
		out = append(out, trust.TypeEquivalence{Pointing: ing[0], Pointed: t})
	}
	return out
}

func typeRefs(rs []rawTypeRef, notice func(string, ...any)) []trust.ServiceTypeRef {
	var out []trust.ServiceTypeRef
	for _, r := range rs {
		ref := trust.ServiceTypeRef{TypeURI: strings.TrimSpace(r.Type)}
		if ref.TypeURI == "" {
			notice("a TrustServiceTSLType without ServiceTypeIdentifier: dropped")
			continue
		}
		for _, a := range r.AdditionalInfo {
			if u := strings.TrimSpace(a.URI); u != "" {
				ref.AdditionalInfo = append(ref.AdditionalInfo, u)
			}
		}
		out = append(out, ref)
	}
	return out
}

// statusEquivalences pairs every pointed-party status of each entry with
// the entry's first pointing-party status. kind ("a valid", "an invalid")
// names the entries in notices.
func statusEquivalences(kind string, rs []rawStatusEquivalence, notice func(string, ...any)) []trust.URIEquivalence {
	var out []trust.URIEquivalence
	for _, r := range rs {
		ing, ed := nonEmpty(r.Pointing.Statuses), nonEmpty(r.Pointed.Statuses)
		switch {
		case len(ed) == 0:
			notice("%s status equivalence without a pointed-party status: dropped", kind)
			continue
		case len(ing) == 0:
			notice("%s status equivalence without a pointing-party status: dropped", kind)
			continue
		case len(ing) > 1:
			notice("%s status equivalence with %d pointing-party statuses: the first is used", kind, len(ing))
		}
		for _, s := range ed {
			out = append(out, trust.URIEquivalence{Pointing: ing[0], Pointed: s})
		}
	}
	return out
}
