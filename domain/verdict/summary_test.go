package verdict_test

import (
	"crypto/sha256"
	"encoding/json"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/verdict"
)

func str(s string) *string { return &s }

func sub(s verdict.SubIndication) *verdict.SubIndication { return &s }

func TestSummarizeValid(t *testing.T) {
	t.Parallel()
	passed := verdict.SignatureReport{SignatureID: "S1", Indication: verdict.TotalPassed}
	failed := verdict.SignatureReport{SignatureID: "S2", Indication: verdict.TotalFailed, SubIndication: sub(verdict.SubHashFailure)}
	unsure := verdict.SignatureReport{SignatureID: "S3", Indication: verdict.Indeterminate, SubIndication: sub(verdict.SubNoCertificateChainFound)}
	// Counter-signatures of S1 (decision 0017): counted, not deciding valid.
	counterFailed := verdict.SignatureReport{SignatureID: "S4", CounterSignatureOf: "S1", Indication: verdict.TotalFailed, SubIndication: sub(verdict.SubSigCryptoFailure)}
	counterPassed := verdict.SignatureReport{SignatureID: "S5", CounterSignatureOf: "S1", Indication: verdict.TotalPassed}
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
		{"a failed counter-signature leaves a passed signature valid", []verdict.SignatureReport{passed, counterFailed}, true},
		{"a passed counter-signature does not make a failed signature valid", []verdict.SignatureReport{failed, counterPassed}, false},
	}
	for _, tt := range tests {
		s := verdict.Summarize("doc.p7m", sha256.Sum256([]byte("x")), tt.reports, verdict.TrustData{})
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
	s := verdict.Summarize("contract.p7m", sha256.Sum256([]byte("signed bytes")), []verdict.SignatureReport{{
		SignatureID: "S-1", SignatureFormat: "CAdES_BASELINE_LT", Indication: verdict.TotalPassed,
		TrustFramework: verdict.FrameworkEUEIDAS, AnchorCountry: &eu, AnchorDataAuthenticated: true,
	}, {
		SignatureID: "S-2", CounterSignatureOf: "S-1", SignatureFormat: "CAdES_BASELINE_B", Indication: verdict.TotalPassed,
		TrustFramework: verdict.FrameworkEUEIDAS, AnchorCountry: &eu, AnchorDataAuthenticated: true,
	}}, verdict.NewTrustData(snapshot(), issued.Add(time.Hour), th))
	raw, err := json.Marshal(s)
	is.NoErr(err)
	want := `{"valid":true,"documentName":"contract.p7m","documentSha256":"` + s.DocumentSHA256 + `","signatureCount":2,"signatures":[{"signatureId":"S-1","signatureFormat":"CAdES_BASELINE_LT","indication":"TOTAL_PASSED","subIndication":null,"trustFramework":"EU_EIDAS","anchorCountry":"DE","eidasQualification":null,"swissQualification":null,"handwrittenEquivalent":null,"anchorDataAuthenticated":true,"errors":[],"warnings":[],"container":null,"signedBy":null,"signingTime":null,"bestSignatureTime":null,"signatureScope":[],"certificateChain":[],"summary":"The signature is valid."},` +
		`{"signatureId":"S-2","counterSignatureOf":"S-1","signatureFormat":"CAdES_BASELINE_B","indication":"TOTAL_PASSED","subIndication":null,"trustFramework":"EU_EIDAS","anchorCountry":"DE","eidasQualification":null,"swissQualification":null,"handwrittenEquivalent":null,"anchorDataAuthenticated":true,"errors":[],"warnings":[],"container":null,"signedBy":null,"signingTime":null,"bestSignatureTime":null,"signatureScope":[],"certificateChain":[],"summary":"The signature is valid."}],"trustData":`
	is.Equal(string(raw[:len(want)]), want)
	is.Equal(s.DocumentSHA256, "d6eade346b42f707c1684aa3d3c029ab0809164b8b878fcccf56fe1d83b3dc1d") // SHA-256 of "signed bytes"
}

