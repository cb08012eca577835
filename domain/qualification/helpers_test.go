package qualification

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"testing"
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// certOptions describe a signer certificate by what qualification reads.
type certOptions struct {
	notBefore   time.Time
	compliance  bool
	sscd        bool
	qcTypes     []string
	legislation []string
	policies    []string
	orgID       string
	keyUsage    x509.KeyUsage
}

var (
	t2015 = time.Date(2015, 3, 1, 0, 0, 0, 0, time.UTC)
	t2018 = time.Date(2018, 3, 1, 0, 0, 0, 0, time.UTC)
	t2020 = time.Date(2020, 3, 1, 0, 0, 0, 0, time.UTC)
	t2022 = time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC)
	t2024 = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
)

func mustOID(s string) asn1.ObjectIdentifier {
	var id asn1.ObjectIdentifier
	for _, part := range splitDots(s) {
		id = append(id, part)
	}
	return id
}

func splitDots(s string) []int {
	var out []int
	n := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '.' {
			out = append(out, n)
			n = 0
			continue
		}
		n = n*10 + int(s[i]-'0')
	}
	return out
}

// qcCert makes a self-signed certificate with the QC statements and
// policies o asks for.
func qcCert(t testing.TB, o certOptions) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var sts []any
	type st struct {
		ID   asn1.ObjectIdentifier
		Info any `asn1:"optional"`
	}
	type stNoInfo struct{ ID asn1.ObjectIdentifier }
	if o.compliance {
		sts = append(sts, stNoInfo{mustOID(oidQcCompliance)})
	}
	if o.sscd {
		sts = append(sts, stNoInfo{mustOID(oidQcSSCD)})
	}
	if len(o.qcTypes) > 0 {
		var ids []asn1.ObjectIdentifier
		for _, q := range o.qcTypes {
			ids = append(ids, mustOID(q))
		}
		sts = append(sts, st{mustOID(oidQcType), ids})
	}
	if len(o.legislation) > 0 {
		var cs []asn1.RawValue
		for _, c := range o.legislation {
			b, _ := asn1.MarshalWithParams(c, "printable")
			cs = append(cs, asn1.RawValue{FullBytes: b})
		}
		sts = append(sts, st{mustOID(oidQcCClegislation), cs})
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "Signer", Country: []string{"DE"}},
		NotBefore:    o.notBefore, NotAfter: o.notBefore.AddDate(10, 0, 0),
		KeyUsage: o.keyUsage,
	}
	if o.orgID != "" {
		tmpl.Subject.ExtraNames = []pkix.AttributeTypeAndValue{{Type: mustOID(oidOrganizationIdentifier), Value: o.orgID}}
	}
	for _, p := range o.policies {
		oid, err := x509.ParseOID(p)
		if err != nil {
			t.Fatal(err)
		}
		tmpl.Policies = append(tmpl.Policies, oid)
	}
	if len(sts) > 0 {
		der, err := asn1.Marshal(sts)
		if err != nil {
			t.Fatal(err)
		}
		tmpl.ExtraExtensions = append(tmpl.ExtraExtensions, pkix.Extension{Id: mustOID(oidQcStatements), Value: der})
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	etsiType   = "http://uri.etsi.org/TrstSvc/Svctype/"
	etsiStatus = "http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/"
	sie        = "http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/"
)

// service builds a CA/QC (or other) service: its current status from
// start, and older periods.
type period struct {
	typ    trust.ServiceType
	status trust.Status
	start  time.Time
	quals  []trust.Qualification
	asi    []string
}

func listing(framework trust.Framework, territory, name string, periods ...period) Listing {
	names := map[trust.ServiceType]string{trust.TypeCAQC: "CA/QC", trust.TypeCAPKC: "CA/PKC", trust.TypeQTST: "TSA/QTST", trust.TypeTSA: "TSA"}
	statuses := map[trust.Status]string{trust.StatusGranted: "granted", trust.StatusWithdrawn: "withdrawn", trust.StatusAccredited: "accredited", trust.StatusSupervisionCeased: "supervisionceased"}
	cur := periods[0]
	s := &trust.Service{Name: name, Type: cur.typ, TypeURI: etsiType + names[cur.typ], Status: cur.status, StatusURI: etsiStatus + statuses[cur.status],
		StatusStart: cur.start, Qualifications: cur.quals, AdditionalInfo: cur.asi}
	for _, p := range periods[1:] {
		s.History = append(s.History, trust.StatusPeriod{Type: p.typ, TypeURI: etsiType + names[p.typ], Status: p.status, StatusURI: etsiStatus + statuses[p.status],
			Start: p.start, Qualifications: p.quals, AdditionalInfo: p.asi})
	}
	return Listing{Service: s, Territory: territory, Framework: framework}
}

func quals(criteria trust.Criteria, qualifiers ...string) []trust.Qualification {
	var uris []string
	for _, q := range qualifiers {
		uris = append(uris, sie+q)
	}
	return []trust.Qualification{{Qualifiers: uris, Criteria: criteria}}
}

// anyCert matches every certificate: an "all" list with no criteria.
var anyCert = trust.Criteria{Assert: "all"}
