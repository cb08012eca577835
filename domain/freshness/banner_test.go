package freshness_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

func TestBanner(t *testing.T) {
	t.Parallel()
	notChecked := func(l freshness.List) freshness.List {
		return with(l, func(l *freshness.List) { l.Authenticity = trust.AuthNotChecked })
	}
	member := func(territory string) freshness.List {
		return with(cached(current(), 8*day), func(l *freshness.List) { l.Territory = territory })
	}
	tests := []struct {
		name  string
		lists []freshness.List
		want  freshness.Banner
	}{
		{"§3 Degraded behaviour 3: an empty store is a configuration problem of the validator",
			[]freshness.List{unusable("EU"), unusable("CH")},
			freshness.Banner{Category: freshness.CategoryNoListLoaded,
				Text: "No trusted list is loaded. This is a configuration problem of the validator, not a property of the document."}},
		{"§1 Runtime prerequisites: a missing keystore names the file to supply",
			[]freshness.List{notChecked(lotl()), notChecked(current()), swiss()},
			freshness.Banner{Category: freshness.CategorySignatureNotChecked,
				Text: "Trusted lists EU, DE could not be authenticated: supply tl/eu-oj-keystore.p12."}},
		{"§1 Runtime prerequisites: both files missing are both named",
			[]freshness.List{notChecked(current()), notChecked(swiss())},
			freshness.Banner{Category: freshness.CategorySignatureNotChecked,
				Text: "Trusted lists DE, CH could not be authenticated: supply tl/eu-oj-keystore.p12 and certs/CH-TL-cert-DER.cer."}},
		{"§1 Runtime prerequisites: no file known to name",
			[]freshness.List{notChecked(with(swiss(), func(l *freshness.List) { l.AnchorSource = "" }))},
			freshness.Banner{Category: freshness.CategorySignatureNotChecked,
				Text: "Trusted list CH could not be authenticated: no signer certificate is configured."}},
		{"§3 Authenticity: invalid outranks staleness",
			[]freshness.List{cached(current(), 31*day), with(swiss(), func(l *freshness.List) { l.Authenticity = trust.AuthInvalid })},
			freshness.Banner{Category: freshness.CategorySignatureInvalid,
				Text: "Trusted list CH failed its signature check (invalid signature) and is not used as served; anchor data is not confirmed."}},
		{"§3 Authenticity: indeterminate",
			[]freshness.List{with(swiss(), func(l *freshness.List) { l.Authenticity = trust.AuthIndeterminate })},
			freshness.Banner{Category: freshness.CategorySignatureIndeterminate,
				Text: "Trusted list CH is not signed by a configured signer or not covered by its signature (indeterminate) and is not used as served; anchor data is not confirmed."}},
		{"decision 0026: a refused copy degrades the list whose good copy is still in use",
			[]freshness.List{current(), freshness.Record(swiss(), freshness.Outcome{Kind: freshness.Refused, Authenticity: trust.AuthInvalid}, now)},
			freshness.Banner{Category: freshness.CategorySignatureInvalid,
				Text: "Trusted list CH failed its signature check (invalid signature) and is not used as served; anchor data is not confirmed."}},
		{"decision 0026: refusals of several lists",
			[]freshness.List{freshness.Record(current(), freshness.Outcome{Kind: freshness.Refused, Authenticity: trust.AuthIndeterminate}, now),
				freshness.Record(swiss(), freshness.Outcome{Kind: freshness.Refused, Authenticity: trust.AuthIndeterminate}, now)},
			freshness.Banner{Category: freshness.CategorySignatureIndeterminate,
				Text: "Trusted lists DE, CH are not signed by a configured signer or not covered by their signature (indeterminate) and are not used as served; anchor data is not confirmed."}},
		{"§3 rule 8: parse failure reported separately",
			[]freshness.List{current(), freshness.Record(swiss(), parseFailed, now)},
			freshness.Banner{Category: freshness.CategoryParseFailure,
				Text: "Trusted list CH could not be parsed; its anchors are not available."}},
		{"§3 rule 3: one unusable member-state list is named, not the whole store",
			[]freshness.List{lotl(), current(), unusable("FR")},
			freshness.Banner{Category: freshness.CategoryNeverLoaded,
				Text: "Trusted list FR is not loaded; its anchors are not available."}},
		{"§3 state table: EXPIRED",
			[]freshness.List{cached(current(), 31*day), cached(swiss(), 45*day)},
			freshness.Banner{Category: freshness.CategoryExpired,
				Text: "Trusted lists DE, CH are expired; trust data last confirmed 2026-01-16."}},
		{"§3 transitions: repeated refresh failures",
			[]freshness.List{with(current(), func(l *freshness.List) { l.ConsecutiveFailures = 3 })},
			freshness.Banner{Category: freshness.CategoryDownloadFailing,
				Text: "Refresh of trusted list DE keeps failing; trust data last confirmed 2026-03-01."}},
		{"§3 state table: STALE, many lists, names capped",
			[]freshness.List{member("AT"), member("BE"), member("BG"), member("CY"), member("CZ"), member("DE"), member("DK")},
			freshness.Banner{Category: freshness.CategoryStale,
				Text: "Trusted lists AT, BE, BG, CY, CZ and 2 more are stale; trust data last confirmed 2026-02-22."}},
		{"§3 state table: CACHE_ONLY",
			[]freshness.List{cached(current(), 2*day), cached(swiss(), 3*day)},
			freshness.Banner{Category: freshness.CategoryCacheOnly,
				Text: "Trust data is from the cache and not yet confirmed online (as of 2026-02-27)."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			b, shown := freshness.Aggregate(eval(tt.lists...)).Banner()
			is.True(shown)
			is.Equal(b.Category, tt.want.Category)
			is.Equal(b.Text, tt.want.Text)
		})
	}
}

func TestBannerNoneWhenCurrent(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	// §3 "Where degradation is surfaced": a banner only when trust data is
	// not confirmed current.
	b, shown := freshness.Aggregate(eval(lotl(), current(), swiss())).Banner()
	is.True(!shown)
	is.Equal(b, freshness.Banner{})
}