// §3 "Degraded behaviour": the trust data annotates the verdicts, never
// changes them.
func TestTrustAnnotations(t *testing.T) {
	t.Parallel()
	confirmed := time.Date(2026, 10, 1, 3, 0, 0, 0, time.UTC)
	chList := func(state, auth string) verdict.TrustData {
		return verdict.TrustData{Lists: []verdict.ListStatus{
			{Territory: "EU", Kind: "LOTL", State: "CURRENT", Authenticity: "VALID"},
			{Territory: "CH", Kind: "TL", State: state, Authenticity: auth, LastOnlineConfirmation: &confirmed},
		}}
	}
	anchored := verdict.SignatureReport{Indication: verdict.TotalPassed, TrustFramework: verdict.FrameworkCHZertES, AnchorCountry: str("CH")}
	noChain := verdict.SignatureReport{Indication: verdict.Indeterminate, SubIndication: sub(verdict.SubNoCertificateChainFound), TrustFramework: verdict.FrameworkUnknown}
	private := verdict.SignatureReport{Indication: verdict.TotalPassed, TrustFramework: verdict.FrameworkUnknown}
	tests := []struct {
		name    string
		report  verdict.SignatureReport
		td      verdict.TrustData
		code    string // "": no annotation
		message string
	}{
		{"anchor list current", anchored, chList("CURRENT", "VALID"), "", ""},
		{"anchor list stale", anchored, chList("STALE", "VALID"), verdict.CodeAnchorListNotCurrent,
			"the CH trusted list that anchors this signature is STALE (authenticity VALID): it was last confirmed online on 2026-10-01T03:00:00Z, no re-check has been possible since, and changes to its trust services after that, withdrawals included, are not reflected"},
		{"anchor list unauthenticated", anchored, chList("CURRENT", "INDETERMINATE"), verdict.CodeAnchorListNotCurrent,
			"the CH trusted list that anchors this signature is CURRENT (authenticity INDETERMINATE): it was last confirmed online on 2026-10-01T03:00:00Z, no re-check has been possible since, and changes to its trust services after that, withdrawals included, are not reflected"},
		{"no list loaded", noChain, verdict.TrustData{Category: "no-list-loaded"}, verdict.CodeNoTrustedListLoaded,
			"no trusted list is loaded, so no signature can reach a trust anchor of the EU or Swiss lists: this is a configuration problem of the validator, not a property of the document"},
		{"no chain while lists are loaded", noChain, chList("CURRENT", "VALID"), "", ""},
		{"private anchor while no list is loaded", private, verdict.TrustData{Category: "no-list-loaded"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := verdict.Summarize("doc.p7m", sha256.Sum256(nil), []verdict.SignatureReport{tt.report}, tt.td)
			r := s.Signatures[0]
			is.Equal(r.Indication, tt.report.Indication) // annotated, never changed
			if tt.code == "" {
				is.Equal(len(r.Warnings), 0)
				return
			}
			is.Equal(len(r.Warnings), 1)
			is.Equal(r.Warnings[0].Code, tt.code)
			is.Equal(r.Warnings[0].Message, tt.message)
		})
	}
}

