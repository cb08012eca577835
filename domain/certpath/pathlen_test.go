package certpath_test

import (
	"crypto/x509"
	"errors"
	"fmt"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/fixtures/pki"
)

// A pathLenConstraint above zero holds too: a root allowing one
// intermediate fails a path with two below it, and passes with a
// constraint of two (mutation testing, docs/testing.md, found only a
// constraint of zero checked).
func TestCheckPathLenAboveZero(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pathLen int
		fails   bool
	}{
		{1, true},
		{2, false},
		{3, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint("pathLenConstraint ", tt.pathLen), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			rootT := tmpl("Root Allowing Some", true)
			rootT.MaxPathLen = tt.pathLen
			root := issue(t, rootT, newKey(t), nil)
			ca1 := issue(t, tmpl("First CA", true), newKey(t), root)
			ca2 := issue(t, tmpl("Second CA", true), newKey(t), ca1)
			leaf := issue(t, tmpl("Leaf", false), newKey(t), ca2)
			path := certpath.Path{Certificates: []*x509.Certificate{leaf.cert, ca2.cert, ca1.cert, root.cert}}
			err := certpath.Check(path, pki.ReferenceTime, certpath.CheckOptions{})
			if !tt.fails {
				is.NoErr(err)
				return
			}
			var pe *certpath.PathError
			is.True(errors.As(err, &pe))
			is.Equal(pe.Check, certpath.CheckPathLength)
			is.Equal(pe.Index, 3) // the root
		})
	}
}
