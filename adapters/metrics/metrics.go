package metrics

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"time"
)

// Buckets of the histograms, in seconds and bytes. A validation runs
// from milliseconds (a CAdES-B) to minutes (fetches that time out); an
// HSM or database operation from a millisecond to the signing timeout;
// uploads from a kilobyte to the 40 MB default cap.
var (
	validationBuckets = []float64{0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}
	operationBuckets  = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30}
	refreshBuckets    = []float64{0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600}
	// 1 KiB to 256 MiB, times 4 each.
	sizeBuckets = []float64{1 << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20, 1 << 22, 1 << 24, 1 << 26, 1 << 28}
)

// contentType is what the text exposition format 0.0.4 is served as.
const contentType = "text/plain; version=0.0.4; charset=utf-8"

// registry is what both programs' metrics share: their families, the
// Go runtime and process ones, and the error responses.
type registry struct {
	collectors []collector
	errors     counterVec
}

func newRegistry() registry {
	r := registry{collectors: []collector{collectorFunc(goFamilies), collectorFunc(processFamilies)}}
	r.errors = r.counterVec("svc_dss_http_error_responses_total",
		"Error responses (4xx and 5xx) by status and reason, the problem type the server answered (unauthenticated, payload-too-large...).",
		"status", "reason")
	return r
}

// counterVec registers a counter family with labels; without labels it
// is a plain counter, exposed (at 0) from the first scrape.
func (r *registry) counterVec(name, help string, labels ...string) counterVec {
	v := newCounterVec(name, help, labels...)
	r.collectors = append(r.collectors, v)
	return v
}

// histogramVec registers a histogram family with labels; without labels
// it is a plain histogram, exposed from the first scrape.
func (r *registry) histogramVec(name, help string, bounds []float64, labels ...string) histogramVec {
	v := newHistogramVec(name, help, bounds, labels...)
	r.collectors = append(r.collectors, v)
	return v
}

// WriteTo writes the metrics as they are now in the Prometheus text
// exposition format 0.0.4 (the body of a scrape).
func (r *registry) WriteTo(w io.Writer) (int64, error) {
	var b bytes.Buffer
	write(&b, r.collectors)
	return b.WriteTo(w)
}

// Handler serves the metrics in the text exposition format to GET and
// HEAD, whatever the request's Accept header: Prometheus reads it (it
// asks for protobuf only to get native histograms, which these are not).
// It does no authentication: the servers put it behind theirs.
func (r *registry) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Method != http.MethodGet && req.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
			return
		}
		var b bytes.Buffer
		write(&b, r.collectors)
		w.Header().Set("Content-Type", contentType)
		w.Header().Set("Content-Length", strconv.Itoa(b.Len()))
		if req.Method == http.MethodHead {
			return
		}
		_, _ = w.Write(b.Bytes()) // a scraper gone away is no error of ours
	})
}

// HTTPError counts one error response of status with reason, the
// problem's type slug.
func (r *registry) HTTPError(status int, reason string) {
	r.errors.with(strconv.Itoa(status), reason).inc()
}

func seconds(d time.Duration) float64 { return d.Seconds() }
