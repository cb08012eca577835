package qualification

import (
	"fmt"
	"slices"
	"time"

	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Swiss qualifications (ZertES, SR 943.03, Art. 2).
const (
	ZertESQES                = "QES"
	ZertESRegulatedSignature = "REGULATED_SIGNATURE"
	ZertESRegulatedSeal      = "REGULATED_SEAL"
	ZertESAdvanced           = "ADVANCED"
	ZertESNotApplicable      = "NOT_APPLICABLE"
)

// swissLegislation is the QcCClegislation country code of Swiss law.
const swissLegislation = "CH"

// zertes derives the Swiss qualification of a signature whose signer
// chains to the Swiss list (reference d.3; docs/decisions/0021 lists
// the markers and their sources):
//
//   - not TOTAL_PASSED: NOT_APPLICABLE;
//   - no granted Swiss CA/QC service listing the CA both when the
//     certificate was issued and at signing time: ADVANCED;
//   - the key not on a secure signature creation device (TL qualifier or
//     QcSSCD): ADVANCED;
//   - a qualified certificate (TL qualifier QCStatement, or QcCompliance
//     or QcCClegislation CH in the certificate) of a natural person: QES;
//   - else issued by the recognised CA/QC service, which issues
//     qualified or regulated certificates: a regulated certificate, of a
//     UID entity (organizationIdentifier, legal-person semantics, QcType
//     eSeal): REGULATED_SEAL, of a natural person: REGULATED_SIGNATURE.
func zertes(in Input, listings []Listing) (string, []verdict.Message) {
	if in.Indication != verdict.TotalPassed {
		return ZertESNotApplicable, []verdict.Message{verdict.Say(CodeSignatureNotPassed, "swiss", fmt.Sprintf(
			"the signature is %s: a Swiss qualification applies only to a valid signature", in.Indication),
			verdict.TextParam("Indication", string(in.Indication)))}
	}
	f := FactsOf(in.Signer)
	var chosen *entry
	for _, t := range []struct {
		at    time.Time
		label string
		when  string // the variant of the sentence
	}{{f.NotBefore, "when the certificate was issued", "swiss-issued"}, {in.BestSignatureTime, "at signing time", "swiss-signing"}} {
		es := at(listings, t.at)
		i := slices.IndexFunc(es, func(x entry) bool { return x.typ == trust.TypeCAQC && x.granted() })
		if i < 0 {
			return ZertESAdvanced, []verdict.Message{verdict.Say(CodeServiceNotGranted, t.when, fmt.Sprintf(
				"no granted CA/QC service of the Swiss list listed the signer's CA %s (%s): an advanced signature only",
				t.label, t.at.UTC().Format(time.DateOnly)), verdict.DateParam("Date", t.at))}
		}
		chosen = &es[i]
	}
	caps := qualifiersOf(captured(chosen.quals, f))
	sscd := f.qscdFromCertificate()
	switch {
	case caps[qWithQSCD], caps[qWithSSCD], caps[qQSCDManagedOnBehalf]:
		sscd = true
	case caps[qNoQSCD], caps[qNoSSCD]:
		sscd = false
	}
	if !sscd {
		return ZertESAdvanced, []verdict.Message{verdict.Say(CodeNotQSCD, "swiss", "the signer's key is not declared on a secure signature creation device (no QcSSCD statement, no Swiss list qualifier): an advanced signature only (ZertES Art. 2, 6)")}
	}
	qualified := caps[qQCStatement] || (!caps[qNotQualified] && (f.has(oidQcCompliance) || slices.Contains(f.Legislation, swissLegislation)))
	switch {
	case f.legalPerson():
		return ZertESRegulatedSeal, nil
	case qualified:
		return ZertESQES, nil
	}
	return ZertESRegulatedSignature, []verdict.Message{verdict.Say(CodeNotQualified, "swiss", "the certificate is a regulated, not a qualified, certificate (no QCStatement qualifier, no QcCompliance, no QcCClegislation CH): a regulated signature (ZertES Art. 2 lit. c)")}
}
