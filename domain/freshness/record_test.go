package freshness_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
)

// downloaded is a successful download of a copy issued at issued with the
// given next update.
func downloaded(issued, next time.Time) freshness.Outcome {
	return freshness.Outcome{Kind: freshness.Downloaded, Authenticity: trust.AuthValid,
		IssueDate: issued, NextUpdate: next, Anchors: 17}
}

var (
	unchanged      = freshness.Outcome{Kind: freshness.Unchanged}
	downloadFailed = freshness.Outcome{Kind: freshness.DownloadFailed}
	parseFailed    = freshness.Outcome{Kind: freshness.ParseFailed}
)

func TestRecord(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		start    freshness.List
		outcomes []freshness.Outcome
		want     view
		check    func(is *is.I, l freshness.List)
	}{
		{"§3 rule 5 (decision 0012): NEVER_LOADED -> CURRENT after a successful download",
			freshness.List{Territory: "FR", Framework: trust.EUEIDAS},
			[]freshness.Outcome{downloaded(now.Add(-3*day), now.Add(150*day))},
			view{cur, cur, cur, false, false, 0},
			func(is *is.I, l freshness.List) {
				is.True(l.Loaded)
				is.Equal(l.Anchors, 17)
				is.Equal(l.LastOnlineConfirmation, now)
			}},
		{"§3 rule 5 (decision 0012): CACHE_ONLY -> CURRENT when the digest is unchanged (a successful check confirms)",
			cached(current(), 3*day), []freshness.Outcome{unchanged},
			view{cur, cur, cur, false, false, 0},
			func(is *is.I, l freshness.List) {
				is.Equal(l.IssueDate, current().IssueDate) // the held copy is kept
				is.Equal(l.Anchors, current().Anchors)
			}},
		{"§3 rule 5 (decision 0012): STALE -> CURRENT after a refresh confirms the list",
			cached(current(), 10*day), []freshness.Outcome{unchanged}, view{cur, cur, cur, false, false, 0}, nil},
		{"§3 rule 7: a refresh that reached nothing is not a success: CACHE_ONLY stays CACHE_ONLY",
			cached(current(), 2*day), []freshness.Outcome{downloadFailed},
			view{cache, cache, cache, false, false, freshness.CategoryCacheOnly},
			func(is *is.I, l freshness.List) {
				is.Equal(l.LastOnlineConfirmation, now.Add(-2*day))
				is.True(!l.ConfirmedInThisProcess)
				is.Equal(l.ConsecutiveFailures, 1)
			}},
		{"§3 rule 7: failed passes confirm nothing: a cached copy past warn-after is STALE",
			cached(current(), 8*day), []freshness.Outcome{downloadFailed, downloadFailed},
			view{stale, stale, cache, false, false, freshness.CategoryStale}, nil},
		{"§3 transitions: any list: the third consecutive failure reports failing",
			current(), []freshness.Outcome{downloadFailed, downloadFailed, downloadFailed},
			view{cur, cur, cur, true, false, freshness.CategoryDownloadFailing}, nil},
		{"§3 transitions: any list: consecutive failures reset on success",
			current(), []freshness.Outcome{downloadFailed, downloadFailed, unchanged, downloadFailed, downloadFailed},
			view{cur, cur, cur, false, false, 0},
			func(is *is.I, l freshness.List) { is.Equal(l.ConsecutiveFailures, 2) }},
		{"§3 rule 8: a parse failure drops the list's anchors and is reported separately",
			current(), []freshness.Outcome{parseFailed},
			view{never, 0, 0, false, false, freshness.CategoryParseFailure},
			func(is *is.I, l freshness.List) {
				is.True(l.ParseFailed)
				is.True(!l.Loaded)
				is.Equal(l.Anchors, 0)
				is.Equal(l.ConsecutiveFailures, 1)
			}},
		{"§3 rule 8: parse failures count towards failing but keep their own category",
			current(), []freshness.Outcome{downloadFailed, parseFailed, downloadFailed},
			view{never, 0, 0, true, false, freshness.CategoryParseFailure},
			func(is *is.I, l freshness.List) { is.True(l.ParseFailed) }},
		{"§3 rule 8: a download failure is not a parse failure",
			current(), []freshness.Outcome{downloadFailed, downloadFailed, downloadFailed},
			view{cur, cur, cur, true, false, freshness.CategoryDownloadFailing},
			func(is *is.I, l freshness.List) { is.True(!l.ParseFailed) }},
		{"§3 rule 8: a later download clears the parse failure",
			current(), []freshness.Outcome{parseFailed, downloaded(now.Add(-day), now.Add(100*day))},
			view{cur, cur, cur, false, false, 0},
			func(is *is.I, l freshness.List) { is.True(!l.ParseFailed) }},
		{"§3 Authenticity: a downloaded copy carries its signature outcome",
			current(), []freshness.Outcome{{Kind: freshness.Downloaded, Authenticity: trust.AuthInvalid,
				IssueDate: now.Add(-day), NextUpdate: now.Add(100 * day), Anchors: 3}},
			view{cur, cur, cur, false, true, freshness.CategorySignatureInvalid}, nil},
		{"§1 Runtime prerequisites: re-checked after the signer certificate is supplied",
			with(swiss(), func(l *freshness.List) { l.Authenticity = trust.AuthNotChecked }),
			[]freshness.Outcome{{Kind: freshness.Unchanged, Authenticity: trust.AuthValid}},
			view{cur, cur, cur, false, false, 0}, nil},
		{"§3 Authenticity: an unchanged digest without a re-check keeps the recorded outcome",
			with(current(), func(l *freshness.List) { l.Authenticity = trust.AuthIndeterminate }),
			[]freshness.Outcome{unchanged},
			view{cur, cur, cur, false, true, freshness.CategorySignatureIndeterminate}, nil},
		{"§3 Authenticity: a refused copy keeps the held copy, unconfirmed, and degrades the list",
			current(), []freshness.Outcome{{Kind: freshness.Refused, Authenticity: trust.AuthInvalid}},
			view{cur, cur, cur, false, true, freshness.CategorySignatureInvalid},
			func(is *is.I, l freshness.List) {
				is.True(l.Loaded)
				is.Equal(l.Anchors, current().Anchors)
				is.Equal(l.Authenticity, trust.AuthValid) // the held copy's
				is.Equal(l.Refused, trust.AuthInvalid)
				is.Equal(l.ConsecutiveFailures, 1)
				is.Equal(l.LastOnlineConfirmation, current().LastOnlineConfirmation)
			}},
		{"§3 Authenticity: refusals count towards failing",
			current(), []freshness.Outcome{{Kind: freshness.Refused, Authenticity: trust.AuthIndeterminate}, downloadFailed, {Kind: freshness.Refused, Authenticity: trust.AuthIndeterminate}},
			view{cur, cur, cur, true, true, freshness.CategorySignatureIndeterminate}, nil},
		{"§3 Authenticity: a confirmation clears the refusal",
			current(), []freshness.Outcome{{Kind: freshness.Refused, Authenticity: trust.AuthInvalid}, unchanged},
			view{cur, cur, cur, false, false, 0},
			func(is *is.I, l freshness.List) { is.Equal(l.Refused, trust.Authenticity(0)) }},
		{"§3 rule 7: an outcome of unset kind records nothing",
			cached(current(), 2*day), []freshness.Outcome{{}},
			view{cache, cache, cache, false, false, freshness.CategoryCacheOnly}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			l := tt.start
			for _, o := range tt.outcomes {
				l = freshness.Record(l, o, now)
			}
			is.Equal(viewOf(freshness.Evaluate(l, now, th)), tt.want)
			if tt.check != nil {
				tt.check(is, l)
			}
		})
	}
}

