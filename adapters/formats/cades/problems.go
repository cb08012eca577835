package cades

import "errors"

// Problem codes, stable: the process and clients match on them. They go in
// ades.Signature.Problems and, for failed or undone checks, in
// ades.Check.Reason.
const (
	// Check reasons.
	CodeSignerNotFound       = "CADES_SIGNER_CERTIFICATE_NOT_FOUND"
	CodeUnsupportedAlgorithm = "CADES_UNSUPPORTED_ALGORITHM"
	CodeSignatureInvalid     = "CADES_SIGNATURE_INVALID"
	CodeSignatureMalformed   = "CADES_SIGNATURE_MALFORMED"
	CodeNoContent            = "CADES_CONTENT_NOT_FOUND"
	CodeImprintMismatch      = "CADES_IMPRINT_MISMATCH"
	CodeImprintNotComputed   = "CADES_IMPRINT_NOT_COMPUTED"

	// Signature findings.
	CodeContentTypeMismatch         = "CADES_CONTENT_TYPE_MISMATCH"
	CodeMessageDigestMissing        = "CADES_MESSAGE_DIGEST_MISSING"
	CodeMultipleSigningCertRefs     = "CADES_MULTIPLE_SIGNING_CERT_REFERENCES"
	CodeMalformedAttribute          = "CADES_MALFORMED_ATTRIBUTE"
	CodeNoSigningTime               = "CADES_NO_SIGNING_TIME"
	CodeBadCertificate              = "CADES_BAD_CERTIFICATE"
	CodeTimestampUnreadable         = "CADES_TIMESTAMP_UNREADABLE"
	CodeATSHashIndexMissing         = "CADES_ATS_HASH_INDEX_MISSING"
	CodeATSHashIndexMismatch        = "CADES_ATS_HASH_INDEX_MISMATCH"
	CodeDetachedIgnored             = "CADES_DETACHED_CONTENT_IGNORED"
	CodeNoSignedAttributes          = "CADES_NO_SIGNED_ATTRIBUTES"
	CodeCounterSignatureContentType = "CADES_COUNTER_SIGNATURE_CONTENT_TYPE"
	CodeLimitExceeded               = "CADES_LIMIT_EXCEEDED"
)

// Errors of the exported archive-time-stamp functions.
var (
	// ErrStructure reports a SignedData or SignerInfo whose elements
	// cannot be located in DER (the archive-time-stamp-v3 imprint is
	// defined over them as encoded).
	ErrStructure = errors.New("cades: unexpected SignedData structure")

	// ErrUnsupported reports a hash algorithm this package does not
	// compute.
	ErrUnsupported = errors.New("cades: unsupported")
)
