package metrics

import (
	"time"

	"github.com/svc-dss/dss/ports"
)

// Signer holds the signing server's metrics.
type Signer struct {
	registry
	calls      counterVec
	signatures counterVec
	hsm        histogramVec
	replays    *counter
	control    histogramVec
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
	m := &Signer{registry: newRegistry()}
	m.calls = m.counterVec("svc_dss_sign_requests_total",
		"Calls of sign-ska by outcome (signed, unauthenticated, forbidden, bad-request, failed, unavailable) and, for a refusal, its reason.",
		"outcome", "reason")
	m.signatures = m.counterVec("svc_dss_signatures_total",
		"Signatures made, by signature algorithm.",
		"algorithm")
	m.hsm = m.histogramVec("svc_dss_hsm_operation_duration_seconds",
		"Time of one HSM operation (public-key, approve, sign), waiting for a session included, by outcome (ok, error, timeout).",
		operationBuckets, "operation", "outcome")
	m.replays = m.counterVec("svc_dss_sign_replay_refusals_total",
		"Sign tokens refused because their jti was used before.").with()
	m.control = m.histogramVec("svc_dss_control_db_query_duration_seconds",
		"Time of one query of the control database, by outcome (ok, error).",
		operationBuckets, "outcome")
	if sessions != nil {
		m.collectors = append(m.collectors, sessionFamily(sessions))
	}
	return m
}

// SignCalled implements ports.SignObserver.
func (m *Signer) SignCalled(outcome, reason string) { m.calls.with(outcome, reason).inc() }

// Signed implements ports.SignObserver.
func (m *Signer) Signed(algorithm string, n int) {
	m.signatures.with(algorithm).add(float64(n))
}

// HSMOperation implements ports.SignObserver.
func (m *Signer) HSMOperation(op, outcome string, took time.Duration) {
	m.hsm.with(op, outcome).observe(seconds(took))
}

// ReplayRefused implements ports.SignObserver.
func (m *Signer) ReplayRefused() { m.replays.inc() }

// ControlQuery implements ports.SignObserver.
func (m *Signer) ControlQuery(took time.Duration, failed bool) {
	outcome := "ok"
	if failed {
		outcome = "error"
	}
	m.control.with(outcome).observe(seconds(took))
}

// sessionFamily is the collector of the HSM session gauge, read at each
// scrape.
func sessionFamily(read func() []Sessions) collectorFunc {
	return func(fs []family) []family {
		f := family{name: "svc_dss_hsm_sessions_in_use", typ: typeGauge, labels: []string{"partition"},
			help: "HSM sessions busy with an operation, per partition (token)."}
		for _, s := range read() {
			f.series = append(f.series, series{values: []string{s.Partition}, value: float64(s.InUse)})
		}
		return append(fs, f)
	}
}