func TestRecordAbandonedList(t *testing.T) {
	t.Parallel()
	// §3 rule 2: "A list its publisher abandoned expires even while
	// refreshes succeed." The publisher stops reissuing; the daily refresh
	// keeps finding the same digest.
	is := is.New(t)
	next := now.Add(-day)
	l := with(current(), func(l *freshness.List) { l.NextUpdate = next })
	var states []freshness.State
	for at := now; at.Before(next.Add(35 * day)); at = at.Add(day) {
		l = freshness.Record(l, unchanged, at)
		s := freshness.Evaluate(l, at, th)
		is.Equal(s.SinceConfirmation, cur) // confirmed online every day
		if len(states) == 0 || states[len(states)-1] != s.State {
			states = append(states, s.State)
		}
	}
	is.Equal(states, []freshness.State{stale, exp})
}

func TestRecordRule6Swiss(t *testing.T) {
	t.Parallel()
	// §3 rule 6: the Swiss list ages through the same states, against the
	// same thresholds, counts failures the same way; judgement is per list.
	eu, ch := current(), swiss()
	steps := []struct {
		at   time.Time
		want freshness.State
	}{{now, cur}, {now.Add(6 * day), stale}, {now.Add(20 * day), stale}, {now.Add(40 * day), exp}}
	for _, step := range steps {
		at := step.at
		for _, o := range []freshness.Outcome{downloadFailed, downloadFailed, downloadFailed} {
			eu, ch = freshness.Record(eu, o, at), freshness.Record(ch, o, at)
		}
		e, c := freshness.Evaluate(eu, at, th), freshness.Evaluate(ch, at, th)
		t.Run("§3 rule 6: Swiss list evaluated like an EU list at "+at.Format(time.DateOnly), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			is.Equal(c.List.Framework, trust.CHZERTES)
			is.Equal(c.State, step.want)
			is.True(c.Failing)
			is.Equal(viewOf(c), viewOf(e))
			be, _ := freshness.Aggregate([]freshness.Status{e}).Banner()
			bc, _ := freshness.Aggregate([]freshness.Status{c}).Banner()
			is.Equal(bc.Category, be.Category)
		})
	}
	t.Run("§3 rule 6: a stale EU list does not qualify the Swiss list's own judgement", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		staleEU := freshness.Evaluate(cached(current(), 10*day), now, th)
		ch := freshness.Evaluate(swiss(), now, th)
		is.Equal(staleEU.State, stale)
		is.True(freshness.Aggregate([]freshness.Status{ch}).Current)
		is.True(!freshness.Aggregate([]freshness.Status{staleEU, ch}).Current) // the store as a whole is not
	})
}

func TestOutcomeKind(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	is.True(freshness.Downloaded.Confirmed())
	is.True(freshness.Unchanged.Confirmed())
	is.True(!freshness.DownloadFailed.Confirmed())
	is.True(!freshness.ParseFailed.Confirmed())
	is.Equal(freshness.ParseFailed.String(), "parse-failed")
}
