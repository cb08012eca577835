package etsi

// Message codes that are not sub-indications (those are
// verdict.SubIndication's). Every error carries its sub-indication's
// name as its code, except CodePolicyInvalid; warnings carry
// these codes or a reader's Problem code. Which reader Problems are
// format failures (FORMAT_FAILURE) the reader says
// (ades.Problem.FormatFailure): the process lists no reader's codes. docs/decisions/0018-etsi-process.md
// describes each.
const (
	CodePolicyInvalid                = "POLICY_INVALID"
	CodeSigningCertificateRefMissing = "SIGNING_CERTIFICATE_REFERENCE_MISSING"
	CodeIssuerSerialMismatch         = "SIGNING_CERTIFICATE_ISSUER_SERIAL_MISMATCH"
	CodeTimestampInvalid             = "TIMESTAMP_INVALID"
	CodeArchiveTimestampInvalid      = "ARCHIVE_TIMESTAMP_INVALID"
	CodeTimestampNotTrusted          = "TIMESTAMP_NOT_TRUSTED"
	CodeTimestampTSACertificateBad   = "TIMESTAMP_TSA_CERTIFICATE_INVALID"
	CodeTimestampTSARevoked          = "TIMESTAMP_TSA_REVOKED"
	CodeTimestampRevocationUnknown   = "TIMESTAMP_REVOCATION_UNKNOWN"
	CodeTimestampAfterValidationTime = "TIMESTAMP_AFTER_VALIDATION_TIME"
	CodeClaimedSigningTimeOutside    = "CLAIMED_SIGNING_TIME_OUTSIDE_VALIDITY"
	CodeClaimedSigningTimeAfterPOE   = "CLAIMED_SIGNING_TIME_AFTER_TIMESTAMP"
	CodeRevokedAfterPOE              = "REVOKED_AFTER_POE"
	CodeExpiredAfterPOE              = "EXPIRED_AFTER_POE"
	CodeLevelNotSupported            = "LEVEL_NOT_SUPPORTED_BY_EVIDENCE"
	CodeTooManyTimestamps            = "TOO_MANY_TIMESTAMPS"
	// CodeAlgorithmExpiresSoon warns that an algorithm of the signature
	// or its path is acceptable only until a date within the policy's
	// ExpiryWarning (docs/decisions/0041).
	CodeAlgorithmExpiresSoon          = "ALGORITHM_EXPIRES_SOON"
	CodeCounterSignaturesNotValidated = "COUNTER_SIGNATURES_NOT_VALIDATED" // retired, reserved: counter-signatures are validated (decision 0017)
	// CodeTimeMarkNonceMismatch is the code of the error of a BDOC 2.1
	// time-mark whose nonce is not the digest of the signature value
	// (TOTAL_FAILED/SIG_CONSTRAINTS_FAILURE, docs/decisions/0031): the
	// one error whose code is not its sub-indication's name besides
	// CodePolicyInvalid. CodeTimeMarkInvalid warns of a time-mark that
	// gives no proof of existence otherwise.
	CodeTimeMarkNonceMismatch = "TIMEMARK_NONCE_MISMATCH"
	CodeTimeMarkInvalid       = "TIMEMARK_INVALID"
)
