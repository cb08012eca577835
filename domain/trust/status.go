package trust

import (
	"slices"
	"time"
)

// A Period is one status of a service's timeline: the status in force
// from its Start up to End (zero: still in force).
type Period struct {
	StatusPeriod
	End time.Time
}

// Timeline returns s's statuses, newest first, as ETSI TS 119 612 reads
// them (§5.5.4, §5.6): the current status is in force from its
// StatusStartingTime on, and each history entry was in force from its own
// StatusStartingTime until the next later period began. Lists give the
// history newest first; the order is not relied on.
//
// A history entry that starts when the current status does or later
// contradicts it, since history is what held before. Such an entry is left
// out: were it sorted in by its date, a forged or misdated entry would put
// an older status back in force over the current one. A nil s has no
// timeline.
func (s *Service) Timeline() []Period {
	if s == nil {
		return nil
	}
	out := []Period{{StatusPeriod: StatusPeriod{Type: s.Type, TypeURI: s.TypeURI, Status: s.Status, StatusURI: s.StatusURI,
		Start: s.StatusStart, Identity: s.Identity, Qualifications: s.Qualifications, AdditionalInfo: s.AdditionalInfo}}}
	for _, h := range s.History {
		if !h.Start.Before(s.StatusStart) {
			continue
		}
		out = append(out, Period{StatusPeriod: h})
	}
	// Stable, so that of two history entries with one start the one listed
	// first (the newer, lists being newest first) is in force.
	slices.SortStableFunc(out[1:], func(a, b Period) int { return b.Start.Compare(a.Start) })
	for i := 1; i < len(out); i++ {
		out[i].End = out[i-1].Start
	}
	return out
}

// StatusAt returns the period of s's timeline in force at t (Start <= t <
// End), and false when none is: t precedes every status the list gives.
func (s *Service) StatusAt(t time.Time) (Period, bool) {
	for _, p := range s.Timeline() {
		if !p.Start.After(t) && (p.End.IsZero() || t.Before(p.End)) {
			return p, true
		}
	}
	return Period{}, false
}

// Approved reports whether a service in status s is approved by its
// supervisory or accreditation body, so that its digital identity may
// serve as a trust anchor: granted and recognisedatnationallevel (TS 119
// 612 §5.5.4), setbynationallaw, and the pre-eIDAS undersupervision,
// supervisionincessation and accredited. Withdrawn, deprecated, ceased,
// revoked and unknown statuses are not approved. This is the list of
// acceptable statuses of DSS's default validation policy
// (TrustServiceStatus); it does not say whether the service is qualified.
func (s Status) Approved() bool {
	switch s {
	case StatusGranted, StatusRecognisedAtNational, StatusSetByNationalLaw,
		StatusUnderSupervision, StatusSupervisionInCessation, StatusAccredited:
		return true
	}
	return false
}
