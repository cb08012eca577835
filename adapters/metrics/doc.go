// Package metrics holds the Prometheus metrics of the two programs, each
// on a registry of its own: two servers in one process (the tests) never
// share a counter, and there is no global registry.
//
// It takes plain values (names, counts, durations), never domain types:
// the signer links it and must link nothing of validation. The app layer
// translates verdicts and trust snapshots into these values
// (app/validator), and reports through the ports' observers
// (ports.SignObserver, ports.RevocationObserver), which the types here
// implement.
//
// Names follow the Prometheus conventions: the svc_dss_ prefix, _total
// on counters, base units (_seconds, _bytes) and no unit in a label.
// Label values are bounded sets (outcomes, formats, list territories),
// never a tenant, a document or a URL.
//
// # The exposition, without client_golang
//
// The package writes the [text exposition format] 0.0.4 itself rather
// than link github.com/prometheus/client_golang: that client's package
// initialisation (its default registry's collectors, procfs patterns,
// protobuf descriptors) cost every start of the binary about 2.5 ms of
// CPU, some 15 % of a one-shot `validator validate` of a small PDF
// (docs/decisions/0039-metrics.md). The output is the one client_golang
// wrote: families sorted by name, label names sorted, series sorted by
// their label values, the same float formatting and escaping; there is
// no protobuf format and no content negotiation.
//
// Beside the svc_dss_ families each registry exposes what client_golang's
// default Go and process collectors did, under the same names, read only
// at a scrape (nothing at package initialisation or in New):
//   - go_goroutines, go_threads, go_info{version}, go_gc_duration_seconds
//     (a summary of the GC pauses with the quantiles 0, 0.25, 0.5, 0.75
//     and 1, from [runtime/debug.ReadGCStats], as client_golang gave it),
//     go_memstats_last_gc_time_seconds, go_gc_gomemlimit_bytes and
//     go_sched_gomaxprocs_threads;
//   - the go_memstats_ byte and object figures (heap_alloc_bytes,
//     heap_inuse_bytes, sys_bytes...), the fields of [runtime.MemStats]
//     they are named after. client_golang computed them from
//     runtime/metrics; that package's initialisation is what every start
//     would pay, ReadMemStats's pause (some microseconds) only a scrape.
//     go_gc_gogc_percent is not written: GOGC cannot be read without
//     setting it;
//   - on Linux, from /proc/self: process_cpu_seconds_total,
//     process_resident_memory_bytes, process_virtual_memory_bytes,
//     process_virtual_memory_max_bytes, process_open_fds,
//     process_max_fds, process_start_time_seconds. What cannot be read
//     (another system, a file missing) is left out of the scrape rather
//     than failing it. The network counters (process_network_*), which
//     are the network namespace's and not the process's, are not written.
//
// [text exposition format]: https://prometheus.io/docs/instrumenting/exposition_formats/
package metrics
