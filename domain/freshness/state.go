package freshness

import "fmt"

// State is the freshness state of one trusted list, or of the aggregate of
// all public lists (validation-service.md §3, "Trust-list freshness
// states"). The zero value is unset and never returned by [Evaluate] or
// [Aggregate].
//
// The constants are declared in worst-wins order: a higher value is a
// worse state, and the aggregate takes the highest. NEVER_LOADED is the
// worst, because §3 rule 3 makes one unusable list show the aggregate as
// NEVER_LOADED while the other lists stay usable.
type State uint8

const (
	_ State = iota
	// Current: an online refresh of the list succeeded in this process
	// within warn-after, and the list's own NextUpdate is in the future.
	Current // CURRENT
	// CacheOnly: the copy was loaded from the on-disk cache and no online
	// refresh of it has succeeded in this process; not yet stale on either
	// axis.
	CacheOnly // CACHE_ONLY
	// Stale: warn-after reached since the last online confirmation (for a
	// copy never confirmed online, since its issue date), or the list's own
	// NextUpdate reached.
	Stale // STALE
	// Expired: fail-after reached on either axis: since the last online
	// confirmation (or issue date), or since the list's NextUpdate lapsed.
	Expired // EXPIRED
	// NeverLoaded: no usable copy of the list is held; it yields no anchors.
	NeverLoaded // NEVER_LOADED
)

func (s State) String() string {
	switch s {
	case Current:
		return "CURRENT"
	case CacheOnly:
		return "CACHE_ONLY"
	case Stale:
		return "STALE"
	case Expired:
		return "EXPIRED"
	case NeverLoaded:
		return "NEVER_LOADED"
	}
	return ""
}

// ParseState reads a state name as [State.String] writes it.
func ParseState(name string) (State, error) {
	for s := Current; s <= NeverLoaded; s++ {
		if s.String() == name {
			return s, nil
		}
	}
	return 0, fmt.Errorf("freshness: unknown state %q", name)
}

// AnchorsAvailable reports whether a list in state s yields anchors (the
// "Anchors available" column of the §3 state table): every state but
// NEVER_LOADED and the unset zero value.
func (s State) AnchorsAvailable() bool { return s >= Current && s < NeverLoaded }

// worst returns the worse of two states in the order of the constants.
func worst(a, b State) State { return max(a, b) }
