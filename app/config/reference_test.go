package config_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/svc-dss/dss/app/config"
)

var update = flag.Bool("update", false, "rewrite the README's configuration reference")

// TestREADMEReference checks that the README's configuration tables are
// the ones the loader reads. Run with -update to rewrite them.
func TestREADMEReference(t *testing.T) {
	const path = "../../README.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for _, sec := range []struct {
		name string
		keys []config.Key
	}{
		{"validator", config.ValidatorKeys()},
		{"signer", config.SignerKeys()},
	} {
		begin := "<!-- config:" + sec.name + ":begin -->\n"
		end := "<!-- config:" + sec.name + ":end -->"
		i, j := strings.Index(readme, begin), strings.Index(readme, end)
		if i < 0 || j < i {
			t.Fatalf("README lacks the markers %q and %q", begin, end)
		}
		want := config.Reference(sec.keys)
		got := readme[i+len(begin) : j]
		if got == want {
			continue
		}
		if *update {
			readme = readme[:i+len(begin)] + want + readme[j:]
			continue
		}
		t.Errorf("README's %s configuration table is out of date; run go test ./app/config -run TestREADMEReference -update", sec.name)
	}
	if *update {
		if err := os.WriteFile(path, []byte(readme), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
