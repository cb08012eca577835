package trustlist_test

import (
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// qualDoc puts one QualificationElement with the given CriteriaList into
// a service.
func qualDoc(criteria string) []byte {
	return service(`<ServiceInformationExtensions><Extension Critical="true">`+
		`<s:Qualifications xmlns:s="http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/#" xmlns:x="http://uri.etsi.org/01903/v1.3.2#" xmlns:a="http://uri.etsi.org/02231/v2/additionaltypes#" xmlns:m="http://ec.europa.eu/tools/lotl/mra/schema/v2#">`+
		`<s:QualificationElement><s:Qualifiers><s:Qualifier uri="urn:q1"/><s:Qualifier uri=" urn:q2 "/></s:Qualifiers>`+
		criteria+`</s:QualificationElement></s:Qualifications></Extension></ServiceInformationExtensions>`, "")
}

func ps(oids ...string) string {
	s := "<s:PolicySet>"
	for _, o := range oids {
		s += "<s:PolicyIdentifier><x:Identifier>" + o + "</x:Identifier></s:PolicyIdentifier>"
	}
	return s + "</s:PolicySet>"
}

func ku(bits ...string) string {
	s := "<s:KeyUsage>"
	for i := 0; i < len(bits); i += 2 {
		s += `<s:KeyUsageBit name="` + bits[i] + `">` + bits[i+1] + "</s:KeyUsageBit>"
	}
	return s + "</s:KeyUsage>"
}

func cl(assert string, content ...string) string {
	s := `<s:CriteriaList assert="` + assert + `">`
	for _, c := range content {
		s += c
	}
	return s + "<s:Description>ignored</s:Description></s:CriteriaList>"
}

// other wraps otherCriteriaList content.
func other(content ...string) string {
	return "<s:otherCriteriaList>" + strings.Join(content, "") + "</s:otherCriteriaList>"
}

// oidList writes one ObjectIdentifierType element per OID.
func oidList(elem string, oids ...string) string {
	s := ""
	for _, o := range oids {
		s += "<" + elem + "><x:Identifier>" + o + "</x:Identifier></" + elem + ">"
	}
	return s
}

func subjectDN(oids ...string) string {
	return "<a:CertSubjectDNAttribute>" + oidList("a:AttributeOID", oids...) + "</a:CertSubjectDNAttribute>"
}

func eku(oids ...string) string {
	return "<a:ExtendedKeyUsage>" + oidList("a:KeyPurposeId", oids...) + "</a:ExtendedKeyUsage>"
}

func qcSet(statements ...string) string {
	return "<m:QcStatementSet>" + strings.Join(statements, "") + "</m:QcStatementSet>"
}

// qc writes a QcStatement with the given QcStatementInfo content.
func qc(id, info string) string {
	s := "<m:QcStatement>" + oidList("m:QcStatementId", id)
	if info != "" {
		s += "<m:QcStatementInfo>" + info + "</m:QcStatementInfo>"
	}
	return s + "</m:QcStatement>"
}

// TestQualificationCriteria: the CriteriaList tree is kept as the tree
// it is, and a notice names only what trust.Criteria cannot carry.
func TestQualificationCriteria(t *testing.T) {
	const (
		qcCompliance = "0.4.0.1862.1.1"
		qcType       = "0.4.0.1862.1.6"
		qcCCLeg      = "0.4.0.1862.1.7"
		eseal        = "0.4.0.1862.1.6.2"
	)
	tests := []struct {
		name     string
		criteria string
		want     trust.Criteria
		lost     string // Notice.Detail, "" when everything is represented
	}{
		{"one policy", cl("atLeastOne", ps("0.4.0.194112.1.2")),
			trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"0.4.0.194112.1.2"}}}, ""},
		{"OID as URN and other colon forms", cl("atLeastOne", ps("urn:oid:1.2.3"), ps(" oid:1.2.4 "), ps("1.2.5")),
			trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"1.2.3"}, {"1.2.4"}, {"1.2.5"}}}, ""},
		{"multi-OID policy set is one criterion", cl("atLeastOne", ps("1.1", "1.2"), ps("1.3")),
			trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"1.1", "1.2"}, {"1.3"}}}, ""},
		{"blank identifiers leave an empty policy set", cl("all", ps(" ", "")),
			trust.Criteria{Assert: "all", PolicySets: [][]string{nil}}, ""},
		{"key usage true bits", cl("all", ku("nonRepudiation", "true", "digitalSignature", "1")),
			trust.Criteria{Assert: "all", KeyUsage: [][]trust.KeyUsageBit{{{Name: "nonRepudiation", Value: true}, {Name: "digitalSignature", Value: true}}}}, ""},
		{"key usage false bit kept", cl("all", ku("nonRepudiation", "true", "keyCertSign", "false", "cRLSign", " 0 ")),
			trust.Criteria{Assert: "all", KeyUsage: [][]trust.KeyUsageBit{{{Name: "nonRepudiation", Value: true}, {Name: "keyCertSign", Value: false}, {Name: "cRLSign", Value: false}}}}, ""},
		{"key usage without a boolean", cl("all", ku("nonRepudiation", "yes", "digitalSignature", "true")),
			trust.Criteria{Assert: "all", KeyUsage: [][]trust.KeyUsageBit{{{Name: "digitalSignature", Value: true}}}},
			"KeyUsageBit nonRepudiation has no boolean value"},
		{"key usage left empty", cl("all", ku("nonRepudiation", "TRUE")),
			trust.Criteria{Assert: "all", KeyUsage: [][]trust.KeyUsageBit{nil}},
			"KeyUsageBit nonRepudiation has no boolean value"},
		{"two key usages are two criteria", cl("atLeastOne", ku("nonRepudiation", "true"), ku("digitalSignature", "true")),
			trust.Criteria{Assert: "atLeastOne", KeyUsage: [][]trust.KeyUsageBit{{{Name: "nonRepudiation", Value: true}}, {{Name: "digitalSignature", Value: true}}}}, ""},
		{"none over atLeastOne (BE, LU)", cl("none", cl("atLeastOne", ps("1.1"), ps("1.2"))),
			trust.Criteria{Assert: "none", Nested: []trust.Criteria{{Assert: "atLeastOne", PolicySets: [][]string{{"1.1"}, {"1.2"}}}}}, ""},
		{"nested lists kept as nested", cl("all", ku("nonRepudiation", "true"), cl("atLeastOne", ps("1.1"), cl("none", ps("1.2")), ps("1.3"))),
			trust.Criteria{
				Assert:   "all",
				KeyUsage: [][]trust.KeyUsageBit{{{Name: "nonRepudiation", Value: true}}},
				Nested: []trust.Criteria{{
					Assert:     "atLeastOne",
					PolicySets: [][]string{{"1.1"}, {"1.3"}},
					Nested:     []trust.Criteria{{Assert: "none", PolicySets: [][]string{{"1.2"}}}},
				}},
			}, ""},
		{"CertSubjectDNAttribute (ES)", cl("atLeastOne", other(subjectDN("1.3.6.1.4.1.18838.1.1"))),
			trust.Criteria{Assert: "atLeastOne", SubjectAttributes: [][]string{{"1.3.6.1.4.1.18838.1.1"}}}, ""},
		{"CertSubjectDNAttribute nested (SK)", cl("all", cl("none", other(subjectDN("2.5.4.42"))), other(subjectDN("urn:oid:2.5.4.10", "2.5.4.97"))),
			trust.Criteria{
				Assert:            "all",
				Nested:            []trust.Criteria{{Assert: "none", SubjectAttributes: [][]string{{"2.5.4.42"}}}},
				SubjectAttributes: [][]string{{"2.5.4.10", "2.5.4.97"}},
			}, ""},
		{"ExtendedKeyUsage (SK)", cl("all", other(eku("1.3.6.1.5.5.7.3.1"), eku("urn:oid:1.3.6.1.5.5.7.3.2", "1.3.6.1.5.5.7.3.4"))),
			trust.Criteria{Assert: "all", ExtendedKeyUsage: [][]string{{"1.3.6.1.5.5.7.3.1"}, {"1.3.6.1.5.5.7.3.2", "1.3.6.1.5.5.7.3.4"}}}, ""},
		{"QcStatementSet with QcType and QcCClegislation (MRA)",
			cl("all", other(
				qcSet(qc("urn:oid:"+qcCompliance, ""), qc("urn:oid:"+qcType, "<m:QcType><x:Identifier>urn:oid:"+eseal+"</x:Identifier></m:QcType>")),
				qcSet(qc(qcCCLeg, "<m:QcCClegislation> ZZ </m:QcCClegislation>")),
			)),
			trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{
				{{ID: qcCompliance}, {ID: qcType, Types: []string{eseal}}},
				{{ID: qcCCLeg, Legislation: []string{"ZZ"}}},
			}}, ""},
		{"QcCClegislation with CountryName children", cl("all", other(qcSet(qc(qcCCLeg, "<m:QcCClegislation><m:CountryName>CH</m:CountryName><m:CountryName>LI</m:CountryName></m:QcCClegislation>")))),
			trust.Criteria{Assert: "all", QcStatements: [][]trust.QcStatementCriterion{{{ID: qcCCLeg, Legislation: []string{"CH", "LI"}}}}}, ""},
		{"unknown otherCriteriaList child", cl("atLeastOne", ps("1.1"), other(`<u:Rule xmlns:u="urn:u"><u:x/></u:Rule>`, eku("1.3.6.1.5.5.7.3.1"))),
			trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"1.1"}}, ExtendedKeyUsage: [][]string{{"1.3.6.1.5.5.7.3.1"}}, Unknown: []string{"Rule"}},
			"otherCriteriaList {urn:u}Rule"},
		{"known name in another namespace is unknown", cl("all", other(`<ExtendedKeyUsage/>`, `<m:CertSubjectDNAttribute/>`)),
			trust.Criteria{Assert: "all", Unknown: []string{"ExtendedKeyUsage", "CertSubjectDNAttribute"}},
			"otherCriteriaList {http://uri.etsi.org/02231/v2#}ExtendedKeyUsage; " +
				"otherCriteriaList {http://ec.europa.eu/tools/lotl/mra/schema/v2#}CertSubjectDNAttribute"},
		{"losses in nested lists are reported once", cl("all", cl("none", ku("a", "?"), other("<Q/>")), cl("none", ku("a", "x"), other("<Q/>"))),
			trust.Criteria{Assert: "all", Nested: []trust.Criteria{
				{Assert: "none", KeyUsage: [][]trust.KeyUsageBit{nil}, Unknown: []string{"Q"}},
				{Assert: "none", KeyUsage: [][]trust.KeyUsageBit{nil}, Unknown: []string{"Q"}},
			}},
			"KeyUsageBit a has no boolean value; otherCriteriaList {http://uri.etsi.org/02231/v2#}Q"},
		{"empty other list is nothing", cl("all", ps("1.1"), "<s:otherCriteriaList/>"),
			trust.Criteria{Assert: "all", PolicySets: [][]string{{"1.1"}}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			l, notices, err := trustlist.ParseWithNotices(qualDoc(tt.criteria))
			is.NoErr(err)
			q := l.Providers[0].Services[0].Qualifications
			is.Equal(q, []trust.Qualification{{
				Qualifiers: []string{"urn:q1", "urn:q2"},
				Criteria:   tt.want,
				Critical:   true,
			}})
			if tt.lost == "" {
				is.Equal(len(notices), 0)
				return
			}
			is.Equal(notices, []trustlist.Notice{{
				Kind:   trustlist.NoticeCriteriaNotRepresented,
				Path:   "TrustServiceProvider[0]/TSPService[0]/ServiceInformation/ServiceInformationExtensions/Extension[0]/Qualifications/QualificationElement[0]",
				Detail: tt.lost,
			}})
		})
	}
}

