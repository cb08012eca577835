package trustlist_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

const ns = `xmlns="http://uri.etsi.org/02231/v2#"`

// doc wraps body in a TrustServiceStatusList root.
func doc(body string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?><TrustServiceStatusList ` + ns + `>` + body + `</TrustServiceStatusList>`)
}

// service wraps ServiceInformation content in one provider and service.
func service(info, history string) []byte {
	return doc(`<TrustServiceProviderList><TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="en">P</Name></TSPName></TSPInformation><TSPServices><TSPService><ServiceInformation>` +
		info + `</ServiceInformation>` + history + `</TSPService></TSPServices></TrustServiceProvider></TrustServiceProviderList>`)
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		name     string
		data     []byte
		notTSL   bool   // wraps ErrNotTrustedList
		path     string // ParseError.Path, when the failure is in a value
		contains string
	}{
		{name: "empty", data: nil, contains: "no root element"},
		{name: "white space", data: []byte(" \n\t"), contains: "no root element"},
		{name: "not XML", data: []byte("%PDF-1.7"), contains: "text before the root"},
		{name: "truncated", data: doc("<SchemeInformation><TSLSequenceNumber>1")[:80], contains: "unexpected EOF"},
		{name: "mismatched tags", data: doc("<SchemeInformation></SchemeTerritory>"), contains: "closed by"},
		{name: "undeclared entity", data: doc("<SchemeInformation><SchemeTerritory>&nbsp;</SchemeTerritory></SchemeInformation>"), contains: "entity"},
		{name: "non-UTF-8 declaration", data: []byte(`<?xml version="1.0" encoding="ISO-8859-1"?><TrustServiceStatusList ` + ns + `/>`), contains: "ISO-8859-1"},
		{name: "root without namespace", data: []byte(`<TrustServiceStatusList/>`), notTSL: true},
		{name: "root in another namespace", data: []byte(`<TrustServiceStatusList xmlns="urn:other"/>`), notTSL: true},
		{name: "another document", data: []byte(`<html><body>502 Bad Gateway</body></html>`), notTSL: true},
		{name: "signature only", data: []byte(`<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>`), notTSL: true},
		{name: "second root", data: append(doc(""), "<TrustServiceStatusList/>"...), contains: "content after the root"},
		{name: "text after root", data: append(doc(""), "garbage"...), contains: "text after the root"},
		{name: "bad version", data: doc("<SchemeInformation><TSLVersionIdentifier>five</TSLVersionIdentifier></SchemeInformation>"),
			path: "SchemeInformation/TSLVersionIdentifier"},
		{name: "bad sequence", data: doc("<SchemeInformation><TSLSequenceNumber>1e3</TSLSequenceNumber></SchemeInformation>"),
			path: "SchemeInformation/TSLSequenceNumber"},
		{name: "bad issue date", data: doc("<SchemeInformation><ListIssueDateTime>04.09.2019</ListIssueDateTime></SchemeInformation>"),
			path: "SchemeInformation/ListIssueDateTime"},
		{name: "bad next update", data: doc("<SchemeInformation><NextUpdate><dateTime>soon</dateTime></NextUpdate></SchemeInformation>"),
			path: "SchemeInformation/NextUpdate/dateTime"},
		{name: "bad pointer certificate", data: doc("<SchemeInformation><PointersToOtherTSL><OtherTSLPointer><ServiceDigitalIdentities><ServiceDigitalIdentity><DigitalId><X509Certificate>@@@</X509Certificate></DigitalId></ServiceDigitalIdentity></ServiceDigitalIdentities></OtherTSLPointer></PointersToOtherTSL></SchemeInformation>"),
			path: "SchemeInformation/PointersToOtherTSL/OtherTSLPointer[0]/ServiceDigitalIdentities/ServiceDigitalIdentity[0]/DigitalId[0]/X509Certificate"},
		{name: "bad service certificate", data: service("<ServiceDigitalIdentity><DigitalId><X509SubjectName>CN=x</X509SubjectName></DigitalId><DigitalId><X509Certificate>MIIB!</X509Certificate></DigitalId></ServiceDigitalIdentity>", ""),
			path: "TrustServiceProvider[0]/TSPService[0]/ServiceInformation/ServiceDigitalIdentity/DigitalId[1]/X509Certificate"},
		{name: "bad SKI", data: service("<ServiceDigitalIdentity><DigitalId><X509SKI>not base64</X509SKI></DigitalId></ServiceDigitalIdentity>", ""),
			path: "TrustServiceProvider[0]/TSPService[0]/ServiceInformation/ServiceDigitalIdentity/DigitalId[0]/X509SKI"},
		{name: "bad status start", data: service("<StatusStartingTime>yesterday</StatusStartingTime>", ""),
			path: "TrustServiceProvider[0]/TSPService[0]/ServiceInformation/StatusStartingTime"},
		{name: "bad history start", data: service("", "<ServiceHistory><ServiceHistoryInstance/><ServiceHistoryInstance><StatusStartingTime>2019-02-30T00:00:00Z</StatusStartingTime></ServiceHistoryInstance></ServiceHistory>"),
			path: "TrustServiceProvider[0]/TSPService[0]/ServiceHistoryInstance[1]/StatusStartingTime"},
		{name: "bad expired-certs date", data: service(`<ServiceInformationExtensions><Extension Critical="false"><ExpiredCertsRevocationInfo>x</ExpiredCertsRevocationInfo></Extension></ServiceInformationExtensions>`, ""),
			path: "TrustServiceProvider[0]/TSPService[0]/ServiceInformation/ServiceInformationExtensions/Extension[0]/ExpiredCertsRevocationInfo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			l, notices, err := trustlist.ParseWithNotices(tt.data)
			is.True(err != nil)                               // refused
			is.True(errors.Is(err, trustlist.ErrUnparseable)) // as a parse failure
			is.True(!errors.Is(err, trustlist.ErrLimit))
			is.Equal(errors.Is(err, trustlist.ErrNotTrustedList), tt.notTSL)
			is.Equal(l.Kind, trust.Kind(0)) // zero list on error
			is.Equal(notices, nil)
			var pe *trustlist.ParseError
			is.True(errors.As(err, &pe))
			is.Equal(pe.Path, tt.path)
			if tt.contains != "" && !strings.Contains(err.Error(), tt.contains) {
				t.Errorf("error %q does not mention %q", err, tt.contains)
			}
			t.Log(err)
		})
	}
}

func repeat(s string, n int) string { return strings.Repeat(s, n) }

func TestParseLimits(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		what string
	}{
		{"input size", make([]byte, trustlist.MaxInputBytes+1), "input size"},
		{"depth", doc(repeat("<a>", trustlist.MaxDepth) + repeat("</a>", trustlist.MaxDepth)), "depth"},
		{"elements", doc(repeat("<a/>", trustlist.MaxElements)), "elements"},
		{"attributes", doc(repeat(`<a b=""/>`, trustlist.MaxAttributes)), "attributes"},
		{"text bytes", doc("<a>" + repeat("x", trustlist.MaxTextBytes) + "</a>"), "text bytes"},
		{"text bytes in attribute values", doc(`<a b="` + repeat("x", trustlist.MaxTextBytes) + `"/>`), "text bytes"},
		{"pointers", doc("<SchemeInformation><PointersToOtherTSL>" + repeat("<OtherTSLPointer/>", trustlist.MaxPointers+1) + "</PointersToOtherTSL></SchemeInformation>"), "OtherTSLPointer"},
		{"providers", doc("<TrustServiceProviderList>" + repeat("<TrustServiceProvider/>", trustlist.MaxProviders+1) + "</TrustServiceProviderList>"), "TrustServiceProvider"},
		{"services", doc("<TrustServiceProviderList><TrustServiceProvider><TSPServices>" + repeat("<TSPService/>", trustlist.MaxServices+1) + "</TSPServices></TrustServiceProvider></TrustServiceProviderList>"), "TSPService"},
		{"history", doc("<TrustServiceProviderList><TrustServiceProvider><TSPServices><TSPService><ServiceHistory>" + repeat("<ServiceHistoryInstance/>", trustlist.MaxHistoryEntries+1) + "</ServiceHistory></TSPService></TSPServices></TrustServiceProvider></TrustServiceProviderList>"), "ServiceHistoryInstance"},
		{"MRA equivalences", mraDoc(repeat("<m:TrustServiceEquivalenceInformation/>", trustlist.MaxEquivalences+1)), "TrustServiceEquivalenceInformation"},
		{"MRA service types", mraDoc("<m:TrustServiceEquivalenceInformation>" + typeList(nil, []string{repeat(tslType(tcCA), trustlist.MaxEquivalenceTypes+1)}) + "</m:TrustServiceEquivalenceInformation>"), "TrustServiceTSLType"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := trustlist.Parse(tt.data)
			is.True(errors.Is(err, trustlist.ErrUnparseable))
			is.True(errors.Is(err, trustlist.ErrLimit))
			var le *trustlist.LimitError
			is.True(errors.As(err, &le))
			is.Equal(le.What, tt.what)
			t.Log(err)
		})
	}

	// Exactly at the limits is fine.
	is := is.New(t)
	l, err := trustlist.Parse(doc("<TrustServiceProviderList>" + repeat("<TrustServiceProvider/>", trustlist.MaxProviders) + "</TrustServiceProviderList>"))
	is.NoErr(err)
	is.Equal(len(l.Providers), trustlist.MaxProviders)
	_, err = trustlist.Parse(doc(repeat("<a>", trustlist.MaxDepth-1) + repeat("</a>", trustlist.MaxDepth-1)))
	is.NoErr(err)
}

func TestParseAccepts(t *testing.T) {
	cert := "MAMCAQE=" // DER of SEQUENCE { INTEGER 1 }: Parse does not read certificates
	tests := []struct {
		name  string
		data  []byte
		check func(is *is.I, l trust.List)
	}{
		{"byte order mark", append([]byte{0xEF, 0xBB, 0xBF}, doc("<SchemeInformation><SchemeTerritory>FI</SchemeTerritory></SchemeInformation>")...),
			func(is *is.I, l trust.List) { is.Equal(l.Territory, "FI") }},
		{"no declaration, prefixed names, comments and PIs around", []byte(`<!-- c --><t:TrustServiceStatusList xmlns:t="http://uri.etsi.org/02231/v2#"><t:SchemeInformation><t:TSLSequenceNumber> 7 </t:TSLSequenceNumber></t:SchemeInformation></t:TrustServiceStatusList><!-- after --><?pi x?>` + "\n"),
			func(is *is.I, l trust.List) { is.Equal(l.SequenceNumber, 7) }},
		{"closed list", doc("<SchemeInformation><ListIssueDateTime>2024-01-01T00:00:00Z</ListIssueDateTime><NextUpdate/></SchemeInformation>"),
			func(is *is.I, l trust.List) {
				is.True(l.NextUpdate.IsZero())
				is.Equal(l.IssueDate, date("2024-01-01T00:00:00Z"))
			}},
		{"dates with offset, fraction, no zone", doc("<SchemeInformation><ListIssueDateTime>2022-06-27T11:30:08.032+02:00</ListIssueDateTime><NextUpdate><dateTime>2032-06-27T11:30:08</dateTime></NextUpdate></SchemeInformation>"),
			func(is *is.I, l trust.List) {
				is.Equal(l.IssueDate, time.Date(2022, 6, 27, 9, 30, 8, 32e6, time.UTC))
				is.Equal(l.NextUpdate, time.Date(2032, 6, 27, 11, 30, 8, 0, time.UTC))
			}},
		{"folded base64", service("<ServiceDigitalIdentity><DigitalId><X509Certificate>\n\t MAMC\r\n  AQE=\n</X509Certificate></DigitalId></ServiceDigitalIdentity>", ""),
			func(is *is.I, l trust.List) {
				is.Equal(l.Providers[0].Services[0].Identity.Certificates, [][]byte{{0x30, 0x03, 0x02, 0x01, 0x01}})
			}},
		{"empty identity elements skipped", service("<ServiceDigitalIdentity><DigitalId><X509Certificate> </X509Certificate></DigitalId><DigitalId><X509SubjectName/></DigitalId><DigitalId><Other/></DigitalId></ServiceDigitalIdentity>", ""),
			func(is *is.I, l trust.List) { is.Equal(l.Providers[0].Services[0].Identity, trust.Identity{}) }},
		{"English name preferred, else en-*, else first", doc(`<TrustServiceProviderList>` +
			`<TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="de">A</Name><Name xml:lang="EN">B</Name></TSPName></TSPInformation></TrustServiceProvider>` +
			`<TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="fr">C</Name><Name xml:lang="en-GB">D</Name></TSPName></TSPInformation></TrustServiceProvider>` +
			`<TrustServiceProvider><TSPInformation><TSPName><Name xml:lang="fr">E</Name><Name xml:lang="de">F</Name></TSPName></TSPInformation></TrustServiceProvider>` +
			`</TrustServiceProviderList>`),
			func(is *is.I, l trust.List) {
				is.Equal(l.Providers[0].Name, "B")
				is.Equal(l.Providers[1].Name, "D")
				is.Equal(l.Providers[2].Name, "E")
			}},
		{"pointer fields from separate OtherInformation", doc(`<SchemeInformation><PointersToOtherTSL><OtherTSLPointer><ServiceDigitalIdentities><ServiceDigitalIdentity><DigitalId><X509Certificate>` + cert + `</X509Certificate></DigitalId><DigitalId><X509Certificate>` + cert + `</X509Certificate></DigitalId></ServiceDigitalIdentity></ServiceDigitalIdentities><TSLLocation> https://x/tl.xml </TSLLocation><AdditionalInformation><TextualInformation xml:lang="en">t</TextualInformation><OtherInformation><TSLType>http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric</TSLType></OtherInformation><OtherInformation><SchemeTerritory>AT</SchemeTerritory></OtherInformation><OtherInformation><x:MimeType xmlns:x="http://uri.etsi.org/02231/v2/additionaltypes#">application/vnd.etsi.tsl+xml</x:MimeType></OtherInformation></AdditionalInformation></OtherTSLPointer></PointersToOtherTSL></SchemeInformation>`),
			func(is *is.I, l trust.List) {
				is.Equal(l.Pointers, []trust.Pointer{{
					Location: "https://x/tl.xml", Territory: "AT",
					TypeURI:            "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric",
					MimeType:           "application/vnd.etsi.tsl+xml",
					SignerCertificates: [][]byte{{0x30, 0x03, 0x02, 0x01, 0x01}, {0x30, 0x03, 0x02, 0x01, 0x01}},
				}})
				is.Equal(l.Kind, trust.LOTL) // no TSLType, pointers and no providers
			}},
		{"MimeType outside the additional-types namespace is not read", doc(`<SchemeInformation><PointersToOtherTSL><OtherTSLPointer><AdditionalInformation><OtherInformation><MimeType>application/vnd.etsi.tsl+xml</MimeType></OtherInformation></AdditionalInformation></OtherTSLPointer></PointersToOtherTSL></SchemeInformation>`),
			func(is *is.I, l trust.List) { is.Equal(l.Pointers[0].MimeType, "") }},
		{"declared TL type wins over content", doc(`<SchemeInformation><TSLType>http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric</TSLType><PointersToOtherTSL><OtherTSLPointer/></PointersToOtherTSL></SchemeInformation>`),
			func(is *is.I, l trust.List) { is.Equal(l.Kind, trust.TL) }},
		{"third-country LOTL type", doc(`<SchemeInformation><TSLType>http://uri.etsi.org/TrstSvc/TrustedList/TSLType/ZZlistofthelists</TSLType></SchemeInformation>`),
			func(is *is.I, l trust.List) { is.Equal(l.Kind, trust.LOTL) }},
		{"unknown type with providers", doc(`<SchemeInformation><TSLType>urn:x</TSLType><PointersToOtherTSL><OtherTSLPointer/></PointersToOtherTSL></SchemeInformation><TrustServiceProviderList><TrustServiceProvider/></TrustServiceProviderList>`),
			func(is *is.I, l trust.List) { is.Equal(l.Kind, trust.TL) }},
		{"signature and unknown elements skipped", doc(`<SchemeInformation><SchemeTerritory>SE</SchemeTerritory><Foo><Bar/></Foo></SchemeInformation><ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo/></ds:Signature>`),
			func(is *is.I, l trust.List) { is.Equal(l.Territory, "SE") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			l, err := trustlist.Parse(tt.data)
			is.NoErr(err)
			tt.check(is, l)
		})
	}
}

