package trustlist_test

import (
	"bufio"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

const decisionDoc = "../../docs/decisions/0011-trusted-list-vocabulary.md"

var typeNames = map[string]trust.ServiceType{
	"TypeOther": trust.TypeOther, "TypeCAQC": trust.TypeCAQC, "TypeCAPKC": trust.TypeCAPKC,
	"TypeQTST": trust.TypeQTST, "TypeTSA": trust.TypeTSA, "TypeOCSPQC": trust.TypeOCSPQC,
	"TypeOCSP": trust.TypeOCSP, "TypeCRLQC": trust.TypeCRLQC, "TypeCRL": trust.TypeCRL,
	"TypeNationalRootCAQC": trust.TypeNationalRootCAQC, "TypeQESValidationQ": trust.TypeQESValidationQ,
	"TypeTSATSSQC": trust.TypeTSATSSQC, "TypeTSATSSAdESQCAndQES": trust.TypeTSATSSAdESQCAndQES,
	"TypeEDSQ": trust.TypeEDSQ, "TypeEDSREMQ": trust.TypeEDSREMQ, "TypeACA": trust.TypeACA, "TypeRA": trust.TypeRA,
}

var statusNames = map[string]trust.Status{
	"StatusOther": trust.StatusOther, "StatusGranted": trust.StatusGranted, "StatusWithdrawn": trust.StatusWithdrawn,
	"StatusRecognisedAtNational": trust.StatusRecognisedAtNational, "StatusDeprecatedAtNational": trust.StatusDeprecatedAtNational,
	"StatusAccredited": trust.StatusAccredited, "StatusAccreditationCeased": trust.StatusAccreditationCeased,
	"StatusAccreditationRevoked": trust.StatusAccreditationRevoked, "StatusUnderSupervision": trust.StatusUnderSupervision,
	"StatusSupervisionInCessation": trust.StatusSupervisionInCessation, "StatusSupervisionCeased": trust.StatusSupervisionCeased,
	"StatusSupervisionRevoked": trust.StatusSupervisionRevoked, "StatusSetByNationalLaw": trust.StatusSetByNationalLaw,
	"StatusDeprecatedByNationalLaw": trust.StatusDeprecatedByNationalLaw,
}

func TestServiceTypeOf(t *testing.T) {
	tests := []struct {
		uri  string
		want trust.ServiceType
	}{
		{"http://uri.etsi.org/TrstSvc/Svctype/CA/QC", trust.TypeCAQC},
		{"  http://uri.etsi.org/TrstSvc/Svctype/CA/QC\n", trust.TypeCAQC}, // white space in the element
		{"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/CA/QC", trust.TypeCAQC},
		{"http://uri.etsi.org/TrstSvc/Svctype/TSA/QTST", trust.TypeQTST},
		{"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/TSA/QTST", trust.TypeQTST},
		{"http://uri.etsi.org/TrstSvc/Svctype/RA/nothavingPKIid", trust.TypeRA},
		// No guessing from prefixes, suffixes, scheme or case:
		{"http://uri.etsi.org/TrstSvc/Svctype/CA/QC/", trust.TypeOther},
		{"https://uri.etsi.org/TrstSvc/Svctype/CA/QC", trust.TypeOther},
		{"http://uri.tsl-switzerland.ch/TrstSvc/Svctype/CA/QC", trust.TypeOther},
		{"http://uri.etsi.org/TrstSvc/Svctype/ca/qc", trust.TypeOther},
		{"http://zz-trusted-list.go.zz/TrstSvc/Svctype/CA/QC/for-eSig", trust.TypeOther},
		{"http://uri.etsi.org/TrstSvc/Svctype/PSES/Q", trust.TypeOther},
		{"", trust.TypeOther},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			is.New(t).Equal(trustlist.ServiceTypeOf(tt.uri), tt.want)
		})
	}
}

func TestStatusOf(t *testing.T) {
	tests := []struct {
		uri  string
		want trust.Status
	}{
		{"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted", trust.StatusGranted},
		{"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/granted", trust.StatusGranted},
		{"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn", trust.StatusWithdrawn},
		{"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/undersupervision", trust.StatusUnderSupervision},
		{"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/undersupervision", trust.StatusUnderSupervision},
		{"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/accreditationceased", trust.StatusAccreditationCeased},
		{"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/deprecatedbynationallaw", trust.StatusDeprecatedByNationalLaw},
		{"http://uri.etsi.org/TrstSvc/Svcstatus/inaccord", trust.StatusOther},
		{"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/Granted", trust.StatusOther},
		{"No acredited", trust.StatusOther},
		{"", trust.StatusOther},
	}
	for _, tt := range tests {
		t.Run(tt.uri, func(t *testing.T) {
			is.New(t).Equal(trustlist.StatusOf(tt.uri), tt.want)
		})
	}
}

