package main

import (
	"strings"
	"testing"
)

// TestStopsOnSignal: the server and the trust and db commands end through
// their context on SIGINT and SIGTERM; the validate command, whatever
// flags stand before it, keeps the default.
func TestStopsOnSignal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args string
		want bool
	}{
		{"", true},
		{"--dev", true},
		{"--config c.yaml", true},
		{"trust status", true},
		{"trust refresh", true},
		{"db migrate", true},
		{"validate f.pdf", false},
		{"--config c.yaml validate f.pdf --offline", false},
		{"--dev validate f.pdf", false},
	} {
		if got := stopsOnSignal(strings.Fields(tc.args)); got != tc.want {
			t.Errorf("stopsOnSignal(%q) = %v, want %v", tc.args, got, tc.want)
		}
	}
}
