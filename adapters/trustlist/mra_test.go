package trustlist_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// The URIs of the EU's MRA pilot (the corpus's mra-*.xml, from EU DSS).
const (
	zzLocation = "https://esignature.ec.europa.eu/efda/intl-pilot/api/v1/intl-pilot/tl/mra_tl_zz.xml"

	euCAQC        = "http://uri.etsi.org/TrstSvc/Svctype/CA/QC"
	euForeSig     = "http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/ForeSignatures"
	euGranted     = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted"
	euWithdrawn   = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn"
	euQualifier   = "http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/"
	zzCAQCForESig = "http://zz-trusted-list.go.zz/TrstSvc/Svctype/CA/QC/for-eSig"
	zzGranted     = "http://zz-trusted-list.go.zz/TrstSvc/TrustedList/Svcstatus/granted"
	zzWithdrawn   = "http://zz-trusted-list.go.zz/TrstSvc/TrustedList/Svcstatus/withdrawn"
	zzQualifier   = "http://zz-trusted-list.go.zz/TrstSvc/TrustedList/SvcInfoExt/"

	oidQcCompliance    = "0.4.0.1862.1.1"
	oidQcSSCD          = "0.4.0.1862.1.4"
	oidQcType          = "0.4.0.1862.1.6"
	oidQcCClegislation = "0.4.0.1862.1.7"
)

// qcCrit is a CriteriaList of QcStatementSet criteria.
func qcCrit(assert string, sets ...[]trust.QcStatementCriterion) trust.Criteria {
	return trust.Criteria{Assert: assert, QcStatements: sets}
}

// nestCrit is a CriteriaList of nested lists.
func nestCrit(assert string, nested ...trust.Criteria) trust.Criteria {
	return trust.Criteria{Assert: assert, Nested: nested}
}

func stmts(s ...trust.QcStatementCriterion) []trust.QcStatementCriterion { return s }

// pilotMRA is the agreement mra-lotl.xml carries on its pointer to the ZZ
// list, written out from the XML.
func pilotMRA() trust.MRA {
	qualifiers := []string{"QCWithQSCD", "QCNoQSCD", "QCQSCDManagedOnBehalf", "QCForESig", "QCForESeal", "QCForWSA", "NotQualified", "QcStatement"}
	var qs []trust.URIEquivalence
	for _, q := range qualifiers {
		qs = append(qs, trust.URIEquivalence{Pointing: euQualifier + q, Pointed: zzQualifier + q})
	}
	esig := trust.QcStatementCriterion{ID: oidQcType, Types: []string{"0.4.0.1862.1.6.1"}}
	eseal := trust.QcStatementCriterion{ID: oidQcType, Types: []string{"0.4.0.1862.1.6.2"}}
	web := trust.QcStatementCriterion{ID: oidQcType, Types: []string{"0.4.0.1862.1.6.3"}}
	qcType := nestCrit("all",
		nestCrit("atLeastOne", qcCrit("all", stmts(esig)), qcCrit("none", stmts(esig))),
		qcCrit("none", stmts(eseal), stmts(web)))
	return trust.MRA{Equivalences: []trust.ServiceEquivalence{{
		LegalIdentifier: "QCForESig",
		Enacted:         true,
		From:            time.Date(2020, 5, 16, 23, 59, 59, 0, time.UTC),
		Types: []trust.TypeEquivalence{{
			Pointing: trust.ServiceTypeRef{TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}},
			Pointed:  trust.ServiceTypeRef{TypeURI: zzCAQCForESig},
		}},
		ValidStatuses:   []trust.URIEquivalence{{Pointing: euGranted, Pointed: zzGranted}},
		InvalidStatuses: []trust.URIEquivalence{{Pointing: euWithdrawn, Pointed: zzWithdrawn}},
		Qualifiers:      qs,
		Content: []trust.ContentEquivalence{
			{
				Context: trust.ContextQcCompliance,
				Pointing: nestCrit("all",
					qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcCompliance})),
					qcCrit("none", stmts(trust.QcStatementCriterion{ID: oidQcCClegislation}))),
				Pointed: qcCrit("all", stmts(
					trust.QcStatementCriterion{ID: oidQcCompliance},
					trust.QcStatementCriterion{ID: oidQcCClegislation, Legislation: []string{"ZZ"}})),
			},
			{Context: trust.ContextQcType, Pointing: qcType, Pointed: qcType},
			{
				Context:  trust.ContextQcQSCD,
				Pointing: qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcSSCD})),
				Pointed:  qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcSSCD})),
			},
		},
	}}}
}

// zzPointer returns the LOTL's pointer to the ZZ list and checks that no
// other pointer carries an agreement.
func zzPointer(t *testing.T, l trust.List) trust.Pointer {
	t.Helper()
	var zz []trust.Pointer
	for _, p := range l.Pointers {
		if p.MRA != nil {
			zz = append(zz, p)
		}
	}
	if len(zz) != 1 || zz[0].Location != zzLocation {
		t.Fatalf("want one pointer with an MRA, to %s; got %d", zzLocation, len(zz))
	}
	return zz[0]
}

