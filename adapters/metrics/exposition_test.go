package metrics

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/matryer/is"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TestWriteFloat: values are written as client_golang writes them.
func TestWriteFloat(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"},
		{math.Copysign(0, -1), "0"},
		{1, "1"},
		{-1, "-1"},
		{0.25, "0.25"},
		{90, "90"},
		{1 << 20, "1.048576e+06"},
		{1e21, "1e+21"},
		{123456, "123456"},
		{0.0001, "0.0001"},
		{0.00001, "1e-05"},
		{math.MaxInt64, "9.223372036854776e+18"},
		{math.MaxUint64, "1.8446744073709552e+19"},
		{math.Inf(+1), "+Inf"},
		{math.Inf(-1), "-Inf"},
		{math.NaN(), "NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			is := is.New(t)
			var b bytes.Buffer
			writeFloat(&b, tt.v)
			is.Equal(b.String(), tt.want)
		})
	}
}

// TestHelpEscaped: HELP escapes a backslash and a newline and leaves a
// double quote; the parser reads the text back.
func TestHelpEscaped(t *testing.T) {
	is := is.New(t)
	help := "a \\ backslash, a \"quote\" and\na newline"
	var b bytes.Buffer
	write(&b, []collector{collectorFunc(func(fs []family) []family {
		return append(fs, family{name: "x", help: help, typ: typeGauge, series: []series{{value: 1}}})
	})})
	is.Equal(b.String(), "# HELP x a \\\\ backslash, a \"quote\" and\\na newline\n# TYPE x gauge\nx 1\n")
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(b.String()))
	is.NoErr(err)
	is.Equal(families["x"].GetHelp(), help)
}

// TestSeriesOrder: label names are written sorted, the series sorted by
// their values in that order, families by name; families with no series
// are left out.
func TestSeriesOrder(t *testing.T) {
	is := is.New(t)
	v := newCounterVec("b_total", "B.", "zone", "area")
	v.with("z1", "a2").inc()
	v.with("z2", "a1").inc()
	v.with("z1", "a1").add(2.5)
	empty := newCounterVec("a_total", "A, never counted.", "x")
	gauge := collectorFunc(func(fs []family) []family {
		return append(fs, family{name: "a_gauge", help: "G.", typ: typeGauge, series: []series{{value: -3}}})
	})
	var b bytes.Buffer
	write(&b, []collector{v, empty, gauge})
	is.Equal(b.String(), `# HELP a_gauge G.
# TYPE a_gauge gauge
a_gauge -3
# HELP b_total B.
# TYPE b_total counter
b_total{area="a1",zone="z1"} 2.5
b_total{area="a1",zone="z2"} 1
b_total{area="a2",zone="z1"} 1
`)
}

// TestSummary: a summary's quantiles carry the quantile label after the
// family's labels, then come _sum and _count.
func TestSummary(t *testing.T) {
	is := is.New(t)
	var b bytes.Buffer
	write(&b, []collector{collectorFunc(func(fs []family) []family {
		return append(fs, family{name: "s", help: "S.", typ: typeSummary, labels: []string{"k"}, series: []series{{
			values: []string{"v"}, quantiles: []quantile{{0, 0.001}, {0.5, 0.002}, {1, 0.01}}, sum: 0.5, count: 100,
		}}})
	})})
	is.Equal(b.String(), `# HELP s S.
# TYPE s summary
s{k="v",quantile="0"} 0.001
s{k="v",quantile="0.5"} 0.002
s{k="v",quantile="1"} 0.01
s_sum{k="v"} 0.5
s_count{k="v"} 100
`)
}

// TestWrongLabelCount: a call with the wrong number of label values is
// a programming error and panics.
func TestWrongLabelCount(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	newCounterVec("c_total", "C.", "a", "b").with("only one")
}

// TestBucketsAscend: every bucket layout ascends strictly, as
// newHistogramVec requires.
func TestBucketsAscend(t *testing.T) {
	for _, bounds := range [][]float64{validationBuckets, operationBuckets, refreshBuckets, sizeBuckets} {
		newHistogramVec("h", "H.", bounds) // panics otherwise
	}
}

// TestSoftLimit: the soft limit of /proc/self/limits, unlimited as the
// largest uint64.
func TestSoftLimit(t *testing.T) {
	const limits = `Limit                     Soft Limit           Hard Limit           Units     
Max cpu time              unlimited            unlimited            seconds   
Max open files            1024                 524288               files     
Max address space         unlimited            unlimited            bytes     
`
	tests := []struct {
		name string
		want float64
		ok   bool
	}{
		{"Max open files", 1024, true},
		{"Max address space", math.MaxUint64, true},
		{"Max locked memory", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			v, ok := softLimit([]byte(limits), tt.name)
			is.Equal(ok, tt.ok)
			is.Equal(v, tt.want)
		})
	}
}
