package verdict_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
)

func str(s string) *string { return &s }

func TestSummarizeValid(t *testing.T) {
	t.Parallel()
	passed := verdict.SignatureReport{SignatureID: "S1", Indication: verdict.TotalPassed}
	failed := verdict.SignatureReport{SignatureID: "S2", Indication: verdict.TotalFailed, SubIndication: str("HASH_FAILURE")}
	unsure := verdict.SignatureReport{SignatureID: "S3", Indication: verdict.Indeterminate, SubIndication: str("NO_CERTIFICATE_CHAIN_FOUND")}
	tests := []struct {
		name    string
		reports []verdict.SignatureReport
		valid   bool
	}{
		{"no signature is not valid", nil, false},
		{"one passed", []verdict.SignatureReport{passed}, true},
		{"all passed", []verdict.SignatureReport{passed, passed}, true},
		{"one failed", []verdict.SignatureReport{passed, failed}, false},
		{"one indeterminate", []verdict.SignatureReport{unsure, passed}, false},
	}
	for _, tt := range tests {
		s := verdict.Summarize("doc.p7m", []byte("x"), tt.reports, verdict.TrustData{})
		if s.Valid != tt.valid || s.SignatureCount != len(tt.reports) {
			t.Errorf("%s: valid %v count %d, want %v %d", tt.name, s.Valid, s.SignatureCount, tt.valid, len(tt.reports))
		}
	}
}

// The JSON names are the spec's, byte for byte; nulls stay nulls.
func TestSummaryJSON(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	eu := "DE"
	s := verdict.Summarize("contract.p7m", []byte("signed bytes"), []verdict.SignatureReport{{
		SignatureID: "S-1", SignatureFormat: "CAdES_BASELINE_LT", Indication: verdict.TotalPassed,
		TrustFramework: verdict.FrameworkEUEIDAS, AnchorCountry: &eu, AnchorDataAuthenticated: true,
	}}, verdict.NewTrustData(snapshot(), issued.Add(time.Hour), th))
	raw, err := json.Marshal(s)
	is.NoErr(err)
	want := `{"valid":true,"documentName":"contract.p7m","documentSha256":"` + s.DocumentSHA256 + `","signatureCount":1,"signatures":[{"signatureId":"S-1","signatureFormat":"CAdES_BASELINE_LT","indication":"TOTAL_PASSED","subIndication":null,"trustFramework":"EU_EIDAS","anchorCountry":"DE","eidasQualification":null,"swissQualification":null,"handwrittenEquivalent":null,"anchorDataAuthenticated":true,"errors":[],"warnings":[]}],"trustData":`
	is.Equal(string(raw[:len(want)]), want)
	is.Equal(s.DocumentSHA256, "d6eade346b42f707c1684aa3d3c029ab0809164b8b878fcccf56fe1d83b3dc1d") // SHA-256 of "signed bytes"
}
