package servertest

import (
	"net/http"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// Metrics is one scrape of GET /actuator/prometheus, parsed.
type Metrics map[string]*dto.MetricFamily

// Scrape reads the metrics of the server at base with the bearer token
// token ("" sends none), failing the test unless they are served.
func Scrape(t testing.TB, base, token string) Metrics {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, base+"/actuator/prometheus", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/plain") // the text format, which expfmt's parser reads
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /actuator/prometheus: %s", resp.Status)
	}
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("GET /actuator/prometheus: %v", err)
	}
	return families
}

// Value adds up the samples of family name whose labels include labels:
// a counter's or a gauge's value, a histogram's sample count. It is 0
// when there is no such sample, as for a counter not yet incremented.
func (m Metrics) Value(name string, labels map[string]string) float64 {
	f := m[name]
	if f == nil {
		return 0
	}
	var sum float64
	for _, s := range f.GetMetric() {
		if !hasLabels(s, labels) {
			continue
		}
		switch {
		case s.Counter != nil:
			sum += s.GetCounter().GetValue()
		case s.Gauge != nil:
			sum += s.GetGauge().GetValue()
		case s.Histogram != nil:
			sum += float64(s.GetHistogram().GetSampleCount())
		case s.Untyped != nil:
			sum += s.GetUntyped().GetValue()
		}
	}
	return sum
}

// Has reports whether family name has a sample whose labels include
// labels.
func (m Metrics) Has(name string, labels map[string]string) bool {
	for _, s := range m[name].GetMetric() {
		if hasLabels(s, labels) {
			return true
		}
	}
	return false
}

// hasLabels reports whether s has every label of want with its value; a
// label wanted empty matches one the exposition left out, as it leaves
// out every empty label.
func hasLabels(s *dto.Metric, want map[string]string) bool {
	have := make(map[string]string, len(s.GetLabel()))
	for _, l := range s.GetLabel() {
		have[l.GetName()] = l.GetValue()
	}
	for k, v := range want {
		if have[k] != v {
			return false
		}
	}
	return true
}
