package ades

import (
	"crypto/x509"
	"time"
)

// TimestampType is what a timestamp covers.
type TimestampType uint8

const (
	_ TimestampType = iota
	// ContentTimestamp covers the signed data before signing.
	ContentTimestamp
	// SignatureTimestamp covers the signature value (level T).
	SignatureTimestamp
	// ValidationDataTimestamp covers validation data references (CAdES-X).
	ValidationDataTimestamp
	// ArchiveTimestamp covers the signature and its validation data
	// (level LTA), including a PAdES document timestamp.
	ArchiveTimestamp
)

// String is the type's name in reports: CONTENT_TIMESTAMP,
// SIGNATURE_TIMESTAMP, VALIDATION_DATA_TIMESTAMP or ARCHIVE_TIMESTAMP
// (validation-service.md §2, docs/validate-api.md), TIMESTAMP for none.
func (t TimestampType) String() string {
	switch t {
	case ContentTimestamp:
		return "CONTENT_TIMESTAMP"
	case SignatureTimestamp:
		return "SIGNATURE_TIMESTAMP"
	case ValidationDataTimestamp:
		return "VALIDATION_DATA_TIMESTAMP"
	case ArchiveTimestamp:
		return "ARCHIVE_TIMESTAMP"
	}
	return "TIMESTAMP"
}

// A Timestamp is one RFC 3161 timestamp and its checks.
type Timestamp struct {
	Type    TimestampType
	GenTime time.Time
	// Imprint is the check of the message imprint against what the
	// timestamp covers.
	Imprint Check
	// Value is the check of the token's signature.
	Value Check
	// TSACertificate is the certificate that signed the token; nil when
	// not found. Certificates are those the token carries.
	TSACertificate *x509.Certificate
	Certificates   []*x509.Certificate
	// Reference is the token's ESS signing-certificate reference.
	Reference CertificateReference
	// CRLs and OCSPResponses embedded for the TSA, raw.
	CRLs          [][]byte
	OCSPResponses [][]byte
	// Token is the TimeStampToken as the document carries it (a CMS
	// ContentInfo, without padding after it); the process does not read
	// it, the validation reports carry it.
	Token []byte
	// Document is true for a time-stamp of the document as a whole, the
	// signatures in it included (a PDF document time-stamp, ETSI EN 319
	// 142-1, 5.4.3), rather than of one signature: the reports name an
	// archive time-stamp of the document a document time-stamp.
	Document bool
}
