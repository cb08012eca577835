package report

import (
	"fmt"
	"strings"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/verdict"
)

// The URIs of ETSI TS 119 102-2 V1.4.1 the ETSI report uses
// (docs/decisions/0025 lists them with their clauses).
const (
	// ETSINamespace is the namespace of the TS 119 102-2 validation report.
	ETSINamespace = "http://uri.etsi.org/19102/v1.4.1#"
	dsNamespace   = "http://www.w3.org/2000/09/xmldsig#"

	mainIndication = "urn:etsi:019102:mainindication:"
	subIndication  = "urn:etsi:019102:subindication:"
	objectType     = "urn:etsi:019102:validationObject:"
	// poeValidation: the proof of existence was derived by the
	// validation (the validator held the object, or a time-stamp proved
	// it), neither provided to it nor taken from a policy.
	poeValidation    = "urn:etsi:019102:poetype:validation"
	revocationReason = "urn:etsi:019102:revocationReason:"
	// processLTA: the validation process for signatures providing long
	// term availability and integrity of validation material (EN 319
	// 102-1, 5.6), the one the process runs, simplified (0018): it always
	// looks at archive time-stamps.
	processLTA = "urn:etsi:019102:validationprocess:LTA"

	// eidasQuality prefixes the eIDAS signature qualifications, spelled
	// as EU DSS spells them in its reports; swissQuality prefixes our own
	// for the Swiss ones, for which there is no public vocabulary.
	eidasQuality = "urn:cef:dss:signatureQualification:"
	swissQuality = "urn:svc-dss:signatureQualification:zertes:"
	// reportData types our messages in AdditionalValidationReportData.
	reportDataError   = "urn:svc-dss:validation-report-data:error"
	reportDataWarning = "urn:svc-dss:validation-report-data:warning"
)

// indicationURI is the TS 119 102-2 URI of an indication, of a signature
// (TOTAL_PASSED, TOTAL_FAILED, INDETERMINATE) or of a validation object
// (PASSED, FAILED, INDETERMINATE).
func indicationURI(indication verdict.Indication) (string, error) {
	switch indication {
	case verdict.TotalPassed:
		return mainIndication + "total-passed", nil
	case verdict.TotalFailed:
		return mainIndication + "total-failed", nil
	case verdict.Indeterminate:
		return mainIndication + "indeterminate", nil
	case verdict.Passed:
		return mainIndication + "passed", nil
	case verdict.Failed:
		return mainIndication + "failed", nil
	}
	return "", fmt.Errorf("report: indication %q has no TS 119 102-2 URI", string(indication))
}

// subIndicationURI is the TS 119 102-2 URI of a sub-indication: its
// name under the standard's prefix.
func subIndicationURI(sub verdict.SubIndication) string {
	return subIndication + string(sub)
}

// eidasQualities are the DSS names of the qualifications
// domain/qualification gives an EU signature (INDETERMINATE_ forms
// apart).
var eidasQualities = map[string]string{
	qualification.QESig:         "QESig",
	qualification.QESeal:        "QESeal",
	qualification.UnknownQCQSCD: "UnknownQCwithQSCD",
	qualification.AdESigQC:      "AdESigQC",
	qualification.AdESealQC:     "AdESealQC",
	qualification.UnknownQC:     "UnknownQC",
	qualification.AdESig:        "AdESig",
	qualification.AdESeal:       "AdESeal",
	qualification.Unknown:       "Unknown",
	qualification.NotAdESQCQSCD: "notAdESbutQCwithQSCD",
	qualification.NotAdESQC:     "notAdESbutQC",
	qualification.NotAdES:       "notAdES",
	qualification.NA:            "notApplicable",
}

// qualityURIs are the SignatureQualityInformation of a signature report:
// its eIDAS qualification, or its Swiss one and, when true, the
// handwritten equivalence; none outside both frameworks.
func qualityURIs(r verdict.SignatureReport) ([]string, error) {
	var out []string
	if q := r.EIDASQualification; q != nil {
		v, indeterminate := strings.CutPrefix(*q, "INDETERMINATE_")
		name, ok := eidasQualities[v]
		if !ok || indeterminate && (v == qualification.NA || strings.HasPrefix(v, "NOT_ADES")) {
			return nil, fmt.Errorf("report: eIDAS qualification %q has no URI", *q)
		}
		if indeterminate {
			name = "indeterminate" + name
		}
		out = append(out, eidasQuality+name)
	}
	if q := r.SwissQualification; q != nil {
		switch *q {
		case qualification.ZertESQES, qualification.ZertESRegulatedSignature, qualification.ZertESRegulatedSeal,
			qualification.ZertESAdvanced, qualification.ZertESNotApplicable:
			out = append(out, swissQuality+*q)
		default:
			return nil, fmt.Errorf("report: Swiss qualification %q has no URI", *q)
		}
		if h := r.HandwrittenEquivalent; h != nil && *h {
			out = append(out, swissQuality+"HANDWRITTEN_EQUIVALENT")
		}
	}
	return out, nil
}

// revocationReasons are the CRLReason values of RFC 5280, 5.3.1, by
// code (7 is not used).
var revocationReasons = map[int]string{
	0: "unspecified", 1: "keyCompromise", 2: "cACompromise", 3: "affiliationChanged", 4: "superseded",
	5: "cessationOfOperation", 6: "certificateHold", 8: "removeFromCRL", 9: "privilegeWithdrawn", 10: "aACompromise",
}

// digestURIs are the XML digest method URIs of the digest algorithms a
// reader names (crypto.Hash spellings).
var digestURIs = map[string]string{
	"SHA-1":    "http://www.w3.org/2000/09/xmldsig#sha1",
	"SHA-224":  "http://www.w3.org/2001/04/xmldsig-more#sha224",
	"SHA-256":  "http://www.w3.org/2001/04/xmlenc#sha256",
	"SHA-384":  "http://www.w3.org/2001/04/xmldsig-more#sha384",
	"SHA-512":  "http://www.w3.org/2001/04/xmlenc#sha512",
	"SHA3-224": "http://www.w3.org/2007/05/xmldsig-more#sha3-224",
	"SHA3-256": "http://www.w3.org/2007/05/xmldsig-more#sha3-256",
	"SHA3-384": "http://www.w3.org/2007/05/xmldsig-more#sha3-384",
	"SHA3-512": "http://www.w3.org/2007/05/xmldsig-more#sha3-512",
}

// timestampAttribute is the SignatureAttributes element of TS 119 102-2
// Annex A for a time-stamp of a signature; "" for a validation-data
// time-stamp, whose kind (CAdES-X type 1 or 2) the evidence does not
// keep. An archive time-stamp of the whole document (a PDF document
// time-stamp) is a DocTimeStamp, whatever the format.
func timestampAttribute(ts ades.Timestamp) string {
	switch ts.Type {
	case ades.ContentTimestamp:
		return "AllDataObjectsTimeStamp"
	case ades.SignatureTimestamp:
		return "SignatureTimeStamp"
	case ades.ArchiveTimestamp:
		if ts.Document {
			return "DocTimeStamp"
		}
		return "ArchiveTimeStamp"
	}
	return ""
}
