package freshness_test

import (
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

func eval(lists ...freshness.List) []freshness.Status {
	out := make([]freshness.Status, len(lists))
	for i, l := range lists {
		out[i] = freshness.Evaluate(l, now, th)
	}
	return out
}

// lotl is the EU LOTL: held and current, but yielding no anchors itself.
func lotl() freshness.List {
	return with(current(), func(l *freshness.List) {
		l.Territory, l.URL, l.Anchors = "EU", "https://lotl.example.eu/eu-lotl.xml", 0
	})
}

func unusable(territory string) freshness.List {
	return freshness.List{Territory: territory, Framework: trust.EUEIDAS}
}

func TestAggregate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		statuses   []freshness.Status
		state      freshness.State
		anyAnchors bool
		current    bool
		category   freshness.Category
	}{
		{"§2 trustData: every list CURRENT, VALID, not failing: current",
			eval(lotl(), current(), swiss()), cur, true, true, 0},
		{"§3 rule 3: worst wins: one STALE list makes the store STALE",
			eval(lotl(), cached(current(), 8*day), swiss()), stale, true, false, freshness.CategoryStale},
		{"§3 rule 3: worst wins: CACHE_ONLY beside CURRENT is CACHE_ONLY",
			eval(current(), cached(swiss(), day)), cache, true, false, freshness.CategoryCacheOnly},
		{"§3 rule 3: worst wins: EXPIRED over STALE",
			eval(cached(current(), 8*day), cached(swiss(), 31*day)), exp, true, false, freshness.CategoryExpired},
		{"§3 rule 3: one unusable member-state list shows the aggregate NEVER_LOADED while other lists stay usable",
			eval(lotl(), current(), unusable("FR"), swiss()), never, true, false, freshness.CategoryNeverLoaded},
		{"§3 rule 3: NEVER_LOADED over EXPIRED",
			eval(unusable("FR"), cached(swiss(), 31*day)), never, true, false, freshness.CategoryNeverLoaded},
		{"§3 rule 3: no list has anchors: 'no trusted list is loaded'",
			eval(unusable("EU"), unusable("CH")), never, false, false, freshness.CategoryNoListLoaded},
		{"§3 rule 3: a held LOTL alone yields no anchors: 'no trusted list is loaded'",
			eval(lotl(), unusable("DE")), never, false, false, freshness.CategoryNoListLoaded},
		{"§3 Degraded behaviour 3: a held list without anchors is no store: NEVER_LOADED",
			eval(lotl()), never, false, false, freshness.CategoryNoListLoaded},
		{"§3 Degraded behaviour 3: no public list configured at all is NEVER_LOADED",
			nil, never, false, false, freshness.CategoryNoListLoaded},
		{"§3 Authenticity: one unauthenticated list: not current, outranks a stale list",
			eval(cached(current(), 8*day), with(swiss(), func(l *freshness.List) { l.Authenticity = trust.AuthNotChecked })),
			stale, true, false, freshness.CategorySignatureNotChecked},
		{"§3 rule 8: a parse failure keeps the store from current",
			eval(current(), freshness.Record(swiss(), parseFailed, now)), never, true, false, freshness.CategoryParseFailure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sum := freshness.Aggregate(tt.statuses)
			is.Equal(sum.State, tt.state)
			is.Equal(sum.AnyAnchors, tt.anyAnchors)
			is.Equal(sum.Current, tt.current)
			is.Equal(sum.Category, tt.category)
			is.Equal(len(sum.Lists), len(tt.statuses))
			b, shown := sum.Banner()
			is.Equal(shown, !tt.current)
			is.Equal(b.Category, tt.category)
			// §3 rule 3: the text only when no list has anchors.
			is.Equal(strings.Contains(strings.ToLower(b.Text), "no trusted list is loaded"), !tt.anyAnchors)
		})
	}
}

func TestAggregateLastConfirmed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		lists []freshness.List
		want  time.Time
	}{
		{"decision 0012: the oldest last online confirmation among held lists",
			[]freshness.List{current(), cached(swiss(), 5*day), lotl()}, now.Add(-5 * day)},
		{"decision 0012: a copy never confirmed online counts from its issue date",
			[]freshness.List{current(), cached(swiss(), 0)}, now.Add(-40 * day)},
		{"decision 0012: a list holding no copy does not count",
			[]freshness.List{current(), freshness.Record(cached(swiss(), 60*day), parseFailed, now)}, now.Add(-day)},
		{"decision 0012: zero when no list holds a copy",
			[]freshness.List{unusable("EU")}, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is.New(t).Equal(freshness.Aggregate(eval(tt.lists...)).LastConfirmed, tt.want)
		})
	}
}

func TestAggregateFlags(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	failing := with(swiss(), func(l *freshness.List) { l.ConsecutiveFailures = 3 })
	sum := freshness.Aggregate(eval(current(), failing))
	is.True(sum.Failing)
	is.True(!sum.Degraded)
	is.True(!sum.Current)
	is.Equal(sum.State, cur) // failing is not a state

	in := eval(current(), swiss())
	sum = freshness.Aggregate(in)
	in[0].State = freshness.Expired
	is.Equal(sum.Lists[0].State, cur) // the summary is a value
}
