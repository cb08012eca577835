package domain_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/svc-dss/dss"

// TestDependencies enforces the dependency direction of ARCHITECTURE.md
// over the non-test imports of every package in the module:
// servers -> app -> ports -> domain, adapters -> ports -> domain, and
// within adapters, egress -> formats (never formats -> egress); fixtures
// are linked only by fixtures and servers, the document writers only by
// fixtures. Both builds are checked: the production one and the one with
// the tag dev (the validator's development mode).
func TestDependencies(t *testing.T) {
	for _, tags := range []string{"", "dev"} {
		t.Run("tags="+tags, func(t *testing.T) { checkDependencies(t, tags) })
	}
}

func checkDependencies(t *testing.T, tags string) {
	out, err := exec.Command("go", "list", "-tags", tags, "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	// Standard-library packages the domain must not use: I/O, clock-free
	// randomness, environment, logging.
	// sync and sync/atomic: the domain keeps no state shared across
	// calls, so it needs no locks.
	// Writers of signed documents, kept apart from the format readers.
	writers := []string{"/fixtures/cmswrite", "/fixtures/xmlsign"}
	impure := []string{"net", "net/http", "os", "os/exec", "os/signal", "database/sql", "log", "log/slog", "math/rand", "math/rand/v2", "io/fs", "syscall", "embed", "testing", "sync", "sync/atomic"}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg, imports := strings.TrimPrefix(fields[0], module), fields[1:]
		for _, imp := range imports {
			own := strings.HasPrefix(imp, module+"/")
			rel := strings.TrimPrefix(imp, module)
			std := !strings.Contains(strings.SplitN(imp, "/", 2)[0], ".")
			switch {
			case under(pkg, "/domain") || under(pkg, "/ports"):
				if own && !under(rel, "/domain") && !under(rel, "/ports") {
					t.Errorf("%s imports %s: domain and ports import only domain and ports", pkg, imp)
				}
				if !own && !std {
					t.Errorf("%s imports %s: domain and ports import only the standard library", pkg, imp)
				}
				if std && slices.Contains(impure, imp) {
					t.Errorf("%s imports %s: domain and ports do no I/O, read no environment and do not log", pkg, imp)
				}
			case under(pkg, "/adapters"):
				if under(rel, "/app") || under(rel, "/servers") {
					t.Errorf("%s imports %s: adapters do not depend on app or servers", pkg, imp)
				}
				// Formats read and write bytes; egress fetches them and
				// imports the formats, never the other way round.
				if under(pkg, "/adapters/formats") && under(rel, "/adapters/egress") {
					t.Errorf("%s imports %s: format packages do not depend on outbound HTTP", pkg, imp)
				}
			case under(pkg, "/app"):
				if under(rel, "/servers") {
					t.Errorf("%s imports %s: app does not depend on servers", pkg, imp)
				}
			}
			// Fixtures are test tooling; only fixtures themselves and the
			// servers' development mode may link them.
			if own && under(rel, "/fixtures") && !under(pkg, "/fixtures") && !under(pkg, "/servers") {
				t.Errorf("%s imports %s: fixtures are for tests", pkg, imp)
			}
			// The document writers sign only for fixtures and tests: no
			// other package links them, the servers included (their
			// development mode goes through fixtures that build documents).
			if own && slices.ContainsFunc(writers, func(w string) bool { return under(rel, w) }) && !under(pkg, "/fixtures") {
				t.Errorf("%s imports %s: the document writers are for fixtures and tests", pkg, imp)
			}
		}
	}
}

func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }
