package pades_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/pades"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/hostile"
)

// Issue 25: signatures whose holes all sit at the start of one revision
// each cover the rest of the file, and the saved prefix states never
// share those second ranges: 64 of them in 20 MB made the reader hash
// 1.3 GB. Their second ranges may add up to twice the file; the
// signatures beyond are format failures, not hashed. Signatures in
// separate revisions never come near (the other tests read those).
func TestSecondRangesWithinTwiceTheFile(t *testing.T) {
	t.Parallel()
	p := testPKI(t)
	cms, err := cmswrite.Sign([]byte("another content"), []cmswrite.Signer{{Certificate: p.SignerECDSA.Certificate, Key: p.SignerECDSA.Key,
		SigningTime: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}, cmswrite.SignOptions{Detached: true})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		signatures int
		unhashed   int // the last ones
	}{
		{1, 0},
		{2, 0},
		{3, 1},
		{8, 6},
	}
	for _, tt := range tests {
		is := is.New(t)
		sigs := read(t, hostile.OneRevision(cms, tt.signatures, 1<<20))
		is.Equal(len(sigs), tt.signatures)
		for i, s := range sigs {
			var budget bool
			for _, pr := range s.Problems {
				budget = budget || pr.Code == pades.CodeByteRangeInvalid
			}
			is.Equal(budget, i >= tt.signatures-tt.unhashed) // over the budget
		}
	}
}
