package etsi

import (
	"bytes"
	"crypto/x509"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
)

// A Plan is what the process will look at for one signature: the
// candidate certificate paths of its signing certificate and of each
// time-stamping unit, built once from the inputs. The application asks it
// which issuers are missing (Unanchored) and which links need revocation
// data (Needs), then hands it to Validate in Inputs.Plan, so that a
// validation builds its paths once, not once per question.
type Plan struct {
	signer     candidates
	timestamps []candidates // by index in the signature's Timestamps
}

// candidates are the paths of one leaf certificate.
type candidates struct {
	leaf  *x509.Certificate
	paths []certpath.Path
	err   error
}

// NewPlan builds the paths of sig's signing certificate and of its
// time-stamping units with in's anchors and intermediates (Revocation is
// not read). A plan belongs to the signature and inputs it was built
// from.
func NewPlan(sig ades.Signature, in Inputs) *Plan {
	p := &Plan{signer: candidatesOf(sig.SigningCertificate, in, sig.Certificates)}
	for _, ts := range sig.Timestamps {
		p.timestamps = append(p.timestamps, candidatesOf(ts.TSACertificate, in, ts.Certificates, sig.Certificates))
	}
	return p
}

func candidatesOf(leaf *x509.Certificate, in Inputs, extra ...[]*x509.Certificate) candidates {
	if leaf == nil {
		return candidates{}
	}
	paths, err := certpath.Build(leaf, options(in, extra...))
	return candidates{leaf: leaf, paths: paths, err: err}
}

// Unanchored lists the leaves, the signing certificate first and then
// the TSA certificates in document order, each once, for which no
// candidate path reaches an anchor: those whose issuers the application
// may look for (AIA) before building the plan again.
func (p *Plan) Unanchored() []*x509.Certificate {
	var out []*x509.Certificate
	for _, c := range append([]candidates{p.signer}, p.timestamps...) {
		if c.leaf == nil || len(c.paths) > 0 {
			continue
		}
		dup := false
		for _, o := range out {
			dup = dup || bytes.Equal(o.Raw, c.leaf.Raw)
		}
		if !dup {
			out = append(out, c.leaf)
		}
	}
	return out
}

// Needs returns every (certificate, issuer) link whose revocation the
// process will look at: the links of the signing certificate's candidate
// paths and of the time-stamping units' paths, anchors excluded (a path's
// last certificate is never the Cert of a link) and certificates carrying
// id-pkix-ocsp-nocheck excluded. The order is deterministic (paths in
// certpath order, signer first, then time-stamps in document order) and
// each link appears once. The application fetches facts for them and
// calls Validate.
func (p *Plan) Needs() []certpath.Link {
	var out []certpath.Link
	seen := map[[2]string]bool{}
	for _, c := range append([]candidates{p.signer}, p.timestamps...) {
		for _, path := range c.paths {
			for _, l := range path.Links() {
				if noCheck(l.Cert) {
					continue
				}
				k := [2]string{Key(l.Cert), Key(l.Issuer)}
				if seen[k] {
					continue
				}
				seen[k] = true
				out = append(out, l)
			}
		}
	}
	return out
}

// Needs is NewPlan(sig, in).Needs(), for a caller that asks once.
//
// Needs does no I/O and does not judge the paths; a signature without a
// signing certificate or without any path gives no signer links.
func Needs(sig ades.Signature, in Inputs) []certpath.Link {
	return NewPlan(sig, in).Needs()
}
