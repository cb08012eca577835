package qualification

import (
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

// timeline expands a listing into its periods, newest first, as
// [trust.Service.Timeline] reads them.
func timeline(l Listing) []entry {
	s := l.Service
	var out []entry
	for _, p := range s.Timeline() {
		out = append(out, entry{listing: l, name: s.Name, typ: p.Type, typeURI: p.TypeURI, status: p.Status, statusURI: p.StatusURI,
			start: p.Start, end: p.End, quals: p.Qualifications, asi: p.AdditionalInfo})
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
