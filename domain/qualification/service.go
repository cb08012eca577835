package qualification

import (
	"slices"
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// A Listing is a trust service whose digital identity holds an anchor
// certificate, with the list it is on.
type Listing struct {
	Service   *trust.Service
	Territory string
	Framework trust.Framework
}

// An entry is one period of a service's status history (ETSI TS 119 615,
// 4.3.2): from Start up to End (zero: still in force).
type entry struct {
	listing    Listing
	name       string
	typ        trust.ServiceType
	typeURI    string
	status     trust.Status
	statusURI  string
	start, end time.Time
	quals      []trust.Qualification
	asi        []string
}

// timeline expands a listing into its periods, newest first, as TS 119 612
// reads them (§5.5.4, §5.6): the current status is in force from its
// StatusStartingTime on, and each history entry was in force from its own
// StatusStartingTime until the next later period began. Lists give the
// history newest first; the order is not relied on.
//
// A history entry that starts when the current status does or later
// contradicts it, since history is what held before. Such an entry is left
// out: were it sorted in by its date, a forged or misdated entry would put
// an older status back in force over the current one.
func timeline(l Listing) []entry {
	s := l.Service
	if s == nil {
		return nil
	}
	out := []entry{{listing: l, name: s.Name, typ: s.Type, typeURI: s.TypeURI, status: s.Status, statusURI: s.StatusURI,
		start: s.StatusStart, quals: s.Qualifications, asi: s.AdditionalInfo}}
	for _, h := range s.History {
		if !h.Start.Before(s.StatusStart) {
			continue
		}
		out = append(out, entry{listing: l, name: s.Name, typ: h.Type, typeURI: h.TypeURI, status: h.Status, statusURI: h.StatusURI,
			start: h.Start, quals: h.Qualifications, asi: h.AdditionalInfo})
	}
	// Stable, so that of two history entries with one start the one listed
	// first (the newer, lists being newest first) is in force.
	slices.SortStableFunc(out[1:], func(a, b entry) int { return b.start.Compare(a.start) })
	for i := 1; i < len(out); i++ {
		out[i].end = out[i-1].start
	}
	return out
}

// at keeps the entries in force at t: Start <= t < End.
func at(listings []Listing, t time.Time) []entry {
	var out []entry
	for _, l := range listings {
		for _, e := range timeline(l) {
			if !e.start.After(t) && (e.end.IsZero() || t.Before(e.end)) {
				out = append(out, e)
			}
		}
	}
	return out
}

func (e entry) postEIDAS() bool { return !e.start.Before(EIDASDate) }
func (e entry) granted() bool   { return granted(e.status, e.start) }

// statusName is the last segment of the status URI, for messages.
func (e entry) statusName() string {
	u := e.statusURI
	for i := len(u) - 1; i >= 0; i-- {
		if u[i] == '/' {
			return u[i+1:]
		}
	}
	return u
}

func (e entry) typeName() string {
	const etsi = "http://uri.etsi.org/TrstSvc/Svctype/"
	const swiss = "https://uri.tsl-switzerland.ch/TrstSvc/Svctype/"
	u := e.typeURI
	switch {
	case len(u) > len(etsi) && u[:len(etsi)] == etsi:
		return u[len(etsi):]
	case len(u) > len(swiss) && u[:len(swiss)] == swiss:
		return u[len(swiss):]
	}
	return u
}
