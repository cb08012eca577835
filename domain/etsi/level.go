package etsi

import (
	"crypto/x509"
	"slices"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
)

// chainEmbedded reports whether the document's revocation data covers
// the signer's chain, as LT asks (level): some candidate path of the
// signing certificate has an Embedded fact for every link, the anchor and
// certificates carrying id-pkix-ocsp-nocheck left out, as Needs lists
// them. The readers report LT when the structure holds revocation data
// (cades/level.go, the PAdES reader's complete) without asking whose it
// is: this is where that is asked.
//
// It is known only for the links the application looked up, that is
// when a path reaches an anchor: a link whose facts were not looked up
// counts as covered, and a signer without a path (or without a signing
// certificate) has LT taken as found.
func (v *validation) chainEmbedded() bool {
	paths := v.plan.signer.paths
	if v.sig.SigningCertificate == nil || len(paths) == 0 {
		return true
	}
	covered := func(c *x509.Certificate) bool {
		facts, looked := v.in.Revocation[Key(c)]
		return noCheck(c) || !looked || slices.ContainsFunc(facts, func(f revocation.Fact) bool { return f.Embedded })
	}
	for _, p := range paths {
		if !slices.ContainsFunc(p.Links(), func(l certpath.Link) bool { return !covered(l.Cert) }) {
			return true
		}
	}
	return false
}
