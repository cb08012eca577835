package verdict

import "fmt"

// Indication is an indication of ETSI EN 319 102-1 (clause 5.1.3): of a
// signature, TOTAL_PASSED, TOTAL_FAILED or INDETERMINATE; of a building
// block or a validation object (a time-stamp, 5.4), PASSED, FAILED or
// INDETERMINATE. The zero value is no indication.
//
// It is written and read as its name, as DSS spells it in its reports
// (MarshalText, UnmarshalText): a value this type does not declare is an
// error either way, so that nothing else is published or accepted.
type Indication string

// The indications of a signature (EN 319 102-1, 5.3, 5.5, 5.6), as
// [SignatureReport.Indication] carries them.
const (
	TotalPassed   Indication = "TOTAL_PASSED"
	TotalFailed   Indication = "TOTAL_FAILED"
	Indeterminate Indication = "INDETERMINATE"
)

// The indications of a building block (EN 319 102-1, 5.2) and of a
// validation object (5.4) besides INDETERMINATE.
const (
	Passed Indication = "PASSED"
	Failed Indication = "FAILED"
)

// known reports whether i is declared here.
func (i Indication) known() bool {
	switch i {
	case TotalPassed, TotalFailed, Indeterminate, Passed, Failed:
		return true
	}
	return false
}

// String returns the indication's name, "" for the zero value.
func (i Indication) String() string { return string(i) }

// MarshalText returns the indication's name; empty for the zero value,
// an error for a value this type does not declare.
func (i Indication) MarshalText() ([]byte, error) {
	if i != "" && !i.known() {
		return nil, fmt.Errorf("verdict: unknown indication %q", string(i))
	}
	return []byte(i), nil
}

// UnmarshalText sets i from its name; empty text is the zero value, a
// name this type does not declare an error.
func (i *Indication) UnmarshalText(text []byte) error {
	v := Indication(text)
	if v != "" && !v.known() {
		return fmt.Errorf("verdict: unknown indication %q", string(text))
	}
	*i = v
	return nil
}

// SubIndication is a sub-indication of ETSI EN 319 102-1 (clause 5.1.3):
// why a signature, a building block or a validation object did not pass.
// The zero value is none, as when TOTAL_PASSED. All 25 of the standard
// are declared, those the process does not produce too, so that a report
// that names any of them can be read; docs/decisions/0018-etsi-process.md
// says which the process produces and when.
//
// It is written and read as its name, as DSS spells it in its reports
// (MarshalText, UnmarshalText): a value this type does not declare is an
// error either way.
type SubIndication string

// Sub-indications of TOTAL_FAILED (FAILED for a building block).
const (
	SubFormatFailure    SubIndication = "FORMAT_FAILURE"
	SubHashFailure      SubIndication = "HASH_FAILURE"
	SubSigCryptoFailure SubIndication = "SIG_CRYPTO_FAILURE"
	SubRevoked          SubIndication = "REVOKED"
	SubExpired          SubIndication = "EXPIRED"
	SubNotYetValid      SubIndication = "NOT_YET_VALID"
)

// Sub-indications of INDETERMINATE.
const (
	SubSigConstraintsFailure          SubIndication = "SIG_CONSTRAINTS_FAILURE"
	SubChainConstraintsFailure        SubIndication = "CHAIN_CONSTRAINTS_FAILURE"
	SubCertificateChainGeneralFailure SubIndication = "CERTIFICATE_CHAIN_GENERAL_FAILURE"
	SubCryptoConstraintsFailure       SubIndication = "CRYPTO_CONSTRAINTS_FAILURE"
	SubPolicyProcessingError          SubIndication = "POLICY_PROCESSING_ERROR"
	SubSignaturePolicyNotAvailable    SubIndication = "SIGNATURE_POLICY_NOT_AVAILABLE"
	SubTimestampOrderFailure          SubIndication = "TIMESTAMP_ORDER_FAILURE"
	SubNoSigningCertificateFound      SubIndication = "NO_SIGNING_CERTIFICATE_FOUND"
	SubNoCertificateChainFound        SubIndication = "NO_CERTIFICATE_CHAIN_FOUND"
	SubNoCertificateChainFoundNoPOE   SubIndication = "NO_CERTIFICATE_CHAIN_FOUND_NO_POE"
	SubRevokedNoPOE                   SubIndication = "REVOKED_NO_POE"
	SubRevokedCANoPOE                 SubIndication = "REVOKED_CA_NO_POE"
	SubOutOfBoundsNotRevoked          SubIndication = "OUT_OF_BOUNDS_NOT_REVOKED"
	SubOutOfBoundsNoPOE               SubIndication = "OUT_OF_BOUNDS_NO_POE"
	SubRevocationOutOfBoundsNoPOE     SubIndication = "REVOCATION_OUT_OF_BOUNDS_NO_POE"
	SubCryptoConstraintsFailureNoPOE  SubIndication = "CRYPTO_CONSTRAINTS_FAILURE_NO_POE"
	SubNoPOE                          SubIndication = "NO_POE"
	SubTryLater                       SubIndication = "TRY_LATER"
	SubSignedDataNotFound             SubIndication = "SIGNED_DATA_NOT_FOUND"
)

// known reports whether s is declared here.
func (s SubIndication) known() bool {
	switch s {
	case SubFormatFailure, SubHashFailure, SubSigCryptoFailure, SubRevoked, SubExpired, SubNotYetValid,
		SubSigConstraintsFailure, SubChainConstraintsFailure, SubCertificateChainGeneralFailure,
		SubCryptoConstraintsFailure, SubPolicyProcessingError, SubSignaturePolicyNotAvailable,
		SubTimestampOrderFailure, SubNoSigningCertificateFound, SubNoCertificateChainFound,
		SubNoCertificateChainFoundNoPOE, SubRevokedNoPOE, SubRevokedCANoPOE, SubOutOfBoundsNotRevoked,
		SubOutOfBoundsNoPOE, SubRevocationOutOfBoundsNoPOE, SubCryptoConstraintsFailureNoPOE, SubNoPOE,
		SubTryLater, SubSignedDataNotFound:
		return true
	}
	return false
}

// String returns the sub-indication's name, "" for the zero value.
func (s SubIndication) String() string { return string(s) }

// MarshalText returns the sub-indication's name; empty for the zero
// value, an error for a value this type does not declare.
func (s SubIndication) MarshalText() ([]byte, error) {
	if s != "" && !s.known() {
		return nil, fmt.Errorf("verdict: unknown sub-indication %q", string(s))
	}
	return []byte(s), nil
}

// UnmarshalText sets s from its name; empty text is the zero value, a
// name this type does not declare an error.
func (s *SubIndication) UnmarshalText(text []byte) error {
	v := SubIndication(text)
	if v != "" && !v.known() {
		return fmt.Errorf("verdict: unknown sub-indication %q", string(text))
	}
	*s = v
	return nil
}
