package trustlist_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// qualDoc puts one QualificationElement with the given CriteriaList into
// a service.
func qualDoc(criteria string) []byte {
	return service(`<ServiceInformationExtensions><Extension Critical="true">`+
		`<s:Qualifications xmlns:s="http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/#" xmlns:x="http://uri.etsi.org/01903/v1.3.2#" xmlns:a="http://uri.etsi.org/02231/v2/additionaltypes#">`+
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

// TestQualificationCriteria: the CriteriaList tree flattens into
// trust.Qualification exactly where the algebra allows, and a notice
// names whatever could not be represented.
func TestQualificationCriteria(t *testing.T) {
	tests := []struct {
		name     string
		criteria string
		assert   string
		oids     []string
		keyUsage []string
		lost     string // Notice.Detail, "" for an exact flattening
	}{
		{"one policy", cl("atLeastOne", ps("0.4.0.194112.1.2")), "atLeastOne", []string{"0.4.0.194112.1.2"}, nil, ""},
		{"OID as URN and other colon forms", cl("atLeastOne", ps("urn:oid:1.2.3"), ps(" oid:1.2.4 "), ps("1.2.5")), "atLeastOne", []string{"1.2.3", "1.2.4", "1.2.5"}, nil, ""},
		{"key usage true bits", cl("all", ku("nonRepudiation", "true", "digitalSignature", "1")), "all", nil, []string{"nonRepudiation", "digitalSignature"}, ""},
		{"key usage false bit", cl("all", ku("nonRepudiation", "true", "keyCertSign", "false")), "all", nil, []string{"nonRepudiation"}, "KeyUsageBit keyCertSign=false"},
		{"key usage without a boolean", cl("all", ku("nonRepudiation", "yes")), "all", nil, nil, "KeyUsageBit nonRepudiation has no boolean value"},
		{"two key usages under all merge", cl("all", ku("nonRepudiation", "true"), ku("digitalSignature", "true")), "all", nil, []string{"nonRepudiation", "digitalSignature"}, ""},
		{"two key usages under atLeastOne", cl("atLeastOne", ku("nonRepudiation", "true"), ku("digitalSignature", "true")), "atLeastOne", nil, []string{"nonRepudiation", "digitalSignature"}, "2 KeyUsage criteria under assert=atLeastOne"},
		{"multi-OID policy set under all", cl("all", ps("1.1", "1.2")), "all", []string{"1.1", "1.2"}, nil, ""},
		{"multi-OID policy set under atLeastOne", cl("atLeastOne", ps("1.1", "1.2"), ps("1.3")), "atLeastOne", []string{"1.1", "1.2", "1.3"}, nil, "PolicySet of 2 identifiers under assert=atLeastOne"},
		{"none over atLeastOne (BE, LU)", cl("none", cl("atLeastOne", ps("1.1"), ps("1.2"))), "none", []string{"1.1", "1.2"}, nil, ""},
		{"none with key usage over atLeastOne", cl("none", ku("keyCertSign", "true"), cl("atLeastOne", ps("1.1"))), "none", []string{"1.1"}, []string{"keyCertSign"}, ""},
		{"single-criterion nested list", cl("all", ku("nonRepudiation", "true"), cl("atLeastOne", ps("1.1"))), "all", []string{"1.1"}, []string{"nonRepudiation"}, ""},
		{"same assert nested", cl("atLeastOne", ps("1.1"), cl("atLeastOne", ps("1.2"), ps("1.3"))), "atLeastOne", []string{"1.1", "1.2", "1.3"}, nil, ""},
		{"all over atLeastOne of two", cl("all", ku("nonRepudiation", "true"), cl("atLeastOne", ps("1.1"), ps("1.2"))), "all", []string{"1.1", "1.2"}, []string{"nonRepudiation"},
			"nested CriteriaList assert=atLeastOne inside assert=all"},
		{"otherCriteriaList (SK)", cl("all", cl("none", `<s:otherCriteriaList><a:CertSubjectDNAttribute><a:AttributeOID><x:Identifier>2.5.4.42</x:Identifier></a:AttributeOID></a:CertSubjectDNAttribute></s:otherCriteriaList>`)),
			"all", nil, nil, "otherCriteriaList CertSubjectDNAttribute; nested CriteriaList assert=none inside assert=all"},
		{"empty other list is nothing", cl("all", ps("1.1"), "<s:otherCriteriaList/>"), "all", []string{"1.1"}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			l, notices, err := trustlist.ParseWithNotices(qualDoc(tt.criteria))
			is.NoErr(err)
			q := l.Providers[0].Services[0].Qualifications
			is.Equal(q, []trust.Qualification{{
				Qualifiers: []string{"urn:q1", "urn:q2"},
				Assert:     tt.assert,
				PolicyOIDs: tt.oids,
				KeyUsage:   tt.keyUsage,
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
