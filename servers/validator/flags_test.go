package main

import (
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestTrustCommandArguments: the trust commands drop nothing either: an
// extra argument or an unknown flag, before or after the others, is a
// usage error (exit 2, the usage on stderr).
func TestTrustCommandArguments(t *testing.T) {
	t.Parallel()
	at := "--at=2026-11-21T12:00:00Z"
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"status: an extra argument", []string{"trust", "status", "extra"}, `trust status: unexpected argument "extra"`},
		{"status: an extra argument before --at", []string{"trust", "status", "extra", at}, `trust status: unexpected argument "extra"`},
		{"status: an extra argument after --at", []string{"trust", "status", "--at", "2026-11-21T12:00:00Z", "extra"}, `trust status: unexpected argument "extra"`},
		{"status: an unknown flag", []string{"trust", "status", at, "--json"}, "flag provided but not defined: -json"},
		{"refresh: an extra argument", []string{"trust", "refresh", "now"}, `trust refresh: unexpected argument "now"`},
		{"no subcommand", []string{"trust"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			code, out, stderr := command(t, offline(t), tt.args...)
			is.Equal(code, 2)
			is.Equal(out, "")
			is.True(strings.Contains(stderr, tt.stderr))    // names the problem
			is.True(strings.Contains(stderr, commandUsage)) // and shows the usage
		})
	}
}
