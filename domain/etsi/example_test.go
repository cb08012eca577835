package etsi_test

import (
	"fmt"

	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

// The calling sequence: validate the policy, ask which links need
// revocation data, fetch it (here: GOOD facts made by hand), validate and
// report.
func ExampleValidate() {
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		fmt.Println(err)
		return
	}
	sig := signature(p.SignerRSA)
	in := inputs(p)
	pol := etsi.Policy{ValidationTime: pki.ReferenceTime}
	if err := pol.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	in.Revocation = map[string][]revocation.Fact{}
	for _, l := range etsi.Needs(sig, in) {
		in.Revocation[etsi.Key(l.Cert)] = []revocation.Fact{fact(l.Cert, l.Issuer, revocation.Good, false)}
	}
	r := etsi.Validate(sig, in, pol)
	rep := etsi.Report(sig, r)
	fmt.Println(rep.SignatureFormat, rep.Indication, rep.SubIndication == nil, rep.TrustFramework, *rep.AnchorCountry, rep.AnchorDataAuthenticated)

	// Without revocation data the process cannot conclude.
	in.Revocation = nil
	r = etsi.Validate(sig, in, pol)
	fmt.Println(r.Indication == verdict.Indeterminate, r.SubIndication)
	// Output:
	// CAdES_BASELINE_B TOTAL_PASSED true EU_EIDAS DE true
	// true TRY_LATER
}
