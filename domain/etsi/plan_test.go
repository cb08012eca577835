package etsi_test

import (
	"crypto"
	"crypto/x509"
	"reflect"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
)

// TestPlanBuildsPathsOnce: a validation handed its plan checks no
// certificate signature again (the paths were built once, by NewPlan),
// and comes to the result a validation without one does.
func TestPlanBuildsPathsOnce(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	sig := signature(p.SignerRSA)
	sig.Level = ades.LevelT
	sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, vt.Add(-48*time.Hour), p.TSA.Certificate)}
	checks := 0
	in := inputs(p)
	in.CheckSignature = func(child *x509.Certificate, key crypto.PublicKey) error {
		checks++
		parent := &x509.Certificate{PublicKey: key}
		return parent.CheckSignature(child.SignatureAlgorithm, child.RawTBSCertificate, child.Signature)
	}
	plan := etsi.NewPlan(sig, in)
	built := checks
	is.True(built > 0)
	is.Equal(len(plan.Unanchored()), 0)
	in.Revocation = goodFacts(sig, in, false)
	is.Equal(checks, 2*built) // goodFacts asked Needs, which built a plan of its own

	in.Plan = plan
	before := checks
	withPlan := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	is.Equal(checks, before) // no path built again
	is.Equal(withPlan.Indication, verdict.TotalPassed)

	in.Plan = nil
	without := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	is.True(checks > before)
	is.True(reflect.DeepEqual(withPlan, without))
	is.Equal(plan.Needs(), etsi.Needs(sig, in))
}

// TestPlanUnanchored names the leaves without a path, each once.
func TestPlanUnanchored(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	u := newUntrusted(t)
	sig := signature(p.SignerRSA)
	sig.SigningCertificate = u.Signer
	sig.Certificates = nil
	sig.Timestamps = []ades.Timestamp{timestamp(ades.SignatureTimestamp, vt, u.Signer), timestamp(ades.SignatureTimestamp, vt, p.TSA.Certificate)}
	plan := etsi.NewPlan(sig, inputs(p))
	is.Equal(plan.Unanchored(), []*x509.Certificate{u.Signer})
}