// TestMRALOTL reads the agreement of the EU DSS MRA pilot LOTL: only the
// pointer to the ZZ list carries one (the 43 member-state pointers have
// nil), with exactly the equivalence written in the XML.
func TestMRALOTL(t *testing.T) {
	is := is.New(t)
	l, notices, err := trustlist.ParseWithNotices(readCorpus(t, "dss/mra/mra-lotl.xml"))
	is.NoErr(err)
	is.Equal(len(l.Pointers), 44)
	p := zzPointer(t, l)
	is.Equal(p.TypeURI, "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/ZZlist")
	is.Equal(*p.MRA, pilotMRA())
	for _, n := range notices {
		is.True(n.Kind != trustlist.NoticeMRANotRepresented && n.Kind != trustlist.NoticeCriteriaNotRepresented) // the pilot is complete
	}
}

// TestApplyMRAPilot maps the ZZ list through the pilot agreement: its CA
// for eSignatures becomes an eIDAS CA/QC for ForeSignatures, granted, with
// the EU's qualifier, as EU DSS's MRA tests have it.
func TestApplyMRAPilot(t *testing.T) {
	is := is.New(t)
	m := *zzPointer(t, parseCorpus(t, "dss/mra/mra-lotl.xml")).MRA
	zz := parseCorpus(t, "dss/mra/mra-zz-tl.xml")

	svc := zz.Providers[0].Services[0]
	is.Equal(svc.Type, trust.TypeOther) // as read: the ZZ namespace is not eIDAS
	is.Equal(svc.Status, trust.StatusOther)
	is.Equal(svc.Equivalence, nil)

	trustlist.ApplyMRA(&zz, &m)
	got := zz.Providers[0].Services[0]
	is.Equal(got.Type, trust.TypeCAQC)
	is.Equal(got.TypeURI, euCAQC)
	is.Equal(got.AdditionalInfo, []string{euForeSig})
	is.Equal(got.Status, trust.StatusGranted)
	is.Equal(got.StatusURI, euGranted)
	is.Equal(got.StatusStart, time.Date(2020, 11, 10, 0, 0, 0, 0, time.UTC)) // after the agreement's From
	is.True(got.Equivalence == &m.Equivalences[0])
	is.Equal(len(got.Qualifications), 1)
	is.Equal(got.Qualifications[0].Qualifiers, []string{euQualifier + "QCWithQSCD"})
	is.Equal(got.Qualifications[0].Criteria, svc.Qualifications[0].Criteria) // the ZZ certificates' criteria
	is.Equal(got.Name, svc.Name)
	is.Equal(got.Identity, svc.Identity)
}

// TestMRACorpusVariants parses EU DSS's variants of the pilot LOTL and
// records what each gives: they parse, and their quirks are notices.
func TestMRACorpusVariants(t *testing.T) {
	tests := []struct {
		file     string
		check    func(is *is.I, eq trust.ServiceEquivalence)
		contexts []string
		notice   string // the one MRA notice's detail contains this
		mapped   bool   // ApplyMRA makes the ZZ CA an eIDAS CA/QC
	}{
		{
			// The current equivalence is repealed from 2023; the enacted
			// 2020 one is in TrustServiceEquivalenceHistory, which the
			// domain cannot hold: nothing is recognised (EU DSS would
			// still recognise certificates issued before 2023).
			file: "dss/mra/mra-zz-lotl-history.xml",
			check: func(is *is.I, eq trust.ServiceEquivalence) {
				is.True(!eq.Enacted)
				is.Equal(eq.From, time.Date(2023, 5, 16, 23, 59, 59, 0, time.UTC))
			},
			contexts: []string{trust.ContextQcCompliance, trust.ContextQcType, trust.ContextQcQSCD},
			notice:   "1 TrustServiceEquivalenceHistory dropped",
		},
		{
			// A fourth content equivalence in an unknown context is kept;
			// no rule reads it (EU DSS ignores it too).
			file: "dss/mra/mra-zz-lotl-custom-equivalence-context.xml",
			check: func(is *is.I, eq trust.ServiceEquivalence) {
				is.True(eq.Enacted)
				is.Equal(eq.Content[3].Pointing, qcCrit("none", stmts(trust.QcStatementCriterion{ID: oidQcType})))
				is.Equal(eq.Content[3].Pointed, trust.Criteria{Assert: "none", PolicySets: [][]string{{"1.2.804.2.1.1.1.2.4"}}})
			},
			contexts: []string{trust.ContextQcCompliance, trust.ContextQcType, trust.ContextQcQSCD, "http://ec.europa.eu/tools/lotl/mra/Exclusion"},
			notice:   `context "http://ec.europa.eu/tools/lotl/mra/Exclusion" is not QcCompliance, QcType or QcQSCD`,
			mapped:   true,
		},
		{
			// QcCompliance twice, identical: both kept.
			file: "dss/mra/mra-zz-lotl-duplicated-equivalence-context.xml",
			check: func(is *is.I, eq trust.ServiceEquivalence) {
				is.True(eq.Enacted)
				is.Equal(eq.Content[0], eq.Content[1])
			},
			contexts: []string{trust.ContextQcCompliance, trust.ContextQcCompliance, trust.ContextQcType, trust.ContextQcQSCD},
			notice:   `context "http://ec.europa.eu/tools/lotl/mra/QcCompliance" given more than once`,
			mapped:   true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			is := is.New(t)
			l, notices, err := trustlist.ParseWithNotices(readCorpus(t, tt.file))
			is.NoErr(err)
			m := zzPointer(t, l).MRA
			is.Equal(len(m.Equivalences), 1)
			eq := m.Equivalences[0]
			is.Equal(eq.LegalIdentifier, "QCForESig")
			is.Equal(eq.Types, pilotMRA().Equivalences[0].Types)
			tt.check(is, eq)
			var contexts []string
			for _, c := range eq.Content {
				contexts = append(contexts, c.Context)
			}
			is.Equal(contexts, tt.contexts)

			var mraNotices []trustlist.Notice
			for _, n := range notices {
				t.Logf("%s %s: %s", n.Kind, n.Path, n.Detail)
				if n.Kind == trustlist.NoticeMRANotRepresented {
					mraNotices = append(mraNotices, n)
				}
			}
			is.Equal(len(mraNotices), 1)
			is.True(strings.Contains(mraNotices[0].Detail, tt.notice))
			is.True(strings.HasPrefix(mraNotices[0].Path, "SchemeInformation/PointersToOtherTSL/OtherTSLPointer[43]/AdditionalInformation/OtherInformation[5]/MutualRecognitionAgreementInformation/TrustServiceEquivalenceInformation[0]"))

			zz := parseCorpus(t, "dss/mra/mra-zz-tl.xml")
			trustlist.ApplyMRA(&zz, m)
			svc := zz.Providers[0].Services[0]
			if tt.mapped {
				is.Equal(svc.Type, trust.TypeCAQC)
				is.Equal(svc.Status, trust.StatusGranted)
			} else {
				is.Equal(svc.Type, trust.TypeOther)
				is.Equal(svc.TypeURI, zzCAQCForESig)
				is.Equal(svc.Equivalence, nil)
			}
		})
	}
}

