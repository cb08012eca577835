package ades

import (
	"crypto/x509"
	"time"

	"github.com/svc-dss/dss/domain/wording"
)

// Format is the AdES family of a signature.
type Format uint8

const (
	_     Format = iota
	CAdES        // CAdES
	PAdES        // PAdES
	XAdES        // XAdES
	JAdES        // JAdES
	// PKCS7 is a PDF signature of SubFilter adbe.pkcs7.detached or
	// adbe.pkcs7.sha1: CMS, but not ETSI PAdES. Its levels are spelt as
	// DSS spells them: PKCS7_B, PKCS7_T, PKCS7_LT, PKCS7_LTA.
	PKCS7 // PKCS7
)

func (f Format) String() string {
	switch f {
	case CAdES:
		return "CAdES"
	case PAdES:
		return "PAdES"
	case XAdES:
		return "XAdES"
	case JAdES:
		return "JAdES"
	case PKCS7:
		return "PKCS7"
	}
	return ""
}

// Level is the baseline level a reader found (ETSI EN 319 122/132/142/182).
type Level uint8

const (
	_ Level = iota
	// NotBaseline: a signature of the format that meets no baseline level
	// (e.g. a CMS without a signing-certificate reference).
	NotBaseline
	LevelB
	LevelT
	LevelLT
	LevelLTA
)

// SignatureFormat is the spec's signatureFormat value, e.g.
// CAdES_BASELINE_LT, or CAdES_NOT_ETSI for a signature of the format that
// meets no baseline level.
func SignatureFormat(f Format, l Level) string {
	if f == PKCS7 {
		switch l {
		case LevelT:
			return "PKCS7_T"
		case LevelLT:
			return "PKCS7_LT"
		case LevelLTA:
			return "PKCS7_LTA"
		}
		return "PKCS7_B"
	}
	switch l {
	case LevelB:
		return f.String() + "_BASELINE_B"
	case LevelT:
		return f.String() + "_BASELINE_T"
	case LevelLT:
		return f.String() + "_BASELINE_LT"
	case LevelLTA:
		return f.String() + "_BASELINE_LTA"
	}
	if f == XAdES {
		// DSS's name for an XML signature of no baseline level, whether
		// plain XMLDSig or a XAdES it cannot read.
		return "XML_NOT_ETSI"
	}
	return f.String() + "_NOT_ETSI"
}

// FormatName is the signature's signatureFormat: its Form when the
// reader named one, else SignatureFormat(Format, Level).
func (s *Signature) FormatName() string {
	if s.Form != "" {
		return s.Form
	}
	return SignatureFormat(s.Format, s.Level)
}

// A Signature is the evidence of one signature in a document.
type Signature struct {
	// ID identifies the signature within the document, stably: the same
	// document always gives the same IDs.
	ID     string
	Format Format
	Level  Level
	// Container is the type of the container the signature came from,
	// as DSS and SiVa name it ("ASiC-S", "ASiC-E"); empty for a bare
	// signature. Its DataObjects are then container files, by name.
	Container string
	// Form names a form of the format outside the baseline levels, as
	// DSS names it, when the reader found one: XAdES_C, XAdES_X,
	// XAdES_XL, XAdES_A for the extended forms of XAdES 1.3.2/1.4.1
	// (Level is then the baseline level their evidence stands for),
	// XAdES_BASELINE_LT_TM for an Estonian BDOC 2.1 time-mark signature
	// (Level LT; TimeMark holds its evidence), or XML_NOT_ETSI for a
	// plain XMLDSig signature (Level NotBaseline).
	// Empty: the name is that of Format and Level (SignatureFormat).
	Form string

	// DataObjects are what the signature covers, each with its digest
	// check. Empty means the signed data could not be found (a detached
	// signature without its content).
	DataObjects []DataObject
	// Value is the check of the signature value.
	Value Check
	// SignatureValue is the signature value's octets as the document
	// holds them (a SignerInfo's signature, a ds:SignatureValue or a JWS
	// Signature Value, decoded); nil when the reader does not keep it.
	// Reports identify a signature by its digest (a counter-signature
	// in its parent's ETSI report); the process does not read it.
	SignatureValue []byte
	// SignedBytesSHA256 is the SHA-256 of the bytes the signature value
	// signs (CMS signed attributes, an attached JWS's signing input): with
	// the value's own digest, how a Signature Validation Token names the
	// signature (RFC 9321, sig_ref). Nil when the reader does not give it
	// (XAdES, a detached JWS).
	SignedBytesSHA256 []byte

	// SigningCertificate is the certificate whose key verified the
	// signature value, or the one the signer identifier names; nil when
	// none was found among the embedded and supplied certificates.
	SigningCertificate *x509.Certificate
	// Reference is the signed signing-certificate reference.
	Reference CertificateReference

	// ClaimedSigningTime is the signed signing time; zero when absent.
	ClaimedSigningTime time.Time
	// CommitmentTypes are the signed commitment-type OIDs or URIs.
	CommitmentTypes []string
	// PolicyID is the signature policy identifier; empty when implicit.
	PolicyID string
	// ContentType is the type of the signed content the signature
	// names (a CMS content-type signed attribute's OID); empty when it
	// names none. ContentTypeReported says the reader looks for it: a
	// reader that does not leaves both zero, and a policy does not hold
	// its signatures to it.
	ContentType         string
	ContentTypeReported bool

	// Certificates are every certificate the signature carries (signed
	// data, certificate values, timestamps' own excluded), deduplicated.
	Certificates []*x509.Certificate
	// CRLs and OCSPResponses are the embedded revocation data, raw DER:
	// CertificateList and OCSPResponse (or BasicOCSPResponse) encodings.
	CRLs          [][]byte
	OCSPResponses [][]byte

	// Placement says where the signature sits in its document; nil when
	// the signature is the whole file (a CMS signature).
	Placement *Placement

	// Timestamps are the signature's timestamps in document order.
	Timestamps []Timestamp
	// TimeMark is the signature's time-mark, an OCSP response standing
	// where a signature time-stamp stands; nil when it has none.
	TimeMark *TimeMark
	// CounterSignatures are signatures over this one, each with
	// CounterSignatureOf set to this signature's ID; their only data
	// object is this signature's value.
	CounterSignatures []Signature
	// CounterSignatureOf is the ID of the signature this one
	// counter-signs; empty for a signature of the document.
	CounterSignatureOf string

	// Problems are format findings that do not fit a field above (an
	// unsupported attribute, a malformed optional element), with stable
	// codes; the process reports a format failure for the first that is
	// one, and the others as warnings.
	Problems []Problem
}

