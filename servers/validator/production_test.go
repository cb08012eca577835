package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProductionBuild: the validator built without the tag dev links no
// fixture package (no test keys, trusted lists or samples), and given
// --dev it says in one line how to get a development build; built with
// the tag, it has development mode.
func TestProductionBuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds the validator")
	}
	deps := func(tags ...string) string {
		args := append([]string{"list", "-deps"}, tags...)
		out, err := exec.Command("go", append(args, ".")...).CombinedOutput()
		if err != nil {
			t.Fatalf("go list: %v\n%s", err, out)
		}
		return string(out)
	}
	for _, dep := range strings.Fields(deps()) {
		if strings.Contains(dep, "/dss/fixtures/") {
			t.Errorf("the production build links %s", dep)
		}
	}
	if !strings.Contains(deps("-tags", "dev"), "/dss/fixtures/pki") {
		t.Error("the development build does not link the fixture PKI")
	}

	bin := filepath.Join(t.TempDir(), "validator")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "validate", "doc.pdf", "--dev")
	cmd.Env = append(offline(t), "PATH=/usr/bin:/bin")
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1\n%s", err, out)
	}
	if !strings.Contains(string(out), "production build, without development mode: run `go tool task run`, or build it with `go build -tags dev ./servers/validator`") {
		t.Errorf("output %s: want the line saying how to get a development build", out)
	}
}
