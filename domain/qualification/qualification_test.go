package qualification

import (
	"crypto/x509"
	"slices"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Every cell of the signature-qualification matrix (ETSI TS 119 615;
// reference c.5).
func TestSignatureQualificationMatrix(t *testing.T) {
	t.Parallel()
	cols := []struct {
		q    CertQualification
		name string
	}{
		{CertQualification{QC: true, Type: TypeESig, QSCD: true}, "QCERT_FOR_ESIG_QSCD"},
		{CertQualification{QC: true, Type: TypeESeal, QSCD: true}, "QCERT_FOR_ESEAL_QSCD"},
		{CertQualification{QC: true, Type: TypeUnknown, QSCD: true}, "QCERT_FOR_UNKNOWN_QSCD"},
		{CertQualification{QC: true, Type: TypeESig}, "QCERT_FOR_ESIG"},
		{CertQualification{QC: true, Type: TypeESeal}, "QCERT_FOR_ESEAL"},
		{CertQualification{QC: true, Type: TypeWSA}, "QCERT_FOR_WSA"},
		{CertQualification{QC: true, Type: TypeUnknown}, "QCERT_FOR_UNKNOWN"},
		{CertQualification{Type: TypeESig}, "CERT_FOR_ESIG"},
		{CertQualification{Type: TypeESeal}, "CERT_FOR_ESEAL"},
		{CertQualification{Type: TypeWSA}, "CERT_FOR_WSA"},
		{CertQualification{Type: TypeUnknown}, "CERT_FOR_UNKNOWN"},
		{CertQualification{NA: true}, "NA"},
	}
	rows := map[verdict.Indication][]string{
		verdict.TotalPassed:   {"QESIG", "QESEAL", "UNKNOWN_QC_QSCD", "ADESIG_QC", "ADESEAL_QC", "NOT_ADES", "UNKNOWN_QC", "ADESIG", "ADESEAL", "NOT_ADES", "UNKNOWN", "NA"},
		verdict.Indeterminate: {"INDETERMINATE_QESIG", "INDETERMINATE_QESEAL", "INDETERMINATE_UNKNOWN_QC_QSCD", "INDETERMINATE_ADESIG_QC", "INDETERMINATE_ADESEAL_QC", "NOT_ADES", "INDETERMINATE_UNKNOWN_QC", "INDETERMINATE_ADESIG", "INDETERMINATE_ADESEAL", "NOT_ADES", "INDETERMINATE_UNKNOWN", "NA"},
		verdict.TotalFailed:   {"NOT_ADES_QC_QSCD", "NOT_ADES_QC_QSCD", "NOT_ADES_QC_QSCD", "NOT_ADES_QC", "NOT_ADES_QC", "NOT_ADES", "NOT_ADES_QC", "NOT_ADES", "NOT_ADES", "NOT_ADES", "NOT_ADES", "NA"},
	}
	for indication, want := range rows {
		for i, c := range cols {
			if c.q.String() != c.name {
				t.Errorf("%+v prints %s, want %s", c.q, c.q, c.name)
			}
			if got := signatureQualification(indication, c.q); got != want[i] {
				t.Errorf("%s × %s = %s, want %s", indication, c.name, got, want[i])
			}
		}
	}
}

// The final certificate qualification from issuance and signing time
// (TS 119 615, 4.3.6).
func TestFinal(t *testing.T) {
	t.Parallel()
	qesig := CertQualification{QC: true, Type: TypeESig, QSCD: true}
	tests := []struct {
		issued, signing, want CertQualification
	}{
		{qesig, qesig, qesig},
		{CertQualification{NA: true}, qesig, CertQualification{NA: true}},
		{qesig, CertQualification{NA: true}, CertQualification{NA: true}},
		{CertQualification{Type: TypeESig}, qesig, CertQualification{Type: TypeESig}},
		{CertQualification{QC: true, Type: TypeESeal, QSCD: true}, qesig, CertQualification{QC: true, Type: TypeUnknown, QSCD: true}},
		{qesig, CertQualification{QC: true, Type: TypeESig}, CertQualification{QC: true, Type: TypeESig}},
	}
	for _, tt := range tests {
		if got := final(tt.issued, tt.signing); got != tt.want {
			t.Errorf("final(%s, %s) = %s, want %s", tt.issued, tt.signing, got, tt.want)
		}
	}
}

// Each branch of the eIDAS certificate qualification, through the
// signature qualification and the reason given.
func TestEIDAS(t *testing.T) {
	t.Parallel()
	qscdCert := certOptions{notBefore: t2020, compliance: true, sscd: true, qcTypes: []string{oidQcTypeESign}}
	granted := func(qs ...trust.Qualification) period {
		return period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018, quals: qs, asi: []string{sie + "ForeSignatures"}}
	}
	de := func(periods ...period) []Listing {
		return []Listing{listing(trust.EUEIDAS, "DE", "DE Qualified CA", periods...)}
	}
	withQSCD := quals(anyCert, "QCWithQSCD")[0]
	policyX := trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"1.2.3.4"}}}
	tests := []struct {
		name       string
		cert       certOptions
		listings   []Listing
		indication verdict.Indication
		signedAt   time.Time
		want       string
		code       string // a reason expected among the notes; "" for none at all
	}{
		{"granted CA/QC, QcCompliance, QcSSCD, eSig", qscdCert, de(granted()), verdict.TotalPassed, t2022, QESig, ""},
		{"granted, then withdrawn after signing", qscdCert, de(period{typ: trust.TypeCAQC, status: trust.StatusWithdrawn, start: t2024}, granted()), verdict.TotalPassed, t2022, QESig, ""},
		{"granted, then withdrawn before signing", qscdCert, de(period{typ: trust.TypeCAQC, status: trust.StatusWithdrawn, start: t2022}, granted()), verdict.TotalPassed, t2024, AdESig, CodeServiceNotGranted},
		{"withdrawn, with a granted history entry dated after it (TS 119 612 5.6): withdrawn", certOptions{notBefore: t2022, compliance: true, sscd: true, qcTypes: []string{oidQcTypeESign}},
			de(period{typ: trust.TypeCAQC, status: trust.StatusWithdrawn, start: t2020}, granted(), period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2020.AddDate(1, 0, 0), asi: []string{sie + "ForeSignatures"}}),
			verdict.TotalPassed, t2024, AdESig, CodeServiceNotGranted},
		{"QCWithQSCD makes a certificate without QcSSCD QSCD", certOptions{notBefore: t2020, compliance: true}, de(granted(withQSCD)), verdict.TotalPassed, t2022, QESig, ""},
		{"QCNoQSCD", qscdCert, de(granted(quals(anyCert, "QCNoQSCD")...)), verdict.TotalPassed, t2022, AdESigQC, CodeNotQSCD},
		{"QCQSCDStatusAsInCert, QcSSCD in the certificate", qscdCert, de(granted(quals(anyCert, "QCQSCDStatusAsInCert")...)), verdict.TotalPassed, t2022, QESig, ""},
		{"QCQSCDStatusAsInCert, no QcSSCD", certOptions{notBefore: t2020, compliance: true}, de(granted(quals(anyCert, "QCQSCDStatusAsInCert")...)), verdict.TotalPassed, t2022, AdESigQC, CodeNotQSCD},
		{"criteria list matches: QCWithQSCD applies", certOptions{notBefore: t2020, compliance: true, policies: []string{"1.2.3.4"}}, de(granted(quals(policyX, "QCWithQSCD")...)), verdict.TotalPassed, t2022, QESig, ""},
		{"criteria list misses: the certificate decides", certOptions{notBefore: t2020, compliance: true}, de(granted(quals(policyX, "QCWithQSCD")...)), verdict.TotalPassed, t2022, AdESigQC, CodeNotQSCD},
		{"NotQualified", qscdCert, de(granted(quals(anyCert, "NotQualified")...)), verdict.TotalPassed, t2022, AdESig, CodeNotQualified},
		{"QCStatement qualifies a certificate without QcCompliance (its type unknown)", certOptions{notBefore: t2020, sscd: true}, de(granted(quals(anyCert, "QCStatement")...)), verdict.TotalPassed, t2022, UnknownQCQSCD, ""},
		{"no QcCompliance", certOptions{notBefore: t2020, sscd: true}, de(granted()), verdict.TotalPassed, t2022, Unknown, CodeNotQualified},
		{"QcCClegislation: another law", certOptions{notBefore: t2020, compliance: true, sscd: true, legislation: []string{"CH"}}, de(granted()), verdict.TotalPassed, t2022, AdESig, CodeNotQualified},
		{"QCForESeal on a seal service, QcType eSeal", certOptions{notBefore: t2020, compliance: true, sscd: true, qcTypes: []string{oidQcTypeESeal}},
			de(period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018, asi: []string{sie + "ForeSeals"}}), verdict.TotalPassed, t2022, QESeal, ""},
		{"an eSig certificate on a service for seals only", qscdCert,
			de(period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018, asi: []string{sie + "ForeSeals"}}), verdict.TotalPassed, t2022, NA, CodeTypeNotCovered},
		{"QCForESeal overrules a service for signatures", qscdCert, de(granted(quals(anyCert, "QCForESeal")...)), verdict.TotalPassed, t2022, NA, CodeTypeNotCovered},
		{"CA/PKC", qscdCert, de(period{typ: trust.TypeCAPKC, status: trust.StatusGranted, start: t2018}), verdict.TotalPassed, t2022, AdESig, CodeServiceNotQualified},
		{"pre-eIDAS service and certificate, QCP+ policy", certOptions{notBefore: t2015, policies: []string{oidQCPPlus}},
			de(period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: EIDASDate}, period{typ: trust.TypeCAQC, status: trust.StatusAccredited, start: t2015.AddDate(-2, 0, 0)}),
			verdict.TotalPassed, t2015.AddDate(0, 6, 0), QESig, ""},
		{"pre-eIDAS certificate, QCP only", certOptions{notBefore: t2015, policies: []string{oidQCP}},
			de(period{typ: trust.TypeCAQC, status: trust.StatusAccredited, start: t2015.AddDate(-2, 0, 0)}), verdict.TotalPassed, t2015.AddDate(0, 6, 0), AdESigQC, CodeNotQSCD},
		{"pre-eIDAS entry with a granted status: inconsistent, left out", qscdCert,
			de(period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2015}), verdict.TotalPassed, t2022, NA, CodeInconsistentService},
		{"QCStatement and NotQualified together: inconsistent", qscdCert, de(granted(quals(anyCert, "QCStatement", "NotQualified")...)), verdict.TotalPassed, t2022, NA, CodeInconsistentService},
		{"two services that disagree", qscdCert, append(de(granted(quals(anyCert, "QCNoQSCD")...)), de(granted())...), verdict.TotalPassed, t2022, NA, CodeConflictingServices},
		{"two services that agree", qscdCert, append(de(granted()), de(granted())...), verdict.TotalPassed, t2022, QESig, ""},
		{"no service when the certificate was issued", certOptions{notBefore: t2015, compliance: true, sscd: true},
			de(granted()), verdict.TotalPassed, t2022, NA, CodeNoServiceAtTime},
		{"indeterminate", qscdCert, de(granted()), verdict.Indeterminate, t2022, "INDETERMINATE_QESIG", CodeSignatureNotPassed},
		{"failed", qscdCert, de(granted()), verdict.TotalFailed, t2022, NotAdESQCQSCD, CodeSignatureNotPassed},
		{"no list", qscdCert, nil, verdict.TotalPassed, t2022, NA, CodeNoTrustedList},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			r := Evaluate(Input{Indication: tt.indication, Signer: qcCert(t, tt.cert), Framework: trust.EUEIDAS, Listings: tt.listings, BestSignatureTime: tt.signedAt})
			is.True(r.EIDAS != nil)
			is.Equal(*r.EIDAS, tt.want)
			is.Equal(r.Swiss, nil)       // never on an EU anchor
			is.Equal(r.Handwritten, nil) // null for non-CH
			codes := codesOf(r.Notes)
			if tt.code == "" {
				is.Equal(codes, nil)
			} else if !slices.Contains(codes, tt.code) {
				t.Fatalf("notes %v lack %s: %+v", codes, tt.code, r.Notes)
			}
		})
	}
}

