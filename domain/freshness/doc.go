// Package freshness decides, at read time, how fresh and how authentic
// each public trusted list is, folds the lists into the store's state, and
// words the banner (validation-service.md §3, "States and transitions").
//
// Most callers need three functions: [Evaluate] turns one [List] into a
// [Status] at a given instant, [Aggregate] folds the statuses into a
// [Summary] (trustData's state, current and last-confirmed date), and
// [Summary.Banner] gives the notice to show. [Record] moves a [List]
// forward by one refresh [Outcome].
//
// # States
//
// Each list is in one of five [State]s, computed when read from two
// independent axes; the worse axis wins (§3 rule 1):
//
//	axis 1, since the last online confirmation (issue date if never confirmed):
//	    < warn-after            CURRENT (confirmed in this process) or CACHE_ONLY
//	    >= warn-after           STALE
//	    >= fail-after           EXPIRED
//	axis 2, since the list's own NextUpdate (issue date if the list is closed):
//	    before NextUpdate       CURRENT or CACHE_ONLY, as on axis 1
//	    >= NextUpdate           STALE, whatever the thresholds (rule 2)
//	    >= NextUpdate+fail-after EXPIRED, even while refreshes succeed
//	no usable copy held         NEVER_LOADED
//
// A threshold is crossed at the instant it is reached. Time alone moves a
// list CURRENT -> STALE -> EXPIRED and CACHE_ONLY -> STALE -> EXPIRED; a
// successful refresh ([Record] with a confirmation) moves any list to
// CURRENT unless an axis holds it back. Failing (consecutive failures at
// the failure threshold) is a flag beside the state, not a sixth state.
// Authenticity is independent of freshness: a list whose own signature is
// not VALID is Degraded whatever its state. Decision 0012
// (docs/decisions/0012-freshness.md) records the choices the spec leaves
// open: the offset after NextUpdate, boundaries, order and dates.
//
// # Aggregate
//
// Worst wins in the order CURRENT < CACHE_ONLY < STALE < EXPIRED <
// NEVER_LOADED, so one unusable member-state list shows the store as
// NEVER_LOADED while the others stay usable (rule 3); the store counts as
// empty ('no trusted list is loaded') only when no list yields anchors.
//
// # Non-goals
//
// No clock, no I/O, no scheduling: the caller passes now, and the refresh
// job (in app) downloads, parses, checks signatures and logs raw failure
// text; this package receives only the outcomes. Private CA anchors are
// outside freshness (§2, "Private CA anchor"): they are never a [List] and
// their notAfter is checked elsewhere. Nothing here blocks a verdict (§1.8):
// states annotate. Per-signature annotations and qualification are the
// business of the verdict and qualification packages.
package freshness
