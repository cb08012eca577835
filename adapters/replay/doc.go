// Package replay is an in-memory [ports.ReplayStore]: it remembers
// single-use identifiers, such as the jti of the signing proxy's JWT
// (signing.md A.6 item 4), until they expire.
//
// # One process only
//
// A Store lives in one process. A cluster of signing-server replicas
// behind a load balancer needs a store shared by all of them: an
// in-process cache "does not coordinate across multiple API instances",
// so a token refused as replayed by one replica is accepted by the next.
// Use a shared store there, for example a PostgreSQL table with a unique
// key on the id (INSERT … ON CONFLICT DO NOTHING, and a periodic DELETE of
// expired rows) or Redis (SET id 1 NX PX <ms until expiry>). This package
// is right for a single instance, for development and for tests.
//
// # Bounded
//
// A Store holds at most its capacity of unexpired ids. When it is full,
// Use refuses with an error wrapping [ErrFull] rather than forget an id
// that has not expired: forgetting would reopen the replay window, while
// refusing only costs availability (the signing server answers 502). Size
// it for the peak request rate times the longest time an id is kept. For
// the signing JWT that is 7 minutes (a lifetime of 5 minutes, an iat up to
// 60 s ahead, and 60 s of skew past exp): 100 requests a second need
// 42,000 entries, about 10 MB.
package replay