func codesOf(ms []verdict.Message) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.Code)
	}
	return out
}

// QTSA at generation and at the lowest proof of existence, TSA
// otherwise, NA without a list (TS 119 615, 4.4).
func TestTimestampQualification(t *testing.T) {
	t.Parallel()
	qtst := func(periods ...period) []Listing { return []Listing{listing(trust.EUEIDAS, "DE", "QTSA", periods...)} }
	tests := []struct {
		name     string
		listings []Listing
		want     string
	}{
		{"granted QTST", qtst(period{typ: trust.TypeQTST, status: trust.StatusGranted, start: t2018}), QTSA},
		{"withdrawn before the lowest POE", qtst(period{typ: trust.TypeQTST, status: trust.StatusWithdrawn, start: t2022.AddDate(0, 6, 0)}, period{typ: trust.TypeQTST, status: trust.StatusGranted, start: t2018}), TSA},
		{"granted only after generation", qtst(period{typ: trust.TypeQTST, status: trust.StatusGranted, start: t2022.AddDate(0, 1, 0)}), TSA},
		{"a non-qualified TSA", qtst(period{typ: trust.TypeTSA, status: trust.StatusGranted, start: t2018}), TSA},
		{"no list", nil, NA},
	}
	for _, tt := range tests {
		if got := TimestampQualification(tt.listings, t2022, t2024); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// Each Swiss outcome, and the handwritten equivalence.
func TestZertES(t *testing.T) {
	t.Parallel()
	ch := func(name string, periods ...period) []Listing {
		return []Listing{listing(trust.CHZERTES, "CH", name, periods...)}
	}
	grantedCA := period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018}
	swissQTSA := []Timestamp{{Generated: t2022, LowestPOE: t2024, Listings: ch("CH QTSA", period{typ: trust.TypeQTST, status: trust.StatusGranted, start: t2018})}}
	euQTSA := []Timestamp{{Generated: t2022, LowestPOE: t2024, Listings: []Listing{listing(trust.EUEIDAS, "DE", "DE QTSA", period{typ: trust.TypeQTST, status: trust.StatusGranted, start: t2018})}}}
	swissTSA := []Timestamp{{Generated: t2022, LowestPOE: t2024, Listings: ch("CH TSA", period{typ: trust.TypeTSA, status: trust.StatusGranted, start: t2018})}}
	qualified := certOptions{notBefore: t2020, compliance: true, sscd: true, legislation: []string{"CH"}}
	tests := []struct {
		name        string
		cert        certOptions
		listings    []Listing
		indication  verdict.Indication
		timestamps  []Timestamp
		want        string
		handwritten bool
		code        string
	}{
		{"QES with a Swiss qualified time-stamp", qualified, ch("CH CA", grantedCA), verdict.TotalPassed, swissQTSA, ZertESQES, true, ""},
		{"QES without a time-stamp", qualified, ch("CH CA", grantedCA), verdict.TotalPassed, nil, ZertESQES, false, CodeNoQualifiedTimestamp},
		{"QES with an EU qualified time-stamp", qualified, ch("CH CA", grantedCA), verdict.TotalPassed, euQTSA, ZertESQES, false, CodeNoQualifiedTimestamp},
		{"QES with a Swiss non-qualified time-stamp", qualified, ch("CH CA", grantedCA), verdict.TotalPassed, swissTSA, ZertESQES, false, CodeNoQualifiedTimestamp},
		{"QcCompliance alone marks qualified", certOptions{notBefore: t2020, compliance: true, sscd: true}, ch("CH CA", grantedCA), verdict.TotalPassed, swissQTSA, ZertESQES, true, ""},
		{"regulated signature: natural person, no qualified marker", certOptions{notBefore: t2020, sscd: true}, ch("CH CA", grantedCA), verdict.TotalPassed, swissQTSA, ZertESRegulatedSignature, false, CodeNotQualified},
		{"regulated seal: a UID entity", certOptions{notBefore: t2020, sscd: true, orgID: "NTRCH-CHE-123.456.789"}, ch("CH CA", grantedCA), verdict.TotalPassed, swissQTSA, ZertESRegulatedSeal, false, ""},
		{"regulated seal: QcType eSeal", certOptions{notBefore: t2020, compliance: true, sscd: true, qcTypes: []string{oidQcTypeESeal}}, ch("CH CA", grantedCA), verdict.TotalPassed, nil, ZertESRegulatedSeal, false, ""},
		{"SSCD from the list's qualifier", certOptions{notBefore: t2020, legislation: []string{"CH"}},
			ch("CH CA", period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018, quals: quals(anyCert, "QCWithSSCD")}), verdict.TotalPassed, swissQTSA, ZertESQES, true, ""},
		{"no SSCD: advanced", certOptions{notBefore: t2020, legislation: []string{"CH"}}, ch("CH CA", grantedCA), verdict.TotalPassed, swissQTSA, ZertESAdvanced, false, CodeNotQSCD},
		{"service withdrawn before signing: advanced", qualified,
			ch("CH CA", period{typ: trust.TypeCAQC, status: trust.StatusWithdrawn, start: t2022.AddDate(0, -1, 0)}, grantedCA), verdict.TotalPassed, swissQTSA, ZertESAdvanced, false, CodeServiceNotGranted},
		{"indeterminate: not applicable", qualified, ch("CH CA", grantedCA), verdict.Indeterminate, swissQTSA, ZertESNotApplicable, false, CodeSignatureNotPassed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			r := Evaluate(Input{Indication: tt.indication, Signer: qcCert(t, tt.cert), Framework: trust.CHZERTES, Listings: tt.listings, BestSignatureTime: t2022, Timestamps: tt.timestamps})
			is.Equal(r.EIDAS, nil) // a Swiss anchor never yields an eIDAS value
			is.Equal(*r.Swiss, tt.want)
			is.Equal(*r.Handwritten, tt.handwritten)
			codes := codesOf(r.Notes)
			if tt.code == "" {
				is.Equal(codes, nil)
			} else if !slices.Contains(codes, tt.code) {
				t.Fatalf("notes %v lack %s", codes, tt.code)
			}
		})
	}
}

