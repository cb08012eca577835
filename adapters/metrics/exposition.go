package metrics

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
)

// The types of metric family the text format names on its # TYPE line.
const (
	typeCounter   = "counter"
	typeGauge     = "gauge"
	typeHistogram = "histogram"
	typeSummary   = "summary"
)

// A family is one metric family as a scrape finds it.
type family struct {
	name, help, typ string
	// labels are the names of the family's labels, in the order of each
	// series' values.
	labels []string
	series []series
}

// A series is one labelled member of a family: a value for counters
// and gauges, buckets or quantiles with sum and count for histograms and
// summaries.
type series struct {
	values    []string
	value     float64
	buckets   []bucket // cumulative, the last one above every bound (le="+Inf")
	quantiles []quantile
	sum       float64
	count     uint64
}

type bucket struct {
	le    float64
	count uint64
}

type quantile struct{ q, v float64 }

// A collector adds its families, as they are at the moment, to a scrape.
type collector interface {
	collect(fs []family) []family
}

// collectorFunc reads its families when asked: the gauges read from
// the trust store, the HSM, the Go runtime and the process.
type collectorFunc func(fs []family) []family

func (f collectorFunc) collect(fs []family) []family { return f(fs) }

// write writes the families of cs in the Prometheus text exposition
// format 0.0.4, in the order client_golang writes them, so that a
// scrape reads the same as before it was replaced: families sorted by
// name, label names sorted, series sorted by their label values in that
// order; a family without series is left out.
func write(b *bytes.Buffer, cs []collector) {
	var fs []family
	for _, c := range cs {
		fs = c.collect(fs)
	}
	fs = slices.DeleteFunc(fs, func(f family) bool { return len(f.series) == 0 })
	slices.SortFunc(fs, func(a, b family) int { return strings.Compare(a.name, b.name) })
	for _, f := range fs {
		writeFamily(b, f)
	}
}

func writeFamily(b *bytes.Buffer, f family) {
	order := make([]int, len(f.labels))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return strings.Compare(f.labels[i], f.labels[j]) })
	slices.SortFunc(f.series, func(s, t series) int {
		for _, i := range order {
			if c := strings.Compare(s.values[i], t.values[i]); c != 0 {
				return c
			}
		}
		return 0
	})

	b.WriteString("# HELP ")
	b.WriteString(f.name)
	b.WriteByte(' ')
	writeEscaped(b, f.help, false)
	b.WriteString("\n# TYPE ")
	b.WriteString(f.name)
	b.WriteByte(' ')
	b.WriteString(f.typ)
	b.WriteByte('\n')
	for _, s := range f.series {
		sample := func(suffix, extra string, extraValue, v float64) {
			b.WriteString(f.name)
			b.WriteString(suffix)
			sep := byte('{')
			for _, i := range order {
				b.WriteByte(sep)
				b.WriteString(f.labels[i])
				b.WriteString(`="`)
				writeEscaped(b, s.values[i], true)
				b.WriteByte('"')
				sep = ','
			}
			if extra != "" {
				b.WriteByte(sep)
				b.WriteString(extra)
				b.WriteString(`="`)
				writeFloat(b, extraValue)
				b.WriteByte('"')
				sep = ','
			}
			if sep == ',' {
				b.WriteByte('}')
			}
			b.WriteByte(' ')
			writeFloat(b, v)
			b.WriteByte('\n')
		}
		switch f.typ {
		case typeHistogram:
			for _, k := range s.buckets {
				sample("_bucket", "le", k.le, float64(k.count))
			}
			sample("_sum", "", 0, s.sum)
			sample("_count", "", 0, float64(s.count))
		case typeSummary:
			for _, q := range s.quantiles {
				sample("", "quantile", q.q, q.v)
			}
			sample("_sum", "", 0, s.sum)
			sample("_count", "", 0, float64(s.count))
		default:
			sample("", "", 0, s.value)
		}
	}
}

// writeEscaped writes s with backslash and newline escaped, and the
// double quote too when quoted (a label value; HELP text leaves it).
// Bytes that are not UTF-8 become U+FFFD: the format is UTF-8, and a
// strict parser refuses the whole scrape over one bad label value.
func writeEscaped(b *bytes.Buffer, s string, quoted bool) {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '"' && quoted:
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
}

// writeFloat writes f as client_golang does: the shortest 'g' form,
// "+Inf", "-Inf", "NaN", and 0 for negative zero.
func writeFloat(b *bytes.Buffer, f float64) {
	switch {
	case f == 0:
		b.WriteByte('0')
	case math.IsNaN(f):
		b.WriteString("NaN")
	case math.IsInf(f, +1):
		b.WriteString("+Inf")
	case math.IsInf(f, -1):
		b.WriteString("-Inf")
	default:
		b.Write(strconv.AppendFloat(b.AvailableBuffer(), f, 'g', -1, 64))
	}
}

