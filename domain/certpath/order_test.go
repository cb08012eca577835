package certpath_test

import (
	"crypto/x509"
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/trust"
)

// Of two paths to anchors of one rank, the shorter comes first even when
// the search finds it second: here the leaf's authority key identifier
// sends the search through the intermediate (to the root) before the
// anchor that has the intermediate's name and key under another key
// identifier (mutation testing, docs/testing.md, found that order
// unchecked: TestBuildOrder's search finds the shorter paths first).
func TestBuildShorterFirst(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fx(t)
	root, inter := p.Root.Certificate, p.Intermediate.Certificate
	c := tmpl("", true)
	c.Subject = inter.Subject
	c.SubjectKeyId = []byte{0x0d, 0x0e, 0x0c, 0x0a, 0x0f}
	rekeyed := issue(t, c, p.Intermediate.Key, nil).cert // the intermediate's name and key
	paths, err := certpath.Build(p.SignerRSA.Certificate, certpath.Options{
		Intermediates: []*x509.Certificate{inter},
		Anchors:       []certpath.Anchor{listed(root, trust.EUEIDAS, "DE"), listed(rekeyed, trust.EUEIDAS, "AT")},
	})
	is.NoErr(err)
	var got []string
	for _, pa := range paths {
		got = append(got, fmt.Sprintf("%s %d", pa.Anchor.Territory, len(pa.Certificates)))
	}
	is.Equal(got, []string{"AT 2", "DE 3"})
}

// Build returns at most MaxPaths paths, and exactly that many when there
// are more (mutation testing, docs/testing.md, found the bound's edge
// unchecked).
func TestBuildMaxPaths(t *testing.T) {
	t.Parallel()
	p := fx(t)
	root, inter := p.Root.Certificate, p.Intermediate.Certificate
	tests := []struct {
		anchors, paths int
	}{
		{certpath.MaxPaths - 1, certpath.MaxPaths - 1},
		{certpath.MaxPaths, certpath.MaxPaths},
		{certpath.MaxPaths + 1, certpath.MaxPaths},
		{certpath.MaxPaths + 8, certpath.MaxPaths},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.anchors, " anchors"), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			var anchors []certpath.Anchor
			for i := range tt.anchors {
				anchors = append(anchors, listed(root, trust.EUEIDAS, fmt.Sprintf("%02d", i))) // one path each
			}
			paths, err := certpath.Build(p.SignerRSA.Certificate, certpath.Options{Intermediates: []*x509.Certificate{inter}, Anchors: anchors})
			is.NoErr(err)
			is.Equal(len(paths), tt.paths)
		})
	}
}
