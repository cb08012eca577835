package trustlist_test

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"os"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/domain/trust"
)

const swissList = "testdata/tsl-ch-synthetic.xml"

// TestSwissSynthetic: a list in the Swiss URI namespace maps to the same
// enums as the ETSI one, keeps each URI, and is CH_ZERTES.
func TestSwissSynthetic(t *testing.T) {
	is := is.New(t)
	data, err := os.ReadFile(swissList)
	is.NoErr(err)
	l, notices, err := trustlist.ParseWithNotices(data)
	is.NoErr(err)

	is.Equal(l.Kind, trust.TL) // TSLType CHlist
	is.Equal(l.Version, 5)
	is.Equal(l.Territory, "CH")
	is.Equal(l.SequenceNumber, 42)
	is.Equal(l.IssueDate, date("2026-06-15T09:30:00Z"))
	is.Equal(l.NextUpdate, date("2026-12-15T09:30:00Z"))
	is.Equal(l.SchemeOperator, "Swiss Accreditation Service SAS") // English preferred over de/fr listed first
	is.Equal(trustlist.Framework(l), trust.CHZERTES)
	is.Equal(len(l.Pointers), 1)
	is.Equal(l.Pointers[0].Location, "https://trustedlist.tsl-switzerland.ch/tsl-ch.xml")
	is.Equal(l.Pointers[0].MimeType, "application/vnd.etsi.tsl+xml")
	is.Equal(len(l.Pointers[0].SignerCertificates), 1)
	is.Equal(len(trustlist.MemberLists(l)), 0) // not an EUgeneric pointer

	is.Equal(len(l.Providers), 1)
	p := l.Providers[0]
	is.Equal(p.Name, "Synthetic Certification Services Ltd")
	is.Equal(p.TradeName, []string{"SynthCert", "VATCH-CHE-000.000.000"})
	is.Equal(len(p.Services), 4)

	tests := []struct {
		name   string
		typ    trust.ServiceType
		typURI string
		status trust.Status
		stURI  string
		start  string
	}{
		{"Synthetic Swiss Qualified CA", trust.TypeCAQC, "https://uri.tsl-switzerland.ch/TrstSvc/Svctype/CA/QC",
			trust.StatusGranted, "https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/granted", "2024-01-01T00:00:00Z"},
		{"Synthetic Qualified Time Stamping", trust.TypeQTST, "https://uri.tsl-switzerland.ch/TrstSvc/Svctype/TSA/QTST",
			trust.StatusGranted, "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted", "2024-02-01T00:00:00Z"},
		{"Synthetic OCSP", trust.TypeOCSPQC, "https://uri.tsl-switzerland.ch/TrstSvc/Svctype/Certstatus/OCSP/QC",
			trust.StatusWithdrawn, "https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/withdrawn", "2025-02-28T23:00:00Z"},
		{"Synthetic Regulated CA", trust.TypeOther, "https://uri.tsl-switzerland.ch/TrstSvc/Svctype/CA/Regulated",
			trust.StatusOther, "https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/recognised", "2024-03-01T00:00:00Z"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := p.Services[i]
			is.Equal(s.Name, tt.name)
			is.Equal(s.Type, tt.typ)
			is.Equal(s.TypeURI, tt.typURI)
			is.Equal(s.Status, tt.status)
			is.Equal(s.StatusURI, tt.stURI)
			is.Equal(s.StatusStart, date(tt.start)) // +01:00 normalised to UTC
		})
	}

	qc := p.Services[0]
	is.Equal(len(qc.Identity.Certificates), 1)
	cert, err := x509.ParseCertificate(qc.Identity.Certificates[0]) // base64 folded and indented in the file
	is.NoErr(err)
	sum := sha256.Sum256(qc.Identity.Certificates[0])
	is.Equal(hex.EncodeToString(sum[:]), "73077fca9f30e232122602b66d72c4c822f9b5b5e89b4f55da57ff1d45e0f376")
	is.Equal(qc.Identity.SKIs, [][]byte{cert.SubjectKeyId})
	is.Equal(qc.Identity.SubjectNames, []string{"CN=Synthetic Swiss Qualified CA, O=Synthetic Test CA, C=CH"})
	is.Equal(qc.AdditionalInfo, []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/ForeSignatures"})
	is.Equal(qc.ExpiredCertsRevocationInfo, date("2020-01-01T00:00:00Z"))
	is.Equal(qc.Qualifications, []trust.Qualification{{
		Qualifiers: []string{"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCWithQSCD"},
		Criteria: trust.Criteria{
			Assert:     "atLeastOne",
			PolicySets: [][]string{{"2.16.756.1.99.1.1"}}, // urn:oid: stripped
		},
		Critical: true,
	}})
	is.Equal(len(qc.History), 1)
	is.Equal(qc.History[0].Type, trust.TypeCAQC)
	is.Equal(qc.History[0].Status, trust.StatusAccredited)
	is.Equal(qc.History[0].Start, date("2017-01-01T00:00:00Z"))

	// The one critical extension this package does not know is reported.
	is.Equal(notices, []trustlist.Notice{{
		Kind:   trustlist.NoticeUnknownCriticalExtension,
		Path:   "TrustServiceProvider[0]/TSPService[3]/ServiceInformation/ServiceInformationExtensions/Extension[0]",
		Detail: "{https://uri.tsl-switzerland.ch/TrstSvc/SvcInfoExt/synthetic#}RegulatedCertificatePolicy",
	}})
}
