package trust

// ServiceType is the kind of trust service, normalised across the ETSI and
// Swiss namespaces.
type ServiceType uint8

const (
	_                      ServiceType = iota
	TypeOther                          // a type this package does not name
	TypeCAQC                           // CA/QC: issues qualified certificates
	TypeCAPKC                          // CA/PKC: issues non-qualified certificates
	TypeQTST                           // TSA/QTST: qualified time-stamping
	TypeTSA                            // TSA: non-qualified time-stamping
	TypeOCSPQC                         // Certstatus/OCSP/QC
	TypeOCSP                           // Certstatus/OCSP
	TypeCRLQC                          // Certstatus/CRL/QC
	TypeCRL                            // Certstatus/CRL
	TypeNationalRootCAQC               // NationalRootCA-QC
	TypeQESValidationQ                 // QESValidation/Q
	TypeTSATSSQC                       // TSA/TSS-QC
	TypeTSATSSAdESQCAndQES             // TSA/TSS-AdESQCandQES
	TypeEDSQ                           // EDS/Q
	TypeEDSREMQ                        // EDS/REM/Q
	TypeACA                            // ACA
	TypeRA                             // RA
)

// Status is a service's approval status, normalised across namespaces and
// across the pre-2016 (accredited, undersupervision…) and eIDAS (granted,
// withdrawn…) vocabularies.
type Status uint8

const (
	_                             Status = iota
	StatusOther                          // a status this package does not name
	StatusGranted                        // granted
	StatusWithdrawn                      // withdrawn
	StatusRecognisedAtNational           // recognisedatnationallevel
	StatusDeprecatedAtNational           // deprecatedatnationallevel
	StatusAccredited                     // accredited (pre-eIDAS)
	StatusAccreditationCeased            // accreditationceased (pre-eIDAS)
	StatusAccreditationRevoked           // accreditationrevoked (pre-eIDAS)
	StatusUnderSupervision               // undersupervision (pre-eIDAS)
	StatusSupervisionInCessation         // supervisionincessation (pre-eIDAS)
	StatusSupervisionCeased              // supervisionceased (pre-eIDAS)
	StatusSupervisionRevoked             // supervisionrevoked (pre-eIDAS)
	StatusSetByNationalLaw               // setbynationallaw
	StatusDeprecatedByNationalLaw        // deprecatedbynationallaw
)

// Authenticity is the outcome of checking a list's own signature
// (validation-service.md §3, "Authenticity of a trusted list").
type Authenticity uint8

const (
	_ Authenticity = iota
	// AuthValid: the signature verifies and its signer is a configured or
	// announced signer of this list.
	AuthValid // VALID
	// AuthInvalid: tampered: a reference digest or the signature value fails.
	AuthInvalid // INVALID
	// AuthIndeterminate: the signature may be intact but its signer is not
	// one the list may be signed by (substituted list, unconfigured anchor),
	// or the list carries no usable signature.
	AuthIndeterminate // INDETERMINATE
	// AuthNotChecked: no anchor is configured to check it against (missing
	// keystore or Swiss signer certificate).
	AuthNotChecked // NOT_CHECKED
)

func (a Authenticity) String() string {
	switch a {
	case AuthValid:
		return "VALID"
	case AuthInvalid:
		return "INVALID"
	case AuthIndeterminate:
		return "INDETERMINATE"
	case AuthNotChecked:
		return "NOT_CHECKED"
	}
	return ""
}
