package metrics_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/svc-dss/dss/adapters/metrics"
	"github.com/svc-dss/dss/fixtures/metricset"
)

// exposition returns what m writes for a scrape.
func exposition(t *testing.T, m io.WriterTo) string {
	t.Helper()
	var b bytes.Buffer
	if _, err := m.WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// parse reads text with expfmt's parser, the strict and independent
// check of the format, and checks what it lets through: every family
// has its HELP, the families come sorted by name, and no family has two
// series of the same labels.
func parse(t *testing.T, text string) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(strings.NewReader(text))
	if err != nil {
		t.Fatalf("%v\n%s", err, text)
	}
	var names []string
	for line := range strings.Lines(text) {
		if name, ok := strings.CutPrefix(line, "# TYPE "); ok {
			names = append(names, strings.Fields(name)[0])
		}
	}
	if !slices.IsSorted(names) {
		t.Errorf("families not sorted by name: %q", names)
	}
	for name, f := range families {
		if f.Help == nil {
			t.Errorf("%s has no HELP", name)
		}
		seen := map[string]bool{}
		for _, m := range f.GetMetric() {
			key := labelsOf(m)
			if seen[key] {
				t.Errorf("%s: two series of {%s}", name, key)
			}
			seen[key] = true
		}
	}
	return families
}

func labelsOf(m *dto.Metric) string {
	var s []string
	for _, l := range m.GetLabel() {
		s = append(s, l.GetName()+"="+l.GetValue())
	}
	return strings.Join(s, ",")
}

// count is the number of series of the families names.
func count(families map[string]*dto.MetricFamily, names ...string) int {
	n := 0
	for _, name := range names {
		n += len(families[name].GetMetric())
	}
	return n
}

// familyText is the lines of the families names in text, in its order.
func familyText(text string, names ...string) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		name := line
		if rest, ok := strings.CutPrefix(line, "# "); ok {
			name = rest[len("HELP "):] // HELP and TYPE are of a length
		}
		name = name[:strings.IndexAny(name, " {")]
		for _, n := range names {
			if name == n || (strings.HasPrefix(name, n+"_") && slices.Contains([]string{"_bucket", "_sum", "_count"}, name[len(n):])) {
				b.WriteString(line)
				break
			}
		}
	}
	return b.String()
}

// TestRegistriesApart: two servers in one process have metrics of their
// own; counting on one leaves the other at zero.
func TestRegistriesApart(t *testing.T) {
	is := is.New(t)
	a, b := metrics.NewValidator(nil), metrics.NewValidator(nil)
	a.Validation("PAdES", "TOTAL_PASSED", "EU", "QESig")
	a.HTTPError(400, "unreadable-upload")
	is.Equal(count(parse(t, exposition(t, a)), "svc_dss_validations_total", "svc_dss_http_error_responses_total"), 2)
	is.Equal(count(parse(t, exposition(t, b)), "svc_dss_validations_total", "svc_dss_http_error_responses_total"), 0)
	s1, s2 := metrics.NewSigner(nil), metrics.NewSigner(nil)
	s1.ReplayRefused()
	families := parse(t, exposition(t, s2))
	is.Equal(count(families, "svc_dss_sign_replay_refusals_total"), 1) // a plain counter is always exposed
	is.Equal(families["svc_dss_sign_replay_refusals_total"].GetMetric()[0].GetCounter().GetValue(), 0.0)
}

