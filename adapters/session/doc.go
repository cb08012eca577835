// Package session holds the [ports.SessionStore]s of the validator's
// browser UI: [Store] keeps the sessions in memory, bounded in number;
// [Redis] keeps them in a Redis shared by several replicas. Both forget a
// session when it expires.
//
// # Expiry
//
// A session is forgotten at its Expires instant: [Store.Get] and
// [Store.Update] never return it afterwards. The store does not decide
// how long a session lives; the application moves Expires on each use
// (idle timeout) within its absolute limit. Expired sessions are swept on
// every Create, in O(log n) each, so memory is returned without a timer.
//
// # Bounded
//
// A Store holds at most its capacity of sessions. A Create into a full
// store, after sweeping the expired ones, evicts the session that would
// expire soonest. Only a completed login creates a session (and, in
// development under permit-all, a first visit); a login in progress lives
// in the browser, sealed (app/validator/login.go). So only people who signed in can
// fill the store, and an anonymous flood of login starts evicts no one. Refusing instead of evicting would let one tenant's
// users lock everybody else out; evicting costs at worst a user who must
// sign in again. Size it for the peak number of signed-in browsers; each
// session holds its last document's two reports, so those, not the
// session itself, dominate the memory.
//
// # One process or several
//
// A Store lives in one process: replicas behind a load balancer need
// sticky sessions or [Redis], where a browser signed in on one replica is
// signed in on all (docs/decisions/0040). In Redis each session keeps its
// last validation's reports beside it, under a bound of their own
// ([DefaultMaxReportBytes]).
package session
