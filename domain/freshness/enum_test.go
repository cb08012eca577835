package freshness_test

import (
	"errors"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/freshness"
)

func TestState(t *testing.T) {
	t.Parallel()
	names := map[freshness.State]string{
		freshness.Current: "CURRENT", freshness.CacheOnly: "CACHE_ONLY", freshness.Stale: "STALE",
		freshness.Expired: "EXPIRED", freshness.NeverLoaded: "NEVER_LOADED",
	}
	for s, name := range names {
		t.Run("§3 state table: "+name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			is.Equal(s.String(), name)
			got, err := freshness.ParseState(name)
			is.NoErr(err)
			is.Equal(got, s)
		})
	}
	t.Run("zero is unset", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		is.Equal(freshness.State(0).String(), "")
		_, err := freshness.ParseState("")
		is.True(err != nil)
		_, err = freshness.ParseState("current")
		is.True(err != nil) // names are exact
	})
	t.Run("decision 0012: worst-wins order", func(t *testing.T) {
		t.Parallel()
		is.New(t).True(freshness.Current < freshness.CacheOnly && freshness.CacheOnly < freshness.Stale &&
			freshness.Stale < freshness.Expired && freshness.Expired < freshness.NeverLoaded)
	})
}

func TestCategory(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	all := []string{"no-list-loaded", "signature-invalid", "signature-indeterminate", "signature-not-checked",
		"parse-failure", "never-loaded", "expired", "download-failing", "stale", "cache-only"}
	for i, name := range all {
		c, err := freshness.ParseCategory(name)
		is.NoErr(err)
		is.Equal(c.String(), name)
		if i > 0 {
			prev, _ := freshness.ParseCategory(all[i-1])
			is.True(prev.Outranks(c))
			is.True(!c.Outranks(prev))
		}
		is.True(c.Outranks(0))
		is.True(!freshness.Category(0).Outranks(c))
	}
	_, err := freshness.ParseCategory("Stale")
	is.True(err != nil)
}

func TestThresholdsValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		th   freshness.Thresholds
		want string
	}{
		{"spec defaults P7D, P30D, 3", freshness.Thresholds{WarnAfter: 7 * day, FailAfter: 30 * day, FailureThreshold: 3}, ""},
		{"zero value is invalid", freshness.Thresholds{},
			"freshness: invalid thresholds: warn-after must be positive, got 0s\n" +
				"freshness: invalid thresholds: fail-after (0s) must be longer than warn-after (0s)\n" +
				"freshness: invalid thresholds: failure-threshold must be at least 1, got 0"},
		{"negative warn-after", freshness.Thresholds{WarnAfter: -time.Hour, FailAfter: day, FailureThreshold: 1},
			"freshness: invalid thresholds: warn-after must be positive, got -1h0m0s"},
		{"fail-after equal to warn-after", freshness.Thresholds{WarnAfter: day, FailAfter: day, FailureThreshold: 1},
			"freshness: invalid thresholds: fail-after (24h0m0s) must be longer than warn-after (24h0m0s)"},
		{"failure-threshold zero", freshness.Thresholds{WarnAfter: day, FailAfter: 2 * day},
			"freshness: invalid thresholds: failure-threshold must be at least 1, got 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			err := tt.th.Validate()
			if tt.want == "" {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, freshness.ErrInvalidThresholds))
			is.Equal(err.Error(), tt.want)
		})
	}
}