// TestListGauges: the per-list gauges are read from the trust store at
// each scrape; a list never confirmed has no age.
func TestListGauges(t *testing.T) {
	is := is.New(t)
	m := metrics.NewValidator(func() []metrics.List {
		return []metrics.List{
			{Territory: "EU", Kind: "LOTL", Framework: "EU", State: "CURRENT", Authenticity: "VALID", Confirmed: true, SinceConfirmation: 90 * time.Second},
			{Territory: "DE", Kind: "TL", Framework: "EU", State: "NEVER_LOADED", Authenticity: "NOT_CHECKED", Anchors: 0, ConsecutiveFailures: 2},
		}
	})
	const want = `# HELP svc_dss_trusted_list_consecutive_failures Failed refreshes of each trusted list since its last success.
# TYPE svc_dss_trusted_list_consecutive_failures gauge
svc_dss_trusted_list_consecutive_failures{kind="LOTL",territory="EU"} 0
svc_dss_trusted_list_consecutive_failures{kind="TL",territory="DE"} 2
# HELP svc_dss_trusted_list_seconds_since_online_confirmation Seconds since a refresh last confirmed each trusted list with its publisher; absent for a list never confirmed.
# TYPE svc_dss_trusted_list_seconds_since_online_confirmation gauge
svc_dss_trusted_list_seconds_since_online_confirmation{kind="LOTL",territory="EU"} 90
# HELP svc_dss_trusted_list_state Freshness state of each trusted list: 1 for its state (CURRENT, STALE, EXPIRED, FAILING...).
# TYPE svc_dss_trusted_list_state gauge
svc_dss_trusted_list_state{framework="EU",kind="LOTL",state="CURRENT",territory="EU"} 1
svc_dss_trusted_list_state{framework="EU",kind="TL",state="NEVER_LOADED",territory="DE"} 1
`
	text := exposition(t, m)
	parse(t, text)
	is.Equal(familyText(text, "svc_dss_trusted_list_consecutive_failures", "svc_dss_trusted_list_seconds_since_online_confirmation", "svc_dss_trusted_list_state"), want)
}

// TestHistogramBuckets: a histogram's buckets are cumulative, an
// observation on a bound counts in its bucket (le: less than or equal),
// one above every bound only in le="+Inf", which equals the count; the
// bounds are written as client_golang writes floats.
func TestHistogramBuckets(t *testing.T) {
	is := is.New(t)
	m := metrics.NewValidator(nil)
	for _, size := range []int64{1024, 1025, 1 << 30} {
		m.Document(size, time.Millisecond)
	}
	const want = `# HELP svc_dss_validation_upload_size_bytes Size of the documents validated, detached data included.
# TYPE svc_dss_validation_upload_size_bytes histogram
svc_dss_validation_upload_size_bytes_bucket{le="1024"} 1
svc_dss_validation_upload_size_bytes_bucket{le="4096"} 2
svc_dss_validation_upload_size_bytes_bucket{le="16384"} 2
svc_dss_validation_upload_size_bytes_bucket{le="65536"} 2
svc_dss_validation_upload_size_bytes_bucket{le="262144"} 2
svc_dss_validation_upload_size_bytes_bucket{le="1.048576e+06"} 2
svc_dss_validation_upload_size_bytes_bucket{le="4.194304e+06"} 2
svc_dss_validation_upload_size_bytes_bucket{le="1.6777216e+07"} 2
svc_dss_validation_upload_size_bytes_bucket{le="6.7108864e+07"} 2
svc_dss_validation_upload_size_bytes_bucket{le="2.68435456e+08"} 2
svc_dss_validation_upload_size_bytes_bucket{le="+Inf"} 3
svc_dss_validation_upload_size_bytes_sum 1.073743873e+09
svc_dss_validation_upload_size_bytes_count 3
`
	text := exposition(t, m)
	is.Equal(familyText(text, "svc_dss_validation_upload_size_bytes"), want)
	h := parse(t, text)["svc_dss_validation_duration_seconds"].GetMetric()[0].GetHistogram()
	is.Equal(h.GetSampleCount(), uint64(3))
	is.Equal(len(h.GetBucket()), 15) // the 14 validationBuckets and +Inf
	is.Equal(h.GetBucket()[0].GetCumulativeCount(), uint64(3))
}