func TestCriticalExtensions(t *testing.T) {
	is := is.New(t)
	data := doc(`<SchemeInformation><SchemeExtensions>` +
		`<Extension Critical="true"><x:Policy xmlns:x="urn:x">1</x:Policy></Extension>` +
		`<Extension Critical="false"><x:Ignored xmlns:x="urn:x"/></Extension>` +
		`</SchemeExtensions></SchemeInformation>` +
		`<TrustServiceProviderList><TrustServiceProvider><TSPInformation><TSPInformationExtensions>` +
		`<Extension Critical="1"><y:Rule xmlns:y="urn:y"/></Extension>` +
		`</TSPInformationExtensions></TSPInformation><TSPServices><TSPService><ServiceInformation><ServiceInformationExtensions>` +
		`<Extension Critical="true"><x:TakenOverBy xmlns:x="http://uri.etsi.org/02231/v2/additionaltypes#"><x:URI xml:lang="en">u</x:URI></x:TakenOverBy></Extension>` +
		`<Extension Critical="true"><ExtensionOID>1.2.3</ExtensionOID><ExtensionValue>AA==</ExtensionValue></Extension>` +
		`<Extension Critical="false"><ExtensionOID>1.2.4</ExtensionOID></Extension>` +
		`</ServiceInformationExtensions></ServiceInformation></TSPService></TSPServices></TrustServiceProvider></TrustServiceProviderList>`)
	_, notices, err := trustlist.ParseWithNotices(data)
	is.NoErr(err)
	const ext = "TrustServiceProvider[0]/TSPService[0]/ServiceInformation/ServiceInformationExtensions/Extension[1]"
	is.Equal(notices, []trustlist.Notice{
		{trustlist.NoticeUnknownCriticalExtension, "SchemeInformation/SchemeExtensions/Extension[0]", "{urn:x}Policy"},
		{trustlist.NoticeUnknownCriticalExtension, "TrustServiceProvider[0]/TSPInformation/TSPInformationExtensions/Extension[0]", "{urn:y}Rule"},
		{trustlist.NoticeUnknownCriticalExtension, ext, "{http://uri.etsi.org/02231/v2#}ExtensionOID"},
		{trustlist.NoticeUnknownCriticalExtension, ext, "{http://uri.etsi.org/02231/v2#}ExtensionValue"},
	})
	is.Equal(notices[0].Kind.String(), "unknown-critical-extension")
}

// TestParseIsPure: the input is not modified and two parses are equal.
func TestParseIsPure(t *testing.T) {
	is := is.New(t)
	data := doc("<SchemeInformation><SchemeTerritory>AT</SchemeTerritory></SchemeInformation>")
	orig := bytes.Clone(data)
	a, err := trustlist.Parse(data)
	is.NoErr(err)
	b, err := trustlist.Parse(data)
	is.NoErr(err)
	is.Equal(a, b)
	is.Equal(data, orig)
}
