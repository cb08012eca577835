package verdict_test

import (
	"crypto/sha256"
	"encoding/json"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
)

// valid counts the time-stamp entries with the signatures (decision
// 0032): at least one of either, every signature TOTAL_PASSED, every
// entry PASSED; signatureCount counts signatures alone.
func TestWithTimestampsValid(t *testing.T) {
	t.Parallel()
	passed := verdict.SignatureReport{SignatureID: "S1", Indication: verdict.TotalPassed}
	unsure := verdict.SignatureReport{SignatureID: "S2", Indication: verdict.Indeterminate, SubIndication: sub(verdict.SubNoCertificateChainFound)}
	ok := verdict.TimestampEntryReport{ID: "T1", Indication: verdict.Passed}
	broken := verdict.TimestampEntryReport{ID: "T2", Indication: verdict.Failed, SubIndication: sub(verdict.SubHashFailure)}
	tests := []struct {
		name    string
		reports []verdict.SignatureReport
		entries []verdict.TimestampEntryReport
		valid   bool
	}{
		{"nothing is not valid", nil, nil, false},
		{"a passed entry alone", nil, []verdict.TimestampEntryReport{ok}, true},
		{"a failed entry alone", nil, []verdict.TimestampEntryReport{broken}, false},
		{"a passed signature and a passed entry", []verdict.SignatureReport{passed}, []verdict.TimestampEntryReport{ok}, true},
		{"a passed signature and a failed entry", []verdict.SignatureReport{passed}, []verdict.TimestampEntryReport{ok, broken}, false},
		{"an indeterminate signature and a passed entry", []verdict.SignatureReport{unsure}, []verdict.TimestampEntryReport{ok}, false},
		{"a passed signature, no entry", []verdict.SignatureReport{passed}, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			s := verdict.Summarize("doc", sha256.Sum256(nil), tt.reports, verdict.TrustData{}).WithTimestamps(tt.entries)
			is.Equal(s.Valid, tt.valid)
			is.Equal(s.SignatureCount, len(tt.reports))
			is.Equal(len(s.Timestamps), len(tt.entries))
			for _, e := range s.Timestamps {
				is.True(e.Errors != nil && e.Warnings != nil && e.TimestampedData != nil) // [] in JSON, never null
			}
			out, err := json.Marshal(s)
			is.NoErr(err)
			is.Equal(strings.Contains(string(out), `"timestamps":`), len(tt.entries) > 0) // omitted when none
		})
	}
}