// vec holds the members of a family with labels, one per combination of
// label values, each made at its first use. A family without labels has
// its one member made with it, so that it shows from the first scrape.
type vec[M any] struct {
	name, help string
	labels     []string
	newMember  func() *M

	mu      sync.RWMutex
	members map[string]*member[M]
}

type member[M any] struct {
	values []string
	m      *M
}

func newVec[M any](name, help string, labels []string, newMember func() *M) *vec[M] {
	v := &vec[M]{name: name, help: help, labels: labels, newMember: newMember, members: map[string]*member[M]{}}
	if len(labels) == 0 {
		v.with()
	}
	return v
}

// with returns the member of values, one per label and in the order of
// the labels. A wrong count is a programming error and panics.
func (v *vec[M]) with(values ...string) *M {
	if len(values) != len(v.labels) {
		panic(fmt.Sprintf("metrics: %s has %d labels, got %d values", v.name, len(v.labels), len(values)))
	}
	// 0xff is no byte of UTF-8, so the key of UTF-8 values is
	// unambiguous; values that are not UTF-8 are written as U+FFFD and
	// could only collide with each other.
	key := strings.Join(values, "\xff")
	v.mu.RLock()
	e := v.members[key]
	v.mu.RUnlock()
	if e != nil {
		return e.m
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if e := v.members[key]; e != nil {
		return e.m
	}
	e = &member[M]{values: slices.Clone(values), m: v.newMember()}
	v.members[key] = e
	return e.m
}

// each calls f with each member, under the read lock.
func (v *vec[M]) each(f func(values []string, m *M)) {
	v.mu.RLock()
	defer v.mu.RUnlock()
	for _, e := range v.members {
		f(e.values, e.m)
	}
}

// A counter only goes up. Its value is a float64's bits, added to by
// compare-and-swap: counting never waits for a scrape or another count.
type counter struct{ bits atomic.Uint64 }

func (c *counter) add(v float64) {
	for {
		old := c.bits.Load()
		if c.bits.CompareAndSwap(old, math.Float64bits(math.Float64frombits(old)+v)) {
			return
		}
	}
}

func (c *counter) inc() { c.add(1) }

func (c *counter) value() float64 { return math.Float64frombits(c.bits.Load()) }

type counterVec struct{ *vec[counter] }

func newCounterVec(name, help string, labels ...string) counterVec {
	return counterVec{newVec(name, help, labels, func() *counter { return new(counter) })}
}

func (v counterVec) collect(fs []family) []family {
	f := family{name: v.name, help: v.help, typ: typeCounter, labels: v.labels}
	v.each(func(values []string, c *counter) {
		f.series = append(f.series, series{values: values, value: c.value()})
	})
	return append(fs, f)
}

// A histogram counts observations in buckets of upper bounds (le: less
// than or equal). A mutex, not atomics, keeps a scrape's buckets, sum
// and count of the same observations.
type histogram struct {
	bounds []float64 // ascending, +Inf implied

	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative; the last above every bound
	sum    float64
}

func (h *histogram) observe(v float64) {
	i := sort.SearchFloat64s(h.bounds, v) // the first bound >= v; NaN goes above all
	h.mu.Lock()
	h.counts[i]++
	h.sum += v
	h.mu.Unlock()
}

func (h *histogram) series(values []string) series {
	s := series{values: values, buckets: make([]bucket, len(h.counts))}
	h.mu.Lock()
	for i, n := range h.counts {
		s.count += n
		s.buckets[i] = bucket{le: math.Inf(+1), count: s.count}
		if i < len(h.bounds) {
			s.buckets[i].le = h.bounds[i]
		}
	}
	s.sum = h.sum
	h.mu.Unlock()
	return s
}

type histogramVec struct{ *vec[histogram] }

// newHistogramVec panics unless bounds ascend strictly: bucket layouts
// are constants of this package.
func newHistogramVec(name, help string, bounds []float64, labels ...string) histogramVec {
	for i := 1; i < len(bounds); i++ {
		if !(bounds[i-1] < bounds[i]) {
			panic("metrics: the buckets of " + name + " do not ascend")
		}
	}
	return histogramVec{newVec(name, help, labels, func() *histogram {
		return &histogram{bounds: bounds, counts: make([]uint64, len(bounds)+1)}
	})}
}

func (v histogramVec) collect(fs []family) []family {
	f := family{name: v.name, help: v.help, typ: typeHistogram, labels: v.labels}
	v.each(func(values []string, h *histogram) { f.series = append(f.series, h.series(values)) })
	return append(fs, f)
}
