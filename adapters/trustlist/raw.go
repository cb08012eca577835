package trustlist

// The private structs encoding/xml decodes into. They mirror only the parts
// of the TS 119 612 v2.4.1 schema (TSL versions 5 and 6 share it) that the
// domain needs; everything else, including the ds:Signature, is skipped by
// the decoder. Values stay strings here and are checked in convert.go, so
// that a malformed value is reported with its path.
//
// Namespaces are spelled in every tag because encoding/xml only accepts
// literals there:
//
//	http://uri.etsi.org/02231/v2#                                  TS 119 612 (tsl)
//	http://uri.etsi.org/02231/v2/additionaltypes#                  additional types (tslx)
//	http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/#  SIE (Qualifications)
//	http://uri.etsi.org/01903/v1.3.2#                              XAdES (Identifier)
//	http://ec.europa.eu/tools/lotl/mra/schema/v2#                  MRA (pointer equivalences, QcStatementSet criteria)
//	http://www.w3.org/XML/1998/namespace                           xml:lang
//
// encoding/xml applies a tag's namespace to every element of an "a>b"
// path, so a path only ever crosses elements of one namespace.

import "encoding/xml"

// nsTSL is the namespace of the root element; Parse checks it there.
const nsTSL = "http://uri.etsi.org/02231/v2#"

type rawList struct {
	Scheme    rawScheme     `xml:"http://uri.etsi.org/02231/v2# SchemeInformation"`
	Providers []rawProvider `xml:"http://uri.etsi.org/02231/v2# TrustServiceProviderList>TrustServiceProvider"`
}

type rawScheme struct {
	Version    string         `xml:"http://uri.etsi.org/02231/v2# TSLVersionIdentifier"`
	Sequence   string         `xml:"http://uri.etsi.org/02231/v2# TSLSequenceNumber"`
	Type       string         `xml:"http://uri.etsi.org/02231/v2# TSLType"`
	Operator   []rawName      `xml:"http://uri.etsi.org/02231/v2# SchemeOperatorName>Name"`
	InfoURIs   []string       `xml:"http://uri.etsi.org/02231/v2# SchemeInformationURI>URI"`
	Territory  string         `xml:"http://uri.etsi.org/02231/v2# SchemeTerritory"`
	Pointers   []rawPointer   `xml:"http://uri.etsi.org/02231/v2# PointersToOtherTSL>OtherTSLPointer"`
	IssueDate  string         `xml:"http://uri.etsi.org/02231/v2# ListIssueDateTime"`
	NextUpdate *rawNextUpdate `xml:"http://uri.etsi.org/02231/v2# NextUpdate"`
	Extensions []rawExtension `xml:"http://uri.etsi.org/02231/v2# SchemeExtensions>Extension"`
}

// rawNextUpdate keeps the element apart from its optional dateTime child:
// an empty NextUpdate means the list is closed (TS 119 612 §5.3.15).
type rawNextUpdate struct {
	DateTime string `xml:"http://uri.etsi.org/02231/v2# dateTime"`
}

type rawName struct {
	Lang  string `xml:"http://www.w3.org/XML/1998/namespace lang,attr"`
	Value string `xml:",chardata"`
}

type rawPointer struct {
	Identities []rawIdentity `xml:"http://uri.etsi.org/02231/v2# ServiceDigitalIdentities>ServiceDigitalIdentity"`
	Location   string        `xml:"http://uri.etsi.org/02231/v2# TSLLocation"`
	Other      []rawOtherInf `xml:"http://uri.etsi.org/02231/v2# AdditionalInformation>OtherInformation"`
}

// rawOtherInf is one OtherInformation entry; each carries one of these.
type rawOtherInf struct {
	Type      string  `xml:"http://uri.etsi.org/02231/v2# TSLType"`
	Territory string  `xml:"http://uri.etsi.org/02231/v2# SchemeTerritory"`
	MimeType  string  `xml:"http://uri.etsi.org/02231/v2/additionaltypes# MimeType"`
	MRA       *rawMRA `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# MutualRecognitionAgreementInformation"`
}

// rawMRA is a MutualRecognitionAgreementInformation (MRA schema v2, the
// EU's MRA pilot LOTL). Its attributes (version, technicalType, MRADepth,
// the contracting parties' legislation) and the qualification extension
// names (Sie:Q) are informative and not read.
type rawMRA struct {
	Equivalences []rawEquivalence `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceEquivalenceInformation"`
}