// A DataObject is one signed data object and its digest check.
type DataObject struct {
	Name  string // file name, reference URI or "content"
	Found bool   // the data was available to check
	// Part is the position, from 1, of the detached part supplied with
	// the document (ports.Document.Detached) whose digest matched: the
	// part the signature covers, and Name is its file name. 0 when the
	// data is not a supplied part (attached content, a PDF's byte ranges,
	// a counter-signed value) or no part matched.
	Part int
	// Intact is true when the recomputed digest matches the signed one.
	Intact bool
	// Unchecked is the stable reason the digest could not be computed
	// (an unsupported algorithm); Intact then means nothing.
	Unchecked       string
	DigestAlgorithm string // e.g. SHA-256
	// Digest is the digest the signature covers (a CMS message-digest
	// attribute); nil when it carries none. It names the signer's
	// document in the validation reports.
	Digest []byte
}

// A Check is the outcome of one cryptographic check.
type Check struct {
	// Done is false when the check could not be made (no certificate,
	// unsupported algorithm); Reason says why.
	Done bool
	// Valid is meaningful when Done.
	Valid     bool
	Algorithm string // e.g. RSA-SHA256, RSASSA-PSS-SHA256, ECDSA-SHA256
	Reason    string // stable code when not Done or not Valid
}

// CertificateReference is the signed reference to the signing
// certificate (ESS signing-certificate(-v2), XAdES SigningCertificate(V2),
// JAdES x5t#S256 or sigX5ts).
type CertificateReference struct {
	Present bool
	// DigestMatched: the referenced digest equals the signing
	// certificate's. IssuerSerialMatched: the issuer and serial, when
	// present, equal the certificate's.
	DigestMatched       bool
	IssuerSerialPresent bool
	IssuerSerialMatched bool
}

// A Problem is a reader's finding, code first.
type Problem struct {
	Code    string
	Message string
	// FormatFailure says the finding makes the signature's format invalid
	// (EN 319 102-1, 5.2.2): what the document shows or holds is not what
	// was signed, or cannot be shown to be. The process then concludes
	// TOTAL_FAILED/FORMAT_FAILURE; a finding that is not one is a
	// warning. The reader decides, since it alone knows what its codes
	// mean; the process knows no reader's codes.
	FormatFailure bool
	// ID and Params let a catalogue word Message in another language, as
	// a verdict.Message's (verdict.Say); a finding without them is said in its
	// English, framed (docs/decisions/0038).
	ID     string
	Params []wording.Param
}

// Say is the finding of code in the sentence variant, whose English is
// english, made of params (as verdict.Say). Variants keep the code's own
// template ID for the findings worded by their reader's English alone.
func Say(code, variant, english string, params ...wording.Param) Problem {
	return Problem{Code: code, Message: english, ID: wording.ID(code, variant), Params: params}
}

// Failure is p as a finding that makes the format invalid.
func (p Problem) Failure() Problem {
	p.FormatFailure = true
	return p
}

// A Placement is where a signature sits in its document, so that the
// signatures of one document can be told apart, and what the document
// says of the signature beside it, outside what the signature signs:
// claims only. It is format-neutral: a PDF signature field and the
// revision it covers today, a container entry or an XML element
// tomorrow, each with the fields that apply to it. The reports render
// every placement alike, from these fields, whatever its kind.
type Placement struct {
	// Kind is what holds the signature; it says what Name names.
	Kind PlacementKind
	// Name names the signature's place in the document: a PDF signature
	// field's fully qualified name.
	Name string
	// Revision is the revision of the document the signature covers,
	// from 1 (the original document) in file order; 0 when the document
	// has no revisions, or the signature's extent in it is unsound.
	Revision int
	// CoversWholeDocument is whether the signature's extent reaches the
	// end of the document: nothing was added to it after the signature.
	CoversWholeDocument bool
	// Revisions is the number of revisions of the document, so that
	// Revision reads "N of Revisions"; 0 when Revision is.
	Revisions int
	// Changes say in words what the updates after the signed revision
	// changed, as the reader found them (the same findings are among
	// the signature's Problems); empty when it found none or nothing
	// follows the signature.
	Changes []string
	// Reason, Location and ContactInfo are what the signer claims beside
	// the signature, unsigned (a PDF signature dictionary's /Reason,
	// /Location and /ContactInfo, ISO 32000-2, 12.8.1); empty when absent.
	Reason, Location, ContactInfo string
}

// PlacementKind is what holds a signature in its document.
type PlacementKind uint8

const (
	_ PlacementKind = iota
	// PDFField is a signature field of a PDF (ISO 32000-2, 12.7.5.5),
	// named by its fully qualified name, in a document of revisions.
	PDFField // PDF field
)

func (k PlacementKind) String() string {
	if k == PDFField {
		return "PDF field"
	}
	return ""
}
