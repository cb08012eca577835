// Package domain is the root of the pure logic: signature evidence
// (ades), certificate paths (certpath), the ETSI EN 319 102-1 process
// (etsi), the trust snapshot (trust), list freshness (freshness),
// qualification, the public result types (verdict), reports and the
// signing rules. Its subpackages hold the code; this package holds the
// rule that keeps them pure, checked by TestDependencies.
//
// # The rule
//
// Domain packages import only the standard library, ports and other domain
// packages, and of the standard library nothing that does I/O, reads the
// clock or the environment, or logs: no net, os, database/sql, log, slog
// or math/rand. Time is a parameter.
package domain