// A certificate on both lists runs the Swiss branch only, with the Swiss
// services; a private or unknown anchor gets no qualification at all.
func TestFrameworks(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	cert := qcCert(t, certOptions{notBefore: t2020, compliance: true, sscd: true})
	both := []Listing{
		listing(trust.EUEIDAS, "DE", "DE CA", period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018}),
		listing(trust.CHZERTES, "CH", "CH CA", period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018}),
	}
	r := Evaluate(Input{Indication: verdict.TotalPassed, Signer: cert, Framework: trust.CHZERTES, Listings: both, BestSignatureTime: t2022})
	is.Equal(r.EIDAS, nil)
	is.Equal(*r.Swiss, ZertESQES)
	// The EU branch ignores a Swiss service.
	r = Evaluate(Input{Indication: verdict.TotalPassed, Signer: cert, Framework: trust.EUEIDAS, Listings: both[1:], BestSignatureTime: t2022})
	is.Equal(*r.EIDAS, NA)
	r = Evaluate(Input{Indication: verdict.TotalPassed, Signer: cert, Framework: trust.Unknown, Listings: both, BestSignatureTime: t2022})
	is.Equal(r, Result{})
}

// Criteria lists: every kind of criterion and assert.
func TestMatches(t *testing.T) {
	t.Parallel()
	f := FactsOf(qcCert(t, certOptions{notBefore: t2020, compliance: true, qcTypes: []string{oidQcTypeESign}, legislation: []string{"CH"},
		policies: []string{"1.2.3"}, keyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment, orgID: "NTRCH-CHE-1"}))
	ku := func(name string, v bool) [][]trust.KeyUsageBit {
		return [][]trust.KeyUsageBit{{{Name: name, Value: v}}}
	}
	tests := []struct {
		name string
		c    trust.Criteria
		want bool
	}{
		{"nonRepudiation set", trust.Criteria{Assert: "all", KeyUsage: ku("nonRepudiation", true)}, true},
		{"keyEncipherment must be set", trust.Criteria{Assert: "all", KeyUsage: ku("keyEncipherment", true)}, false},
		{"keyEncipherment must be clear", trust.Criteria{Assert: "all", KeyUsage: ku("keyEncipherment", false)}, true},
		{"an unknown bit", trust.Criteria{Assert: "all", KeyUsage: ku("magic", true)}, false},
		{"policy set present", trust.Criteria{Assert: "all", PolicySets: [][]string{{"1.2.3"}}}, true},
		{"policy set with one missing", trust.Criteria{Assert: "all", PolicySets: [][]string{{"1.2.3", "9.9"}}}, false},
		{"atLeastOne of two policy sets", trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"9.9"}, {"1.2.3"}}}, true},
		{"none of them", trust.Criteria{Assert: "none", PolicySets: [][]string{{"9.9"}, {"1.2.3"}}}, false},
		{"nested: all(policy, atLeastOne(miss, keyusage))", trust.Criteria{Assert: "all", PolicySets: [][]string{{"1.2.3"}},
			Nested: []trust.Criteria{{Assert: "atLeastOne", PolicySets: [][]string{{"9.9"}}, KeyUsage: ku("digitalSignature", true)}}}, true},
		{"subject attribute organizationIdentifier", trust.Criteria{Assert: "all", SubjectAttributes: [][]string{{oidOrganizationIdentifier}}}, true},
		{"subject attribute absent", trust.Criteria{Assert: "all", SubjectAttributes: [][]string{{"2.5.4.5"}}}, false},
		{"no EKU", trust.Criteria{Assert: "all", ExtendedKeyUsage: [][]string{{"1.3.6.1.5.5.7.3.4"}}}, false},
		{"QcStatement QcCompliance", trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{{{ID: oidQcCompliance}}}}, true},
		{"QcType eSign", trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{{{ID: oidQcType, Types: []string{oidQcTypeESign}}}}}, true},
		{"QcType eSeal", trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{{{ID: oidQcType, Types: []string{oidQcTypeESeal}}}}}, false},
		{"QcCClegislation CH", trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{{{ID: oidQcCClegislation, Legislation: []string{"CH"}}}}}, true},
		{"none of QcCClegislation", trust.Criteria{Assert: "none", QcStatements: [][]trust.QcStatementCriterion{{{ID: oidQcCClegislation}}}}, false},
		{"an unknown criterion", trust.Criteria{Assert: "atLeastOne", Unknown: []string{"Magic"}}, false},
	}
	for _, tt := range tests {
		if got := Matches(tt.c, f); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

// A third-country service mapped through an MRA: a certificate meeting
// the pointed party's declarations counts as carrying the EU's QC
// statements, and the answer says it rests on the agreement.
func TestMRAContentEquivalence(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	cert := qcCert(t, certOptions{notBefore: t2020, compliance: true, sscd: true, qcTypes: []string{oidQcTypeESign}, legislation: []string{"ZZ"}})
	qc := func(ids ...trust.QcStatementCriterion) trust.Criteria {
		return trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{ids}}
	}
	eq := &trust.ServiceEquivalence{LegalIdentifier: "QCForESig", Enacted: true, From: t2018, Content: []trust.ContentEquivalence{
		{Context: trust.ContextQcCompliance, Pointing: qc(trust.QcStatementCriterion{ID: oidQcCompliance}),
			Pointed: qc(trust.QcStatementCriterion{ID: oidQcCompliance}, trust.QcStatementCriterion{ID: oidQcCClegislation, Legislation: []string{"ZZ"}})},
		{Context: trust.ContextQcQSCD, Pointing: qc(trust.QcStatementCriterion{ID: oidQcSSCD}), Pointed: qc(trust.QcStatementCriterion{ID: oidQcSSCD})},
	}}
	zz := listing(trust.EUEIDAS, "ZZ", "ZZ qualified CA", period{typ: trust.TypeCAQC, status: trust.StatusGranted, start: t2018, asi: []string{sie + "ForeSignatures"}})
	in := Input{Indication: verdict.TotalPassed, Signer: cert, Framework: trust.EUEIDAS, Listings: []Listing{zz}, BestSignatureTime: t2022}
	r := Evaluate(in) // without the equivalence: a foreign legislation, not EU-qualified
	is.Equal(*r.EIDAS, AdESig)
	zz.Service.Equivalence = eq
	r = Evaluate(in)
	is.Equal(*r.EIDAS, QESig)
	is.Equal(codesOf(r.Notes), []string{CodeMRA})
	// A certificate of another legislation does not meet the declaration.
	other := qcCert(t, certOptions{notBefore: t2020, compliance: true, sscd: true, qcTypes: []string{oidQcTypeESign}, legislation: []string{"YY"}})
	in.Signer = other
	is.Equal(*Evaluate(in).EIDAS, AdESig)
}
