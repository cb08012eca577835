package certpath_test

import (
	"crypto/x509"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
)

// An AnchorSet is built once per trust snapshot and extended per call
// (the validate command's --trust-anchor): With must leave the shared set
// as it was.
func TestAnchorSetWith(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	leaf, inter := p.SignerRSA.Certificate, []*x509.Certificate{p.Intermediate.Certificate}
	listed := certpath.Anchor{Certificate: p.TSA.Certificate, Framework: trust.EUEIDAS, Territory: "DE"} // no path through it
	base := certpath.NewAnchorSet([]certpath.Anchor{listed, {}})                                         // an anchor without certificate is skipped
	is.Equal(base.Len(), 1)

	with := base.With(certpath.Anchor{Certificate: p.Root.Certificate, Framework: trust.Unknown, Private: true})
	is.Equal(with.Len(), 2)
	is.Equal(base.Len(), 1) // unchanged
	is.Equal(with.Certificates()[0], p.TSA.Certificate)
	is.Equal(with.Certificates()[1], p.Root.Certificate)

	paths, err := certpath.Build(leaf, certpath.Options{Intermediates: inter, AnchorSet: with})
	is.NoErr(err)
	is.Equal(len(paths), 1)
	is.True(paths[0].Anchor.Private)

	_, err = certpath.Build(leaf, certpath.Options{Intermediates: inter, AnchorSet: base})
	var nc *certpath.NoChainError
	is.True(errors.As(err, &nc)) // the base set does not have the root

	// With of a With starts afresh and keeps every anchor.
	again := with.With(certpath.Anchor{Certificate: p.Intermediate.Certificate, Private: true})
	is.Equal(again.Len(), 3)
	is.Equal(with.Len(), 2)

	// A trusted leaf is found through the index too.
	paths, err = certpath.Build(leaf, certpath.Options{AnchorSet: base.With(certpath.Anchor{Certificate: leaf, Private: true})})
	is.NoErr(err)
	is.Equal(len(paths[0].Certificates), 1)
}

func TestOptionsBothAnchorKinds(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	anchors := []certpath.Anchor{{Certificate: p.Root.Certificate, Private: true}}
	err := certpath.Options{Anchors: anchors, AnchorSet: certpath.NewAnchorSet(anchors)}.Validate()
	is.True(errors.Is(err, certpath.ErrInvalidOptions))
	is.Equal(err.Error(), "certpath: invalid options: both Anchors and AnchorSet are set")
}

// Responders are the anchors listed as OCSP services, those appended by
// With included, and no CA, TSA or private anchor.
func TestAnchorSetResponders(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	service := func(c *x509.Certificate, typ trust.ServiceType) certpath.Anchor {
		return certpath.Anchor{Certificate: c, Framework: trust.EUEIDAS, Territory: "EE", Service: &trust.Service{Type: typ}}
	}
	base := certpath.NewAnchorSet([]certpath.Anchor{
		service(p.Root.Certificate, trust.TypeCAQC),
		service(p.OCSPResponder.Certificate, trust.TypeOCSPQC),
		service(p.TSA.Certificate, trust.TypeQTST),
		private(p.Intermediate.Certificate),
	})
	is.Equal(base.Responders(), []*x509.Certificate{p.OCSPResponder.Certificate})
	with := base.With(service(p.SignerRSA.Certificate, trust.TypeOCSP), private(p.SignerECDSA.Certificate))
	is.Equal(with.Responders(), []*x509.Certificate{p.OCSPResponder.Certificate, p.SignerRSA.Certificate})
	is.Equal(len(base.Responders()), 1) // unchanged
	var none *certpath.AnchorSet
	is.Equal(len(none.Responders()), 0)
}