// TestHistogramVecLabels: the le label follows the family's sorted
// labels, and each label set has its buckets.
func TestHistogramVecLabels(t *testing.T) {
	is := is.New(t)
	s := metrics.NewSigner(nil)
	s.HSMOperation("sign", "timeout", 40*time.Second)
	s.HSMOperation("approve", "ok", time.Millisecond)
	text := exposition(t, s)
	got := familyText(text, "svc_dss_hsm_operation_duration_seconds")
	is.True(strings.Contains(got, "\n"+`svc_dss_hsm_operation_duration_seconds_bucket{operation="approve",outcome="ok",le="0.001"} 1`+"\n"))
	is.True(strings.Contains(got, "\n"+`svc_dss_hsm_operation_duration_seconds_bucket{operation="sign",outcome="timeout",le="30"} 0`+"\n"))
	is.True(strings.Contains(got, "\n"+`svc_dss_hsm_operation_duration_seconds_bucket{operation="sign",outcome="timeout",le="+Inf"} 1`+"\n"))
	is.True(strings.Index(got, `operation="approve"`) < strings.Index(got, `operation="sign"`)) // sorted by label values
	is.True(strings.HasSuffix(got, `svc_dss_hsm_operation_duration_seconds_sum{operation="sign",outcome="timeout"} 40`+"\n"+
		`svc_dss_hsm_operation_duration_seconds_count{operation="sign",outcome="timeout"} 1`+"\n"))
	is.Equal(count(parse(t, text), "svc_dss_hsm_operation_duration_seconds"), 2)
}

// TestLabelValuesEscaped: a label value with a backslash, a double quote
// or a newline is escaped, so that it reads back as it was; one that is
// not UTF-8 is written with U+FFFD rather than spoil the whole scrape;
// an empty one is written, as client_golang did.
func TestLabelValuesEscaped(t *testing.T) {
	tests := []struct {
		name, value, written, read string
	}{
		{"backslash", `a\b`, `a\\b`, `a\b`},
		{"double quote", `say "no"`, `say \"no\"`, `say "no"`},
		{"newline", "two\nlines", `two\nlines`, "two\nlines"},
		{"all three", "\\\"\n", `\\\"\n`, "\\\"\n"},
		{"not UTF-8", "bad\xffbyte", "bad\uFFFDbyte", "bad\uFFFDbyte"},
		{"empty", "", "", ""},
		{"UTF-8", "Zürich", "Zürich", "Zürich"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			m := metrics.NewValidator(nil)
			m.HTTPError(400, tt.value)
			text := exposition(t, m)
			is.True(strings.Contains(text, "\n"+`svc_dss_http_error_responses_total{reason="`+tt.written+`",status="400"} 1`+"\n"))
			got := parse(t, text)["svc_dss_http_error_responses_total"].GetMetric()[0].GetLabel()
			is.Equal(got[0].GetName(), "reason")
			is.Equal(got[0].GetValue(), tt.read)
		})
	}
}

// TestCountingWhileScraping: counts and observations from many
// goroutines while others scrape are neither lost nor torn (run it with
// -race), and every scrape parses.
func TestCountingWhileScraping(t *testing.T) {
	is := is.New(t)
	m := metrics.NewValidator(func() []metrics.List { return []metrics.List{{Territory: "EU", Kind: "LOTL"}} })
	const workers, each = 8, 500
	var wg sync.WaitGroup
	done := make(chan struct{})
	var scrapers sync.WaitGroup
	for range 2 {
		scrapers.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				var b bytes.Buffer
				if _, err := m.WriteTo(&b); err != nil {
					t.Error(err)
					return
				}
				p := expfmt.NewTextParser(model.UTF8Validation)
				if _, err := p.TextToMetricFamilies(&b); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				m.Validation("PAdES", []string{"TOTAL_PASSED", "INDETERMINATE"}[i%2], "EU", "none")
				m.HTTPError(400+w, "bad-request")
				m.Document(int64(i), time.Duration(i)*time.Millisecond)
			}
		})
	}
	wg.Wait()
	close(done)
	scrapers.Wait()
	families := parse(t, exposition(t, m))
	var validations float64
	for _, s := range families["svc_dss_validations_total"].GetMetric() {
		validations += s.GetCounter().GetValue()
	}
	is.Equal(validations, float64(workers*each))
	is.Equal(count(families, "svc_dss_http_error_responses_total"), workers)
	h := families["svc_dss_validation_upload_size_bytes"].GetMetric()[0].GetHistogram()
	is.Equal(h.GetSampleCount(), uint64(workers*each))
	is.Equal(h.GetSampleSum(), float64(workers*each*(each-1)/2))
}

