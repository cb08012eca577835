package metrics

import (
	"time"

	"github.com/svc-dss/dss/ports"
)

// Validator holds the validation service's metrics.
type Validator struct {
	registry
	validations   counterVec
	duration      *histogram
	upload        *histogram
	fetches       counterVec
	cacheHits     counterVec
	refresh       *histogram
	listRefreshes counterVec
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
	m := &Validator{registry: newRegistry()}
	m.validations = m.counterVec("svc_dss_validations_total",
		"Signatures validated, by signature format family, indication, trust framework and qualification (none when neither assessment gave one).",
		"format", "indication", "framework", "qualification")
	m.duration = m.histogramVec("svc_dss_validation_duration_seconds",
		"Time to validate one document, reading and revocation fetches included.",
		validationBuckets).with()
	m.upload = m.histogramVec("svc_dss_validation_upload_size_bytes",
		"Size of the documents validated, detached data included.",
		sizeBuckets).with()
	m.fetches = m.counterVec("svc_dss_revocation_fetches_total",
		"Revocation data fetched online, by kind (ocsp, crl) and outcome (ok, failed, blocked by the egress guard, unusable).",
		"kind", "outcome")
	m.cacheHits = m.counterVec("svc_dss_revocation_cache_hits_total",
		"Revocation data served from the revocation cache instead of the network, by kind.",
		"kind")
	m.refresh = m.histogramVec("svc_dss_trust_refresh_duration_seconds",
		"Time of one online refresh pass over every trusted list.",
		refreshBuckets).with()
	m.listRefreshes = m.counterVec("svc_dss_trusted_list_refreshes_total",
		"Online refreshes of each trusted list, by outcome (ok, or the failure: download, parse, signature-invalid...).",
		"territory", "kind", "outcome")
	if lists != nil {
		m.collectors = append(m.collectors, listFamilies(lists))
	}
	return m
}

// Validation counts one signature validated.
func (m *Validator) Validation(format, indication, framework, qualification string) {
	m.validations.with(format, indication, framework, qualification).inc()
}

// Document observes one document validated: its size and the time it took.
func (m *Validator) Document(size int64, took time.Duration) {
	m.upload.observe(float64(size))
	m.duration.observe(seconds(took))
}

// RevocationFetched implements ports.RevocationObserver.
func (m *Validator) RevocationFetched(kind, outcome string) {
	m.fetches.with(kind, outcome).inc()
}

// RevocationCacheHit implements ports.RevocationObserver.
func (m *Validator) RevocationCacheHit(kind string) {
	m.cacheHits.with(kind).inc()
}

// TrustRefreshed observes one online refresh pass that took took.
func (m *Validator) TrustRefreshed(took time.Duration) {
	m.refresh.observe(seconds(took))
}

// ListRefreshed counts the outcome of one list in a refresh pass.
func (m *Validator) ListRefreshed(territory, kind, outcome string) {
	m.listRefreshes.with(territory, kind, outcome).inc()
}

// listFamilies is the collector of the per-list gauges, read from the
// trust store at each scrape.
func listFamilies(read func() []List) collectorFunc {
	return func(fs []family) []family {
		id := []string{"territory", "kind"}
		state := family{name: "svc_dss_trusted_list_state", typ: typeGauge, labels: []string{"territory", "kind", "framework", "state"},
			help: "Freshness state of each trusted list: 1 for its state (CURRENT, STALE, EXPIRED, FAILING...)."}
		authenticity := family{name: "svc_dss_trusted_list_authenticity", typ: typeGauge, labels: []string{"territory", "kind", "authenticity"},
			help: "Outcome of the signature check of each trusted list in use: 1 for its authenticity (VALID, NOT_CHECKED...)."}
		anchors := family{name: "svc_dss_trusted_list_anchors", typ: typeGauge, labels: id,
			help: "Trust anchors each trusted list contributes."}
		failures := family{name: "svc_dss_trusted_list_consecutive_failures", typ: typeGauge, labels: id,
			help: "Failed refreshes of each trusted list since its last success."}
		sinceConfirmed := family{name: "svc_dss_trusted_list_seconds_since_online_confirmation", typ: typeGauge, labels: id,
			help: "Seconds since a refresh last confirmed each trusted list with its publisher; absent for a list never confirmed."}
		for _, l := range read() {
			state.series = append(state.series, series{values: []string{l.Territory, l.Kind, l.Framework, l.State}, value: 1})
			authenticity.series = append(authenticity.series, series{values: []string{l.Territory, l.Kind, l.Authenticity}, value: 1})
			anchors.series = append(anchors.series, series{values: []string{l.Territory, l.Kind}, value: float64(l.Anchors)})
			failures.series = append(failures.series, series{values: []string{l.Territory, l.Kind}, value: float64(l.ConsecutiveFailures)})
			if l.Confirmed {
				sinceConfirmed.series = append(sinceConfirmed.series, series{values: []string{l.Territory, l.Kind}, value: l.SinceConfirmation.Seconds()})
			}
		}
		return append(fs, state, authenticity, anchors, failures, sinceConfirmed)
	}
}
