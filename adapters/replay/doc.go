// Package replay holds the [ports.ReplayStore]s: they remember
// single-use identifiers, such as the jti of the signing proxy's JWT
// (signing.md A.6 item 4), until they expire. [Store] keeps them in
// memory; [Redis] in a Redis shared by several replicas.
//
// # One process or several
//
// A Store lives in one process. A cluster of signing-server replicas
// behind a load balancer needs a store shared by all of them: an
// in-process cache "does not coordinate across multiple API instances",
// so a token refused as replayed by one replica is accepted by the next.
// [Redis] is that store: one SET id 1 NX PX <ms until expiry> per use,
// atomic on the server, so that of two replicas racing for one id
// exactly one wins (docs/decisions/0040). A Store is right for a single
// instance, for development and for tests.
//
// Whichever store, an error is never a grant: a caller that cannot
// record an id refuses what it guards (the signing server answers 502).
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
