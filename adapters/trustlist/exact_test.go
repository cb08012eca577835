package trustlist_test

import (
	"bytes"
	"crypto/x509"
	"encoding/asn1"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

func date(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func pointerFor(l trust.List, territory, mime string) (trust.Pointer, bool) {
	for _, p := range l.Pointers {
		if p.Territory == territory && p.MimeType == mime {
			return p, true
		}
	}
	return trust.Pointer{}, false
}

func containsDER(list [][]byte, der []byte) bool {
	for _, c := range list {
		if bytes.Equal(c, der) {
			return true
		}
	}
	return false
}

// TestEULOTL248 pins the DSS test LOTL (seq 248), whose signer and the CZ
// signer are the certificates DSS's TLValidationJobTest uses.
func TestEULOTL248(t *testing.T) {
	is := is.New(t)
	l := parseCorpus(t, "dss/lotl/eu-lotl.xml")

	is.Equal(l.Kind, trust.LOTL)
	is.Equal(l.Version, 5)
	is.Equal(l.TypeURI, "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists")
	is.Equal(l.Territory, "EU")
	is.Equal(l.SequenceNumber, 248)
	is.Equal(l.IssueDate, date("2019-09-04T08:00:00Z"))
	is.Equal(l.NextUpdate, date("2020-03-04T00:00:00Z"))
	is.Equal(l.SchemeOperator, "European Commission")
	is.Equal(len(l.SchemeInformationURIs), 24) // OJ link + 23 legal-notice languages
	is.Equal(l.SchemeInformationURIs[0], "https://eur-lex.europa.eu/legal-content/EN/TXT/?uri=uriserv:OJ.C_.2019.276.01.0001.01.ENG")
	is.Equal(len(l.Providers), 0)
	is.Equal(trustlist.Framework(l), trust.EUEIDAS)
	is.Equal(len(trustlist.Pivots(l)), 0) // pivots arrived with seq 282

	is.Equal(len(l.Pointers), 44)
	self := l.Pointers[0]
	is.Equal(self.Location, "https://ec.europa.eu/tools/lotl/eu-lotl.xml")
	is.Equal(self.TypeURI, "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists")
	is.Equal(self.Territory, "EU")
	is.Equal(self.MimeType, "application/vnd.etsi.tsl+xml")
	is.Equal(len(self.SignerCertificates), 8)

	signers := 0
	for _, p := range l.Pointers {
		signers += len(p.SignerCertificates)
		for _, der := range p.SignerCertificates {
			var seq asn1.RawValue
			rest, err := asn1.Unmarshal(der, &seq)
			is.NoErr(err)          // every pointer certificate is one DER value
			is.Equal(len(rest), 0) // and nothing else
			// Parse hands certificates on as found; whether crypto/x509
			// accepts them is the trust store's concern (two DE signers
			// have a negative RSA modulus and Go refuses them).
			if _, err := x509.ParseCertificate(der); err != nil {
				t.Logf("crypto/x509 refuses a %s pointer certificate: %v", p.Territory, err)
			}
		}
	}
	is.Equal(signers, 119)

	members := trustlist.MemberLists(l)
	is.Equal(len(members), 31) // 28 EU states + IS, LI, NO; 12 PDF pointers and the self pointer left out
	perTerritory := map[string]int{}
	for _, p := range members {
		is.Equal(p.MimeType, "application/vnd.etsi.tsl+xml")
		perTerritory[p.Territory] = len(p.SignerCertificates)
	}
	is.Equal(perTerritory["CZ"], 3)
	is.Equal(perTerritory["DE"], 5)
	is.Equal(perTerritory["UK"], 2)
	_, hasEU := perTerritory["EU"]
	is.True(!hasEU)

	// The LOTL signer DSS uses is announced in the LOTL's own pointer, and
	// the signer of lotlCache/CZ.xml in the CZ pointer (TRUST.tsv).
	lotlSigner := readCorpus(t, "dss/tl-signers/lotlSigningCertificate.cer")
	is.True(containsDER(self.SignerCertificates, lotlSigner))
	cz, ok := pointerFor(l, "CZ", "application/vnd.etsi.tsl+xml")
	is.True(ok)
	is.Equal(cz.Location, "https://tsl.gov.cz/publ/TSL_CZ.xtsl")
	is.True(containsDER(cz.SignerCertificates, readCorpus(t, "dss/tl-signers/czSigningCertificate.cer")))
}

// TestEULOTL388 pins the current-format LOTL (TSL v6, after the 2026
// re-anchoring): its own pointer must announce exactly the six signers of
// pyHanko's latest.cert.pem.
func TestEULOTL388(t *testing.T) {
	is := is.New(t)
	l := parseCorpus(t, "pyhanko/tl/eu-lotl.xml")

	is.Equal(l.Kind, trust.LOTL)
	is.Equal(l.Version, 6)
	is.Equal(l.SequenceNumber, 388)
	is.Equal(l.Territory, "EU")
	is.Equal(l.IssueDate.Format(time.DateOnly), "2026-05-22")
	is.Equal(l.NextUpdate.Format(time.DateOnly), "2026-11-18")
	is.Equal(len(l.Pointers), 43)
	is.Equal(len(trustlist.MemberLists(l)), 31)
	is.Equal(l.SchemeInformationURIs[0], "https://eur-lex.europa.eu/eli/C/2026/1944/oj")
	is.Equal(trustlist.Pivots(l), []string{
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-378.xml",
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-341.xml",
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-335.xml",
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-300.xml",
		"https://ec.europa.eu/tools/lotl/eu-lotl-pivot-282.xml",
	})

	self := l.Pointers[0]
	is.Equal(self.Territory, "EU")
	is.Equal(self.TypeURI, "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists")
	latest := pemCerts(t, filepath.Join(corpusDir(t), "pyhanko/lotl-certs/latest.cert.pem"))
	is.Equal(len(latest), 6)
	is.Equal(len(self.SignerCertificates), len(latest))
	for _, der := range latest {
		is.True(containsDER(self.SignerCertificates, der)) // every current LOTL signer announced
	}
}

func pemCerts(t *testing.T, path string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for {
		var blk *pem.Block
		blk, b = pem.Decode(b)
		if blk == nil {
			return out
		}
		out = append(out, blk.Bytes)
	}
}

// TestBelgiumV6 pins the only member-state list still current on the
// corpus date, and one service with status history and qualifications.
func TestBelgiumV6(t *testing.T) {
	is := is.New(t)
	l := parseCorpus(t, "pyhanko/tl/tsl-be-v6.xml")

	is.Equal(l.Kind, trust.TL)
	is.Equal(l.Version, 6)
	is.Equal(l.TypeURI, "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric")
	is.Equal(l.Territory, "BE")
	is.Equal(l.SequenceNumber, 81)
	is.Equal(l.IssueDate.Format(time.DateOnly), "2026-06-15")
	is.Equal(l.NextUpdate.Format(time.DateOnly), "2026-12-15")
	is.Equal(trustlist.Framework(l), trust.EUEIDAS)
	is.Equal(len(l.Providers), 17)
	is.Equal(countServices(l), 135)
	is.Equal(len(l.Pointers), 1) // back to the LOTL
	is.Equal(l.Pointers[0].TypeURI, "http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists")

	p := l.Providers[2]
	is.Equal(p.Name, "DigiCert Europe Belgium B.V.")
	s := p.Services[2]
	is.Equal(s.Name, "itsme Sign Issuing CA G1")
	is.Equal(s.Type, trust.TypeCAQC)
	is.Equal(s.TypeURI, "http://uri.etsi.org/TrstSvc/Svctype/CA/QC")
	is.Equal(s.Status, trust.StatusWithdrawn)
	is.Equal(s.StatusURI, "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn")
	is.Equal(s.StatusStart, date("2020-12-16T00:00:00Z"))
	is.Equal(s.AdditionalInfo, []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/ForeSignatures"})
	is.True(s.ExpiredCertsRevocationInfo.IsZero())

	// Identity: the certificate, its subject and its key identifier, and
	// they agree with each other.
	is.Equal(len(s.Identity.Certificates), 1)
	is.Equal(s.Identity.SubjectNames, []string{"CN=itsme Sign Issuing CA G1, O=QuoVadis Trustlink BVBA, OID.2.5.4.97=NTRBE-0537698318, C=BE"})
	ski, _ := base64.StdEncoding.DecodeString("jUsZwqAowXDYwGegmOKna0nSq6c=")
	is.Equal(s.Identity.SKIs, [][]byte{ski})
	cert, err := x509.ParseCertificate(s.Identity.Certificates[0])
	is.NoErr(err)
	is.Equal(cert.SubjectKeyId, ski)

	// The NotQualified entry is a nested atLeastOne inside none, kept as
	// written.
	policy := [][]string{{"1.3.6.1.4.1.8024.1.410"}}
	want := []trust.Qualification{
		{
			Qualifiers: []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCQSCDManagedOnBehalf"},
			Criteria:   trust.Criteria{Assert: "atLeastOne", PolicySets: policy},
			Critical:   true,
		},
		{
			Qualifiers: []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/NotQualified"},
			Criteria:   trust.Criteria{Assert: "none", Nested: []trust.Criteria{{Assert: "atLeastOne", PolicySets: policy}}},
			Critical:   true,
		},
	}
	is.Equal(s.Qualifications, want)

	is.Equal(len(s.History), 2)
	for i, start := range []string{"2020-07-30T00:00:00Z", "2019-03-08T00:00:00Z"} { // newest first, as listed
		h := s.History[i]
		is.Equal(h.Type, trust.TypeCAQC)
		is.Equal(h.Status, trust.StatusGranted)
		is.Equal(h.StatusURI, "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted")
		is.Equal(h.Start, date(start))
		is.Equal(len(h.Identity.Certificates), 0)
		is.Equal(h.Identity.SKIs, [][]byte{ski})
		is.Equal(h.Qualifications, want)
		is.Equal(h.AdditionalInfo, []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/ForeSignatures"})
	}

	// No notice for this service: everything it says is represented.
	_, notices, err := trustlist.ParseWithNotices(readCorpus(t, "pyhanko/tl/tsl-be-v6.xml"))
	is.NoErr(err)
	for _, n := range notices {
		is.True(!strings.HasPrefix(n.Path, "TrustServiceProvider[2]/TSPService[2]/")) // no notice for this service
	}
}

// TestPreEIDASStatuses: a 2015 TSL v4 list uses the Directive 1999/93/EC
// vocabulary, which must map to the pre-eIDAS enums, not to Other.
func TestPreEIDASStatuses(t *testing.T) {
	is := is.New(t)
	l := parseCorpus(t, "dss/tl/de-tl.xml")
	is.Equal(l.Version, 4)
	seen := map[trust.Status]int{}
	for _, p := range l.Providers {
		for _, s := range p.Services {
			seen[s.Status]++
			for _, h := range s.History {
				seen[h.Status]++
			}
		}
	}
	is.Equal(seen[trust.StatusOther], 0)
	is.True(seen[trust.StatusAccredited] > 0)
	is.True(seen[trust.StatusUnderSupervision] > 0)
}

// TestClosedList: the Commission's UK list has an empty NextUpdate, the
// TS 119 612 §5.3.15 marker of a closed list; it reads as the zero time.
func TestClosedList(t *testing.T) {
	is := is.New(t)
	l := parseCorpus(t, "dss/cookbook-cache/https___ec_europa_eu_tools_lotl_Final_EU_TSL_UKsigned_xml.xml")
	is.Equal(l.Territory, "UK")
	is.True(l.NextUpdate.IsZero())
	is.True(!l.IssueDate.IsZero())
	is.Equal(trustlist.Framework(l), trust.Unknown)
}