// TestSlovakOtherCriteria pins the otherCriteriaList entries of a real
// list: SK's QCForWSA asks for the serverAuth key purpose, and its
// QCForESeal for an organizationName and none of givenName, pseudonym
// and surname, each excluded by its own nested "none" list.
func TestSlovakOtherCriteria(t *testing.T) {
	is := is.New(t)
	l, notices, err := trustlist.ParseWithNotices(readCorpus(t, "dss/tl/tsl-sk-minimal-dss-1911.xml"))
	is.NoErr(err)
	is.Equal(len(notices), 0) // everything the criteria say is represented
	s := l.Providers[0].Services[0]
	is.Equal(s.Name, "(82) SNCA3")
	noneOf := func(oid string) trust.Criteria {
		return trust.Criteria{Assert: "none", SubjectAttributes: [][]string{{oid}}}
	}
	is.Equal(s.Qualifications, []trust.Qualification{
		{
			Qualifiers: []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCForWSA"},
			Criteria:   trust.Criteria{Assert: "all", ExtendedKeyUsage: [][]string{{"1.3.6.1.5.5.7.3.1"}}},
			Critical:   true,
		},
		{
			Qualifiers: []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCForESeal"},
			Criteria: trust.Criteria{
				Assert:            "all",
				Nested:            []trust.Criteria{noneOf("2.5.4.42"), noneOf("2.5.4.65"), noneOf("2.5.4.4")},
				SubjectAttributes: [][]string{{"2.5.4.10"}},
			},
			Critical: true,
		},
	})
}
