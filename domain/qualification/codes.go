package qualification

// Codes of the messages qualification adds to a signature's warnings
// when its answer is not the highest one, or not applicable: the plain
// reason why (docs/decisions/0021).
const (
	// CodeNoTrustedList: the signer chains to no trusted list (private
	// anchor, or none).
	CodeNoTrustedList = "QUALIFICATION_NO_TRUSTED_LIST"
	// CodeNoServiceAtTime: no service entry lists the CA at a time judged.
	CodeNoServiceAtTime = "QUALIFICATION_NO_SERVICE_AT_TIME"
	// CodeTypeNotCovered: the services do not cover the certificate's use.
	CodeTypeNotCovered = "QUALIFICATION_TYPE_NOT_COVERED"
	// CodeInconsistentService: a service's qualifiers contradict each other.
	CodeInconsistentService = "QUALIFICATION_INCONSISTENT_SERVICE"
	// CodeConflictingServices: services listing the CA disagree: NA.
	CodeConflictingServices = "QUALIFICATION_CONFLICTING_SERVICES"
	// CodeServiceNotQualified: the service is not CA/QC.
	CodeServiceNotQualified = "QUALIFICATION_SERVICE_NOT_QUALIFIED"
	// CodeServiceNotGranted: the CA/QC service was not granted then.
	CodeServiceNotGranted = "QUALIFICATION_SERVICE_NOT_GRANTED"
	// CodeNotQualified: the certificate is not a qualified certificate.
	CodeNotQualified = "QUALIFICATION_NOT_QC"
	// CodeNotQSCD: the key is not on a (Q)SCD.
	CodeNotQSCD = "QUALIFICATION_NOT_QSCD"
	// CodeChangedSinceIssuance: the qualification at issuance differs from
	// the one at signing time.
	CodeChangedSinceIssuance = "QUALIFICATION_CHANGED_SINCE_ISSUANCE"
	// CodeSignatureNotPassed: the signature is not TOTAL_PASSED, which
	// caps the qualification.
	CodeSignatureNotPassed = "QUALIFICATION_SIGNATURE_NOT_PASSED"
	// CodeNoQualifiedTimestamp: a Swiss QES without a qualified
	// time-stamp from a Swiss-listed TSA: not equivalent to a handwritten
	// signature.
	CodeNoQualifiedTimestamp = "QUALIFICATION_NO_QUALIFIED_TIMESTAMP"
	// CodeMRA: the answer rests on a third-country list recognised through
	// a mutual recognition agreement (informational).
	CodeMRA = "QUALIFICATION_MRA"
)
