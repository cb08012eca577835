// Package session is an in-memory [ports.SessionStore]: the browser
// sessions of the validator's UI, bounded in number and forgotten when
// they expire.
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
// # One process only
//
// A Store lives in one process: replicas behind a load balancer need
// sticky sessions or a shared store (a PostgreSQL table or Redis keyed by
// the session ID, with the expiry as TTL) implementing the same port.
package session