// The synthetic agreement of TestApplyMRA: one third-country CA type,
// with an additional-information variant, mapped onto CA/QC.
const (
	tcCA      = "urn:tc:svc:CA"
	tcCAWith  = "urn:tc:svc:CA-with-asi"
	tcOther   = "urn:tc:svc:TSA"
	tcASI     = "urn:tc:asi:signatures"
	tcGranted = "urn:tc:status:granted"
	tcRevoked = "urn:tc:status:revoked"
	tcPaused  = "urn:tc:status:paused" // in no equivalence
	tcQSCD    = "urn:tc:q:QSCD"
	tcNoQSCD  = "urn:tc:q:NoQSCD"
)

var tcFrom = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// tcEquivalence is an enacted equivalence; mod changes it.
func tcEquivalence(mod func(*trust.ServiceEquivalence)) trust.ServiceEquivalence {
	eq := trust.ServiceEquivalence{
		LegalIdentifier: "QCForESig",
		Enacted:         true,
		From:            tcFrom,
		Types: []trust.TypeEquivalence{
			{Pointing: trust.ServiceTypeRef{TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}}, Pointed: trust.ServiceTypeRef{TypeURI: tcCA}},
			{Pointing: trust.ServiceTypeRef{TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}}, Pointed: trust.ServiceTypeRef{TypeURI: tcCAWith, AdditionalInfo: []string{tcASI}}},
		},
		ValidStatuses:   []trust.URIEquivalence{{Pointing: euGranted, Pointed: tcGranted}},
		InvalidStatuses: []trust.URIEquivalence{{Pointing: euWithdrawn, Pointed: tcRevoked}},
		Qualifiers: []trust.URIEquivalence{
			{Pointing: euQualifier + "QCWithQSCD", Pointed: tcQSCD},
			{Pointing: euQualifier + "QCNoQSCD", Pointed: tcNoQSCD},
		},
	}
	if mod != nil {
		mod(&eq)
	}
	return eq
}

// tcService is a granted third-country CA from 2021, with one qualifier.
func tcService(mod func(*trust.Service)) trust.Service {
	s := trust.Service{
		Type: trust.TypeOther, TypeURI: tcCA, Name: "TC CA",
		Status: trust.StatusOther, StatusURI: tcGranted, StatusStart: tcFrom.AddDate(1, 0, 0),
		Qualifications: []trust.Qualification{{Qualifiers: []string{tcQSCD}, Criteria: trust.Criteria{Assert: "all", PolicySets: [][]string{{"1.2.3"}}}, Critical: true}},
	}
	if mod != nil {
		mod(&s)
	}
	return s
}

// asEU is what the mapping makes of the type and status of tcService.
func asEU(s *trust.Service) {
	s.Type, s.TypeURI, s.AdditionalInfo = trust.TypeCAQC, euCAQC, []string{euForeSig}
	s.Status, s.StatusURI = trust.StatusGranted, euGranted
	s.Qualifications = []trust.Qualification{{Qualifiers: []string{euQualifier + "QCWithQSCD"}, Criteria: trust.Criteria{Assert: "all", PolicySets: [][]string{{"1.2.3"}}}, Critical: true}}
}

