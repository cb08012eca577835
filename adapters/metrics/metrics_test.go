package metrics_test

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/svc-dss/dss/adapters/metrics"
)

// TestRegistriesApart: two servers in one process have metrics of their
// own; counting on one leaves the other at zero (the global registry
// would panic on the second registration).
func TestRegistriesApart(t *testing.T) {
	is := is.New(t)
	a, b := metrics.NewValidator(nil), metrics.NewValidator(nil)
	a.Validation("PAdES", "TOTAL_PASSED", "EU", "QESig")
	a.HTTPError(400, "unreadable-upload")
	n, err := testutil.GatherAndCount(a.Gatherer(), "svc_dss_validations_total", "svc_dss_http_error_responses_total")
	is.NoErr(err)
	is.Equal(n, 2)
	n, err = testutil.GatherAndCount(b.Gatherer(), "svc_dss_validations_total", "svc_dss_http_error_responses_total")
	is.NoErr(err)
	is.Equal(n, 0)
	s1, s2 := metrics.NewSigner(nil), metrics.NewSigner(nil)
	s1.ReplayRefused()
	n, err = testutil.GatherAndCount(s2.Gatherer(), "svc_dss_sign_replay_refusals_total")
	is.NoErr(err)
	is.Equal(n, 1) // a plain counter is always exposed
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
	const want = `
# HELP svc_dss_trusted_list_consecutive_failures Failed refreshes of each trusted list since its last success.
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
	is.NoErr(testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(want),
		"svc_dss_trusted_list_consecutive_failures", "svc_dss_trusted_list_seconds_since_online_confirmation", "svc_dss_trusted_list_state"))
}
