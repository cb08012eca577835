package metrics

import (
	"bytes"
	"errors"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
)

// userHZ is the unit of the times in /proc/self/stat: USER_HZ, which
// Linux fixes at 100 for user space (sysconf(_SC_CLK_TCK) would need
// cgo; client_golang's procfs assumes the same).
const userHZ = 100

// processFamilies reads the process figures client_golang's process
// collector gave, from /proc/self on Linux. A file that cannot be read
// or parsed leaves its families out of the scrape: elsewhere there are
// none.
func processFamilies(fs []family) []family {
	if runtime.GOOS != "linux" {
		return fs
	}
	one := func(name, typ, help string, v float64) family {
		return family{name: name, typ: typ, help: help, series: []series{{value: v}}}
	}
	if st, err := readStat(); err == nil {
		fs = append(fs,
			one("process_cpu_seconds_total", typeCounter, "Total user and system CPU time spent in seconds.", st.cpuSeconds),
			one("process_virtual_memory_bytes", typeGauge, "Virtual memory size in bytes.", st.virtualBytes),
			one("process_resident_memory_bytes", typeGauge, "Resident memory size in bytes.", st.residentBytes))
		if boot, err := bootTime(); err == nil {
			fs = append(fs, one("process_start_time_seconds", typeGauge, "Start time of the process since unix epoch in seconds.", boot+st.startSinceBoot))
		}
	}
	if n, err := openFDs(); err == nil {
		fs = append(fs, one("process_open_fds", typeGauge, "Number of open file descriptors.", float64(n)))
	}
	if b, err := os.ReadFile("/proc/self/limits"); err == nil {
		if v, ok := softLimit(b, "Max open files"); ok {
			fs = append(fs, one("process_max_fds", typeGauge, "Maximum number of open file descriptors.", v))
		}
		if v, ok := softLimit(b, "Max address space"); ok {
			fs = append(fs, one("process_virtual_memory_max_bytes", typeGauge, "Maximum amount of virtual memory available in bytes.", v))
		}
	}
	return fs
}

type stat struct {
	cpuSeconds, virtualBytes, residentBytes float64
	startSinceBoot                          float64 // seconds
}

var errStat = errors.New("metrics: /proc/self/stat: unexpected format")

// readStat reads /proc/self/stat (proc(5)).
func readStat() (stat, error) {
	b, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return stat{}, err
	}
	// The command name (field 2) is in parentheses and may hold spaces
	// and parentheses: the fields after it start after the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return stat{}, errStat
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state): field n of proc(5) is f[n-3].
	field := func(n int) float64 {
		if n-3 >= len(f) {
			err = errStat
			return 0
		}
		v, perr := strconv.ParseUint(f[n-3], 10, 64)
		if perr != nil {
			err = errStat
		}
		return float64(v)
	}
	st := stat{
		cpuSeconds:     (field(14) + field(15)) / userHZ, // utime + stime
		startSinceBoot: field(22) / userHZ,               // starttime
		virtualBytes:   field(23),                        // vsize
		residentBytes:  field(24) * float64(os.Getpagesize()),
	}
	return st, err
}

// bootTime reads the time the system booted, in seconds since 1970,
// from the btime line of /proc/stat.
func bootTime() (float64, error) {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(b)) {
		if v, ok := strings.CutPrefix(line, "btime "); ok {
			return strconv.ParseFloat(strings.TrimSpace(v), 64)
		}
	}
	return 0, errors.New("metrics: /proc/stat: no btime")
}

// openFDs counts the entries of /proc/self/fd, the directory's own
// descriptor included, as client_golang did.
func openFDs() (int, error) {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return 0, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	return len(names), err
}

// softLimit reads the soft limit named name from /proc/self/limits
// ("Max open files  1024  524288  files"); unlimited is the largest
// uint64, as client_golang reported it.
func softLimit(limits []byte, name string) (float64, bool) {
	for line := range strings.Lines(string(limits)) {
		rest, ok := strings.CutPrefix(line, name)
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		if f[0] == "unlimited" {
			return math.MaxUint64, true
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		return float64(v), err == nil
	}
	return 0, false
}
