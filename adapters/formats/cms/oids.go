package cms

import "encoding/asn1"

// Content types (RFC 5652, RFC 3161).
var (
	OIDData       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 1}
	OIDSignedData = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 2}
	OIDTSTInfo    = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 1, 4}
)

// Attribute types (RFC 5652 section 11, RFC 2634, RFC 5035, ETSI EN 319 122-1).
var (
	OIDAttrContentType          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 3}
	OIDAttrMessageDigest        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 4}
	OIDAttrSigningTime          = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 5}
	OIDAttrCounterSignature     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 6}
	OIDAttrSigningCertificate   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 12}
	OIDAttrSigningCertificateV2 = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 47}
	OIDAttrTimeStampToken       = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 14}
	OIDAttrContentTimeStamp     = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 9, 16, 2, 20}
	OIDAttrArchiveTimeStampV3   = asn1.ObjectIdentifier{0, 4, 0, 1733, 2, 4}
)

// Other revocation information formats (RFC 5940).
var (
	OIDRevInfoOCSPResponse = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 16, 2}
)