// TestRuntimeAndProcessFamilies: each registry has the Go runtime and
// process families an operator reads, of their types, with sensible
// values.
func TestRuntimeAndProcessFamilies(t *testing.T) {
	runtime.GC() // so that the GC summary has a pause
	families := parse(t, exposition(t, metrics.NewSigner(nil)))
	value := func(f *dto.MetricFamily) float64 {
		m := f.GetMetric()[0]
		if m.Counter != nil {
			return m.GetCounter().GetValue()
		}
		return m.GetGauge().GetValue()
	}
	now := float64(time.Now().Unix())
	tests := []struct {
		name string
		typ  dto.MetricType
		ok   func(v float64) bool
	}{
		{"go_goroutines", dto.MetricType_GAUGE, func(v float64) bool { return v >= 1 }},
		{"go_threads", dto.MetricType_GAUGE, func(v float64) bool { return v >= 1 }},
		{"go_memstats_heap_alloc_bytes", dto.MetricType_GAUGE, func(v float64) bool { return v > 0 }},
		{"go_memstats_heap_inuse_bytes", dto.MetricType_GAUGE, func(v float64) bool { return v > 0 }},
		{"go_memstats_sys_bytes", dto.MetricType_GAUGE, func(v float64) bool { return v > 0 }},
		{"go_memstats_alloc_bytes_total", dto.MetricType_COUNTER, func(v float64) bool { return v > 0 }},
		{"go_memstats_last_gc_time_seconds", dto.MetricType_GAUGE, func(v float64) bool { return v > now-3600 && v <= now+1 }},
		{"go_sched_gomaxprocs_threads", dto.MetricType_GAUGE, func(v float64) bool { return v == float64(runtime.GOMAXPROCS(0)) }},
		{"go_info", dto.MetricType_GAUGE, func(v float64) bool { return v == 1 }},
		{"process_cpu_seconds_total", dto.MetricType_COUNTER, func(v float64) bool { return v >= 0 }}, // ticks of 10 ms: a short test may have none
		{"process_resident_memory_bytes", dto.MetricType_GAUGE, func(v float64) bool { return v > 1<<20 }},
		{"process_virtual_memory_bytes", dto.MetricType_GAUGE, func(v float64) bool { return v > 1<<20 }},
		{"process_virtual_memory_max_bytes", dto.MetricType_GAUGE, func(v float64) bool { return v > 0 }},
		{"process_open_fds", dto.MetricType_GAUGE, func(v float64) bool { return v >= 3 }},
		{"process_max_fds", dto.MetricType_GAUGE, func(v float64) bool { return v >= 3 }},
		{"process_start_time_seconds", dto.MetricType_GAUGE, func(v float64) bool { return v > now-24*3600 && v <= now+1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if strings.HasPrefix(tt.name, "process_") && runtime.GOOS != "linux" {
				t.Skip("read from /proc")
			}
			is := is.New(t)
			f := families[tt.name]
			is.True(f != nil) // the family is there
			is.Equal(f.GetType(), tt.typ)
			is.Equal(len(f.GetMetric()), 1)
			if v := value(f); !tt.ok(v) {
				t.Errorf("%s = %v", tt.name, v)
			}
		})
	}
	t.Run("go_info", func(t *testing.T) {
		is := is.New(t)
		l := families["go_info"].GetMetric()[0].GetLabel()
		is.Equal(len(l), 1)
		is.Equal(l[0].GetName(), "version")
		is.Equal(l[0].GetValue(), runtime.Version())
	})
	t.Run("go_gc_duration_seconds", func(t *testing.T) {
		is := is.New(t)
		f := families["go_gc_duration_seconds"]
		is.Equal(f.GetType(), dto.MetricType_SUMMARY)
		s := f.GetMetric()[0].GetSummary()
		is.True(s.GetSampleCount() >= 1)
		var qs []float64
		for i, q := range s.GetQuantile() {
			qs = append(qs, q.GetQuantile())
			is.True(q.GetValue() >= 0)
			if i > 0 {
				is.True(q.GetValue() >= s.GetQuantile()[i-1].GetValue()) // quantiles ascend
			}
		}
		is.Equal(qs, []float64{0, 0.25, 0.5, 0.75, 1})
	})
}

