package validation_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// serviceOnly are this repository's packages that the servers add
// around validation, each with the packages below it: tenancy, sessions,
// the control database, the programs themselves. Validation links none
// of them, so that it can be used without the service (issue 17).
var serviceOnly = map[string]string{
	"github.com/svc-dss/dss/adapters/postgres": "the control database",
	"github.com/svc-dss/dss/adapters/session":  "the browser UI's sessions",
	"github.com/svc-dss/dss/adapters/oidc":     "tenant login and bearer tokens",
	"github.com/svc-dss/dss/app/control":       "what the two servers share",
	"github.com/svc-dss/dss/app/validator":     "the validation service",
	"github.com/svc-dss/dss/app/signer":        "the signing server",
}

// notForImporters are the third-party modules a program that imports
// the front door must not get (issue 18), each with the packages below
// it: they serve the servers around validation, and each would bring its
// dependency tree to every importer (pkcs11 would bring cgo too).
// TestREADMEProgram holds the README's program to them as well.
var notForImporters = map[string]string{
	"github.com/lib/pq":          "a database driver",
	"github.com/jmoiron/sqlx":    "the control database",
	"github.com/labstack/echo":   "the servers' HTTP framework",
	"github.com/zitadel":         "OIDC login",
	"github.com/miekg/pkcs11":    "the signer's HSM, through cgo",
	"github.com/go-co-op/gocron": "the refresh schedule",
}

// linkedFrom says whether dep is one of pkgs or below one, and which.
func linkedFrom(dep string, pkgs map[string]string) (pkg, why string, ok bool) {
	for p, why := range pkgs {
		if dep == p || strings.HasPrefix(dep, p+"/") {
			return p, why, true
		}
	}
	return "", "", false
}

// TestLinksNoService: app/validation links none of serviceOnly nor of
// notForImporters (go list -deps), and uses no cgo, in the production
// build and the one with the tag dev.
//
// For cgo it checks two things. The package builds with CGO_ENABLED=0;
// and with cgo enabled, no dependency outside the standard library has
// cgo files. The build alone is not enough: a dependency with cgo files
// and a pure-Go fallback builds without cgo, yet links C code into an
// importer's default build wherever a C compiler is found. The standard
// library's own cgo (the net package's resolver, os/user) is left out:
// every Go program that uses the network has it, and it falls back to
// pure Go without cgo, as the build shows.
func TestLinksNoService(t *testing.T) {
	t.Parallel()
	for _, tags := range []string{"", "dev"} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) == 0 || deps[len(deps)-1] != "github.com/svc-dss/dss/app/validation" {
			t.Fatalf("go list -deps -tags %q: want validation's dependencies, got %q", tags, out)
		}
		for _, dep := range deps {
			if p, why, ok := linkedFrom(dep, serviceOnly); ok {
				t.Errorf("tags %q: validation links %s (%s is the service's: %s)", tags, dep, p, why)
			}
			if p, why, ok := linkedFrom(dep, notForImporters); ok {
				t.Errorf("tags %q: validation links %s (%s: %s)", tags, dep, p, why)
			}
		}

		cmd := exec.Command("go", "build", "-tags", tags, ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("CGO_ENABLED=0 go build -tags %q: %v\n%s", tags, err, out)
		}
		cmd = exec.Command("go", "list", "-deps", "-tags", tags,
			"-f", "{{if and (not .Standard) .CgoFiles}}{{.ImportPath}}: {{.CgoFiles}}{{end}}", ".")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		out, err = cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("CGO_ENABLED=1 go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		if cgo := strings.TrimSpace(string(out)); cgo != "" {
			t.Errorf("tags %q: dependencies with cgo files:\n%s", tags, cgo)
		}
	}
}
