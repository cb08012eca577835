package freshness_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

const (
	cur   = freshness.Current
	cache = freshness.CacheOnly
	stale = freshness.Stale
	exp   = freshness.Expired
	never = freshness.NeverLoaded
)

func TestEvaluate(t *testing.T) {
	t.Parallel()
	closed := with(current(), func(l *freshness.List) { l.NextUpdate = time.Time{} })
	tests := []struct {
		name string
		list freshness.List
		at   time.Time
		want view
	}{
		// §3 state table, one row (and each "or" of a row) per case.
		{"§3 state table: CURRENT: online refresh succeeded recently, NextUpdate in the future",
			current(), now, view{cur, cur, cur, false, false, 0}},
		{"§3 state table: CACHE_ONLY: loaded from the on-disk cache, no online refresh in this process",
			cached(current(), 2*day), now, view{cache, cache, cache, false, false, freshness.CategoryCacheOnly}},
		{"§3 state table: CACHE_ONLY: a copy never confirmed online, issued recently",
			cached(with(current(), func(l *freshness.List) { l.IssueDate = now.Add(-3 * day) }), 0), now,
			view{cache, cache, cache, false, false, freshness.CategoryCacheOnly}},
		{"§3 state table: STALE: past warn-after since the last successful online refresh",
			current(), now.Add(7 * day), view{stale, stale, cur, false, false, freshness.CategoryStale}},
		{"§3 state table: STALE: never confirmed online, past warn-after since its issue date",
			cached(with(current(), func(l *freshness.List) { l.IssueDate = now.Add(-8 * day) }), 0), now,
			view{stale, stale, cache, false, false, freshness.CategoryStale}},
		{"§3 state table: STALE: past the list's own NextUpdate",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-time.Hour) }), now,
			view{stale, cur, stale, false, false, freshness.CategoryStale}},
		{"§3 state table: EXPIRED: past fail-after since the last online confirmation",
			current(), now.Add(29 * day), view{exp, exp, cur, false, false, freshness.CategoryExpired}},
		{"§3 state table: EXPIRED: never confirmed online, past fail-after since its issue date",
			cached(current(), 0), now, view{exp, exp, cache, false, false, freshness.CategoryExpired}},
		{"§3 state table: EXPIRED: past fail-after since the list's own NextUpdate lapsed",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-31 * day) }), now,
			view{exp, cur, exp, false, false, freshness.CategoryExpired}},
		{"§3 state table: NEVER_LOADED: no usable copy of the list, ever",
			freshness.List{Territory: "FR", Framework: trust.EUEIDAS}, now,
			view{never, 0, 0, false, false, freshness.CategoryNeverLoaded}},

		// §3 rule 1: two independent axes, the worse wins.
		{"§3 rule 1: axis 1 STALE, axis 2 fresh: STALE",
			cached(current(), 10*day), now, view{stale, stale, cache, false, false, freshness.CategoryStale}},
		{"§3 rule 1: axis 1 fresh, axis 2 STALE: STALE",
			with(cached(current(), 2*day), func(l *freshness.List) { l.NextUpdate = now.Add(-day) }), now,
			view{stale, cache, stale, false, false, freshness.CategoryStale}},
		{"§3 rule 1: axis 1 STALE, axis 2 EXPIRED: EXPIRED",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-40 * day) }), now.Add(8 * day),
			view{exp, stale, exp, false, false, freshness.CategoryExpired}},
		{"§3 rule 1: axis 1 EXPIRED, axis 2 STALE: EXPIRED",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(20 * day) }), now.Add(30 * day),
			view{exp, exp, stale, false, false, freshness.CategoryExpired}},

		// §3 rule 2.
		{"§3 rule 2: past its own NextUpdate is STALE whatever the thresholds say",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-time.Minute) }), now,
			view{stale, cur, stale, false, false, freshness.CategoryStale}},
		{"§3 rule 2 (decision 0012): a closed list (no NextUpdate) is lapsed since its issue date",
			closed, now, view{exp, cur, exp, false, false, freshness.CategoryExpired}},
		{"§3 rule 2 (decision 0012): a closed list issued within fail-after is STALE",
			with(closed, func(l *freshness.List) { l.IssueDate = now.Add(-2 * day) }), now,
			view{stale, cur, stale, false, false, freshness.CategoryStale}},

		// §3 rule 4, decided in 0012: STALE at NextUpdate, no warn-after offset.
		{"§3 rule 4 (decision 0012): STALE one day past NextUpdate, before NextUpdate+warn-after",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-day) }), now,
			view{stale, cur, stale, false, false, freshness.CategoryStale}},

		// §3 rule 8 when the snapshot still holds the last good copy.
		{"§3 rule 8: a parse failure beside a still-held copy is reported separately, state by the axes",
			with(current(), func(l *freshness.List) { l.ParseFailed, l.ConsecutiveFailures = true, 1 }), now,
			view{cur, cur, cur, false, false, freshness.CategoryParseFailure}},

		// Unknown dates confirm nothing.
		{"decision 0012: a held copy with no dates at all is EXPIRED on both axes",
			freshness.List{Territory: "IT", Loaded: true, Anchors: 1, Authenticity: trust.AuthValid}, now,
			view{exp, exp, exp, false, false, freshness.CategoryExpired}},
		{"decision 0012: clock skew, an issue date in the future, is not stale",
			cached(with(current(), func(l *freshness.List) { l.IssueDate = now.Add(time.Hour) }), 0), now,
			view{cache, cache, cache, false, false, freshness.CategoryCacheOnly}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			got := freshness.Evaluate(tt.list, tt.at, th)
			is.Equal(viewOf(got), tt.want)
			is.Equal(got.List, tt.list) // the input travels with the status
		})
	}
}

func TestEvaluateRule2Thresholds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	// §3 rule 2: "reported stale whatever the configured thresholds say".
	generous := freshness.Thresholds{WarnAfter: 365 * day, FailAfter: 730 * day, FailureThreshold: 10}
	l := with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-time.Second) })
	is.Equal(freshness.Evaluate(l, now, generous).State, stale)
	is.Equal(freshness.Evaluate(l, now.Add(-2*time.Second), generous).State, cur)
}

func TestEvaluateBoundaries(t *testing.T) {
	t.Parallel()
	// Decision 0012: a threshold is crossed at the instant it is reached
	// (age >= threshold), as EU DSS's TLFreshnessCheck and
	// TLNotExpiredCheck do.
	confirmed := now
	nextUpdate := now.Add(100 * day)
	l := with(current(), func(l *freshness.List) {
		l.LastOnlineConfirmation = confirmed
		l.NextUpdate = nextUpdate
	})
	// An axis-2-only list: confirmed just before each instant.
	axis2 := func(at time.Time) freshness.List {
		return with(l, func(l *freshness.List) { l.LastOnlineConfirmation = at })
	}
	tests := []struct {
		name string
		list freshness.List
		at   time.Time
		want freshness.State
	}{
		{"axis 1: one nanosecond before warn-after is CURRENT", l, confirmed.Add(th.WarnAfter - 1), cur},
		{"axis 1: exactly at warn-after is STALE", l, confirmed.Add(th.WarnAfter), stale},
		{"axis 1: one nanosecond before fail-after is STALE", l, confirmed.Add(th.FailAfter - 1), stale},
		{"axis 1: exactly at fail-after is EXPIRED", l, confirmed.Add(th.FailAfter), exp},
		{"axis 2: one nanosecond before NextUpdate is CURRENT", axis2(nextUpdate.Add(-1)), nextUpdate.Add(-1), cur},
		{"axis 2: exactly at NextUpdate is STALE", axis2(nextUpdate), nextUpdate, stale},
		{"axis 2: one nanosecond before NextUpdate+fail-after is STALE",
			axis2(nextUpdate.Add(th.FailAfter - 1)), nextUpdate.Add(th.FailAfter - 1), stale},
		{"axis 2: exactly at NextUpdate+fail-after is EXPIRED",
			axis2(nextUpdate.Add(th.FailAfter)), nextUpdate.Add(th.FailAfter), exp},
	}
	for _, tt := range tests {
		t.Run("decision 0012 boundary: "+tt.name, func(t *testing.T) {
			t.Parallel()
			is.New(t).Equal(freshness.Evaluate(tt.list, tt.at, th).State, tt.want)
		})
	}
}

func TestTransitions(t *testing.T) {
	t.Parallel()
	fresh := cached(with(current(), func(l *freshness.List) { l.IssueDate = now.Add(-day) }), 0)
	tests := []struct {
		name          string
		list          freshness.List
		before, after time.Time
		from, to      freshness.State
		currentBefore bool
	}{
		{"§3 transitions: CURRENT -> STALE when warn-after exceeded on axis 1",
			current(), now, now.Add(6 * day), cur, stale, true},
		{"§3 transitions: CURRENT -> STALE when NextUpdate passes on axis 2",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(2 * day) }), now, now.Add(3 * day), cur, stale, true},
		{"§3 transitions: STALE -> EXPIRED when fail-after exceeded on axis 1",
			current(), now.Add(10 * day), now.Add(29 * day), stale, exp, false},
		{"§3 transitions: STALE -> EXPIRED when fail-after exceeded on axis 2",
			with(current(), func(l *freshness.List) { l.NextUpdate = now.Add(-28 * day) }), now, now.Add(3 * day), stale, exp, false},
		{"§3 transitions: CACHE_ONLY -> STALE as a copy never confirmed online ages from its issue date past warn-after",
			fresh, now, now.Add(6 * day), cache, stale, false},
		{"§3 transitions: CACHE_ONLY -> EXPIRED past fail-after measured from issue date",
			fresh, now, now.Add(29 * day), cache, exp, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			// §3 rule 1: the same record, read at two instants; nothing is
			// recorded in between.
			b := freshness.Evaluate(tt.list, tt.before, th)
			a := freshness.Evaluate(tt.list, tt.after, th)
			is.Equal(b.State, tt.from)
			is.Equal(a.State, tt.to)
			// "Also: banner and trustData.current false".
			is.Equal(freshness.Aggregate([]freshness.Status{b}).Current, tt.currentBefore)
			sum := freshness.Aggregate([]freshness.Status{a})
			is.True(!sum.Current)
			_, shown := sum.Banner()
			is.True(shown)
		})
	}
}

