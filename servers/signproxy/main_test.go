package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/matryer/is"
)

// The program's command line: sign is its one command; no command or
// another one is a usage error, exit code 2; help prints the usage.
func TestRun(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"no command", nil, 2, "", "signproxy: no command\n" + usage + "\n"},
		{"unknown command", []string{"validate", "doc.pdf"}, 2, "", "signproxy: unknown command \"validate\"\n" + usage + "\n"},
		{"help", []string{"--help"}, 0, usage + "\n", ""},
		{"sign without a file", []string{"sign"}, 2, "", "sign: no FILE to sign\n" + signUsage + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			var stdout, stderr bytes.Buffer
			is.Equal(run(context.Background(), tt.args, &stdout, &stderr), tt.code)
			is.Equal(stdout.String(), tt.stdout)
			is.Equal(stderr.String(), tt.stderr)
		})
	}
}
