package qualification

import (
	"time"

	"github.com/svc-dss/dss/domain/trust"
)

// EIDASDate is when Regulation (EU) No 910/2014 applied (1 July 2016,
// Brussels time): services and certificates from then on are judged by
// its rules, earlier ones by Directive 1999/93/EC's.
var EIDASDate = time.Date(2016, 6, 30, 22, 0, 0, 0, time.UTC)

// A qualifier of a service's Qualifications extension (ETSI TS 119 612,
// 5.5.9.2.3).
type qualifier uint8

const (
	qOther qualifier = iota
	qQCStatement
	qNotQualified
	qWithSSCD
	qWithQSCD
	qNoSSCD
	qNoQSCD
	qSSCDAsInCert
	qQSCDAsInCert
	qQSCDManagedOnBehalf
	qForLegalPerson
	qForESig
	qForESeal
	qForWSA
)

// qualifierNames are the qualifier URIs' last segment; a URI counts only
// under one of qualifierBases, written out in full (no guessing from a
// suffix elsewhere, as docs/decisions/0011 rules).
var qualifierNames = map[string]qualifier{
	"QCStatement": qQCStatement, "NotQualified": qNotQualified,
	"QCWithSSCD": qWithSSCD, "QCWithQSCD": qWithQSCD, "QCNoSSCD": qNoSSCD, "QCNoQSCD": qNoQSCD,
	"QCSSCDStatusAsInCert": qSSCDAsInCert, "QCQSCDStatusAsInCert": qQSCDAsInCert,
	"QCQSCDManagedOnBehalf": qQSCDManagedOnBehalf, "QCForLegalPerson": qForLegalPerson,
	"QCForESig": qForESig, "QCForESeal": qForESeal, "QCForWSA": qForWSA,
}

// qualifierBases: ETSI TS 119 612's, and the Swiss list's own namespace
// (assumed to follow ETSI's paths, docs/decisions/0021).
var qualifierBases = []string{
	"http://uri.etsi.org/TrstSvc/TrustedList/SvcInfoExt/",
	"https://uri.tsl-switzerland.ch/TrstSvc/TrustedList/SvcInfoExt/",
}

func qualifierOf(uri string) qualifier {
	for _, b := range qualifierBases {
		if len(uri) > len(b) && uri[:len(b)] == b {
			return qualifierNames[uri[len(b):]]
		}
	}
	return qOther
}

func qualifiersOf(uris []string) map[qualifier]bool {
	out := map[qualifier]bool{}
	for _, u := range uris {
		if q := qualifierOf(u); q != qOther {
			out[q] = true
		}
	}
	return out
}

// Additional service information (ETSI TS 119 612, 5.5.9.4): the kind of
// certificates a CA/QC service is qualified for.
func asiType(uri string) CertType {
	for _, b := range qualifierBases {
		if len(uri) > len(b) && uri[:len(b)] == b {
			switch uri[len(b):] {
			case "ForeSignatures":
				return TypeESig
			case "ForeSeals":
				return TypeESeal
			case "ForWebSiteAuthentication":
				return TypeWSA
			}
		}
	}
	return TypeUnknown
}

// grantedAt reports whether status, in force from start, approves the
// service (ETSI TS 119 615, 4.3.4.x): "granted" from the eIDAS date on,
// the Directive's approving statuses before it.
func granted(status trust.Status, start time.Time) bool {
	if !start.Before(EIDASDate) {
		return status == trust.StatusGranted
	}
	switch status {
	case trust.StatusUnderSupervision, trust.StatusSupervisionInCessation, trust.StatusAccredited:
		return true
	}
	return false
}

// postEIDASStatus reports whether status belongs to the eIDAS vocabulary.
func postEIDASStatus(s trust.Status) bool {
	switch s {
	case trust.StatusGranted, trust.StatusWithdrawn, trust.StatusSetByNationalLaw, trust.StatusRecognisedAtNational,
		trust.StatusDeprecatedByNationalLaw, trust.StatusDeprecatedAtNational:
		return true
	}
	return false
}
