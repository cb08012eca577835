package qualification

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"slices"
	"time"
)

// OIDs of the certificate content qualification reads (ETSI EN 319 412-5
// QC statements, EN 319 411-2 and TS 101 456 policies, RFC 5280).
const (
	oidQcStatements        = "1.3.6.1.5.5.7.1.3"
	oidQcCompliance        = "0.4.0.1862.1.1"
	oidQcSSCD              = "0.4.0.1862.1.4"
	oidQcType              = "0.4.0.1862.1.6"
	oidQcTypeESign         = "0.4.0.1862.1.6.1"
	oidQcTypeESeal         = "0.4.0.1862.1.6.2"
	oidQcTypeWeb           = "0.4.0.1862.1.6.3"
	oidQcCClegislation     = "0.4.0.1862.1.7"
	oidPKIXQCSyntaxV2      = "1.3.6.1.5.5.7.11.2"
	oidSemanticsLegal      = "0.4.0.194121.1.2"
	oidSemanticsEIDASLegal = "0.4.0.194121.1.4"
	// Pre-eIDAS qualified certificate policies (ETSI TS 101 456): QCP
	// public, and QCP public with SSCD.
	oidQCP         = "0.4.0.1456.1.2"
	oidQCPPlus     = "0.4.0.1456.1.1"
	oidExtKeyUsage = "2.5.29.37"
	// organizationIdentifier (X.520), the attribute Swiss UID entities
	// are named by (NTRCH-CHE-…).
	oidOrganizationIdentifier = "2.5.4.97"
)

// Facts is what qualification reads of a certificate.
type Facts struct {
	NotBefore time.Time
	// QcStatements are the statement OIDs of the QCStatements extension.
	QcStatements []string
	QcTypes      []string // QcType OIDs
	Legislation  []string // QcCClegislation country codes
	// Semantics are the semantics identifiers of the PKIX QC syntax v2
	// statement (natural or legal person).
	Semantics []string
	Policies  []string
	EKU       []string
	KeyUsage  x509.KeyUsage
	// SubjectAttributes are the attribute type OIDs of the subject.
	SubjectAttributes []string
	// OrganizationIdentifier is the subject's organizationIdentifier.
	OrganizationIdentifier string
}

// FactsOf reads c. Malformed extensions read as absent.
func FactsOf(c *x509.Certificate) Facts {
	f := Facts{NotBefore: c.NotBefore, KeyUsage: c.KeyUsage}
	for _, p := range c.Policies {
		f.Policies = append(f.Policies, p.String())
	}
	if len(f.Policies) == 0 {
		for _, p := range c.PolicyIdentifiers {
			f.Policies = append(f.Policies, p.String())
		}
	}
	for _, e := range c.Extensions {
		switch e.Id.String() {
		case oidQcStatements:
			f.readQcStatements(e.Value)
		case oidExtKeyUsage:
			var ids []asn1.ObjectIdentifier
			if rest, err := asn1.Unmarshal(e.Value, &ids); err == nil && len(rest) == 0 {
				for _, id := range ids {
					f.EKU = append(f.EKU, id.String())
				}
			}
		}
	}
	var rdns pkix.RDNSequence
	if rest, err := asn1.Unmarshal(c.RawSubject, &rdns); err == nil && len(rest) == 0 {
		for _, rdn := range rdns {
			for _, atv := range rdn {
				t := atv.Type.String()
				f.SubjectAttributes = append(f.SubjectAttributes, t)
				if s, ok := atv.Value.(string); ok && t == oidOrganizationIdentifier {
					f.OrganizationIdentifier = s
				}
			}
		}
	}
	return f
}

type qcStatement struct {
	ID   asn1.ObjectIdentifier
	Info asn1.RawValue `asn1:"optional"`
}

func (f *Facts) readQcStatements(der []byte) {
	var sts []qcStatement
	if rest, err := asn1.Unmarshal(der, &sts); err != nil || len(rest) != 0 {
		return
	}
	for _, st := range sts {
		id := st.ID.String()
		f.QcStatements = append(f.QcStatements, id)
		switch id {
		case oidQcType:
			var types []asn1.ObjectIdentifier
			if _, err := asn1.Unmarshal(st.Info.FullBytes, &types); err == nil {
				for _, t := range types {
					f.QcTypes = append(f.QcTypes, t.String())
				}
			}
		case oidQcCClegislation:
			var countries []string
			if _, err := asn1.Unmarshal(st.Info.FullBytes, &countries); err == nil {
				f.Legislation = append(f.Legislation, countries...)
			}
		case oidPKIXQCSyntaxV2:
			var sem struct {
				ID    asn1.ObjectIdentifier `asn1:"optional"`
				Names asn1.RawValue         `asn1:"optional"`
			}
			if _, err := asn1.Unmarshal(st.Info.FullBytes, &sem); err == nil && len(sem.ID) > 0 {
				f.Semantics = append(f.Semantics, sem.ID.String())
			}
		}
	}
}

func (f Facts) has(statement string) bool { return slices.Contains(f.QcStatements, statement) }

// postEIDAS reports whether the certificate was issued on or after the
// eIDAS date.
func (f Facts) postEIDAS() bool { return !f.NotBefore.Before(EIDASDate) }

// qcFromCertificate is whether the certificate says it is qualified
// (ETSI TS 119 615, 4.3.x): QcCompliance, or before eIDAS one of the QCP
// policies; never with a QcCClegislation, which names a law other than
// the EU's.
func (f Facts) qcFromCertificate() bool {
	if len(f.Legislation) > 0 || f.has(oidQcCClegislation) {
		return false
	}
	if f.postEIDAS() {
		return f.has(oidQcCompliance)
	}
	return f.has(oidQcCompliance) || slices.Contains(f.Policies, oidQCP) || slices.Contains(f.Policies, oidQCPPlus)
}

// typeFromCertificate is the type the certificate declares: its one
// QcType, eSig for a QcCompliance without QcType (TS 119 615, Table 1),
// and for a pre-eIDAS qualified certificate.
func (f Facts) typeFromCertificate(qc bool) CertType {
	if !f.postEIDAS() {
		if qc {
			return TypeESig
		}
		return TypeUnknown
	}
	switch len(f.QcTypes) {
	case 0:
		if f.has(oidQcCompliance) {
			return TypeESig
		}
	case 1:
		switch f.QcTypes[0] {
		case oidQcTypeESign:
			return TypeESig
		case oidQcTypeESeal:
			return TypeESeal
		case oidQcTypeWeb:
			return TypeWSA
		}
	}
	return TypeUnknown
}

// qscdFromCertificate is whether the certificate says its key is on a
// QSCD: QcSSCD, or before eIDAS the QCP+ policy.
func (f Facts) qscdFromCertificate() bool {
	if f.postEIDAS() {
		return f.has(oidQcSSCD)
	}
	return f.has(oidQcSSCD) || slices.Contains(f.Policies, oidQCPPlus)
}

// legalPerson reports whether the certificate names an organisation
// rather than a natural person: QcType eSeal, a legal-person semantics
// identifier, or an organizationIdentifier.
func (f Facts) legalPerson() bool {
	return slices.Contains(f.QcTypes, oidQcTypeESeal) || slices.Contains(f.Semantics, oidSemanticsLegal) ||
		slices.Contains(f.Semantics, oidSemanticsEIDASLegal) || f.OrganizationIdentifier != ""
}
