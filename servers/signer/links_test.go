package main

import (
	"os/exec"
	"strings"
	"testing"
)

// validationOnly are the packages only validation needs, each with the
// packages below it: the signer signs digests, reads no document and no
// trusted list, and schedules nothing, so linking any of them means that
// the two programs' application code has grown together again (issue 17,
// "two lean programs").
var validationOnly = []string{
	"github.com/pdfcpu",                         // PDF parsing (the PAdES reader)
	"github.com/go-co-op/gocron",                // the trusted-list refresh schedule
	"github.com/svc-dss/dss/adapters/formats",   // the document readers
	"github.com/svc-dss/dss/adapters/trustlist", // ETSI TS 119 612 lists
	"github.com/svc-dss/dss/adapters/tlcache",   // the list cache
	"github.com/svc-dss/dss/adapters/egress",    // list download, OCSP, CRL, AIA
	"github.com/svc-dss/dss/adapters/privateca",
	"github.com/svc-dss/dss/adapters/keystore",
	"github.com/svc-dss/dss/adapters/session", // the validator's browser UI
	"github.com/svc-dss/dss/app/validation",
	"github.com/svc-dss/dss/app/validator",
	"github.com/svc-dss/dss/domain/trust",
	"github.com/svc-dss/dss/domain/etsi",
	"github.com/svc-dss/dss/domain/certpath",
	"github.com/svc-dss/dss/domain/qualification",
	"github.com/svc-dss/dss/domain/freshness",
	"github.com/svc-dss/dss/domain/report",
	"github.com/svc-dss/dss/domain/verdict",
}

// TestLinksNoValidation: the hash-only signer, in the production build
// and the one with the tag dev, links none of validationOnly
// (go list -deps).
func TestLinksNoValidation(t *testing.T) {
	t.Parallel()
	for _, tags := range []string{"", "dev"} {
		out, err := exec.Command("go", "list", "-deps", "-tags", tags, ".").CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		deps := strings.Fields(string(out))
		if len(deps) == 0 || deps[len(deps)-1] != "github.com/svc-dss/dss/servers/signer" {
			t.Fatalf("go list -deps -tags %q: want the signer's dependencies, got %q", tags, out)
		}
		for _, dep := range deps {
			for _, p := range validationOnly {
				if dep == p || strings.HasPrefix(dep, p+"/") {
					t.Errorf("tags %q: the signer links %s (%s is for validation only)", tags, dep, p)
					break
				}
			}
		}
	}
}