func TestApplyMRA(t *testing.T) {
	one := func(mod func(*trust.ServiceEquivalence)) *trust.MRA {
		return &trust.MRA{Equivalences: []trust.ServiceEquivalence{tcEquivalence(mod)}}
	}
	withdrawn := func(s *trust.Service) { s.Status, s.StatusURI = trust.StatusWithdrawn, euWithdrawn }
	tests := []struct {
		name string
		mra  *trust.MRA
		in   trust.Service
		// want is the service after ApplyMRA; its Equivalence, when
		// set, is the MRA's first equivalence (filled in below).
		want   trust.Service
		mapped bool
	}{
		{
			name: "enacted, granted after From: eIDAS CA/QC granted",
			mra:  one(nil), in: tcService(nil),
			want: tcService(asEU), mapped: true,
		},
		{
			name: "repealed: unchanged",
			mra:  one(func(e *trust.ServiceEquivalence) { e.Enacted = false }), in: tcService(nil),
			want: tcService(nil),
		},
		{
			name: "current status from before From: withdrawn until From, granted from then on",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.StatusStart = tcFrom.Add(-time.Second) }),
			want: tcService(func(s *trust.Service) {
				asEU(s)
				s.StatusStart = tcFrom
				s.History = []trust.StatusPeriod{{Type: s.Type, TypeURI: s.TypeURI, Status: trust.StatusWithdrawn, StatusURI: euWithdrawn,
					Start: tcFrom.Add(-time.Second), Qualifications: s.Qualifications, AdditionalInfo: s.AdditionalInfo}}
			}), mapped: true,
		},
		{
			name: "period starting at From: granted",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.StatusStart = tcFrom }),
			want: tcService(func(s *trust.Service) { asEU(s); s.StatusStart = tcFrom }), mapped: true,
		},
		{
			name: "current status from before From without invalid equivalence: StatusOther with the URI as read until From",
			mra:  one(func(e *trust.ServiceEquivalence) { e.InvalidStatuses = nil }),
			in:   tcService(func(s *trust.Service) { s.StatusStart = time.Time{} }),
			want: tcService(func(s *trust.Service) {
				asEU(s)
				s.StatusStart = tcFrom
				s.History = []trust.StatusPeriod{{Type: s.Type, TypeURI: s.TypeURI, Status: trust.StatusOther, StatusURI: tcGranted,
					Qualifications: s.Qualifications, AdditionalInfo: s.AdditionalInfo}}
			}), mapped: true,
		},
		{
			name: "withdrawn status mapping",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.StatusURI = tcRevoked }),
			want: tcService(func(s *trust.Service) { asEU(s); withdrawn(s) }), mapped: true,
		},
		{
			name: "status the equivalence does not map: withdrawn",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.StatusURI = tcPaused }),
			want: tcService(func(s *trust.Service) { asEU(s); withdrawn(s) }), mapped: true,
		},
		{
			name: "a pointed-party URI in the eIDAS vocabulary does not count unmapped",
			mra:  one(func(e *trust.ServiceEquivalence) { e.InvalidStatuses = nil }),
			in:   tcService(func(s *trust.Service) { s.StatusURI = euGranted; s.Status = trust.StatusGranted }),
			want: tcService(func(s *trust.Service) { asEU(s); s.Status = trust.StatusOther }), mapped: true,
		},
		{
			name: "qualifier URI mapping: mapped ones replaced, others kept",
			mra:  one(nil),
			in: tcService(func(s *trust.Service) {
				s.Qualifications = []trust.Qualification{
					{Qualifiers: []string{tcNoQSCD, "urn:tc:q:unknown"}},
					{Qualifiers: []string{euQualifier + "QCForLegalPerson", tcQSCD}},
				}
			}),
			want: tcService(func(s *trust.Service) {
				asEU(s)
				s.Qualifications = []trust.Qualification{
					{Qualifiers: []string{euQualifier + "QCNoQSCD", "urn:tc:q:unknown"}},
					{Qualifiers: []string{euQualifier + "QCForLegalPerson", euQualifier + "QCWithQSCD"}},
				}
			}), mapped: true,
		},
		{
			name: "service type without equivalence: unchanged",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.TypeURI = tcOther }),
			want: tcService(func(s *trust.Service) { s.TypeURI = tcOther }),
		},
		{
			name: "pointed additional information missing: unchanged",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.TypeURI = tcCAWith; s.AdditionalInfo = []string{"urn:tc:asi:seals"} }),
			want: tcService(func(s *trust.Service) { s.TypeURI = tcCAWith; s.AdditionalInfo = []string{"urn:tc:asi:seals"} }),
		},
		{
			name: "pointed additional information present: mapped, replaced by the pointing party's",
			mra:  one(nil), in: tcService(func(s *trust.Service) { s.TypeURI = tcCAWith; s.AdditionalInfo = []string{"urn:tc:asi:seals", tcASI} }),
			want: tcService(asEU), mapped: true,
		},
		{
			name: "two enacted equivalences match: unchanged, as EU DSS",
			mra: &trust.MRA{Equivalences: []trust.ServiceEquivalence{
				tcEquivalence(nil),
				tcEquivalence(func(e *trust.ServiceEquivalence) { e.LegalIdentifier = "QCForESeal" }),
			}},
			in: tcService(nil), want: tcService(nil),
		},
		{
			name: "a repealed equivalence beside an enacted one: the enacted one",
			mra: &trust.MRA{Equivalences: []trust.ServiceEquivalence{
				tcEquivalence(nil),
				tcEquivalence(func(e *trust.ServiceEquivalence) { e.LegalIdentifier = "QCForESeal"; e.Enacted = false }),
			}},
			in: tcService(nil), want: tcService(asEU), mapped: true,
		},
		{
			name: "history entries mapped on their own",
			mra:  one(nil),
			in: tcService(func(s *trust.Service) {
				s.History = []trust.StatusPeriod{
					{Type: trust.TypeOther, TypeURI: tcCA, Status: trust.StatusOther, StatusURI: tcGranted, Start: tcFrom.AddDate(0, 6, 0), Qualifications: []trust.Qualification{{Qualifiers: []string{tcNoQSCD}}}},
					{Type: trust.TypeOther, TypeURI: tcCA, Status: trust.StatusOther, StatusURI: tcGranted, Start: tcFrom.AddDate(-1, 0, 0)},
					{Type: trust.TypeOther, TypeURI: tcOther, Status: trust.StatusOther, StatusURI: tcGranted, Start: tcFrom.AddDate(-2, 0, 0)},
				}
			}),
			want: tcService(func(s *trust.Service) {
				asEU(s)
				s.History = []trust.StatusPeriod{
					{Type: trust.TypeCAQC, TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}, Status: trust.StatusGranted, StatusURI: euGranted, Start: tcFrom.AddDate(0, 6, 0),
						Qualifications: []trust.Qualification{{Qualifiers: []string{euQualifier + "QCNoQSCD"}}}},
					{Type: trust.TypeCAQC, TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}, Status: trust.StatusWithdrawn, StatusURI: euWithdrawn, Start: tcFrom.AddDate(-1, 0, 0)},
					{Type: trust.TypeOther, TypeURI: tcOther, Status: trust.StatusOther, StatusURI: tcGranted, Start: tcFrom.AddDate(-2, 0, 0)},
				}
			}), mapped: true,
		},
		{
			name: "only a history entry matches: its equivalence is the service's",
			mra:  one(nil),
			in: tcService(func(s *trust.Service) {
				s.TypeURI = tcOther
				s.History = []trust.StatusPeriod{{Type: trust.TypeOther, TypeURI: tcCA, Status: trust.StatusOther, StatusURI: tcGranted, Start: tcFrom}}
			}),
			want: tcService(func(s *trust.Service) {
				s.TypeURI = tcOther
				s.History = []trust.StatusPeriod{{Type: trust.TypeCAQC, TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}, Status: trust.StatusGranted, StatusURI: euGranted, Start: tcFrom}}
			}), mapped: true,
		},
		{
			name: "nil MRA: unchanged",
			in:   tcService(nil), want: tcService(nil),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			before := fmt.Sprintf("%v", tt.in)
			// As the doc asks of a caller keeping the list as read: the
			// service and history entries are copied, nothing below them.
			svc := tt.in
			svc.History = slices.Clone(tt.in.History)
			l := trust.List{Providers: []trust.Provider{{Name: "TC", Services: []trust.Service{svc}}}}
			trustlist.ApplyMRA(&l, tt.mra)
			want := tt.want
			if tt.mapped {
				want.Equivalence = &tt.mra.Equivalences[0]
			}
			got := l.Providers[0].Services[0]
			is.Equal(got, want)
			is.True(got.Equivalence == want.Equivalence) // points into the MRA
			// New slices, never the input's: the URIs and qualifiers the
			// copy shares are unchanged.
			is.Equal(fmt.Sprintf("%v", tt.in), before)
		})
	}
}

