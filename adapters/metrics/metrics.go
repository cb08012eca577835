// Package metrics holds the Prometheus metrics of the two programs
// (github.com/prometheus/client_golang), each on a registry of its own:
// two servers in one process (the tests) never share a counter, and
// nothing registers on the global default registry.
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
package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Buckets of the histograms, in seconds and bytes. A validation runs
// from milliseconds (a CAdES-B) to minutes (fetches that time out); an
// HSM or database operation from a millisecond to the signing timeout;
// uploads from a kilobyte to the 40 MB default cap.
var (
	validationBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}
	operationBuckets  = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	refreshBuckets    = []float64{0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}
	sizeBuckets       = prometheus.ExponentialBuckets(1024, 4, 10) // 1 KiB to 256 MiB
)

// registry is what both programs' metrics share: their own registry,
// with the Go runtime and process collectors, and the error responses.
type registry struct {
	reg    *prometheus.Registry
	errors *prometheus.CounterVec
}

func newRegistry() registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	errors := prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "svc_dss_http_error_responses_total",
		Help: "Error responses (4xx and 5xx) by status and reason, the problem type the server answered (unauthenticated, payload-too-large...).",
	}, []string{"status", "reason"})
	reg.MustRegister(errors)
	return registry{reg: reg, errors: errors}
}

// Handler serves the registry in the Prometheus exposition formats. It
// does no authentication: the servers put it behind theirs.
func (r registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{Registry: r.reg})
}

// Gatherer is the registry, for tests that read it without HTTP.
func (r registry) Gatherer() prometheus.Gatherer { return r.reg }

// HTTPError counts one error response of status with reason, the
// problem's type slug.
func (r registry) HTTPError(status int, reason string) {
	r.errors.WithLabelValues(strconv.Itoa(status), reason).Inc()
}

func seconds(d time.Duration) float64 { return d.Seconds() }