var docRow = regexp.MustCompile("^\\| `([^`]+)` \\| `([A-Za-z]+)` \\|")

// TestVocabularyDocMatchesTable: the decision document is the table's
// documentation, so every row must map as it says and every table entry
// must have a row.
func TestVocabularyDocMatchesTable(t *testing.T) {
	is := is.New(t)
	f, err := os.Open(decisionDoc)
	if err != nil {
		t.Skipf("decision document not found at %s: %v", decisionDoc, err)
	}
	defer f.Close()
	documented := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := docRow.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		uri, name := m[1], m[2]
		documented[uri] = true
		switch {
		case strings.HasPrefix(name, "Type"):
			want, ok := typeNames[name]
			is.True(ok) // the document names a real ServiceType
			if trustlist.ServiceTypeOf(uri) != want {
				t.Errorf("document maps %s to %s, code to %v", uri, name, trustlist.ServiceTypeOf(uri))
			}
		case strings.HasPrefix(name, "Status"):
			want, ok := statusNames[name]
			is.True(ok) // the document names a real Status
			if trustlist.StatusOf(uri) != want {
				t.Errorf("document maps %s to %s, code to %v", uri, name, trustlist.StatusOf(uri))
			}
		default:
			t.Errorf("row %q: enum %q is neither a type nor a status", uri, name)
		}
	}
	is.NoErr(sc.Err())
	for uri := range trustlist.ServiceTypeTable {
		if !documented[uri] {
			t.Errorf("service type %s is in vocabulary.go but not in %s", uri, decisionDoc)
		}
	}
	for uri := range trustlist.StatusTable {
		if !documented[uri] {
			t.Errorf("status %s is in vocabulary.go but not in %s", uri, decisionDoc)
		}
	}
}

// TestCorpusVocabulary: every ETSI-namespace URI in the corpus is either
// mapped or listed in the decision document as deliberately Other, so no
// ETSI URI falls through the tables unnoticed. It also logs the notices
// Parse raises over the corpus.
func TestCorpusVocabulary(t *testing.T) {
	is := is.New(t)
	rows := readTSV(t)
	doc, err := os.ReadFile(decisionDoc)
	is.NoErr(err)
	otherTypes, otherStatuses := map[string]int{}, map[string]int{}
	notices := map[trustlist.NoticeKind]int{}
	details := map[string]int{}
	for _, row := range rows {
		if row.parse != "OK" {
			continue
		}
		l, ns, err := trustlist.ParseWithNotices(readCorpus(t, row.path))
		is.NoErr(err)
		for _, n := range ns {
			notices[n.Kind]++
			for _, d := range strings.Split(n.Detail, "; ") {
				details[n.Kind.String()+": "+d]++
			}
		}
		for _, p := range l.Providers {
			for _, s := range p.Services {
				if s.Type == trust.TypeOther {
					otherTypes[s.TypeURI]++
				}
				if s.Status == trust.StatusOther {
					otherStatuses[s.StatusURI]++
				}
				for _, h := range s.History {
					if h.Type == trust.TypeOther {
						otherTypes[h.TypeURI]++
					}
					if h.Status == trust.StatusOther {
						otherStatuses[h.StatusURI]++
					}
				}
			}
		}
	}
	for _, m := range []map[string]int{otherTypes, otherStatuses} {
		for uri, n := range m {
			t.Logf("Other: %5d × %q", n, uri)
			if strings.HasPrefix(uri, "http://uri.etsi.org/") || strings.HasPrefix(uri, "https://uri.tsl-switzerland.ch/") {
				if !strings.Contains(string(doc), "`"+uri+"`") {
					t.Errorf("%s maps to Other but the decision document does not list it", uri)
				}
			}
		}
	}
	t.Logf("notices: %d unknown critical extension(s), %d qualification(s) not represented exactly",
		notices[trustlist.NoticeUnknownCriticalExtension], notices[trustlist.NoticeCriteriaNotRepresented])
	// trust.Criteria holds every criterion the corpus uses (KeyUsageBit
	// false, nested lists, multi-OID policy sets, CertSubjectDNAttribute,
	// ExtendedKeyUsage); the flat Qualification it replaced lost something
	// in 1039 qualifications.
	is.Equal(notices[trustlist.NoticeCriteriaNotRepresented], 0)
	keys := make([]string, 0, len(details))
	for d := range details {
		keys = append(keys, d)
	}
	sort.Strings(keys)
	for _, d := range keys {
		t.Logf("  %5d × %s", details[d], d)
	}
}
