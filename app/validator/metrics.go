package validator

import (
	"time"

	"github.com/svc-dss/dss/adapters/metrics"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// Metrics returns the service's metrics, which the server serves on
// GET /actuator/prometheus and counts its error answers on.
func (v *Validator) Metrics() *metrics.Validator { return v.metrics }

// observer reports what the validation front door does to the service's
// metrics (validation.WithObserver): it turns verdicts and snapshots
// into the plain labels adapters/metrics takes.
type observer struct{ m *metrics.Validator }

var _ ports.RevocationObserver = observer{}

// Validated counts each signature of s by its signatureFormat,
// indication, trust framework and qualification, and observes the
// document's size and time. The labels are bounded sets: the formats and
// qualifications the domain names, never a document's own words.
func (o observer) Validated(s *verdict.ValidationSummary, size int64, took time.Duration) {
	o.m.Document(size, took)
	for _, r := range s.Signatures {
		framework := r.TrustFramework
		if framework == "" {
			framework = "none"
		}
		o.m.Validation(r.SignatureFormat, string(r.Indication), framework, qualificationOf(r))
	}
}

// qualificationOf is the qualification of r: eIDAS's, else the Swiss
// one, else "none" (neither assessment applied).
func qualificationOf(r verdict.SignatureReport) string {
	switch {
	case r.EIDASQualification != nil:
		return *r.EIDASQualification
	case r.SwissQualification != nil:
		return *r.SwissQualification
	}
	return "none"
}

// TrustRefreshed observes the pass and counts each list's outcome, named
// as the pass's log line names it (app/validation, logPass).
func (o observer) TrustRefreshed(snap *trust.Snapshot, took time.Duration) {
	o.m.TrustRefreshed(took)
	for _, l := range snap.Lists {
		kind := "TL"
		if l.Kind == trust.LOTL {
			kind = "LOTL" // as verdict.ListStatus names it
		}
		o.m.ListRefreshed(l.Territory, kind, refreshOutcome(l))
	}
}

func refreshOutcome(l trust.ListState) string {
	switch {
	case l.List == nil && l.ParseFailed:
		return "parse-failure"
	case l.List == nil:
		return "unavailable"
	case l.LastFailure != "":
		return l.LastFailure
	case l.Authenticity != trust.AuthValid:
		return "unauthenticated"
	}
	return "ok"
}

func (o observer) RevocationFetched(kind, outcome string) { o.m.RevocationFetched(kind, outcome) }
func (o observer) RevocationCacheHit(kind string)         { o.m.RevocationCacheHit(kind) }

// listMetrics reads the trust status of the lists at each scrape: the
// same states /api/trust-status reports, evaluated at the scrape's time.
func (v *Validator) listMetrics() []metrics.List {
	now := v.clock()
	status := v.validation.TrustStatus(now)
	lists := make([]metrics.List, 0, len(status.Lists))
	for _, l := range status.Lists {
		m := metrics.List{
			Territory: l.Territory, Kind: l.Kind, Framework: l.Framework,
			State: l.State, Authenticity: l.Authenticity,
			Anchors: l.Anchors, ConsecutiveFailures: l.ConsecutiveFailures,
		}
		if m.Authenticity == "" {
			m.Authenticity = "NONE" // no copy in use
		}
		if l.LastOnlineConfirmation != nil {
			m.Confirmed, m.SinceConfirmation = true, now.Sub(*l.LastOnlineConfirmation)
		}
		lists = append(lists, m)
	}
	return lists
}
