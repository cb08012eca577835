package trustlist

import (
	"slices"
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// ApplyMRA maps the services of l, a third-country trusted list, onto the
// pointing party's (eIDAS) terms through m, the agreement carried by the
// LOTL pointer to l ([trust.Pointer].MRA), as EU DSS's trust-service
// equivalence does (ETSI TS 119 612 Annex K; the EU's MRA pilot). Nil l or
// m is a no-op.
//
// Each service's current status and each of its history entries is
// mapped on its own, by these rules:
//
//   - Matching. An entry matches an equivalence that is enacted and has a
//     type equivalence whose pointed-party ref has the entry's TypeURI
//     and, when that ref lists AdditionalInfo URIs, all of them among the
//     entry's. A repealed (or not enacted) equivalence never matches. An
//     entry matching no equivalence, or several (EU DSS then applies none
//     either), is left as read: a type in the third country's own
//     namespace stays [trust.TypeOther], never qualified.
//   - Type. TypeURI and AdditionalInfo become the pointing-party ref's, and
//     Type the vocabulary's enum for that URI ([ServiceTypeOf]).
//   - Status. StatusURI is mapped through ValidStatuses, then
//     InvalidStatuses (pointed to pointing), and Status is [StatusOf] the
//     result. A status the equivalence does not map, and any status
//     period that starts before the equivalence's From (the agreement
//     does not reach back before it took effect), does not count: it
//     becomes the pointing party's first invalid status (withdrawn, in
//     the pilot) when the equivalence has one, else [trust.StatusOther]
//     with the URI kept as read. The current status, when it began
//     before From, is split there: uncounted before, counted from From
//     on (a history entry ending at From is added). A history entry that
//     began before From stays uncounted.
//   - Qualifiers. Every qualifier URI of every Qualification is mapped
//     through Qualifiers; a URI the equivalence does not map is kept. The
//     criteria are kept: they describe the third country's certificates.
//   - Equivalence. Service.Equivalence is set to the equivalence used for
//     the current status, else for the newest history entry that matched,
//     so that the qualification can apply its certificate content
//     equivalences. [trust.StatusPeriod] has no such field.
//
// ApplyMRA updates the services in place, through l.Providers and each
// provider's Services and History slices: a caller that keeps the list as
// read must copy those first. The fields it replaces get new slices, so
// their old backing arrays (and m, which the services then point into)
// are never written. It does not check that m comes from the pointer to
// l, nor look at any certificate: the qualification judges certificates
// by the periods and content equivalences this leaves.
func ApplyMRA(l *trust.List, m *trust.MRA) {
	if l == nil || m == nil {
		return
	}
	x := newEquivalenceIndex(m)
	if len(x) == 0 {
		return
	}
	for i := range l.Providers {
		svcs := l.Providers[i].Services
		for j := range svcs {
			s := &svcs[j]
			read := *s
			used := x.apply(period{&s.Type, &s.TypeURI, &s.Status, &s.StatusURI, s.StatusStart, &s.Qualifications, &s.AdditionalInfo})
			if mp, _ := x.match(read.TypeURI, read.AdditionalInfo); used != nil && mp != nil && s.StatusStart.Before(used.From) {
				// The current status began before the agreement took
				// effect: uncounted up to From, counted from then on,
				// as a history entry and a current status starting at From.
				if to, ok := mp.statuses[read.StatusURI]; ok {
					before := trust.StatusPeriod{Type: s.Type, TypeURI: s.TypeURI, Status: s.Status, StatusURI: s.StatusURI,
						Start: s.StatusStart, Qualifications: s.Qualifications, AdditionalInfo: s.AdditionalInfo}
					s.History = append([]trust.StatusPeriod{before}, s.History...)
					s.StatusStart, s.StatusURI, s.Status = used.From, to, StatusOf(to)
				}
			}
			for k := range s.History {
				h := &s.History[k]
				e := x.apply(period{&h.Type, &h.TypeURI, &h.Status, &h.StatusURI, h.Start, &h.Qualifications, &h.AdditionalInfo})
				if used == nil {
					used = e
				}
			}
			if used != nil {
				s.Equivalence = used
			}
		}
	}
}

// period is what ApplyMRA reads and writes of a service's current status
// or of one history entry, which have the same fields under other names.
type period struct {
	typ       *trust.ServiceType
	typeURI   *string
	status    *trust.Status
	statusURI *string
	start     time.Time
	quals     *[]trust.Qualification
	asi       *[]string
}

// equivalenceIndex holds the enacted equivalences of an MRA with their
// status and qualifier tables, built once per ApplyMRA call.
type equivalenceIndex []mapping

type mapping struct {
	eq         *trust.ServiceEquivalence
	statuses   map[string]string // pointed → pointing; valid ones first
	qualifiers map[string]string // pointed → pointing
	invalid    string            // the pointing party's first invalid status
}

func newEquivalenceIndex(m *trust.MRA) equivalenceIndex {
	var x equivalenceIndex
	for i := range m.Equivalences {
		eq := &m.Equivalences[i]
		if !eq.Enacted {
			continue
		}
		mp := mapping{
			eq:         eq,
			statuses:   make(map[string]string, len(eq.ValidStatuses)+len(eq.InvalidStatuses)),
			qualifiers: make(map[string]string, len(eq.Qualifiers)),
		}
		// The first mapping of a URI wins, valid before invalid, so that
		// a document listing a status twice reads as it is written first.
		for _, lists := range [][]trust.URIEquivalence{eq.ValidStatuses, eq.InvalidStatuses} {
			for _, u := range lists {
				if _, ok := mp.statuses[u.Pointed]; !ok {
					mp.statuses[u.Pointed] = u.Pointing
				}
			}
		}
		for _, u := range eq.InvalidStatuses {
			if u.Pointing != "" {
				mp.invalid = u.Pointing
				break
			}
		}
		for _, u := range eq.Qualifiers {
			if _, ok := mp.qualifiers[u.Pointed]; !ok {
				mp.qualifiers[u.Pointed] = u.Pointing
			}
		}
		x = append(x, mp)
	}
	return x
}

// match returns the one enacted equivalence that a period of type typeURI
// with additional information asi matches, with the type equivalence that
// matched (the first of that equivalence), or nil when none or several
// match.
func (x equivalenceIndex) match(typeURI string, asi []string) (*mapping, *trust.TypeEquivalence) {
	var found *mapping
	var ref *trust.TypeEquivalence
	for i := range x {
		for k := range x[i].eq.Types {
			t := &x[i].eq.Types[k]
			if t.Pointed.TypeURI != typeURI || !containsAll(asi, t.Pointed.AdditionalInfo) {
				continue
			}
			if found != nil {
				return nil, nil
			}
			found, ref = &x[i], t
			break
		}
	}
	return found, ref
}

// apply maps p through the equivalence it matches and returns that
// equivalence, or returns nil and leaves p alone.
func (x equivalenceIndex) apply(p period) *trust.ServiceEquivalence {
	mp, t := x.match(*p.typeURI, *p.asi)
	if mp == nil {
		return nil
	}
	*p.typeURI = t.Pointing.TypeURI
	*p.typ = ServiceTypeOf(t.Pointing.TypeURI)
	*p.asi = slices.Clone(t.Pointing.AdditionalInfo)

	to, mapped := mp.statuses[*p.statusURI]
	switch {
	case mapped && !p.start.Before(mp.eq.From):
		*p.statusURI = to
		*p.status = StatusOf(to)
	case mp.invalid != "":
		*p.statusURI = mp.invalid
		*p.status = StatusOf(mp.invalid)
	default:
		// No pointing-party status to give: keep the URI for reports,
		// but never let a pointed-party URI that happens to be in the
		// vocabulary count as one.
		*p.status = trust.StatusOther
	}

	*p.quals = mapQualifiers(*p.quals, mp.qualifiers)
	return mp.eq
}

// mapQualifiers returns qs with every qualifier URI mapped through to, in
// new slices.
func mapQualifiers(qs []trust.Qualification, to map[string]string) []trust.Qualification {
	if len(qs) == 0 {
		return qs
	}
	out := make([]trust.Qualification, len(qs))
	for i, q := range qs {
		out[i] = q
		if len(q.Qualifiers) == 0 {
			continue
		}
		out[i].Qualifiers = make([]string, len(q.Qualifiers))
		for k, u := range q.Qualifiers {
			if v, ok := to[u]; ok {
				u = v
			}
			out[i].Qualifiers[k] = u
		}
	}
	return out
}

func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
