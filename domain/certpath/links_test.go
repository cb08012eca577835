package certpath_test

import (
	"crypto/x509"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
)

// Links has one link per certificate below the anchor, the shortest path
// with one included: a leaf issued by the anchor itself still needs its
// revocation status (mutation testing, docs/testing.md, found the
// two-certificate path unchecked).
func TestPathLinksByLength(t *testing.T) {
	t.Parallel()
	p := fx(t)
	leaf, inter, root := p.SignerRSA.Certificate, p.Intermediate.Certificate, p.Root.Certificate
	tests := []struct {
		name  string
		certs []*x509.Certificate
		links []certpath.Link
	}{
		{"no certificate", nil, nil},
		{"a trusted leaf", []*x509.Certificate{root}, nil},
		{"a leaf issued by the anchor", []*x509.Certificate{inter, root}, []certpath.Link{{Cert: inter, Issuer: root}}},
		{"a leaf, an intermediate, the anchor", []*x509.Certificate{leaf, inter, root}, []certpath.Link{{Cert: leaf, Issuer: inter}, {Cert: inter, Issuer: root}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			is.Equal(certpath.Path{Certificates: tt.certs}.Links(), tt.links)
		})
	}
}
