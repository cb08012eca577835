package jades

// Problem codes, stable: the process and clients match on them. They go in
// ades.Signature.Problems and, for failed or undone checks, in
// ades.Check.Reason. A time-stamp token's own signature check carries the
// codes of package cades (the token is CMS).
const (
	// Check reasons.
	CodeSignerNotFound       = "JADES_SIGNER_CERTIFICATE_NOT_FOUND"
	CodeUnsupportedAlgorithm = "JADES_UNSUPPORTED_ALGORITHM"
	CodeSignatureInvalid     = "JADES_SIGNATURE_INVALID"
	CodeKeyMismatch          = "JADES_KEY_TYPE_MISMATCH"
	CodeImprintMismatch      = "JADES_IMPRINT_MISMATCH"
	CodeImprintNotComputed   = "JADES_IMPRINT_NOT_COMPUTED"
	CodeNoContent            = "JADES_CONTENT_NOT_FOUND"
	CodeUnsupportedMechanism = "JADES_UNSUPPORTED_SIGD_MECHANISM"

	// Format failures (FormatFailure set): what the document shows is
	// not what was signed, or cannot be shown to be.
	CodeAlgorithmRefused = "JADES_ALGORITHM_REFUSED"
	CodeCritUnknown      = "JADES_CRIT_NOT_UNDERSTOOD"
	CodeHeaderInvalid    = "JADES_HEADER_INVALID"

	// Warnings.
	CodeNoSigningTime       = "JADES_NO_SIGNING_TIME"
	CodeMalformedProperty   = "JADES_MALFORMED_PROPERTY"
	CodeBadCertificate      = "JADES_BAD_CERTIFICATE"
	CodeTimestampUnreadable = "JADES_TIMESTAMP_UNREADABLE"
	CodeUnknownComponent    = "JADES_UNKNOWN_UNSIGNED_COMPONENT"
	CodeMixedComponentForms = "JADES_MIXED_ETSIU_FORMS"
	CodeLimitExceeded       = "JADES_LIMIT_EXCEEDED"
	// CodeCounterSignatureUnreadable: a cSig is not a JWS of the compact
	// or flattened serialisation that can be read; it is left out and
	// its parent validated as it is.
	CodeCounterSignatureUnreadable = "JADES_COUNTER_SIGNATURE_UNREADABLE"
)
