package freshness_test

import (
	"fmt"
	"time"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

func ExampleEvaluate() {
	th := freshness.Thresholds{WarnAfter: 7 * 24 * time.Hour, FailAfter: 30 * 24 * time.Hour, FailureThreshold: 3}
	start := time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)

	// The Swiss list as loaded from the cache at start-up: confirmed online
	// by an earlier process two days ago.
	ch := freshness.List{
		Territory: "CH", Framework: trust.CHZERTES, AnchorSource: "certs/CH-TL-cert-DER.cer",
		Loaded: true, Anchors: 12, Authenticity: trust.AuthValid,
		IssueDate:              time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC),
		NextUpdate:             time.Date(2026, 7, 15, 0, 0, 0, 0, time.UTC),
		LastOnlineConfirmation: start.Add(-48 * time.Hour),
	}
	s := freshness.Evaluate(ch, start, th)
	fmt.Println(s.State, s.Category)

	// The start-up catch-up reaches the publisher: the digest is unchanged.
	ch = freshness.Record(ch, freshness.Outcome{Kind: freshness.Unchanged}, start.Add(30*time.Second))
	fmt.Println(freshness.Evaluate(ch, start.Add(time.Minute), th).State)

	// Every later refresh fails; time alone moves the state.
	for _, days := range []int{1, 2, 3} {
		ch = freshness.Record(ch, freshness.Outcome{Kind: freshness.DownloadFailed}, start.Add(time.Duration(days)*24*time.Hour))
	}
	for _, days := range []int{3, 8, 31} {
		s := freshness.Evaluate(ch, start.Add(time.Duration(days)*24*time.Hour), th)
		fmt.Println(s.State, s.Failing, s.Category)
	}
	// Output:
	// CACHE_ONLY cache-only
	// CURRENT
	// CURRENT true download-failing
	// STALE true download-failing
	// EXPIRED true expired
}

func ExampleSummary_Banner() {
	th := freshness.Thresholds{WarnAfter: 7 * 24 * time.Hour, FailAfter: 30 * 24 * time.Hour, FailureThreshold: 3}
	now := time.Date(2026, 3, 2, 3, 0, 0, 0, time.UTC)

	// The EU keystore is missing: the LOTL and the lists it points to are
	// held, but their signatures could not be checked.
	var statuses []freshness.Status
	for _, territory := range []string{"EU", "DE", "FR"} {
		l := freshness.List{Territory: territory, Framework: trust.EUEIDAS, AnchorSource: "tl/eu-oj-keystore.p12",
			Loaded: true, Anchors: 10, Authenticity: trust.AuthNotChecked,
			IssueDate: now.Add(-24 * time.Hour), NextUpdate: now.Add(180 * 24 * time.Hour),
			LastOnlineConfirmation: now.Add(-time.Hour), ConfirmedInThisProcess: true}
		statuses = append(statuses, freshness.Evaluate(l, now, th))
	}
	sum := freshness.Aggregate(statuses)
	fmt.Println(sum.State, sum.Current, sum.Degraded)
	if b, ok := sum.Banner(); ok {
		fmt.Println(b.Category)
		fmt.Println(b.Text)
	}
	// Output:
	// CURRENT false true
	// signature-not-checked
	// Trusted lists EU, DE, FR could not be authenticated: supply tl/eu-oj-keystore.p12.
}
