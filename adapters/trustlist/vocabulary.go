package trustlist

import (
	"strings"

	"github.com/svc-dss/dss/domain/trust"
)

// The vocabulary tables. Every URI is written out in full: a URI maps to
// an enum only if it is listed here, exactly (after trimming white
// space). Nothing is derived from a prefix or a suffix, so a new or
// misspelt URI becomes TypeOther/StatusOther, with the URI kept beside it
// in the domain value, instead of being guessed into a qualified type.
// docs/decisions/0011-trusted-list-vocabulary.md is the same table with
// its sources; change both together (TestVocabularyDocMatchesTable checks
// it).
//
// Three namespaces are covered:
//
//   - ETSI TS 119 612 (http://uri.etsi.org/TrstSvc/...), used by every EU
//     and EEA list;
//   - the TS 102 231 v3 / Directive 1999/93/EC status namespace
//     (http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/...),
//     still found in TSL v3 samples;
//   - the Swiss list's own namespace (https://uri.tsl-switzerland.ch/
//     TrstSvc/...). Only Svctype/CA/QC is reported in use (second hand);
//     the other Swiss entries assume the ETSI paths under the Swiss base.

var serviceTypes = map[string]trust.ServiceType{
	// ETSI TS 119 612 §5.5.1.1
	"http://uri.etsi.org/TrstSvc/Svctype/CA/QC":                trust.TypeCAQC,
	"http://uri.etsi.org/TrstSvc/Svctype/CA/PKC":               trust.TypeCAPKC,
	"http://uri.etsi.org/TrstSvc/Svctype/TSA/QTST":             trust.TypeQTST,
	"http://uri.etsi.org/TrstSvc/Svctype/TSA":                  trust.TypeTSA,
	"http://uri.etsi.org/TrstSvc/Svctype/Certstatus/OCSP/QC":   trust.TypeOCSPQC,
	"http://uri.etsi.org/TrstSvc/Svctype/Certstatus/OCSP":      trust.TypeOCSP,
	"http://uri.etsi.org/TrstSvc/Svctype/Certstatus/CRL/QC":    trust.TypeCRLQC,
	"http://uri.etsi.org/TrstSvc/Svctype/Certstatus/CRL":       trust.TypeCRL,
	"http://uri.etsi.org/TrstSvc/Svctype/NationalRootCA-QC":    trust.TypeNationalRootCAQC,
	"http://uri.etsi.org/TrstSvc/Svctype/QESValidation/Q":      trust.TypeQESValidationQ,
	"http://uri.etsi.org/TrstSvc/Svctype/TSA/TSS-QC":           trust.TypeTSATSSQC,
	"http://uri.etsi.org/TrstSvc/Svctype/TSA/TSS-AdESQCandQES": trust.TypeTSATSSAdESQCAndQES,
	"http://uri.etsi.org/TrstSvc/Svctype/EDS/Q":                trust.TypeEDSQ,
	"http://uri.etsi.org/TrstSvc/Svctype/EDS/REM/Q":            trust.TypeEDSREMQ,
	"http://uri.etsi.org/TrstSvc/Svctype/ACA":                  trust.TypeACA,
	"http://uri.etsi.org/TrstSvc/Svctype/RA":                   trust.TypeRA,
	"http://uri.etsi.org/TrstSvc/Svctype/RA/nothavingPKIid":    trust.TypeRA,

	// Swiss namespace (CA/QC reported in use; the rest assumed)
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/CA/QC":                trust.TypeCAQC,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/CA/PKC":               trust.TypeCAPKC,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/TSA/QTST":             trust.TypeQTST,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/TSA":                  trust.TypeTSA,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/Certstatus/OCSP/QC":   trust.TypeOCSPQC,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/Certstatus/OCSP":      trust.TypeOCSP,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/Certstatus/CRL/QC":    trust.TypeCRLQC,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/Certstatus/CRL":       trust.TypeCRL,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/NationalRootCA-QC":    trust.TypeNationalRootCAQC,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/QESValidation/Q":      trust.TypeQESValidationQ,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/TSA/TSS-QC":           trust.TypeTSATSSQC,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/TSA/TSS-AdESQCandQES": trust.TypeTSATSSAdESQCAndQES,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/EDS/Q":                trust.TypeEDSQ,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/EDS/REM/Q":            trust.TypeEDSREMQ,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/ACA":                  trust.TypeACA,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/RA":                   trust.TypeRA,
	"https://uri.tsl-switzerland.ch/TrstSvc/Svctype/RA/nothavingPKIid":    trust.TypeRA,
}

