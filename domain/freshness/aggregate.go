package freshness

import (
	"slices"
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// Summary is the freshness of the whole public trust store: the EU LOTL,
// the member-state lists and the Swiss list. It is what trustData and the
// trust-status response carry (validation-service.md §2, "trustData").
type Summary struct {
	// State is the worst state of any list, in the order of the State
	// constants (CURRENT < CACHE_ONLY < STALE < EXPIRED < NEVER_LOADED).
	// NEVER_LOADED when there are no lists or none yields anchors.
	State State
	// AnyAnchors reports that at least one held list yields anchors. Only
	// when it is false does the store have nothing to anchor on: the banner
	// then says 'no trusted list is loaded' (§3 rule 3), and this is the
	// "empty trust store" of health-down-when-never-loaded.
	AnyAnchors bool
	// Current is trustData.current: true only when there is at least one
	// list and every list is CURRENT, authenticated VALID, not failing and
	// has no parse failure pending.
	Current bool
	// LastConfirmed is the date the trust data was last confirmed: the
	// oldest [Status.LastConfirmed] among the lists that hold a copy, so
	// that it never claims more than the weakest list. Zero when no list
	// holds a copy.
	LastConfirmed time.Time
	// Degraded reports that some list failed or could not get its
	// signature check (§3 "Authenticity").
	Degraded bool
	// Failing reports that some list's refreshes are failing.
	Failing bool
	// Category is the most important problem in the store:
	// [CategoryNoListLoaded] when AnyAnchors is false, else the highest
	// ranked category of any list. Zero when Current.
	Category Category
	// Lists are the statuses aggregated, in the order given.
	Lists []Status
}

// Aggregate folds the statuses of the public lists into one summary,
// worst wins (§3 rule 3):
//
//	> The aggregate state is worst-wins across lists. One unusable
//	> member-state list shows the aggregate as NEVER_LOADED while other
//	> lists stay usable. The text 'no trusted list is loaded' is used only
//	> when no list has anchors.
//
// Private CA anchors are never inputs: they have no freshness and neither
// make the store look degraded nor healthy (§2, "Private CA anchor"). The
// caller passes the statuses of every configured public list, each from
// [Evaluate] at the same instant; to judge one verdict by the list its
// anchor came from (§3 rule 6), pass only that list's status.
func Aggregate(statuses []Status) Summary {
	sum := Summary{State: NeverLoaded, Lists: slices.Clone(statuses)}
	if len(statuses) > 0 {
		sum.State = 0
		sum.Current = true
	}
	for _, s := range statuses {
		sum.State = worst(sum.State, s.State)
		sum.AnyAnchors = sum.AnyAnchors || (s.List.Loaded && s.List.Anchors > 0)
		sum.Degraded = sum.Degraded || s.Degraded
		sum.Failing = sum.Failing || s.Failing
		sum.Current = sum.Current && s.State == Current && s.List.Authenticity == trust.AuthValid && !s.Degraded &&
			!s.Failing && !s.List.ParseFailed
		if s.Category.Outranks(sum.Category) {
			sum.Category = s.Category
		}
		if s.List.Loaded && !s.LastConfirmed.IsZero() &&
			(sum.LastConfirmed.IsZero() || s.LastConfirmed.Before(sum.LastConfirmed)) {
			sum.LastConfirmed = s.LastConfirmed
		}
	}
	if !sum.AnyAnchors {
		// No store at all (§3 "Degraded behaviour" 3), whatever state a
		// held list without anchors (a lone LOTL) is in.
		sum.State = NeverLoaded
		sum.Category = CategoryNoListLoaded
		sum.Current = false
	}
	return sum
}
