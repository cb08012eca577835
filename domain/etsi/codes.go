package etsi

// Sub-indications of EN 319 102-1 (clause 5.1.3) that the process
// produces, spelled as in the standard and in DSS reports.
const (
	SubFormatFailure              = "FORMAT_FAILURE"
	SubHashFailure                = "HASH_FAILURE"
	SubSigCryptoFailure           = "SIG_CRYPTO_FAILURE"
	SubNotYetValid                = "NOT_YET_VALID"
	SubNoSigningCertificateFound  = "NO_SIGNING_CERTIFICATE_FOUND"
	SubNoCertificateChainFound    = "NO_CERTIFICATE_CHAIN_FOUND"
	SubChainConstraintsFailure    = "CHAIN_CONSTRAINTS_FAILURE"
	SubCertificateChainGeneral    = "CERTIFICATE_CHAIN_GENERAL_FAILURE"
	SubRevokedNoPOE               = "REVOKED_NO_POE"
	SubRevokedCANoPOE             = "REVOKED_CA_NO_POE"
	SubOutOfBoundsNoPOE           = "OUT_OF_BOUNDS_NO_POE"
	SubTryLater                   = "TRY_LATER"
	SubSignedDataNotFound         = "SIGNED_DATA_NOT_FOUND"
	SubCryptoConstraintsFailureNP = "CRYPTO_CONSTRAINTS_FAILURE_NO_POE"
	SubCryptoConstraintsFailure   = "CRYPTO_CONSTRAINTS_FAILURE"
	SubPolicyProcessingError      = "POLICY_PROCESSING_ERROR"
)

// Message codes that are not sub-indications. Every error carries the
// sub-indication as its code, except CodePolicyInvalid; warnings carry
// these codes or a reader's Problem code. Which reader Problems are
// format failures (FORMAT_FAILURE) the reader says
// (ades.Problem.FormatFailure): the process lists no reader's codes. docs/decisions/0018-etsi-process.md
// describes each.
const (
	CodePolicyInvalid                 = "POLICY_INVALID"
	CodeSigningCertificateRefMissing  = "SIGNING_CERTIFICATE_REFERENCE_MISSING"
	CodeIssuerSerialMismatch          = "SIGNING_CERTIFICATE_ISSUER_SERIAL_MISMATCH"
	CodeTimestampInvalid              = "TIMESTAMP_INVALID"
	CodeArchiveTimestampInvalid       = "ARCHIVE_TIMESTAMP_INVALID"
	CodeTimestampNotTrusted           = "TIMESTAMP_NOT_TRUSTED"
	CodeTimestampTSACertificateBad    = "TIMESTAMP_TSA_CERTIFICATE_INVALID"
	CodeTimestampTSARevoked           = "TIMESTAMP_TSA_REVOKED"
	CodeTimestampRevocationUnknown    = "TIMESTAMP_REVOCATION_UNKNOWN"
	CodeTimestampAfterValidationTime  = "TIMESTAMP_AFTER_VALIDATION_TIME"
	CodeClaimedSigningTimeOutside     = "CLAIMED_SIGNING_TIME_OUTSIDE_VALIDITY"
	CodeClaimedSigningTimeAfterPOE    = "CLAIMED_SIGNING_TIME_AFTER_TIMESTAMP"
	CodeRevokedAfterPOE               = "REVOKED_AFTER_POE"
	CodeExpiredAfterPOE               = "EXPIRED_AFTER_POE"
	CodeLevelNotSupported             = "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"
	CodeTooManyTimestamps             = "TOO_MANY_TIMESTAMPS"
	CodeCounterSignaturesNotValidated = "COUNTER_SIGNATURES_NOT_VALIDATED"
)