// rawEquivalence is one TrustServiceEquivalenceInformation. Each "a>b"
// path stays in the MRA namespace; the TS 119 612 elements inside
// (ServiceTypeIdentifier, ServiceStatus) are read by the nested structs.
type rawEquivalence struct {
	LegalIdentifier string                    `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceLegalIdentifier"`
	PointingTypes   []rawTypeRef              `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLTypeEquivalenceList>TrustServiceTSLTypeListPointingParty>TrustServiceTSLType"`
	PointedTypes    []rawTypeRef              `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLTypeEquivalenceList>TrustServiceTSLTypeListPointedParty>TrustServiceTSLType"`
	Status          string                    `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceEquivalenceStatus"`
	Start           string                    `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceEquivalenceStatusStartingTime"`
	ValidStatuses   []rawStatusEquivalence    `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLStatusEquivalenceList>TrustServiceTSLStatusValidEquivalence"`
	InvalidStatuses []rawStatusEquivalence    `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLStatusEquivalenceList>TrustServiceTSLStatusInvalidEquivalence"`
	Content         []rawContentEquivalence   `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# CertificateContentReferencesEquivalenceList>CertificateContentReferenceEquivalence"`
	Qualifiers      []rawQualifierEquivalence `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLQualificationExtensionEquivalenceList>QualifierEquivalenceList>QualifierEquivalence"`
	// History is only noticed: the domain has no end time for an
	// equivalence, so its content is skipped.
	History []rawAny `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceEquivalenceHistory"`
}

// rawTypeRef is a TrustServiceTSLType: a TS 119 612 service type with its
// additional service information.
type rawTypeRef struct {
	Type           string         `xml:"http://uri.etsi.org/02231/v2# ServiceTypeIdentifier"`
	AdditionalInfo []rawURIHolder `xml:"http://uri.etsi.org/02231/v2# AdditionalServiceInformation"`
}

// rawStatusEquivalence is a TrustServiceTSLStatusValidEquivalence or
// TrustServiceTSLStatusInvalidEquivalence.
type rawStatusEquivalence struct {
	Pointing rawStatusList `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLStatusListPointingParty"`
	Pointed  rawStatusList `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# TrustServiceTSLStatusListPointedParty"`
}

type rawStatusList struct {
	Statuses []string `xml:"http://uri.etsi.org/02231/v2# ServiceStatus"`
}

// rawContentEquivalence is a CertificateContentReferenceEquivalence. Each
// declaration is shaped like a CriteriaList (an assert attribute over
// CriteriaList, PolicySet, KeyUsage and otherCriteriaList children of the
// SIE namespace), so it decodes as one.
type rawContentEquivalence struct {
	Context  string      `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# CertificateContentReferenceEquivalenceContext"`
	Pointing rawCriteria `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# CertificateContentDeclarationPointingParty"`
	Pointed  rawCriteria `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# CertificateContentDeclarationPointedParty"`
}

type rawQualifierEquivalence struct {
	Pointing rawQualifier `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QualifierPointingParty"`
	Pointed  rawQualifier `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QualifierPointedParty"`
}

type rawIdentity struct {
	IDs []rawDigitalID `xml:"http://uri.etsi.org/02231/v2# DigitalId"`
}

type rawDigitalID struct {
	Certificate string `xml:"http://uri.etsi.org/02231/v2# X509Certificate"`
	SubjectName string `xml:"http://uri.etsi.org/02231/v2# X509SubjectName"`
	SKI         string `xml:"http://uri.etsi.org/02231/v2# X509SKI"`
}

type rawProvider struct {
	Names      []rawName      `xml:"http://uri.etsi.org/02231/v2# TSPInformation>TSPName>Name"`
	TradeNames []rawName      `xml:"http://uri.etsi.org/02231/v2# TSPInformation>TSPTradeName>Name"`
	Extensions []rawExtension `xml:"http://uri.etsi.org/02231/v2# TSPInformation>TSPInformationExtensions>Extension"`
	Services   []rawService   `xml:"http://uri.etsi.org/02231/v2# TSPServices>TSPService"`
}

type rawService struct {
	Info    rawServiceInfo   `xml:"http://uri.etsi.org/02231/v2# ServiceInformation"`
	History []rawServiceInfo `xml:"http://uri.etsi.org/02231/v2# ServiceHistory>ServiceHistoryInstance"`
}

// rawServiceInfo serves ServiceInformation and ServiceHistoryInstance,
// which share these element names.
type rawServiceInfo struct {
	Type       string         `xml:"http://uri.etsi.org/02231/v2# ServiceTypeIdentifier"`
	Names      []rawName      `xml:"http://uri.etsi.org/02231/v2# ServiceName>Name"`
	Identity   rawIdentity    `xml:"http://uri.etsi.org/02231/v2# ServiceDigitalIdentity"`
	Status     string         `xml:"http://uri.etsi.org/02231/v2# ServiceStatus"`
	Start      string         `xml:"http://uri.etsi.org/02231/v2# StatusStartingTime"`
	Extensions []rawExtension `xml:"http://uri.etsi.org/02231/v2# ServiceInformationExtensions>Extension"`
}