// TestWholeExposition: both programs' scrapes, with every observer
// called (metricset), parse strictly, hold every svc_dss_ family, and read
// 0.0.4's line grammar (the pattern of the API documents' 200).
func TestWholeExposition(t *testing.T) {
	is := is.New(t)
	v, s := metricset.Exercised()
	tests := []struct {
		name string
		m    io.WriterTo
		want []string
	}{
		{"validator", v, []string{"svc_dss_http_error_responses_total", "svc_dss_revocation_cache_hits_total", "svc_dss_revocation_fetches_total",
			"svc_dss_trust_refresh_duration_seconds", "svc_dss_trusted_list_anchors", "svc_dss_trusted_list_authenticity",
			"svc_dss_trusted_list_consecutive_failures", "svc_dss_trusted_list_refreshes_total", "svc_dss_trusted_list_seconds_since_online_confirmation",
			"svc_dss_trusted_list_state", "svc_dss_validation_duration_seconds", "svc_dss_validation_upload_size_bytes", "svc_dss_validations_total"}},
		{"signer", s, []string{"svc_dss_control_db_query_duration_seconds", "svc_dss_hsm_operation_duration_seconds", "svc_dss_hsm_sessions_in_use",
			"svc_dss_http_error_responses_total", "svc_dss_sign_replay_refusals_total", "svc_dss_sign_requests_total", "svc_dss_signatures_total"}},
	}
	line := regexp.MustCompile(`^(# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(\{.*\})? \S+( -?[0-9]+)?)$`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			text := exposition(t, tt.m)
			families := parse(t, text)
			var own []string
			for name := range families {
				if strings.HasPrefix(name, "svc_dss_") {
					own = append(own, name)
				}
			}
			slices.Sort(own)
			is.Equal(own, tt.want)
			is.True(strings.HasSuffix(text, "\n"))
			for l := range strings.Lines(text) {
				if !line.MatchString(strings.TrimSuffix(l, "\n")) {
					t.Errorf("line %q is not of the text format's grammar", l)
				}
			}
		})
	}
	is.Equal(parse(t, exposition(t, s))["svc_dss_signatures_total"].GetMetric()[0].GetCounter().GetValue(), 2.0)
}

// TestHandler: GET serves the text format whatever Accept asks, HEAD its
// headers alone, other methods are refused.
func TestHandler(t *testing.T) {
	h := metrics.NewSigner(nil).Handler()
	tests := []struct {
		name, method, accept string
		status               int
		body                 bool
	}{
		{"GET", http.MethodGet, "", 200, true},
		{"GET asking for protobuf", http.MethodGet, "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited", 200, true},
		{"HEAD", http.MethodHead, "", 200, false},
		{"POST", http.MethodPost, "", 405, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			req := httptest.NewRequest(tt.method, "/actuator/prometheus", nil)
			if tt.accept != "" {
				req.Header.Set("Accept", tt.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			is.Equal(rec.Code, tt.status)
			if tt.status != 200 {
				is.Equal(rec.Header().Get("Allow"), "GET, HEAD")
				return
			}
			is.Equal(rec.Header().Get("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
			is.True(rec.Header().Get("Content-Length") != "")
			is.Equal(rec.Body.Len() > 0, tt.body)
			if tt.body {
				parse(t, rec.Body.String())
			}
		})
	}
}
