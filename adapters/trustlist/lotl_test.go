package trustlist_test

import (
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

const (
	oj2016 = "http://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2016.233.01.0001.01.ENG"
	oj2019 = "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2019.276.01.0001.01.ENG"
	oj2023 = "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2023.999.01.0001.01.ENG" // DSS pivot-test
	oj2026 = "https://eur-lex.europa.eu/eli/C/2026/1944/oj"
	ecLOTL = "https://ec.europa.eu/tools/lotl/"
	ecTL   = "https://ec.europa.eu/information_society/policy/esignature/trusted-list/"
	dssPiv = "http://18.202.217.18/res/pivot/"
)

// TestPivots runs the pivot rule over the real pivot LOTLs and DSS's
// keystore-change test lists.
func TestPivots(t *testing.T) {
	tests := []struct {
		file  string
		ojURL string
		want  []string
	}{
		{"dss/lotl/eu-lotl.xml", "", nil},
		{"dss/lotl/tl_pivot_172_mp.xml", "", []string{ecTL + "tl-pivot-172-mp.xml"}},
		{"dss/lotl/tl_pivot_191_mp.xml", "", []string{ecTL + "tl-pivot-191-mp.xml", ecTL + "tl-pivot-172-mp.xml"}},
		{"dss/lotl/tl_pivot_226_mp.xml", oj2016, []string{ecTL + "tl-pivot-226-mp.xml", ecTL + "tl-pivot-191-mp.xml", ecTL + "tl-pivot-172-mp.xml"}},
		// DSS's "missing pivot" sample points to a pivot 227 that does not
		// exist; the rule returns what the list says.
		{"dss/lotl/tl_pivot_247_mp_missing-pivot.xml", "", []string{ecTL + "tl-pivot-247-mp.xml", ecTL + "tl-pivot-227-mp.xml", ecTL + "tl-pivot-191-mp.xml", ecTL + "tl-pivot-172-mp.xml"}},
		{"dss/lotl/eu-lotl-pivot.xml", "", []string{ecTL + "tl-pivot-247-mp.xml", ecTL + "tl-pivot-226-mp.xml", ecTL + "tl-pivot-191-mp.xml", ecTL + "tl-pivot-172-mp.xml"}},
		{"dss/lotl/eu-lotl-pivot-282.xml", oj2019, []string{ecLOTL + "eu-lotl-pivot-282.xml"}},
		{"dss/lotl/eu-lotl-pivot-300.xml", oj2019, []string{ecLOTL + "eu-lotl-pivot-300.xml", ecLOTL + "eu-lotl-pivot-282.xml"}},
		{"dss/cookbook-cache/https___ec_europa_eu_tools_lotl_eu_lotl_xml.xml", oj2019, []string{ecLOTL + "eu-lotl-pivot-300.xml", ecLOTL + "eu-lotl-pivot-282.xml"}},
		{"dss/lotl/eu-lotl-pivot-341.xml", "", []string{ecLOTL + "eu-lotl-pivot-341.xml", ecLOTL + "eu-lotl-pivot-335.xml", ecLOTL + "eu-lotl-pivot-300.xml", ecLOTL + "eu-lotl-pivot-282.xml"}},
		// The 2026 re-anchoring lists its OJ link before the pivots: with
		// the new keystore configured there is nothing to walk, with the
		// 2019 keystore the whole chain.
		{"pyhanko/tl/eu-lotl.xml", oj2026, nil},
		{"pyhanko/tl/eu-lotl.xml", oj2019, []string{ecLOTL + "eu-lotl-pivot-378.xml", ecLOTL + "eu-lotl-pivot-341.xml", ecLOTL + "eu-lotl-pivot-335.xml", ecLOTL + "eu-lotl-pivot-300.xml", ecLOTL + "eu-lotl-pivot-282.xml"}},
		// DSS LOTLLocationRenewalTest: the OJ 2023 link separates the two
		// keystores' pivots.
		{"dss/pivot-test/lotl_test_OJ_2_pivot_02.xml", oj2023, []string{dssPiv + "lotl_test_OJ_2_pivot_02.xml", dssPiv + "lotl_test_OJ_2_pivot_01.xml"}},
		{"dss/pivot-test/lotl_test_OJ_2_pivot_02.xml", oj2019, []string{dssPiv + "lotl_test_OJ_2_pivot_02.xml", dssPiv + "lotl_test_OJ_2_pivot_01.xml",
			dssPiv + "lotl_test_OJ_1_pivot_03.xml", dssPiv + "lotl_test_OJ_1_pivot_02.xml", dssPiv + "lotl_test_OJ_1_pivot_01.xml"}},
		{"dss/pivot-test/lotl_test_OJ-2_reset_pivot.xml", oj2023, []string{dssPiv + "lotl_test_OJ_2_pivot_02.xml", dssPiv + "lotl_test_OJ_2_pivot_01.xml"}},
		{"dss/pivot-test/lotl_test_loc_01.xml", oj2019, nil},
	}
	for _, tt := range tests {
		t.Run(tt.file+" until "+tt.ojURL, func(t *testing.T) {
			is := is.New(t)
			l := parseCorpus(t, tt.file)
			is.Equal(trustlist.PivotsUntil(l, tt.ojURL), tt.want)
			if tt.ojURL == "" {
				is.Equal(trustlist.Pivots(l), tt.want)
			}
		})
	}
}

func TestPivotsSynthetic(t *testing.T) {
	l := trust.List{SchemeInformationURIs: []string{
		"https://example.org/lotl-pivot-2.xml",
		"https://example.org/oj-2",
		"https://example.org/legal.html#en",
		"https://example.org/lotl-pivot-1.xml",
		"https://example.org/lotl.XML", // DSS compares case-sensitively
		"https://example.org/oj-1",
	}}
	tests := []struct {
		oj   string
		want []string
	}{
		{"", []string{"https://example.org/lotl-pivot-2.xml", "https://example.org/lotl-pivot-1.xml"}},
		{"https://example.org/oj-2", []string{"https://example.org/lotl-pivot-2.xml"}},
		{"https://example.org/oj-1", []string{"https://example.org/lotl-pivot-2.xml", "https://example.org/lotl-pivot-1.xml"}},
		{"https://example.org/not-listed", []string{"https://example.org/lotl-pivot-2.xml", "https://example.org/lotl-pivot-1.xml"}},
	}
	for _, tt := range tests {
		t.Run(tt.oj, func(t *testing.T) {
			is.New(t).Equal(trustlist.PivotsUntil(l, tt.oj), tt.want)
		})
	}
}

func TestMemberLists(t *testing.T) {
	is := is.New(t)
	const (
		xmlType  = "application/vnd.etsi.tsl+xml"
		generic  = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric"
		lotlType = "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists"
	)
	l := trust.List{Pointers: []trust.Pointer{
		{Location: "self", Territory: "EU", TypeURI: lotlType, MimeType: xmlType},
		{Location: "at.xml", Territory: "AT", TypeURI: generic, MimeType: xmlType},
		{Location: "at.pdf", Territory: "AT", TypeURI: generic, MimeType: "application/pdf"},
		{Location: "zz.xml", Territory: "ZZ", TypeURI: "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/ZZlist", MimeType: xmlType},
		{Location: "be.xml", Territory: "BE", TypeURI: generic, MimeType: "Application/VND.etsi.tsl+xml"},
		{Location: "nomime.xml", Territory: "CZ", TypeURI: generic},
		{Location: "xx.xml", Territory: "XX", TypeURI: "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/ZZlist", MimeType: xmlType,
			MRA: &trust.MRA{Equivalences: []trust.ServiceEquivalence{{Enacted: true}}}},
		{Location: "yy.xml", Territory: "YY", TypeURI: "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/ZZlist", MimeType: xmlType,
			MRA: &trust.MRA{Equivalences: []trust.ServiceEquivalence{{Enacted: false}}}},
	}}
	var got []string
	for _, p := range trustlist.MemberLists(l) {
		got = append(got, p.Location)
	}
	// A third-country list only with an enacted agreement.
	is.Equal(got, []string{"at.xml", "be.xml", "xx.xml"})
}

// TestNames: a list read at a pointer's location must call itself what
// the pointer calls it; an MRA pointer may name its list through its
// TSLType; no pointer leads to "EU".
func TestNames(t *testing.T) {
	t.Parallel()
	member := trust.Pointer{Territory: "DE", TypeURI: "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric"}
	mra := trust.Pointer{Territory: "XX", TypeURI: "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/ZZlist", MRA: &trust.MRA{}}
	noMRA := mra
	noMRA.MRA = nil
	tests := []struct {
		p         trust.Pointer
		territory string
		want      bool
	}{
		{member, "DE", true},
		{member, "FR", false},
		{member, "de", false},
		{member, "", false},
		{member, "EU", false},
		{trust.Pointer{Territory: "EU"}, "EU", false},
		{mra, "XX", true},
		{mra, "ZZ", true},
		{mra, "EU", false},
		{mra, "YY", false},
		{noMRA, "ZZ", false}, // only an agreement lets the type name the list
		{trust.Pointer{Territory: "XX", TypeURI: "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlist", MRA: &trust.MRA{}}, "EU", false},
	}
	for _, tt := range tests {
		if got := trustlist.Names(tt.p, tt.territory); got != tt.want {
			t.Errorf("Names(%s %s, %q) = %v, want %v", tt.p.Territory, tt.p.TypeURI, tt.territory, got, tt.want)
		}
	}
}
