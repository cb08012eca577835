package cades

import "encoding/asn1"

// Attribute types read here besides those of package cms (ETSI EN 319
// 122-1, ETSI TS 101 733, RFC 5126).
var (
	// OIDAttrATSHashIndexV3 is id-aa-ATSHashIndex-v3 (EN 319 122-1,
	// 5.5.2), an unsigned attribute of the archive-time-stamp-v3 token's
	// SignerInfo; one index entry per unsigned attribute value.
	OIDAttrATSHashIndexV3 = asn1.ObjectIdentifier{0, 4, 0, 19122, 1, 5}
	// OIDAttrATSHashIndexV2 (0.4.0.19122.1.4) and OIDAttrATSHashIndex
	// (TS 101 733, 0.4.0.1733.2.5) are the earlier forms: one entry per
	// unsigned attribute, the hash of its whole DER encoding.
	OIDAttrATSHashIndexV2 = asn1.ObjectIdentifier{0, 4, 0, 19122, 1, 4}
	OIDAttrATSHashIndex   = asn1.ObjectIdentifier{0, 4, 0, 1733, 2, 5}

	// OIDAttrArchiveTimeStampV2 is id-aa-ets-archiveTimestampV2 (TS 101
	// 733, CAdES-A).
	OIDAttrArchiveTimeStampV2 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 48}

	OIDAttrCommitmentType    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 16}
	OIDAttrSignaturePolicy   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 15}
	OIDAttrCertificateValues = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 23}
	OIDAttrRevocationValues  = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 24}
	// oidOCSPBasic is id-pkix-ocsp-basic; DSS also writes a
	// BasicOCSPResponse under it in the crls field.
	oidOCSPBasic = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 1}
)
