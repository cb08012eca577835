package config_test

import (
	"testing"

	"github.com/svc-dss/dss/app/config"
)

// The parsers read operator input at start-up; they must never panic and
// what they accept must be sane.

func FuzzParseDuration(f *testing.F) {
	for _, s := range []string{"P7D", "PT30S", "P1DT2H3M4.5S", "P2W", "PT0,5S", "P1Y", "", "PT"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := config.ParseDuration(s)
		if err == nil && d < 0 {
			t.Fatalf("ParseDuration(%q) = %v, negative", s, d)
		}
	})
}

func FuzzParseDataSize(f *testing.F) {
	for _, s := range []string{"20MB", "40MB", "512", "1TB", "-1", "MB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := config.ParseDataSize(s)
		if err == nil && n < 0 {
			t.Fatalf("ParseDataSize(%q) = %d, negative", s, n)
		}
	})
}

func FuzzResolveLocation(f *testing.F) {
	for _, s := range []string{"classpath:tl/x.p12", "file:///etc/x", "file:/x", "/abs", "rel", "classpath:../x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		loc, err := config.ResolveLocation(s, "/root-dir")
		if err == nil && loc.Classpath && len(loc.Path) < len("/root-dir") {
			t.Fatalf("ResolveLocation(%q) left the resource root: %q", s, loc.Path)
		}
	})
}