// mraDoc is a LOTL with one pointer whose second OtherInformation holds
// a MutualRecognitionAgreementInformation with the given content ("-"
// for none at all).
func mraDoc(content ...string) []byte {
	var other string
	for _, c := range content {
		if c == "-" {
			continue
		}
		other += `<OtherInformation><m:MutualRecognitionAgreementInformation version="1" technicalType="1">` + c + `</m:MutualRecognitionAgreementInformation></OtherInformation>`
	}
	return doc(`<SchemeInformation><PointersToOtherTSL><OtherTSLPointer><TSLLocation>https://tc.example/tl.xml</TSLLocation>` +
		`<AdditionalInformation xmlns:m="http://ec.europa.eu/tools/lotl/mra/schema/v2#" xmlns:s="http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/#" xmlns:x="http://uri.etsi.org/01903/v1.3.2#">` +
		`<OtherInformation><TSLType>urn:tc:list</TSLType></OtherInformation>` + other +
		`</AdditionalInformation></OtherTSLPointer></PointersToOtherTSL></SchemeInformation>`)
}

// mraParts are the elements of one TrustServiceEquivalenceInformation, in
// schema order, as XML; xml writes them in a legal identifier, leaving
// the starting time out when it is "-".
type mraParts struct {
	types, status, start, statuses, content, qualifiers, history string
}

func (p mraParts) xml() string {
	s := `<m:TrustServiceEquivalenceInformation><m:TrustServiceLegalIdentifier> QCForESig </m:TrustServiceLegalIdentifier>`
	s += p.types
	s += `<m:TrustServiceEquivalenceStatus>` + p.status + `</m:TrustServiceEquivalenceStatus>`
	if p.start != "-" {
		s += `<m:TrustServiceEquivalenceStatusStartingTime>` + p.start + `</m:TrustServiceEquivalenceStatusStartingTime>`
	}
	return s + p.statuses + p.content + p.qualifiers + p.history + `</m:TrustServiceEquivalenceInformation>`
}

func tslType(uri string, asi ...string) string {
	s := `<m:TrustServiceTSLType><ServiceTypeIdentifier>` + uri + `</ServiceTypeIdentifier>`
	for _, a := range asi {
		s += `<AdditionalServiceInformation><URI xml:lang="en">` + a + `</URI></AdditionalServiceInformation>`
	}
	return s + `</m:TrustServiceTSLType>`
}

func typeList(pointing, pointed []string) string {
	return `<m:TrustServiceTSLTypeEquivalenceList><m:TrustServiceTSLTypeListPointingParty>` + strings.Join(pointing, "") +
		`</m:TrustServiceTSLTypeListPointingParty><m:TrustServiceTSLTypeListPointedParty>` + strings.Join(pointed, "") +
		`</m:TrustServiceTSLTypeListPointedParty></m:TrustServiceTSLTypeEquivalenceList>`
}

