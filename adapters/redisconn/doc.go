// Package redisconn opens the Redis client that the shared stores of
// several replicas use: the signer's replay store (adapters/replay) and
// the validator's UI sessions (adapters/session).
//
// # Failing fast
//
// Both stores guard something a replica must not decide alone: whether a
// token was used, whether a browser is signed in. When Redis does not
// answer, the caller fails closed (502) rather than accept or invent a
// state, so a request should learn that quickly rather than hold its
// client for the library's defaults (a 5-second dial, three retries). The
// client dials within [DialTimeout], reads and writes within [IOTimeout],
// and retries a failed command once: the stores' writes are idempotent
// or conditional (SET NX), so a retry never records twice.
//
// # Secrets
//
// The password may come in the URL (redis://:secret@host:6379/0) or
// separately ([Options.Password], which wins). Neither appears in an
// error of this package: a URL is shown with its password replaced.
//
// # Logging
//
// The library logs a few lines of its own (a pool that cannot dial);
// [LogTo] sends them to the program's logger.
package redisconn
