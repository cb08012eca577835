package certpath_test

import (
	"crypto/x509"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/fixtures/pki"
)

// Only the anchor may be a version 1 or 2 certificate without
// basicConstraints (RFC 5280 §6.1 takes the trust anchor as input); a
// version 1 intermediate, and a version 3 anchor without cA, still fail
// (mutation testing, docs/testing.md, found the exemption unchecked).
// Check verifies no signature, so the versions are set on copies of the
// fixture's certificates.
func TestCheckVersion1Anchor(t *testing.T) {
	t.Parallel()
	p := fx(t)
	// notCA is a copy of c as version v without basicConstraints.
	notCA := func(c *x509.Certificate, v int) *x509.Certificate {
		cp := *c
		cp.Version, cp.BasicConstraintsValid, cp.IsCA, cp.MaxPathLen = v, false, false, -1
		return &cp
	}
	leaf, inter, root := p.SignerRSA.Certificate, p.Intermediate.Certificate, p.Root.Certificate
	tests := []struct {
		name  string
		certs []*x509.Certificate
		index int // of the certificate failing CheckNotCA; 0: none fails
	}{
		{"version 1 anchor", []*x509.Certificate{leaf, inter, notCA(root, 1)}, 0},
		{"version 2 anchor", []*x509.Certificate{leaf, inter, notCA(root, 2)}, 0},
		{"version 3 anchor without cA", []*x509.Certificate{leaf, inter, notCA(root, 3)}, 2},
		{"version 1 intermediate", []*x509.Certificate{leaf, notCA(inter, 1), root}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			err := certpath.Check(certpath.Path{Certificates: tt.certs}, pki.ReferenceTime, certpath.CheckOptions{})
			if tt.index == 0 {
				is.NoErr(err)
				return
			}
			var pe *certpath.PathError
			is.True(errors.As(err, &pe))
			is.Equal(pe.Check, certpath.CheckNotCA)
			is.Equal(pe.Index, tt.index)
		})
	}
}
