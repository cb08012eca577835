package certpath_test

import (
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/fixtures/pki"
)

func Example() {
	p, err := fixture()
	if err != nil {
		panic(err)
	}
	snap := &trust.Snapshot{Lists: []trust.ListState{tlState("CH", trust.CHZERTES, p.Root.DER)}}
	opts := certpath.Options{
		Intermediates: []*x509.Certificate{p.Intermediate.Certificate}, // embedded in the signature
		Anchors:       certpath.AnchorsFrom(snap, x509.ParseCertificate),
	}
	for _, id := range []*pki.Identity{p.SignerRSA, p.Expired} {
		paths, err := certpath.Build(id.Certificate, opts)
		if err != nil {
			fmt.Println(err)
			continue
		}
		best := paths[0]
		fmt.Println(best.Anchor.Framework, len(best.Certificates), "certificates,", len(best.Links()), "revocation checks")
		var pe *certpath.PathError
		if err := certpath.Check(best, pki.ReferenceTime, certpath.CheckOptions{}); errors.As(err, &pe) {
			fmt.Println(pe.Reason.SubIndication(), "at certificate", pe.Index)
		}
	}
	// Output:
	// CH_ZERTES 3 certificates, 2 revocation checks
	// CH_ZERTES 3 certificates, 2 revocation checks
	// EXPIRED at certificate 0
}
