package validatecmd

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestParseInterleaved: flags are read wherever they stand, in either
// form, and every other argument comes back in order; nothing is
// dropped (issue 17).
func TestParseInterleaved(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		rest     []string
		at       string
		detached []string
		offline  bool
		err      string
	}{
		{"none", nil, nil, "", nil, false, ""},
		{"flags after the argument", []string{"f", "--at", "x", "--offline"}, []string{"f"}, "x", nil, true, ""},
		{"a flag, the argument, more flags", []string{"--offline", "f", "--detached", "a", "--detached=b"}, []string{"f"}, "", []string{"a", "b"}, true, ""},
		{"single dash, =value", []string{"-at=x", "f", "-detached", "a"}, []string{"f"}, "x", []string{"a"}, false, ""},
		{"a boolean takes no separate value", []string{"--offline", "false"}, []string{"false"}, "", nil, true, ""},
		{"a boolean with =value", []string{"f", "--offline=false"}, []string{"f"}, "", nil, false, ""},
		{"a value that looks like a flag", []string{"--detached", "--offline", "f"}, []string{"f"}, "", []string{"--offline"}, false, ""},
		{"a value that is --", []string{"--detached", "--", "f"}, []string{"f"}, "", []string{"--"}, false, ""},
		{"-- ends the flags", []string{"--offline", "--", "--at", "f"}, []string{"--at", "f"}, "", nil, true, ""},
		{"- is an argument", []string{"-", "--offline"}, []string{"-"}, "", nil, true, ""},
		{"every argument kept, in order", []string{"a", "--offline", "b", "--at", "x", "c"}, []string{"a", "b", "c"}, "x", nil, true, ""},
		{"unknown flag after an argument", []string{"f", "--strict"}, nil, "", nil, false, "flag provided but not defined: -strict"},
		{"unknown flag with =value", []string{"--strict=1", "f"}, nil, "", nil, false, "flag provided but not defined: -strict"},
		{"a value missing", []string{"f", "--at"}, nil, "", nil, false, "flag needs an argument: -at"},
		{"bad flag syntax", []string{"f", "---at", "x"}, nil, "", nil, false, "bad flag syntax: ---at"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			at := fs.String("at", "", "")
			var detached repeated
			fs.Var(&detached, "detached", "")
			offline := fs.Bool("offline", false, "")
			rest, err := ParseInterleaved(fs, tt.args)
			if tt.err != "" {
				is.True(err != nil && strings.Contains(err.Error(), tt.err)) // the flag package's error
				return
			}
			is.NoErr(err)
			is.True(slices.Equal(rest, tt.rest)) // the other arguments, in order
			is.Equal(*at, tt.at)
			is.True(slices.Equal(detached, tt.detached))
			is.Equal(*offline, tt.offline)
		})
	}
}