// statusEq writes a Valid or Invalid status equivalence.
func statusEq(kind string, pointing, pointed []string) string {
	list := func(side string, ss []string) string {
		s := `<m:TrustServiceTSLStatusList` + side + `Party>`
		for _, v := range ss {
			s += `<ServiceStatus>` + v + `</ServiceStatus>`
		}
		return s + `</m:TrustServiceTSLStatusList` + side + `Party>`
	}
	return `<m:TrustServiceTSLStatus` + kind + `Equivalence>` + list("Pointing", pointing) + list("Pointed", pointed) + `</m:TrustServiceTSLStatus` + kind + `Equivalence>`
}

func statusList(eqs ...string) string {
	return `<m:TrustServiceTSLStatusEquivalenceList>` + strings.Join(eqs, "") + `</m:TrustServiceTSLStatusEquivalenceList>`
}

func contentEq(context, pointing, pointed string) string {
	return `<m:CertificateContentReferenceEquivalence><m:CertificateContentReferenceEquivalenceContext>` + context +
		`</m:CertificateContentReferenceEquivalenceContext>` +
		`<m:CertificateContentDeclarationPointingParty assert="all">` + pointing + `</m:CertificateContentDeclarationPointingParty>` +
		`<m:CertificateContentDeclarationPointedParty assert="atLeastOne">` + pointed + `</m:CertificateContentDeclarationPointedParty>` +
		`</m:CertificateContentReferenceEquivalence>`
}

func contentList(eqs ...string) string {
	return `<m:CertificateContentReferencesEquivalenceList>` + strings.Join(eqs, "") + `</m:CertificateContentReferencesEquivalenceList>`
}

func qualifierList(pairs ...string) string {
	s := `<m:TrustServiceTSLQualificationExtensionEquivalenceList><m:TrustServiceTSLQualificationExtensionName>` +
		`<m:TrustServiceTSLQualificationExtensionNamePointingParty>Sie:Q</m:TrustServiceTSLQualificationExtensionNamePointingParty>` +
		`<m:TrustServiceTSLQualificationExtensionNamePointedParty>Sie:Q</m:TrustServiceTSLQualificationExtensionNamePointedParty>` +
		`</m:TrustServiceTSLQualificationExtensionName><m:QualifierEquivalenceList>`
	for i := 0; i+1 < len(pairs); i += 2 {
		s += `<m:QualifierEquivalence><m:QualifierPointingParty uri="` + pairs[i] + `"/><m:QualifierPointedParty uri="` + pairs[i+1] + `"/></m:QualifierEquivalence>`
	}
	return s + `</m:QualifierEquivalenceList></m:TrustServiceTSLQualificationExtensionEquivalenceList>`
}

// mraQC writes a QcStatementSet otherCriteriaList for the declarations.
func mraQC(ids ...string) string {
	s := `<s:otherCriteriaList><m:QcStatementSet>`
	for _, id := range ids {
		s += `<m:QcStatement><m:QcStatementId><x:Identifier Qualifier="OIDAsURN">urn:oid:` + id + `</x:Identifier></m:QcStatementId></m:QcStatement>`
	}
	return s + `</m:QcStatementSet></s:otherCriteriaList>`
}

// partsDoc is mraDoc of completeParts changed by mod.
func partsDoc(mod func(*mraParts)) []byte {
	p := completeParts()
	mod(&p)
	return mraDoc(p.xml())
}

// completeParts is a well-formed enacted equivalence.
func completeParts() mraParts {
	return mraParts{
		types:  typeList([]string{tslType(euCAQC, euForeSig)}, []string{tslType(tcCA), tslType(tcCAWith, tcASI)}),
		status: " http://ec.europa.eu/tools/lotl/mra/enacted ",
		start:  "2020-01-01T01:00:00+01:00",
		statuses: statusList(
			statusEq("Valid", []string{euGranted}, []string{tcGranted, " urn:tc:status:active "}),
			statusEq("Invalid", []string{euWithdrawn}, []string{tcRevoked})),
		content: contentList(
			contentEq(trust.ContextQcCompliance, mraQC(oidQcCompliance), `<s:CriteriaList assert="all">`+mraQC(oidQcCompliance, oidQcCClegislation)+`</s:CriteriaList>`),
			contentEq(trust.ContextQcQSCD, mraQC(oidQcSSCD), mraQC(oidQcSSCD))),
		qualifiers: qualifierList(euQualifier+"QCWithQSCD", tcQSCD),
	}
}

