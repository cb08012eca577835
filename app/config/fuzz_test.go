package config_test

import (
	"testing"

	"github.com/svc-dss/dss/app/config"
)

// The parsers read operator input at start-up; they must never panic and
// what they accept must be sane.

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
