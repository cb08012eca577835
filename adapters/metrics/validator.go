package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/svc-dss/dss/ports"
)

// Validator holds the validation service's metrics.
type Validator struct {
	registry
	validations   *prometheus.CounterVec
	duration      prometheus.Histogram
	upload        prometheus.Histogram
	fetches       *prometheus.CounterVec
	cacheHits     *prometheus.CounterVec
	refresh       prometheus.Histogram
	listRefreshes *prometheus.CounterVec
}

var _ ports.RevocationObserver = (*Validator)(nil)

// A List is the state of one trusted list as a scrape reports it.
type List struct {
	// Territory ("EU" for the LOTL, "DE", "CH"...) and Kind ("LOTL",
	// "TL") name the list.
	Territory, Kind, Framework string
	// State is its freshness state (CURRENT, STALE...), Authenticity
	// the outcome of its signature check (VALID, NOT_CHECKED...).
	State, Authenticity string
	Anchors             int
	ConsecutiveFailures int
	// SinceConfirmation is the time since a refresh last confirmed the
	// list with its publisher; Confirmed is false when none ever did.
	SinceConfirmation time.Duration
	Confirmed         bool
}

// NewValidator returns the validation service's metrics on a registry of
// their own. lists, called on each scrape, reports the trusted lists as
// they are then: a gauge read when asked cannot go stale between
// refreshes (the seconds since confirmation keep growing).
func NewValidator(lists func() []List) *Validator {
	m := &Validator{
		registry: newRegistry(),
		validations: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_dss_validations_total",
			Help: "Signatures validated, by signature format family, indication, trust framework and qualification (none when neither assessment gave one).",
		}, []string{"format", "indication", "framework", "qualification"}),
		duration: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "svc_dss_validation_duration_seconds",
			Help:    "Time to validate one document, reading and revocation fetches included.",
			Buckets: validationBuckets,
		}),
		upload: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "svc_dss_validation_upload_size_bytes",
			Help:    "Size of the documents validated, detached data included.",
			Buckets: sizeBuckets,
		}),
		fetches: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_dss_revocation_fetches_total",
			Help: "Revocation data fetched online, by kind (ocsp, crl) and outcome (ok, failed, blocked by the egress guard, unusable).",
		}, []string{"kind", "outcome"}),
		cacheHits: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_dss_revocation_cache_hits_total",
			Help: "Revocation data served from the revocation cache instead of the network, by kind.",
		}, []string{"kind"}),
		refresh: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name:    "svc_dss_trust_refresh_duration_seconds",
			Help:    "Time of one online refresh pass over every trusted list.",
			Buckets: refreshBuckets,
		}),
		listRefreshes: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_dss_trusted_list_refreshes_total",
			Help: "Online refreshes of each trusted list, by outcome (ok, or the failure: download, parse, signature-invalid...).",
		}, []string{"territory", "kind", "outcome"}),
	}
	m.reg.MustRegister(m.validations, m.duration, m.upload, m.fetches, m.cacheHits, m.refresh, m.listRefreshes)
	if lists != nil {
		m.reg.MustRegister(listCollector(lists))
	}
	return m
}

// Validation counts one signature validated.
func (m *Validator) Validation(format, indication, framework, qualification string) {
	m.validations.WithLabelValues(format, indication, framework, qualification).Inc()
}

// Document observes one document validated: its size and the time it took.
func (m *Validator) Document(size int64, took time.Duration) {
	m.upload.Observe(float64(size))
	m.duration.Observe(seconds(took))
}

// RevocationFetched implements ports.RevocationObserver.
func (m *Validator) RevocationFetched(kind, outcome string) {
	m.fetches.WithLabelValues(kind, outcome).Inc()
}

// RevocationCacheHit implements ports.RevocationObserver.
func (m *Validator) RevocationCacheHit(kind string) {
	m.cacheHits.WithLabelValues(kind).Inc()
}

// TrustRefreshed observes one online refresh pass that took took.
func (m *Validator) TrustRefreshed(took time.Duration) {
	m.refresh.Observe(seconds(took))
}

// ListRefreshed counts the outcome of one list in a refresh pass.
func (m *Validator) ListRefreshed(territory, kind, outcome string) {
	m.listRefreshes.WithLabelValues(territory, kind, outcome).Inc()
}

// lists is the collector of the per-list gauges, read from the trust
// store at each scrape.
type lists struct {
	read                                                   func() []List
	state, authenticity, anchors, failures, sinceConfirmed *prometheus.Desc
}

func listCollector(read func() []List) *lists {
	id := []string{"territory", "kind"}
	return &lists{
		read: read,
		state: prometheus.NewDesc("svc_dss_trusted_list_state",
			"Freshness state of each trusted list: 1 for its state (CURRENT, STALE, EXPIRED, FAILING...).", append(id, "framework", "state"), nil),
		authenticity: prometheus.NewDesc("svc_dss_trusted_list_authenticity",
			"Outcome of the signature check of each trusted list in use: 1 for its authenticity (VALID, NOT_CHECKED...).", append(id, "authenticity"), nil),
		anchors: prometheus.NewDesc("svc_dss_trusted_list_anchors",
			"Trust anchors each trusted list contributes.", id, nil),
		failures: prometheus.NewDesc("svc_dss_trusted_list_consecutive_failures",
			"Failed refreshes of each trusted list since its last success.", id, nil),
		sinceConfirmed: prometheus.NewDesc("svc_dss_trusted_list_seconds_since_online_confirmation",
			"Seconds since a refresh last confirmed each trusted list with its publisher; absent for a list never confirmed.", id, nil),
	}
}

func (c *lists) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.state, c.authenticity, c.anchors, c.failures, c.sinceConfirmed} {
		ch <- d
	}
}

func (c *lists) Collect(ch chan<- prometheus.Metric) {
	for _, l := range c.read() {
		ch <- prometheus.MustNewConstMetric(c.state, prometheus.GaugeValue, 1, l.Territory, l.Kind, l.Framework, l.State)
		ch <- prometheus.MustNewConstMetric(c.authenticity, prometheus.GaugeValue, 1, l.Territory, l.Kind, l.Authenticity)
		ch <- prometheus.MustNewConstMetric(c.anchors, prometheus.GaugeValue, float64(l.Anchors), l.Territory, l.Kind)
		ch <- prometheus.MustNewConstMetric(c.failures, prometheus.GaugeValue, float64(l.ConsecutiveFailures), l.Territory, l.Kind)
		if l.Confirmed {
			ch <- prometheus.MustNewConstMetric(c.sinceConfirmed, prometheus.GaugeValue, l.SinceConfirmation.Seconds(), l.Territory, l.Kind)
		}
	}
}