// completeEquivalence is completeParts as the domain holds it.
func completeEquivalence() trust.ServiceEquivalence {
	eu := trust.ServiceTypeRef{TypeURI: euCAQC, AdditionalInfo: []string{euForeSig}}
	return trust.ServiceEquivalence{
		LegalIdentifier: "QCForESig",
		Enacted:         true,
		From:            tcFrom,
		Types: []trust.TypeEquivalence{
			{Pointing: eu, Pointed: trust.ServiceTypeRef{TypeURI: tcCA}},
			{Pointing: eu, Pointed: trust.ServiceTypeRef{TypeURI: tcCAWith, AdditionalInfo: []string{tcASI}}},
		},
		ValidStatuses:   []trust.URIEquivalence{{Pointing: euGranted, Pointed: tcGranted}, {Pointing: euGranted, Pointed: "urn:tc:status:active"}},
		InvalidStatuses: []trust.URIEquivalence{{Pointing: euWithdrawn, Pointed: tcRevoked}},
		Qualifiers:      []trust.URIEquivalence{{Pointing: euQualifier + "QCWithQSCD", Pointed: tcQSCD}},
		Content: []trust.ContentEquivalence{
			{
				Context:  trust.ContextQcCompliance,
				Pointing: qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcCompliance})),
				Pointed: trust.Criteria{Assert: "atLeastOne", Nested: []trust.Criteria{qcCrit("all", stmts(
					trust.QcStatementCriterion{ID: oidQcCompliance}, trust.QcStatementCriterion{ID: oidQcCClegislation}))}},
			},
			{
				Context:  trust.ContextQcQSCD,
				Pointing: qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcSSCD})),
				Pointed:  qcCrit("atLeastOne", stmts(trust.QcStatementCriterion{ID: oidQcSSCD})),
			},
		},
	}
}

