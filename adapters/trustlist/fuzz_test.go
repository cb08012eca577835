package trustlist_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

// FuzzParse: Parse never panics, every error is an ErrUnparseable, and a
// successful parse gives a list whose enums are all set. Work is bounded by
// limits.go (TestParseLimits); the fuzzer's inputs stay far below them.
func FuzzParse(f *testing.F) {
	// Seeds stay small: the fuzzer minimises every new input it keeps, and
	// minimising a 10 kB list eats the whole fuzzing time.
	// The two tiny real lists when the corpus is there; large seeds only
	// slow the mutator down.
	for _, rel := range []string{"dss/tl/tl-empty.xml", "dss/tl/tl-empty-with-identifier.xml"} {
		if b, err := os.ReadFile(filepath.Join(corpusTrust, rel)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(""))
	f.Add(doc(`<SchemeInformation><TSLVersionIdentifier>6</TSLVersionIdentifier><TSLType>http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists</TSLType>` +
		`<SchemeOperatorName><Name xml:lang="en">EC</Name></SchemeOperatorName><SchemeInformationURI><URI xml:lang="en">https://x/p-1.xml</URI></SchemeInformationURI>` +
		`<PointersToOtherTSL><OtherTSLPointer><ServiceDigitalIdentities><ServiceDigitalIdentity><DigitalId><X509Certificate>MAMCAQE=</X509Certificate></DigitalId></ServiceDigitalIdentity></ServiceDigitalIdentities>` +
		`<TSLLocation>https://x/tl.xml</TSLLocation><AdditionalInformation><OtherInformation><a:MimeType xmlns:a="http://uri.etsi.org/02231/v2/additionaltypes#">application/pdf</a:MimeType></OtherInformation></AdditionalInformation></OtherTSLPointer></PointersToOtherTSL>` +
		`<ListIssueDateTime>2026-01-01T00:00:00Z</ListIssueDateTime><NextUpdate/><SchemeExtensions><Extension Critical="true"><u/></Extension></SchemeExtensions></SchemeInformation>`))
	f.Add(doc(""))
	f.Add(qualDoc(cl("none", cl("atLeastOne", ps("urn:oid:1.2.3")), ku("nonRepudiation", "false")))) // nested criteria
	f.Add(qualDoc(cl("all", other(subjectDN("2.5.4.10"), eku("1.3.6.1.5.5.7.3.1"),
		qcSet(qc("0.4.0.1862.1.6", "<m:QcType><x:Identifier>0.4.0.1862.1.6.1</x:Identifier></m:QcType>")), "<u/>")))) // otherCriteriaList
	f.Add(mraDoc(mraParts{ // an MRA pointer
		types:    typeList([]string{tslType(euCAQC, euForeSig)}, []string{tslType(tcCA)}),
		status:   "http://ec.europa.eu/tools/lotl/mra/enacted",
		start:    "2020-01-01T00:00:00Z",
		statuses: statusList(statusEq("Valid", []string{euGranted}, []string{tcGranted})),
		content:  contentList(contentEq(trust.ContextQcQSCD, mraQC(oidQcSSCD), mraQC(oidQcSSCD))),
	}.xml()))
	f.Add(service("<ServiceDigitalIdentity><DigitalId><X509Certificate>MAMC AQE=</X509Certificate></DigitalId></ServiceDigitalIdentity><StatusStartingTime>2020-01-01T00:00:00+01:00</StatusStartingTime>",
		"<ServiceHistory><ServiceHistoryInstance><ServiceStatus>http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted</ServiceStatus></ServiceHistoryInstance></ServiceHistory>"))

	f.Fuzz(func(t *testing.T, data []byte) {
		l, notices, err := trustlist.ParseWithNotices(data)
		if err != nil {
			if !errors.Is(err, trustlist.ErrUnparseable) {
				t.Fatalf("error does not wrap ErrUnparseable: %v", err)
			}
			if notices != nil || !reflect.DeepEqual(l, trust.List{}) {
				t.Fatalf("error with a non-zero result: %v", err)
			}
			return
		}
		if l.Kind != trust.LOTL && l.Kind != trust.TL {
			t.Fatalf("kind %d", l.Kind)
		}
		enumsSet := func(l trust.List) {
			for _, p := range l.Providers {
				for _, s := range p.Services {
					if s.Type == 0 || s.Status == 0 {
						t.Fatalf("unset enum for %q / %q", s.TypeURI, s.StatusURI)
					}
					for _, h := range s.History {
						if h.Type == 0 || h.Status == 0 {
							t.Fatalf("unset enum in history for %q / %q", h.TypeURI, h.StatusURI)
						}
					}
				}
			}
		}
		enumsSet(l)
		for _, n := range notices {
			if n.Kind.String() == "" || n.Path == "" {
				t.Fatalf("incomplete notice %+v", n)
			}
		}
		again, _, err := trustlist.ParseWithNotices(data)
		if err != nil || !reflect.DeepEqual(l, again) {
			t.Fatalf("second parse differs: %v", err)
		}
		// An agreement applied to any list, even its own, keeps every
		// enum set.
		for _, p := range again.Pointers {
			trustlist.ApplyMRA(&again, p.MRA)
		}
		enumsSet(again)
	})
}
