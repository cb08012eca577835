package isoduration_test

import (
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/isoduration"
)

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want time.Duration
		err  string
	}{
		{in: "P7D", want: 7 * 24 * time.Hour},
		{in: "PT30S", want: 30 * time.Second},
		{in: "P1D", want: 24 * time.Hour},
		{in: "p2w", want: 14 * 24 * time.Hour},
		{in: "P1DT2H3M4.5S", want: 26*time.Hour + 3*time.Minute + 4500*time.Millisecond},
		{in: "PT0,25S", want: 250 * time.Millisecond},
		{in: "PT0S", want: 0},
		{in: "", err: "empty duration"},
		{in: "7D", err: `invalid ISO-8601 duration "7D": must start with P (e.g. P7D, PT30S)`},
		{in: "P", err: `invalid ISO-8601 duration "P": no components`},
		{in: "PT", err: `invalid ISO-8601 duration "PT": no components`},
		{in: "P1H", err: `invalid ISO-8601 duration "P1H": unknown unit H`},
		{in: "PT1D", err: `invalid ISO-8601 duration "PT1D": unknown unit D`},
		{in: "P1Y", err: `invalid ISO-8601 duration "P1Y": years and months have no fixed length; use days (P30D)`},
		{in: "P1.5D", err: `invalid ISO-8601 duration "P1.5D": only seconds may have a fraction`},
		{in: "P1D1D", err: `invalid ISO-8601 duration "P1D1D": unit D repeated`},
		{in: "PT1H2", err: `invalid ISO-8601 duration "PT1H2": expected a number followed by a unit`},
		{in: "P1DTT1H", err: `invalid ISO-8601 duration "P1DTT1H": T appears twice`},
		{in: "P99999999999D", err: `invalid ISO-8601 duration "P99999999999D": too long`},
		{in: "-P1D", err: `invalid ISO-8601 duration "-P1D": must start with P (e.g. P7D, PT30S)`},
	}
	for _, tt := range tests {
		got, err := isoduration.Parse(tt.in)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Parse(%q) error = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
}

func TestFormatRoundTrips(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{0, time.Second, 30 * time.Second, 90 * time.Minute, 7 * 24 * time.Hour, 24*time.Hour + 1500*time.Millisecond} {
		s := isoduration.Format(d)
		back, err := isoduration.Parse(s)
		if err != nil || back != d {
			t.Errorf("Format(%v) = %q, parses back to %v, %v", d, s, back, err)
		}
	}
}

// Operators write these at start-up; the parser must never panic, and
// what it accepts must not be negative.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"P7D", "PT30S", "P1DT2H3M4.5S", "P2W", "PT0,5S", "P1Y", "", "PT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := isoduration.Parse(s)
		if err == nil && d < 0 {
			t.Fatalf("Parse(%q) = %v, negative", s, d)
		}
	})
}
