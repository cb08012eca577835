package certpath_test

import (
	"crypto/x509"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
)

// With on a nil set, and With on a set that With made, still index every
// anchor: a path builds through the root whichever call added it
// (mutation testing, docs/testing.md, found both cases unchecked).
func TestAnchorSetWithChained(t *testing.T) {
	t.Parallel()
	p := fx(t)
	leaf, inter := p.SignerRSA.Certificate, []*x509.Certificate{p.Intermediate.Certificate}
	root := certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.Unknown, Private: true}
	other := certpath.Anchor{Certificate: p.TSA.Certificate, Framework: trust.EUEIDAS, Territory: "DE"} // no path through it
	var none *certpath.AnchorSet
	tests := []struct {
		name string
		set  func() *certpath.AnchorSet
		len  int
	}{
		{"nil set with the root", func() *certpath.AnchorSet { return none.With(root) }, 1},
		{"the root added by the first With", func() *certpath.AnchorSet {
			return certpath.NewAnchorSet([]certpath.Anchor{other}).With(root).With(other)
		}, 3},
		{"the root added by the second With", func() *certpath.AnchorSet {
			return certpath.NewAnchorSet([]certpath.Anchor{other}).With(other).With(root)
		}, 3},
		{"the root in the base, two With after", func() *certpath.AnchorSet {
			return certpath.NewAnchorSet([]certpath.Anchor{root}).With(other).With(other)
		}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			set := tt.set()
			is.Equal(set.Len(), tt.len)
			paths, err := certpath.Build(leaf, certpath.Options{Intermediates: inter, AnchorSet: set})
			is.NoErr(err)
			is.Equal(len(paths), 1)
			is.Equal(paths[0].Anchor.Certificate, p.Root.Certificate)
		})
	}
}