func TestFailing(t *testing.T) {
	t.Parallel()
	failures := func(n int) freshness.List {
		return with(current(), func(l *freshness.List) { l.ConsecutiveFailures = n })
	}
	tests := []struct {
		name    string
		list    freshness.List
		th      freshness.Thresholds
		failing bool
		cat     freshness.Category
	}{
		{"§3 transitions: any list: below failure-threshold is not failing", failures(2), th, false, 0},
		{"§3 transitions: any list: consecutive failures reaching failure-threshold is failing",
			failures(3), th, true, freshness.CategoryDownloadFailing},
		{"§3 transitions: any list: above failure-threshold is failing", failures(4), th, true, freshness.CategoryDownloadFailing},
		{"§3 rule 6: the Swiss list counts failures the same way",
			with(swiss(), func(l *freshness.List) { l.ConsecutiveFailures = 3 }), th, true, freshness.CategoryDownloadFailing},
		{"decision 0012: no failures is never failing, even with an unvalidated zero threshold",
			current(), freshness.Thresholds{WarnAfter: th.WarnAfter, FailAfter: th.FailAfter}, false, 0},
		{"decision 0012: expired outranks download-failing in the category",
			with(failures(5), func(l *freshness.List) { l.LastOnlineConfirmation = now.Add(-31 * day) }), th,
			true, freshness.CategoryExpired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			s := freshness.Evaluate(tt.list, now, tt.th)
			is.Equal(s.Failing, tt.failing)
			is.Equal(s.Category, tt.cat)
			// Failing is separate from the five states.
			is.True(s.State != 0)
			if tt.failing {
				is.True(!freshness.Aggregate([]freshness.Status{s}).Current)
			}
		})
	}
}

func TestAuthenticity(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		list     freshness.List
		degraded bool
		cat      freshness.Category
	}{
		{"§3 Authenticity: valid: not degraded", current(), false, 0},
		{"§3 Authenticity: invalid (tampered): degraded regardless of freshness",
			with(current(), func(l *freshness.List) { l.Authenticity = trust.AuthInvalid }), true, freshness.CategorySignatureInvalid},
		{"§3 Authenticity: indeterminate (substituted list, unconfigured anchor): degraded",
			with(current(), func(l *freshness.List) { l.Authenticity = trust.AuthIndeterminate }), true, freshness.CategorySignatureIndeterminate},
		{"§1 Runtime prerequisites: keystore missing, signature not checked: degraded",
			with(current(), func(l *freshness.List) { l.Authenticity = trust.AuthNotChecked }), true, freshness.CategorySignatureNotChecked},
		{"§2 trustData: no outcome recorded for a held copy is not positively confirmed: degraded",
			with(current(), func(l *freshness.List) { l.Authenticity = 0 }), true, freshness.CategorySignatureNotChecked},
		{"§3 Authenticity: outranks staleness on the same list",
			with(current(), func(l *freshness.List) {
				l.Authenticity = trust.AuthInvalid
				l.LastOnlineConfirmation = now.Add(-40 * day)
			}), true, freshness.CategorySignatureInvalid},
		{"§3 Authenticity: a rejected list that holds no copy still degrades the store",
			freshness.List{Territory: "CH", Authenticity: trust.AuthInvalid}, true, freshness.CategorySignatureInvalid},
		{"§3 Authenticity: a list never fetched has nothing to authenticate",
			freshness.List{Territory: "CH"}, false, freshness.CategoryNeverLoaded},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			s := freshness.Evaluate(tt.list, now, th)
			is.Equal(s.Degraded, tt.degraded)
			is.Equal(s.Category, tt.cat)
			sum := freshness.Aggregate([]freshness.Status{s, freshness.Evaluate(swiss(), now, th)})
			is.Equal(sum.Degraded, tt.degraded)
			if tt.degraded {
				is.True(!sum.Current) // "sets trustData.current to false"
			}
		})
	}
}

func TestDegradedBehaviour(t *testing.T) {
	t.Parallel()
	t.Run("§3 Degraded behaviour 2: the status carries the date last confirmed online and the list's country", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		s := freshness.Evaluate(current(), now.Add(10*day), th)
		is.Equal(s.LastConfirmed, now.Add(-day))
		is.Equal(s.List.Territory, "DE")
	})
	t.Run("§3 Degraded behaviour 2: a copy never confirmed online dates from its issue date", func(t *testing.T) {
		t.Parallel()
		s := freshness.Evaluate(cached(current(), 0), now, th)
		is.New(t).Equal(s.LastConfirmed, now.Add(-40*day))
	})
	t.Run("§3 Degraded behaviour 5 and state table: STALE and EXPIRED lists keep their anchors", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		for _, st := range []freshness.State{cur, cache, stale, exp} {
			is.True(st.AnchorsAvailable())
		}
		is.True(!never.AnchorsAvailable())
		is.True(!freshness.State(0).AnchorsAvailable())
	})
}
