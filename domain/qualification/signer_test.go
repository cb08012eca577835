package qualification_test

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

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
)

// subjectCert is a self-signed certificate of subject name, serial
// 0x2a, valid 2024 to 2034.
func subjectCert(t *testing.T, name pkix.Name) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(0x2a), Subject: name,
		NotBefore: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2034, 1, 1, 0, 0, 0, 0, time.UTC)}
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

func atv(oid asn1.ObjectIdentifier, v string) pkix.AttributeTypeAndValue {
	return pkix.AttributeTypeAndValue{Type: oid, Value: v}
}

var (
	givenName = asn1.ObjectIdentifier{2, 5, 4, 42}
	surname   = asn1.ObjectIdentifier{2, 5, 4, 4}
	pseudonym = asn1.ObjectIdentifier{2, 5, 4, 65}
	orgID     = asn1.ObjectIdentifier{2, 5, 4, 97}
)

// The signer as a person reads it: a natural person by givenName and
// surname, else the common name, a pseudonym marked; a seal by its
// organisation and organizationIdentifier, whether the certificate
// declares it (QcType eSeal) or its subject is an organisation's.
func TestSignedBy(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		cert      *x509.Certificate
		kind      verdict.SignerKind
		signer    string
		pseudonym bool
		org, id   string
	}{
		{"given name and surname", subjectCert(t, pkix.Name{CommonName: "M. Muster", ExtraNames: []pkix.AttributeTypeAndValue{
			atv(givenName, "Maria"), atv(surname, "Muster")}}), verdict.SignerPerson, "Maria Muster", false, "", ""},
		{"common name only", p.SignerEUQES.Certificate, verdict.SignerPerson, "Test Signer EU QES", false, "SVC DSS Test", ""},
		{"pseudonym", subjectCert(t, pkix.Name{CommonName: "Ghost", Country: []string{"CH"}, ExtraNames: []pkix.AttributeTypeAndValue{
			atv(pseudonym, "Ghostwriter 7")}}), verdict.SignerPerson, "Ghostwriter 7", true, "", ""},
		{"person of an organisation", subjectCert(t, pkix.Name{CommonName: "Hans Meier", Organization: []string{"Acme AG"}, ExtraNames: []pkix.AttributeTypeAndValue{
			atv(givenName, "Hans"), atv(surname, "Meier"), atv(orgID, "NTRCH-CHE-999.888.777")}}), verdict.SignerPerson, "Hans Meier", false, "Acme AG", "NTRCH-CHE-999.888.777"},
		{"EU seal, QcType eSeal", p.SealEUQES.Certificate, verdict.SignerOrganization, "SVC DSS Test Seal Org Qualified Seal", false,
			"SVC DSS Test Seal Org", "VATDE-123456789"},
		{"Swiss seal by its subject", p.SealCHRegulated.Certificate, verdict.SignerOrganization, "SVC DSS Test AG Regulated Seal", false,
			"SVC DSS Test AG", "NTRCH-CHE-123.456.789"},
		{"organisation without a common name", subjectCert(t, pkix.Name{Organization: []string{"Beispiel GmbH"}, ExtraNames: []pkix.AttributeTypeAndValue{
			atv(orgID, "VATDE-111222333")}}), verdict.SignerOrganization, "Beispiel GmbH", false, "Beispiel GmbH", "VATDE-111222333"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := qualification.SignedBy(tt.cert)
			is.True(s != nil)
			is.Equal(s.Kind, tt.kind)
			is.Equal(s.Name, tt.signer)
			is.Equal(s.Pseudonym, tt.pseudonym)
			is.Equal(s.Organization, tt.org)
			is.Equal(s.OrganizationIdentifier, tt.id)
			is.Equal(s.Certificate.Subject, tt.cert.Subject.String())
			is.Equal(s.Certificate.Issuer, tt.cert.Issuer.String())
			is.Equal(s.Certificate.SerialNumber, tt.cert.SerialNumber.Text(16))
			is.True(s.Certificate.NotBefore.Equal(tt.cert.NotBefore))
			is.True(s.Certificate.NotAfter.Equal(tt.cert.NotAfter))
		})
	}
	is.New(t).Equal(qualification.SignedBy(nil), (*verdict.SignedBy)(nil)) // no signing certificate: null
}