// A qualified verdict whose own list is behind keeps its value and says
// as of when, by which list, and for how long withdrawals may be missing;
// a current list, or another list being behind, adds nothing; a
// qualified verdict on no tracked list is unconfirmed.
func TestQualificationAnnotation(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	confirmed10 := now.AddDate(0, 0, -10)
	confirmed45 := now.AddDate(0, 0, -45)
	issued := now.AddDate(0, 0, -5)
	td := func(chState string, ch *time.Time, deState string) verdict.TrustData {
		return verdict.TrustData{EvaluatedAt: now, WithdrawalWindowDays: 30, Lists: []verdict.ListStatus{
			{Territory: "EU", Kind: "LOTL", State: "CURRENT", Authenticity: "VALID"},
			{Territory: "DE", Kind: "TL", State: deState, Authenticity: "VALID", LastOnlineConfirmation: &confirmed45},
			{Territory: "CH", Kind: "TL", State: chState, Authenticity: "VALID", LastOnlineConfirmation: ch, IssueDate: &issued},
		}}
	}
	swiss := func(v string) verdict.SignatureReport {
		return verdict.SignatureReport{Indication: verdict.TotalPassed, TrustFramework: verdict.FrameworkCHZertES, AnchorCountry: str("CH"), SwissQualification: str(v)}
	}
	eu := func(v, country string) verdict.SignatureReport {
		return verdict.SignatureReport{Indication: verdict.TotalPassed, TrustFramework: verdict.FrameworkEUEIDAS, AnchorCountry: str(country), EIDASQualification: str(v)}
	}
	tests := []struct {
		name    string
		report  verdict.SignatureReport
		td      verdict.TrustData
		code    string
		message string
	}{
		{"Swiss QES, CH list stale for 10 days: the 30-day window", swiss("QES"), td("STALE", &confirmed10, "CURRENT"), verdict.CodeQualificationNotReconfirmed,
			"this QES rests on the CH trusted list (STALE, authenticity VALID), which last confirmed the signer's CA as a qualified trust service on 2026-11-10; no re-check has been possible since, and services withdrawn within the last 30 days are not reflected"},
		{"EU QESIG, DE list unconfirmed for 45 days: 45 days", eu("QESIG", "DE"), td("CURRENT", &confirmed10, "EXPIRED"), verdict.CodeQualificationNotReconfirmed,
			"this QESIG rests on the DE trusted list (EXPIRED, authenticity VALID), which last confirmed the signer's CA as a qualified trust service on 2026-10-06; no re-check has been possible since, and services withdrawn within the last 45 days are not reflected"},
		{"never confirmed online: the issue date", swiss("REGULATED_SEAL"), td("CACHE_ONLY", nil, "CURRENT"), verdict.CodeQualificationNotReconfirmed,
			"this REGULATED_SEAL rests on the CH trusted list (CACHE_ONLY, authenticity VALID), which last confirmed the signer's CA as a qualified trust service never online; the copy in use was issued on 2026-11-15; no re-check has been possible since, and services withdrawn within the last 30 days are not reflected"},
		{"Swiss QES on a current CH list while DE is expired: nothing", swiss("QES"), td("CURRENT", &confirmed10, "EXPIRED"), "", ""},
		{"EU QESIG on a current DE list while CH is stale: nothing", eu("QESIG", "DE"), td("STALE", &confirmed10, "CURRENT"), "", ""},
		{"not a qualified value: nothing", eu("ADESIG", "DE"), td("CURRENT", &confirmed10, "EXPIRED"), "", ""},
		{"qualified, on no tracked list", eu("QESIG", "IT"), td("CURRENT", &confirmed10, "CURRENT"), verdict.CodeQualificationUnconfirmed,
			"this QESIG is attributable to no trusted list this service tracks: it is unconfirmed, not current"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			r := verdict.Summarize("doc.pdf", sha256.Sum256(nil), []verdict.SignatureReport{tt.report}, tt.td).Signatures[0]
			var got []verdict.Message
			for _, w := range r.Warnings {
				if w.Code == verdict.CodeQualificationNotReconfirmed || w.Code == verdict.CodeQualificationUnconfirmed {
					got = append(got, w)
				}
			}
			is.Equal(r.EIDASQualification, tt.report.EIDASQualification) // never downgraded
			is.Equal(r.SwissQualification, tt.report.SwissQualification)
			if tt.code == "" {
				is.Equal(got, nil)
				return
			}
			is.Equal(len(got), 1)
			is.Equal(got[0].Code, tt.code)
			is.Equal(got[0].Message, tt.message)
		})
	}
}
