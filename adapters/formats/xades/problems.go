package xades

// Problem codes, stable: the process and clients match on them. They go in
// ades.Signature.Problems and, for failed or undone checks, in
// ades.Check.Reason. A time-stamp token's own signature check carries the
// codes of package cades (the token is CMS).
const (
	// Check reasons.
	CodeSignerNotFound       = "XADES_SIGNER_CERTIFICATE_NOT_FOUND"
	CodeUnsupportedAlgorithm = "XADES_UNSUPPORTED_ALGORITHM"
	CodeSignatureInvalid     = "XADES_SIGNATURE_INVALID"
	CodeImprintMismatch      = "XADES_IMPRINT_MISMATCH"
	CodeImprintNotComputed   = "XADES_IMPRINT_NOT_COMPUTED"
	CodeNoContent            = "XADES_CONTENT_NOT_FOUND"
	// The nonce of a time-mark (ades.TimeMark.Nonce): the DigestInfo of
	// another value, or no DigestInfo at all (under the BDOC policy).
	CodeTimeMarkNonceMismatch  = "XADES_TIMEMARK_NONCE_MISMATCH"
	CodeTimeMarkNonceMalformed = "XADES_TIMEMARK_NONCE_MALFORMED"

	// Format failures (FormatFailure set): what the document shows is
	// not what was signed, or cannot be shown to be.
	CodeSignatureMalformed        = "XADES_SIGNATURE_MALFORMED"
	CodeSignedPropertiesNotSigned = "XADES_SIGNED_PROPERTIES_NOT_SIGNED"
	CodeSignedPropertiesReference = "XADES_SIGNED_PROPERTIES_REFERENCE_INVALID"
	CodeQualifyingProperties      = "XADES_QUALIFYING_PROPERTIES_INVALID"
	CodeDuplicateID               = "XADES_DUPLICATE_ID"
	CodeReferenceUnresolved       = "XADES_REFERENCE_UNRESOLVED"
	CodeXSLTTransform             = "XADES_XSLT_TRANSFORM"

	// Warnings.
	CodeNoSigningTime               = "XADES_NO_SIGNING_TIME"
	CodeSignedPropertiesType        = "XADES_SIGNED_PROPERTIES_REFERENCE_TYPE"
	CodeMultipleSigningCertRefs     = "XADES_MULTIPLE_SIGNING_CERT_REFERENCES"
	CodeMalformedProperty           = "XADES_MALFORMED_PROPERTY"
	CodeBadCertificate              = "XADES_BAD_CERTIFICATE"
	CodeTimestampUnreadable         = "XADES_TIMESTAMP_UNREADABLE"
	CodeTimestampUnsupported        = "XADES_TIMESTAMP_UNSUPPORTED"
	CodeManifestEntryNotFound       = "XADES_MANIFEST_ENTRY_NOT_FOUND"
	CodeManifestEntryNotIntact      = "XADES_MANIFEST_ENTRY_NOT_INTACT"
	CodeManifestMisplaced           = "XADES_MANIFEST_MISPLACED"
	CodeCounterSignatureTarget      = "XADES_COUNTER_SIGNATURE_TARGET"
	CodeUnsupportedTransform        = "XADES_UNSUPPORTED_TRANSFORM"
	CodeLimitExceeded               = "XADES_LIMIT_EXCEEDED"
	CodeQualifyingPropertiesMissing = "XADES_QUALIFYING_PROPERTIES_UNSIGNED"
)