var statuses = map[string]trust.Status{
	// ETSI TS 119 612 §5.5.4, eIDAS (2016 onwards)
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/granted":                   trust.StatusGranted,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/withdrawn":                 trust.StatusWithdrawn,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/recognisedatnationallevel": trust.StatusRecognisedAtNational,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/deprecatedatnationallevel": trust.StatusDeprecatedAtNational,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/setbynationallaw":          trust.StatusSetByNationalLaw,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/deprecatedbynationallaw":   trust.StatusDeprecatedByNationalLaw,
	// ETSI TS 119 612 §5.5.4, Directive 1999/93/EC (before 1 July 2016)
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/accredited":             trust.StatusAccredited,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/accreditationceased":    trust.StatusAccreditationCeased,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/accreditationrevoked":   trust.StatusAccreditationRevoked,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/undersupervision":       trust.StatusUnderSupervision,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/supervisionincessation": trust.StatusSupervisionInCessation,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/supervisionceased":      trust.StatusSupervisionCeased,
	"http://uri.etsi.org/TrstSvc/TrustedList/Svcstatus/supervisionrevoked":     trust.StatusSupervisionRevoked,
	// ETSI TS 102 231 v3 (TSL v3), Directive 1999/93/EC
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/accredited":             trust.StatusAccredited,
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/accreditationceased":    trust.StatusAccreditationCeased,
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/accreditationrevoked":   trust.StatusAccreditationRevoked,
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/undersupervision":       trust.StatusUnderSupervision,
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/supervisionincessation": trust.StatusSupervisionInCessation,
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/supervisionceased":      trust.StatusSupervisionCeased,
	"http://uri.etsi.org/TrstSvc/eSigDir-1999-93-EC-TrustedList/Svcstatus/supervisionrevoked":     trust.StatusSupervisionRevoked,

	// Swiss namespace (all assumed)
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/granted":                   trust.StatusGranted,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/withdrawn":                 trust.StatusWithdrawn,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/recognisedatnationallevel": trust.StatusRecognisedAtNational,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/deprecatedatnationallevel": trust.StatusDeprecatedAtNational,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/setbynationallaw":          trust.StatusSetByNationalLaw,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/deprecatedbynationallaw":   trust.StatusDeprecatedByNationalLaw,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/accredited":                trust.StatusAccredited,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/accreditationceased":       trust.StatusAccreditationCeased,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/accreditationrevoked":      trust.StatusAccreditationRevoked,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/undersupervision":          trust.StatusUnderSupervision,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/supervisionincessation":    trust.StatusSupervisionInCessation,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/supervisionceased":         trust.StatusSupervisionCeased,
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/Svcstatus/supervisionrevoked":        trust.StatusSupervisionRevoked,
}

// ServiceTypeOf maps a ServiceTypeIdentifier URI to its enum by the
// explicit table of vocabulary.go; a URI not in the table, including an
// empty one, is [trust.TypeOther]. It never fails: the caller keeps the
// URI for reports.
func ServiceTypeOf(uri string) trust.ServiceType {
	if t, ok := serviceTypes[strings.TrimSpace(uri)]; ok {
		return t
	}
	return trust.TypeOther
}

// StatusOf maps a ServiceStatus URI to its enum by the explicit table of
// vocabulary.go; a URI not in the table is [trust.StatusOther].
func StatusOf(uri string) trust.Status {
	if s, ok := statuses[strings.TrimSpace(uri)]; ok {
		return s
	}
	return trust.StatusOther
}
