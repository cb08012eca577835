package validation_test

import (
	"os/exec"
	"strings"
	"testing"
)

// serviceOnly are what the validation service adds around validation,
// each with the packages below it: tenancy, sessions, the control
// database and the refresh schedule. Validation links none of them, so
// that it can be used without the service (issue 17).
var serviceOnly = []string{
	"github.com/go-co-op/gocron", // the refresh schedule
	"github.com/jmoiron/sqlx",    // the control database
	"github.com/svc-dss/dss/adapters/postgres",
	"github.com/svc-dss/dss/adapters/session", // the browser UI's sessions
	"github.com/svc-dss/dss/adapters/oidc",    // tenant login and bearer tokens
	"github.com/svc-dss/dss/app/control",
	"github.com/svc-dss/dss/app/validator",
	"github.com/svc-dss/dss/app/signer",
}

// TestLinksNoService: app/validation links none of serviceOnly
// (go list -deps), in the production build and the one with the tag dev.
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
			for _, p := range serviceOnly {
				if dep == p || strings.HasPrefix(dep, p+"/") {
					t.Errorf("tags %q: validation links %s (%s is the service's)", tags, dep, p)
					break
				}
			}
		}
	}
}
