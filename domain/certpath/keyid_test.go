package certpath_test

import (
	"crypto"
	"crypto/x509"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
)

// TestBuildKeyIdentifierFirst offers more same-named candidate issuers
// than MaxSignatureChecks allows, the real one last, as
// TestBuildSignatureLimit does, but each decoy with a subject key
// identifier other than the leaf's authority key identifier: the real
// issuer is tried first, so decoys sharing its name cannot use up the
// budget before it (mutation testing, docs/testing.md, found the ordering
// unchecked).
func TestBuildKeyIdentifierFirst(t *testing.T) {
	t.Parallel()
	p := fx(t)
	inter := p.Intermediate.Certificate
	key := newKey(t)
	var decoys []*x509.Certificate
	for i := range certpath.MaxSignatureChecks + 20 {
		c := tmpl("", true)
		c.Subject = inter.Subject
		c.SubjectKeyId = []byte{0xde, 0xc0, byte(i)}
		decoys = append(decoys, issue(t, c, key, nil).cert)
	}
	tests := []struct {
		name          string
		intermediates []*x509.Certificate
	}{
		{"the real issuer after the decoys", append(decoys[:len(decoys):len(decoys)], inter)},
		{"the real issuer first", append([]*x509.Certificate{inter}, decoys...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			paths, err := certpath.Build(p.SignerRSA.Certificate, certpath.Options{
				Intermediates: tt.intermediates,
				Anchors:       []certpath.Anchor{private(p.Root.Certificate)},
				CheckSignature: func(child *x509.Certificate, parentKey crypto.PublicKey) error {
					parent := &x509.Certificate{PublicKey: parentKey}
					return parent.CheckSignature(child.SignatureAlgorithm, child.RawTBSCertificate, child.Signature)
				},
			})
			is.NoErr(err)
			is.Equal(len(paths), 1)
			is.Equal(paths[0].Certificates[1], inter)
		})
	}
}