// rawExtension is one Extension. Its content is xsd:any: the fields below
// are the extensions this package understands, and Unknown collects every
// other child so that a critical one can be reported.
type rawExtension struct {
	Critical       string             `xml:"Critical,attr"`
	Qualifications *rawQualifications `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# Qualifications"`
	AdditionalInfo []rawURIHolder     `xml:"http://uri.etsi.org/02231/v2# AdditionalServiceInformation"`
	ExpiredCerts   *string            `xml:"http://uri.etsi.org/02231/v2# ExpiredCertsRevocationInfo"`
	TakenOverBy    *struct{}          `xml:"http://uri.etsi.org/02231/v2/additionaltypes# TakenOverBy"`
	Unknown        []rawAny           `xml:",any"`
}

type rawURIHolder struct {
	URI string `xml:"http://uri.etsi.org/02231/v2# URI"`
}

// rawAny records only the name of an element nobody asked for; its
// content is skipped.
type rawAny struct {
	XMLName xml.Name
}

type rawQualifications struct {
	Elements []rawQualElement `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# QualificationElement"`
}

type rawQualElement struct {
	Qualifiers []rawQualifier `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# Qualifiers>Qualifier"`
	Criteria   rawCriteria    `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# CriteriaList"`
}

type rawQualifier struct {
	URI string `xml:"uri,attr"`
}

// rawCriteria is a CriteriaList; it nests (the depth limit bounds it).
type rawCriteria struct {
	Assert     string            `xml:"assert,attr"`
	KeyUsage   []rawKeyUsage     `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# KeyUsage"`
	PolicySets []rawPolicySet    `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# PolicySet"`
	Nested     []rawCriteria     `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# CriteriaList"`
	Other      *rawOtherCriteria `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# otherCriteriaList"`
}

type rawKeyUsage struct {
	Bits []rawKeyUsageBit `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# KeyUsageBit"`
}

type rawKeyUsageBit struct {
	Name  string `xml:"name,attr"`
	Value string `xml:",chardata"`
}

type rawPolicySet struct {
	Identifiers []rawOID `xml:"http://uri.etsi.org/TrstSvc/SvcInfoExt/eSigDir-1999-93-EC-TrustedList/# PolicyIdentifier"`
}

// rawOID is an ObjectIdentifierType element (PolicyIdentifier,
// AttributeOID, KeyPurposeId, QcStatementId, QcType) holding an Identifier
// (XAdES namespace). It cannot be one "a>b" path: encoding/xml requires the
// tag's namespace on every element of a path.
type rawOID struct {
	Identifier string `xml:"http://uri.etsi.org/01903/v1.3.2# Identifier"`
}

// rawOtherCriteria is an otherCriteriaList (xsd:any content). The
// criteria TS 119 612 defines for it are in the additional types
// namespace, as every list of the corpus writes them; QcStatementSet is
// the MRA schema's. Unknown collects every other child.
type rawOtherCriteria struct {
	SubjectAttributes []rawSubjectAttributes `xml:"http://uri.etsi.org/02231/v2/additionaltypes# CertSubjectDNAttribute"`
	ExtendedKeyUsage  []rawExtendedKeyUsage  `xml:"http://uri.etsi.org/02231/v2/additionaltypes# ExtendedKeyUsage"`
	QcStatementSets   []rawQcStatementSet    `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QcStatementSet"`
	Unknown           []rawAny               `xml:",any"`
}

type rawSubjectAttributes struct {
	OIDs []rawOID `xml:"http://uri.etsi.org/02231/v2/additionaltypes# AttributeOID"`
}

type rawExtendedKeyUsage struct {
	OIDs []rawOID `xml:"http://uri.etsi.org/02231/v2/additionaltypes# KeyPurposeId"`
}

type rawQcStatementSet struct {
	Statements []rawQcStatement `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QcStatement"`
}

// rawQcStatement is a QcStatement; the schema has one QcStatementId.
type rawQcStatement struct {
	ID   rawOID               `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QcStatementId"`
	Info []rawQcStatementInfo `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QcStatementInfo"`
}

// rawQcStatementInfo is a QcStatementInfo: the schema has one QcType or
// one QcCClegislation; more of either are read all the same.
type rawQcStatementInfo struct {
	Types       []rawOID           `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QcType"`
	Legislation []rawQcLegislation `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# QcCClegislation"`
}

// rawQcLegislation is a QcCClegislation. The MRA schema makes it a string
// (the country code is its text, as in the corpus); CountryName children,
// the form of EN 319 412-5's QcCClegislation sequence, are read too.
type rawQcLegislation struct {
	Value     string   `xml:",chardata"`
	Countries []string `xml:"http://ec.europa.eu/tools/lotl/mra/schema/v2# CountryName"`
}
