package trust

import "time"

// Framework is the legal framework an anchor belongs to, read from the
// scheme of the list it came from (validation-service.md §2 rule 1).
type Framework uint8

const (
	_        Framework = iota
	EUEIDAS            // EU_EIDAS
	CHZERTES           // CH_ZERTES
	Unknown            // UNKNOWN
)

func (f Framework) String() string {
	switch f {
	case EUEIDAS:
		return "EU_EIDAS"
	case CHZERTES:
		return "CH_ZERTES"
	case Unknown:
		return "UNKNOWN"
	}
	return ""
}

// Kind tells a List of Trusted Lists from a trusted list of services.
type Kind uint8

const (
	_    Kind = iota
	LOTL      // a list of pointers to trusted lists
	TL        // a trusted list of trust service providers
)

// A List is one parsed trusted list (ETSI TS 119 612 v5 or v6).
type List struct {
	Kind Kind
	// Version is the TSLVersionIdentifier (5 or 6).
	Version int
	// TypeURI is the TSLType URI, e.g.
	// http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric.
	TypeURI string
	// Territory is the SchemeTerritory: "EU" for the LOTL, "DE", "CH"…
	Territory      string
	SequenceNumber int
	// IssueDate is ListIssueDateTime.
	IssueDate time.Time
	// NextUpdate is the publisher-declared next update; zero when the
	// list is closed (an empty NextUpdate element, TS 119 612 §5.3.15).
	NextUpdate     time.Time
	SchemeOperator string // the scheme operator's name, English if present
	// SchemeInformationURIs lists the SchemeInformationURI values; for a
	// LOTL they include the pivot LOTLs' locations.
	SchemeInformationURIs []string
	// Pointers are the OtherTSLPointer entries (a LOTL's member lists,
	// and a TL's pointer back to the LOTL).
	Pointers  []Pointer
	Providers []Provider
}

// A Pointer locates another list and names the certificates allowed to
// sign it.
type Pointer struct {
	Location  string // TSLLocation
	Territory string
	TypeURI   string // TSLType of the list pointed to
	MimeType  string // application/vnd.etsi.tsl+xml or application/pdf
	// SignerCertificates are the DER certificates of the ServiceDigitalIdentities.
	SignerCertificates [][]byte
	// MRA is set on a pointer to a third-country list recognised through
	// a mutual recognition agreement.
	MRA *MRA
}

// A Provider is a trust service provider.
type Provider struct {
	Name      string
	TradeName []string
	Services  []Service
}

// A Service is one trust service with its current status and history.
type Service struct {
	Type    ServiceType
	TypeURI string
	Name    string
	// Status is the current status, from StartingTime onwards.
	Status      Status
	StatusURI   string
	StatusStart time.Time
	History     []StatusPeriod // previous statuses, newest first as listed
	Identity    Identity
	// Qualifiers are the URIs of Qualifications extensions' qualifiers
	// (e.g. http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/QCWithSSCD),
	// each with the criteria it applies under, kept as read.
	Qualifications []Qualification
	// AdditionalInfo are AdditionalServiceInformation URIs (ForeSignatures,
	// ForeSeals, ForWebSiteAuthentication).
	AdditionalInfo []string
	// ExpiredCertsRevocationInfo is the extension's date, zero if absent.
	ExpiredCertsRevocationInfo time.Time
	// Equivalence is set on a service of a third-country list mapped
	// onto eIDAS terms through an MRA (trustlist.ApplyMRA): its type,
	// statuses, qualifiers and additional information are then the
	// pointing party's, and the content equivalences say which
	// certificates count as carrying the EU's QC statements.
	Equivalence *ServiceEquivalence
}

// A StatusPeriod is one entry of a service's history.
type StatusPeriod struct {
	Type           ServiceType
	TypeURI        string
	Status         Status
	StatusURI      string
	Start          time.Time
	Identity       Identity
	Qualifications []Qualification
	AdditionalInfo []string
}

// Identity is a ServiceDigitalIdentity: certificates, subject names and
// key identifiers.
type Identity struct {
	Certificates [][]byte // DER
	SubjectNames []string
	SKIs         [][]byte
}

// A Qualification is one Qualifications extension entry (ETSI TS 119 612,
// 5.5.9.2): the qualifier URIs, which apply to the certificates its
// criteria list matches.
type Qualification struct {
	Qualifiers []string
	Criteria   Criteria
	Critical   bool
}

// Criteria is a CriteriaList (ETSI TS 119 612, 5.5.9.2.2): Assert over
// its criteria, where each KeyUsage, PolicySet, nested list and
// otherCriteriaList entry is one criterion.
type Criteria struct {
	// Assert is "all", "atLeastOne" or "none".
	Assert string
	// KeyUsage criteria: every bit listed has the value given.
	KeyUsage [][]KeyUsageBit
	// PolicySets: every policy OID of the set is in the certificate.
	PolicySets [][]string
	Nested     []Criteria
	// ExtendedKeyUsage (otherCriteriaList): every key purpose OID of the
	// set is in the certificate.
	ExtendedKeyUsage [][]string
	// SubjectAttributes (otherCriteriaList CertSubjectDNAttribute): every
	// attribute type OID of the set is in the certificate's subject.
	SubjectAttributes [][]string
	// QcStatements (otherCriteriaList QcStatementSet, as MRA lists write
	// it): every statement of the set is in the certificate.
	QcStatements [][]QcStatementCriterion
	// Unknown names otherCriteriaList entries this model does not know:
	// such a criterion is never met, so that a list does not qualify a
	// certificate on a condition nobody checked.
	Unknown []string
}

// A KeyUsageBit is a KeyUsageBit criterion: name as in RFC 5280
// (digitalSignature, nonRepudiation, …) and the value it must have.
type KeyUsageBit struct {
	Name  string
	Value bool
}

// A QcStatementCriterion asks for a QC statement (ETSI EN 319 412-5) by
// OID, and, when set, for the QcType or QcCClegislation values it holds.
type QcStatementCriterion struct {
	ID          string
	Types       []string // QcType OIDs
	Legislation []string // QcCClegislation country codes
}

// A PrivateAnchor is an administrator-supplied trust anchor. It is named by
// its subject, has no freshness, and its own validity is evaluated at
// every read (validation-service.md §2, "Private CA anchor").
type PrivateAnchor struct {
	Subject     string
	NotBefore   time.Time
	NotAfter    time.Time
	Certificate []byte // DER
	// File is the file it was loaded from, for operators; it never
	// identifies the anchor.
	File string
}

// Expired reports whether the anchor is outside its validity at now.
func (a PrivateAnchor) Expired(now time.Time) bool {
	return now.After(a.NotAfter) || now.Before(a.NotBefore)
}
