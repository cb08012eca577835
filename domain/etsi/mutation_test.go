package etsi_test

import (
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
)

// Edges of the time-stamp judging that mutation testing (docs/testing.md)
// found unchecked: exactly MaxTimestamps time-stamps are all judged, with
// no warning; a time-stamp no archive time-stamp protects says so with
// ProtectedBy -1, and the best one is marked even when it comes first.
func TestTimestampEdges(t *testing.T) {
	t.Parallel()
	tsGen := vt.Add(-12 * time.Hour)
	tests := []struct {
		name      string
		contents  int // content time-stamps before the signature time-stamp
		judged    int
		tooMany   bool
		signature int // index of the signature time-stamp among those judged; -1: none
	}{
		{"one signature time-stamp", 0, 1, false, 0},
		{"exactly MaxTimestamps", etsi.MaxTimestamps - 1, etsi.MaxTimestamps, false, etsi.MaxTimestamps - 1},
		{"one more than MaxTimestamps", etsi.MaxTimestamps, etsi.MaxTimestamps, true, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			p := newPKI(t)
			sig := signature(p.SignerRSA)
			sig.Level = ades.LevelT
			sig.ClaimedSigningTime = tsGen.Add(-time.Minute)
			for range tt.contents {
				sig.Timestamps = append(sig.Timestamps, timestamp(ades.ContentTimestamp, tsGen.Add(-time.Minute), p.TSA.Certificate))
			}
			sig.Timestamps = append(sig.Timestamps, timestamp(ades.SignatureTimestamp, tsGen, p.TSA.Certificate))
			in := inputs(p)
			in.Revocation = goodFacts(sig, in, true)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			is.Equal(slices.Contains(codes(r.Warnings), etsi.CodeTooManyTimestamps), tt.tooMany)
			is.Equal(len(r.TimestampValidations), tt.judged)
			for i, tv := range r.TimestampValidations {
				is.True(tv.Valid)
				is.Equal(tv.ProtectedBy, -1) // no archive time-stamp
				is.Equal(tv.Best, i == tt.signature)
			}
		})
	}
}
