package metrics

import (
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/svc-dss/dss/ports"
)

// Signer holds the signing server's metrics.
type Signer struct {
	registry
	calls      *prometheus.CounterVec
	signatures *prometheus.CounterVec
	hsm        *prometheus.HistogramVec
	replays    prometheus.Counter
	control    *prometheus.HistogramVec
}

var _ ports.SignObserver = (*Signer)(nil)

// Sessions is the session count of one HSM partition (its token).
type Sessions struct {
	Partition string
	InUse     int
}

// NewSigner returns the signing server's metrics on a registry of their
// own. sessions, when not nil, is called on each scrape for the HSM
// sessions in use per partition.
func NewSigner(sessions func() []Sessions) *Signer {
	m := &Signer{
		registry: newRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_dss_sign_requests_total",
			Help: "Calls of sign-ska by outcome (signed, unauthenticated, forbidden, bad-request, failed, unavailable) and, for a refusal, its reason.",
		}, []string{"outcome", "reason"}),
		signatures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "svc_dss_signatures_total",
			Help: "Signatures made, by signature algorithm.",
		}, []string{"algorithm"}),
		hsm: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "svc_dss_hsm_operation_duration_seconds",
			Help:    "Time of one HSM operation (public-key, approve, sign), waiting for a session included, by outcome (ok, error, timeout).",
			Buckets: operationBuckets,
		}, []string{"operation", "outcome"}),
		replays: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "svc_dss_sign_replay_refusals_total",
			Help: "Sign tokens refused because their jti was used before.",
		}),
		control: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "svc_dss_control_db_query_duration_seconds",
			Help:    "Time of one query of the control database, by outcome (ok, error).",
			Buckets: operationBuckets,
		}, []string{"outcome"}),
	}
	m.reg.MustRegister(m.calls, m.signatures, m.hsm, m.replays, m.control)
	if sessions != nil {
		m.reg.MustRegister(sessionCollector{
			read: sessions,
			desc: prometheus.NewDesc("svc_dss_hsm_sessions_in_use", "HSM sessions busy with an operation, per partition (token).", []string{"partition"}, nil),
		})
	}
	return m
}

// SignCalled implements ports.SignObserver.
func (m *Signer) SignCalled(outcome, reason string) { m.calls.WithLabelValues(outcome, reason).Inc() }

// Signed implements ports.SignObserver.
func (m *Signer) Signed(algorithm string, n int) {
	m.signatures.WithLabelValues(algorithm).Add(float64(n))
}

// HSMOperation implements ports.SignObserver.
func (m *Signer) HSMOperation(op, outcome string, took time.Duration) {
	m.hsm.WithLabelValues(op, outcome).Observe(seconds(took))
}

// ReplayRefused implements ports.SignObserver.
func (m *Signer) ReplayRefused() { m.replays.Inc() }

// ControlQuery implements ports.SignObserver.
func (m *Signer) ControlQuery(took time.Duration, failed bool) {
	outcome := "ok"
	if failed {
		outcome = "error"
	}
	m.control.WithLabelValues(outcome).Observe(seconds(took))
}

type sessionCollector struct {
	read func() []Sessions
	desc *prometheus.Desc
}

func (c sessionCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.desc }

func (c sessionCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.read() {
		ch <- prometheus.MustNewConstMetric(c.desc, prometheus.GaugeValue, float64(s.InUse), s.Partition)
	}
}
