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
// expire soonest: usually a login that was started and abandoned (they
// live minutes) rather than a signed-in session (idle timeout). Refusing
// instead would let anyone who can start logins lock everybody out;
// evicting costs at worst a user who must sign in again. Size it for the
// peak number of concurrent browsers; each session holds its last
// validation result (the summary and the details the reports need), so
// that, not the session itself, dominates the memory.
//
// # One process only
//
// A Store lives in one process: replicas behind a load balancer need
// sticky sessions or a shared store (a PostgreSQL table or Redis keyed by
// the session ID, with the expiry as TTL) implementing the same port.
package session
