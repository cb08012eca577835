package main

import (
	"runtime/debug"
	"slices"
	"strings"
	"testing"
)

// The programs read real EU certificates whose serial numbers are
// negative: crypto/x509 accepts them only with x509negativeserial=1,
// which main.go sets (adapters/formats/cert repairs them otherwise, more
// slowly). The test binary of a main package carries its //go:debug.
func TestNegativeSerialsAccepted(t *testing.T) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		t.Fatal("no build information")
	}
	for _, s := range info.Settings {
		if s.Key == "DefaultGODEBUG" {
			if !slices.Contains(strings.Split(s.Value, ","), "x509negativeserial=1") {
				t.Fatalf("DefaultGODEBUG = %q, want x509negativeserial=1", s.Value)
			}
			return
		}
	}
	t.Fatal("DefaultGODEBUG not set: main.go lost its //go:debug x509negativeserial=1")
}