// TestParseMRA reads synthetic agreements: a complete one exactly, and
// each flaw as a notice without failing the list.
func TestParseMRA(t *testing.T) {
	type notice struct {
		kind   trustlist.NoticeKind
		path   string // after the TrustServiceEquivalenceInformation[0] path
		detail string // contained in the notice's detail
	}
	const mraNotice = trustlist.NoticeMRANotRepresented
	tests := []struct {
		name    string
		data    []byte
		want    *trust.MRA // the pointer's
		mod     func(*trust.ServiceEquivalence)
		notices []notice
	}{
		{name: "no agreement", data: mraDoc("-")},
		{name: "empty agreement", data: mraDoc(""), want: &trust.MRA{}},
		{name: "complete", data: mraDoc(completeParts().xml())},
		{
			name: "repealed",
			data: partsDoc(func(p *mraParts) {
				p.status = "http://ec.europa.eu/tools/lotl/mra/repealed"
			}),
			mod: func(e *trust.ServiceEquivalence) { e.Enacted = false },
		},
		{
			name: "unknown status: not enacted",
			data: partsDoc(func(p *mraParts) {
				p.status = "http://ec.europa.eu/tools/lotl/mra/Enacted"
			}),
			mod:     func(e *trust.ServiceEquivalence) { e.Enacted = false },
			notices: []notice{{mraNotice, "", `TrustServiceEquivalenceStatus "http://ec.europa.eu/tools/lotl/mra/Enacted" is neither enacted nor repealed`}},
		},
		{
			name:    "malformed starting time: not enacted",
			data:    partsDoc(func(p *mraParts) { p.start = "16.05.2020" }),
			mod:     func(e *trust.ServiceEquivalence) { e.Enacted, e.From = false, time.Time{} },
			notices: []notice{{mraNotice, "", `malformed xsd:dateTime "16.05.2020": not enacted`}},
		},
		{
			name:    "no starting time: not enacted",
			data:    partsDoc(func(p *mraParts) { p.start = "-" }),
			mod:     func(e *trust.ServiceEquivalence) { e.Enacted, e.From = false, time.Time{} },
			notices: []notice{{mraNotice, "", "no TrustServiceEquivalenceStatusStartingTime"}},
		},
		{
			name: "history: dropped",
			data: partsDoc(func(p *mraParts) {
				p.history = `<m:TrustServiceEquivalenceHistory><m:TrustServiceEquivalenceHistoryInstance>` + completeParts().types +
					`</m:TrustServiceEquivalenceHistoryInstance></m:TrustServiceEquivalenceHistory>`
			}),
			notices: []notice{{mraNotice, "", "1 TrustServiceEquivalenceHistory dropped"}},
		},
		{
			name: "two pointing types: the first",
			data: partsDoc(func(p *mraParts) {
				p.types = typeList([]string{tslType(euCAQC, euForeSig), tslType(euCAQC)}, []string{tslType(tcCA), tslType(tcCAWith, tcASI)})
			}),
			notices: []notice{{mraNotice, "", "2 pointing-party service types: every pointed type maps to the first"}},
		},
		{
			name: "no pointing type: no type equivalence",
			data: partsDoc(func(p *mraParts) {
				p.types = typeList([]string{tslType("  ")}, []string{tslType(tcCA)})
			}),
			mod: func(e *trust.ServiceEquivalence) { e.Types = nil },
			notices: []notice{
				{mraNotice, "", "a TrustServiceTSLType without ServiceTypeIdentifier: dropped"},
				{mraNotice, "", "no pointing-party service type"},
			},
		},
		{
			name:    "no type list at all",
			data:    partsDoc(func(p *mraParts) { p.types = "" }),
			mod:     func(e *trust.ServiceEquivalence) { e.Types = nil },
			notices: []notice{{mraNotice, "", "no pointed-party service type"}},
		},
		{
			name: "one-sided and ambiguous status equivalences",
			data: partsDoc(func(p *mraParts) {
				p.statuses = statusList(
					statusEq("Valid", []string{euGranted, "urn:eu:other"}, []string{tcGranted}),
					statusEq("Valid", nil, []string{"urn:tc:status:active"}),
					statusEq("Invalid", []string{euWithdrawn}, nil))
			}),
			mod: func(e *trust.ServiceEquivalence) {
				e.ValidStatuses = []trust.URIEquivalence{{Pointing: euGranted, Pointed: tcGranted}}
				e.InvalidStatuses = nil
			},
			notices: []notice{
				{mraNotice, "", "a valid status equivalence with 2 pointing-party statuses: the first is used"},
				{mraNotice, "", "a valid status equivalence without a pointing-party status: dropped"},
				{mraNotice, "", "an invalid status equivalence without a pointed-party status: dropped"},
			},
		},
		{
			name: "one-sided qualifier equivalence",
			data: partsDoc(func(p *mraParts) {
				p.qualifiers = qualifierList(euQualifier+"QCWithQSCD", tcQSCD, euQualifier+"QCNoQSCD", "")
			}),
			notices: []notice{{mraNotice, "", "a QualifierEquivalence without both qualifier URIs: dropped"}},
		},
		{
			name: "unknown and repeated contexts: kept",
			data: partsDoc(func(p *mraParts) {
				p.content = contentList(
					contentEq("urn:tc:context", mraQC(oidQcType), ps("1.2.3")),
					contentEq("urn:tc:context", mraQC(oidQcType), ps("1.2.3")))
			}),
			mod: func(e *trust.ServiceEquivalence) {
				c := trust.ContentEquivalence{
					Context:  "urn:tc:context",
					Pointing: qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcType})),
					Pointed:  trust.Criteria{Assert: "atLeastOne", PolicySets: [][]string{{"1.2.3"}}},
				}
				e.Content = []trust.ContentEquivalence{c, c}
			},
			notices: []notice{
				{mraNotice, "/CertificateContentReferencesEquivalenceList/CertificateContentReferenceEquivalence[0]", `context "urn:tc:context" is not QcCompliance`},
				{mraNotice, "/CertificateContentReferencesEquivalenceList/CertificateContentReferenceEquivalence[1]", `context "urn:tc:context" is not QcCompliance`},
				{mraNotice, "/CertificateContentReferencesEquivalenceList/CertificateContentReferenceEquivalence[1]", "given more than once"},
			},
		},
		{
			name: "declaration criteria the tree cannot hold",
			data: partsDoc(func(p *mraParts) {
				p.content = contentList(contentEq(trust.ContextQcQSCD, mraQC(oidQcSSCD), `<s:otherCriteriaList><y:Gadget xmlns:y="urn:y"/></s:otherCriteriaList>`))
			}),
			mod: func(e *trust.ServiceEquivalence) {
				e.Content = []trust.ContentEquivalence{{
					Context:  trust.ContextQcQSCD,
					Pointing: qcCrit("all", stmts(trust.QcStatementCriterion{ID: oidQcSSCD})),
					Pointed:  trust.Criteria{Assert: "atLeastOne", Unknown: []string{"Gadget"}},
				}}
			},
			notices: []notice{{trustlist.NoticeCriteriaNotRepresented, "/CertificateContentReferencesEquivalenceList/CertificateContentReferenceEquivalence[0]", "otherCriteriaList {urn:y}Gadget"}},
		},
		{
			name:    "a second agreement on the pointer: the first",
			data:    mraDoc(completeParts().xml(), ""),
			notices: []notice{{mraNotice, "-", "a second MutualRecognitionAgreementInformation: the first is kept"}},
		},
	}
	const pointer = "SchemeInformation/PointersToOtherTSL/OtherTSLPointer[0]/AdditionalInformation/"
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			l, notices, err := trustlist.ParseWithNotices(tt.data)
			is.NoErr(err) // an agreement never fails the list
			is.Equal(len(l.Pointers), 1)
			p := l.Pointers[0]
			is.Equal(p.TypeURI, "urn:tc:list")
			want := tt.want
			if want == nil && strings.Contains(string(tt.data), "TrustServiceEquivalenceInformation") {
				eq := completeEquivalence()
				if tt.mod != nil {
					tt.mod(&eq)
				}
				want = &trust.MRA{Equivalences: []trust.ServiceEquivalence{eq}}
			}
			is.Equal(p.MRA, want)

			is.Equal(len(notices), len(tt.notices))
			for i, n := range notices {
				t.Logf("%s %s: %s", n.Kind, n.Path, n.Detail)
				if i >= len(tt.notices) {
					continue
				}
				w := tt.notices[i]
				is.Equal(n.Kind, w.kind)
				wantPath := pointer + "OtherInformation[1]/MutualRecognitionAgreementInformation/TrustServiceEquivalenceInformation[0]" + w.path
				if w.path == "-" {
					wantPath = pointer + "OtherInformation[2]/MutualRecognitionAgreementInformation"
				}
				is.Equal(n.Path, wantPath)
				is.True(strings.Contains(n.Detail, w.detail))
			}
		})
	}
	is.New(t).Equal(trustlist.NoticeMRANotRepresented.String(), "mra-not-represented")
}

// TestMRAUnchangedForMembers: applying an agreement to a list whose
// services are in no equivalence changes nothing, so a member-state list
// passed by mistake stays as read.
func TestMRAUnchangedForMembers(t *testing.T) {
	is := is.New(t)
	l := parseCorpus(t, "dss/mra/mra-zz-tl.xml")
	m := pilotMRA()
	be := parseCorpus(t, "pyhanko/tl/tsl-be-v6.xml")
	want := parseCorpus(t, "pyhanko/tl/tsl-be-v6.xml")
	trustlist.ApplyMRA(&be, &m)
	is.Equal(be, want)
	trustlist.ApplyMRA(&l, nil)
	is.Equal(l, parseCorpus(t, "dss/mra/mra-zz-tl.xml"))
}
