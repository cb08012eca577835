package metrics

import (
	"runtime"
	"runtime/debug"
	"time"
)

// memStatsFamilies are the figures of runtime.MemStats that
// client_golang's Go collector exposed, under its names.
var memStatsFamilies = [...]struct {
	name, typ, help string
	value           func(*runtime.MemStats) uint64
}{
	{"go_memstats_alloc_bytes", typeGauge, "Heap bytes allocated and in use.", func(m *runtime.MemStats) uint64 { return m.Alloc }},
	{"go_memstats_alloc_bytes_total", typeCounter, "Heap bytes allocated since the start, freed ones included.", func(m *runtime.MemStats) uint64 { return m.TotalAlloc }},
	{"go_memstats_sys_bytes", typeGauge, "Bytes obtained from the system.", func(m *runtime.MemStats) uint64 { return m.Sys }},
	{"go_memstats_mallocs_total", typeCounter, "Heap objects allocated since the start.", func(m *runtime.MemStats) uint64 { return m.Mallocs }},
	{"go_memstats_frees_total", typeCounter, "Heap objects freed since the start.", func(m *runtime.MemStats) uint64 { return m.Frees }},
	{"go_memstats_heap_alloc_bytes", typeGauge, "Heap bytes allocated and in use, as go_memstats_alloc_bytes.", func(m *runtime.MemStats) uint64 { return m.HeapAlloc }},
	{"go_memstats_heap_sys_bytes", typeGauge, "Heap bytes obtained from the system.", func(m *runtime.MemStats) uint64 { return m.HeapSys }},
	{"go_memstats_heap_idle_bytes", typeGauge, "Heap bytes waiting to be used.", func(m *runtime.MemStats) uint64 { return m.HeapIdle }},
	{"go_memstats_heap_inuse_bytes", typeGauge, "Heap bytes in spans in use.", func(m *runtime.MemStats) uint64 { return m.HeapInuse }},
	{"go_memstats_heap_released_bytes", typeGauge, "Heap bytes returned to the system.", func(m *runtime.MemStats) uint64 { return m.HeapReleased }},
	{"go_memstats_heap_objects", typeGauge, "Heap objects allocated and not yet freed.", func(m *runtime.MemStats) uint64 { return m.HeapObjects }},
	{"go_memstats_stack_inuse_bytes", typeGauge, "Bytes of goroutine stacks in use.", func(m *runtime.MemStats) uint64 { return m.StackInuse }},
	{"go_memstats_stack_sys_bytes", typeGauge, "Bytes of stacks obtained from the system.", func(m *runtime.MemStats) uint64 { return m.StackSys }},
	{"go_memstats_mspan_inuse_bytes", typeGauge, "Bytes of mspan structures in use.", func(m *runtime.MemStats) uint64 { return m.MSpanInuse }},
	{"go_memstats_mspan_sys_bytes", typeGauge, "Bytes of mspan structures obtained from the system.", func(m *runtime.MemStats) uint64 { return m.MSpanSys }},
	{"go_memstats_mcache_inuse_bytes", typeGauge, "Bytes of mcache structures in use.", func(m *runtime.MemStats) uint64 { return m.MCacheInuse }},
	{"go_memstats_mcache_sys_bytes", typeGauge, "Bytes of mcache structures obtained from the system.", func(m *runtime.MemStats) uint64 { return m.MCacheSys }},
	{"go_memstats_buck_hash_sys_bytes", typeGauge, "Bytes of the profiling bucket hash table.", func(m *runtime.MemStats) uint64 { return m.BuckHashSys }},
	{"go_memstats_gc_sys_bytes", typeGauge, "Bytes of garbage collection metadata.", func(m *runtime.MemStats) uint64 { return m.GCSys }},
	{"go_memstats_other_sys_bytes", typeGauge, "Bytes of other runtime allocations.", func(m *runtime.MemStats) uint64 { return m.OtherSys }},
	{"go_memstats_next_gc_bytes", typeGauge, "Heap size the next garbage collection aims at.", func(m *runtime.MemStats) uint64 { return m.NextGC }},
}

// goFamilies reads the Go runtime's figures. runtime.ReadMemStats
// stops the world, about 10 µs here, once a scrape; client_golang read
// runtime/metrics instead, whose package initialisation (about 60 µs,
// GODEBUG=inittrace=1) every start of the binary would pay, the one-shot
// validate command included, for the sake of the server's scrapes.
func goFamilies(fs []family) []family {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	for _, f := range memStatsFamilies {
		fs = append(fs, family{name: f.name, help: f.help, typ: f.typ, series: []series{{value: float64(f.value(&ms))}}})
	}

	// PauseQuantiles of 5 asks for the minimum, the quartiles and the
	// maximum of the recent pauses (the runtime keeps the last 256).
	gc := debug.GCStats{PauseQuantiles: make([]time.Duration, 5)}
	debug.ReadGCStats(&gc)
	pauses := series{sum: gc.PauseTotal.Seconds(), count: uint64(gc.NumGC)}
	for i, q := range []float64{0, 0.25, 0.5, 0.75, 1} {
		pauses.quantiles = append(pauses.quantiles, quantile{q: q, v: gc.PauseQuantiles[i].Seconds()})
	}
	var lastGC float64
	if gc.NumGC > 0 {
		lastGC = float64(gc.LastGC.UnixNano()) / 1e9
	}
	threads, _ := runtime.ThreadCreateProfile(nil)
	return append(fs,
		family{name: "go_gc_duration_seconds", typ: typeSummary, series: []series{pauses},
			help: "A summary of the wall-time pause (stop-the-world) duration in garbage collection cycles."},
		family{name: "go_memstats_last_gc_time_seconds", typ: typeGauge, series: []series{{value: lastGC}},
			help: "Seconds since 1970 of the end of the last garbage collection."},
		family{name: "go_gc_gomemlimit_bytes", typ: typeGauge, series: []series{{value: float64(debug.SetMemoryLimit(-1))}}, // -1 reads it
			help: "Memory limit of the runtime, GOMEMLIMIT or debug.SetMemoryLimit."},
		family{name: "go_sched_gomaxprocs_threads", typ: typeGauge, series: []series{{value: float64(runtime.GOMAXPROCS(0))}},
			help: "Threads that may run Go code at once, GOMAXPROCS."},
		family{name: "go_goroutines", typ: typeGauge, series: []series{{value: float64(runtime.NumGoroutine())}},
			help: "Number of goroutines that currently exist."},
		family{name: "go_threads", typ: typeGauge, series: []series{{value: float64(threads)}},
			help: "Number of OS threads created."},
		family{name: "go_info", typ: typeGauge, labels: []string{"version"}, series: []series{{values: []string{runtime.Version()}, value: 1}},
			help: "Information about the Go environment."},
	)
}
