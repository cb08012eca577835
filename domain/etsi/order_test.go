package etsi_test

import (
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/verdict"
)

// TestTimestampOrder is EN 319 102-1's time-stamps ordering (5.5.4,
// 5.6.3) as DSS's time-stamp coherence order check decides it: the
// latest time-stamp of a kind must not follow the earliest of a later
// kind (content, signature, validation-data, archive); equal times and
// time-stamps of one kind in any order are coherent; a broken time-stamp
// proves nothing and contradicts nothing (docs/decisions/0018).
func TestTimestampOrder(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	at := func(typ ades.TimestampType, d time.Duration) ades.Timestamp {
		return timestamp(typ, vt.Add(-24*time.Hour+d), p.TSA.Certificate)
	}
	broken := func(ts ades.Timestamp) ades.Timestamp {
		ts.Imprint.Valid = false
		return ts
	}
	tests := []struct {
		name string
		tss  []ades.Timestamp
		sub  verdict.SubIndication // "" for TOTAL_PASSED
	}{
		{"content, signature, validation-data, archive", []ades.Timestamp{
			at(ades.ContentTimestamp, 0), at(ades.SignatureTimestamp, time.Minute), at(ades.ValidationDataTimestamp, 2*time.Minute), at(ades.ArchiveTimestamp, 3*time.Minute)}, ""},
		{"all at the same time", []ades.Timestamp{
			at(ades.ContentTimestamp, 0), at(ades.SignatureTimestamp, 0), at(ades.ArchiveTimestamp, 0)}, ""},
		{"two content time-stamps in either order", []ades.Timestamp{
			at(ades.ContentTimestamp, time.Minute), at(ades.ContentTimestamp, 0), at(ades.SignatureTimestamp, 2*time.Minute)}, ""},
		{"archive time-stamps in either order", []ades.Timestamp{
			at(ades.SignatureTimestamp, 0), at(ades.ArchiveTimestamp, 2*time.Minute), at(ades.ArchiveTimestamp, time.Minute)}, ""},
		{"content time-stamp after the signature time-stamp", []ades.Timestamp{
			at(ades.ContentTimestamp, 2*time.Minute), at(ades.SignatureTimestamp, time.Minute)}, verdict.SubTimestampOrderFailure},
		{"content time-stamp after one of two signature time-stamps", []ades.Timestamp{
			at(ades.ContentTimestamp, time.Minute), at(ades.SignatureTimestamp, 2*time.Minute), at(ades.SignatureTimestamp, 0)}, verdict.SubTimestampOrderFailure},
		{"archive time-stamp before the signature time-stamp", []ades.Timestamp{
			at(ades.SignatureTimestamp, time.Minute), at(ades.ArchiveTimestamp, 0)}, verdict.SubTimestampOrderFailure},
		{"validation-data time-stamp after the archive time-stamp", []ades.Timestamp{
			at(ades.SignatureTimestamp, 0), at(ades.ValidationDataTimestamp, 2*time.Minute), at(ades.ArchiveTimestamp, time.Minute)}, verdict.SubTimestampOrderFailure},
		{"a broken content time-stamp after the signature time-stamp", []ades.Timestamp{
			broken(at(ades.ContentTimestamp, 2*time.Minute)), at(ades.SignatureTimestamp, time.Minute)}, ""},
		{"a broken archive time-stamp before the signature time-stamp", []ades.Timestamp{
			at(ades.SignatureTimestamp, time.Minute), broken(at(ades.ArchiveTimestamp, 0))}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			sig := signature(p.SignerRSA)
			sig.Level = ades.LevelT
			sig.Timestamps = tt.tss
			sig.ClaimedSigningTime = vt.Add(-25 * time.Hour)
			in := inputs(p)
			in.Revocation = goodFacts(sig, in, false)
			r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
			t.Logf("%s/%s errors=%v", r.Indication, r.SubIndication, r.Errors)
			if tt.sub == "" {
				is.Equal(r.Indication, verdict.TotalPassed)
				return
			}
			is.Equal(r.Indication, verdict.Indeterminate)
			is.Equal(r.SubIndication, tt.sub)
			is.Equal(r.LongTerm.Conclusion.SubIndication, tt.sub) // the validation with time concludes
		})
	}

	// A basic conclusion no proof of existence changes stays: the order
	// is a matter of the validation with time.
	is := is.New(t)
	sig := signature(p.SignerRSA)
	sig.Level = ades.LevelT
	sig.Value.Valid = false
	sig.Timestamps = []ades.Timestamp{at(ades.ContentTimestamp, 2*time.Minute), at(ades.SignatureTimestamp, time.Minute)}
	in := inputs(p)
	in.Revocation = goodFacts(sig, in, false)
	r := etsi.Validate(sig, in, etsi.Policy{ValidationTime: vt})
	is.Equal(r.SubIndication, verdict.SubSigCryptoFailure)
}
