package deploy

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/fixtures/metricset"
)

// operationsDoc is the operators' guide the tests below keep true.
var operationsDoc = filepath.Join("..", "docs", "operations.md")

// pendingKeys are settings docs/operations.md describes from the issue and
// its decisions before the code has them, each marked there as not yet in
// the code. Remove a key here when its setting joins app/config.
var pendingKeys = []string{}

// registeredMetrics returns the names of the svc_dss_ metric families of
// both programs, with whether each is a histogram, read from a scrape of
// metricset's, where every family has a sample.
func registeredMetrics(t *testing.T) map[string]bool {
	t.Helper()
	v, s := metricset.Exercised()
	names := map[string]bool{}
	for _, m := range []io.WriterTo{v, s} {
		var b bytes.Buffer
		if _, err := m.WriteTo(&b); err != nil {
			t.Fatal(err)
		}
		p := expfmt.NewTextParser(model.UTF8Validation)
		families, err := p.TextToMetricFamilies(&b)
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range families {
			if strings.HasPrefix(name, "svc_dss_") {
				names[name] = f.GetType() == dto.MetricType_HISTOGRAM
			}
		}
	}
	return names
}

func readOperationsDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(operationsDoc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOperationsNamesRealMetrics: every svc_dss_ metric docs/operations.md
// names (in its text, tables or alert rules; a histogram's _bucket, _sum
// and _count series count as the histogram) is one adapters/metrics
// registers, and every one it registers is in the document.
func TestOperationsNamesRealMetrics(t *testing.T) {
	doc := readOperationsDoc(t)
	registered := registeredMetrics(t)
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`\bsvc_dss_[a-z0-9_]*[a-z0-9]`).FindAllString(doc, -1) {
		name := m
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(m, suffix); ok && registered[base] {
				name = base
			}
		}
		if _, ok := registered[name]; !ok {
			t.Errorf("docs/operations.md names %s, which adapters/metrics does not register", m)
		}
		named[name] = true
	}
	for name := range registered {
		if !named[name] {
			t.Errorf("docs/operations.md does not name %s, which adapters/metrics registers", name)
		}
	}
}

// TestOperationsNamesRealSettings: every setting docs/operations.md names,
// by its dotted key or its environment variable, is in the configuration
// table of one of the programs (app/config), or is a pending key the
// document marks as not yet in the code.
func TestOperationsNamesRealSettings(t *testing.T) {
	doc := readOperationsDoc(t)
	known := map[string]bool{}
	for _, k := range slices.Concat(config.ValidatorKeys(), config.SignerKeys()) {
		known[k.Name], known[k.Env] = true, true
	}
	dotted := regexp.MustCompile(`\b(?:svc\.dss|fw|server)\.[a-z0-9.-]*[a-z0-9]`)
	env := regexp.MustCompile(`\b(?:SVC_DSS|FW|SERVER)_[A-Z0-9_]*[A-Z0-9]`)
	found := slices.Concat(dotted.FindAllString(doc, -1), env.FindAllString(doc, -1))
	if len(found) == 0 {
		t.Fatal("docs/operations.md names no setting: the patterns are wrong")
	}
	for _, k := range found {
		switch {
		case known[k]:
		case slices.Contains(pendingKeys, k):
			if !strings.Contains(doc, "`"+k+"`") {
				t.Errorf("pending key %s is not quoted in docs/operations.md", k)
			}
		default:
			t.Errorf("docs/operations.md names %s, which is no setting of either program (app/config)", k)
		}
	}
	for _, k := range pendingKeys {
		if known[k] {
			t.Errorf("%s is in app/config now: remove it from pendingKeys and its mark from docs/operations.md", k)
		}
	}
}
