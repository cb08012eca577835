package qualification

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// CertType is what a certificate is for (ETSI TS 119 615, 4.3.5).
type CertType uint8

const (
	TypeUnknown CertType = iota
	TypeESig
	TypeESeal
	TypeWSA
)

func (t CertType) String() string {
	switch t {
	case TypeESig:
		return "ESIG"
	case TypeESeal:
		return "ESEAL"
	case TypeWSA:
		return "WSA"
	}
	return "UNKNOWN"
}

func (t CertType) words() string {
	switch t {
	case TypeESig:
		return "electronic signatures"
	case TypeESeal:
		return "electronic seals"
	case TypeWSA:
		return "website authentication"
	}
	return "an unknown use"
}

// A moment is one of the two times a certificate is judged at, as
// messages name it.
type moment struct {
	variant string // of the message's sentence
	words   string // English
}

var (
	issuance    = moment{"issued", "when the certificate was issued"}
	signingTime = moment{"signing", "at signing time"}
)

// CertQualification is a certificate's qualification at one time (DSS's
// CertificateQualification): not applicable, or qualified or not, for
// what, with its key on a QSCD or not.
type CertQualification struct {
	NA   bool
	QC   bool
	Type CertType
	QSCD bool
}

// String is DSS's CertificateQualification name: QCERT_FOR_ESIG_QSCD,
// CERT_FOR_ESEAL, NA…
func (q CertQualification) String() string {
	switch {
	case q.NA:
		return "NA"
	case !q.QC:
		return "CERT_FOR_" + q.Type.String()
	case q.Type == TypeWSA:
		return "QCERT_FOR_WSA"
	case q.QSCD:
		return "QCERT_FOR_" + q.Type.String() + "_QSCD"
	}
	return "QCERT_FOR_" + q.Type.String()
}

// eidas judges one certificate against the services listing its anchor.
type eidas struct {
	facts    Facts
	listings []Listing
}

// at is the certificate's qualification at t (ETSI TS 119 615, 4.3.4;
// the steps of reference c.4), and the reasons for what is not
// qualified. m names t in messages.
func (e eidas) at(t time.Time, m moment) (CertQualification, []verdict.Message) {
	when := fmt.Sprintf("%s (%s)", m.words, t.UTC().Format(time.DateOnly))
	date := verdict.DateParam("Date", t)
	es := at(e.listings, t)
	if len(es) == 0 {
		return CertQualification{NA: true}, []verdict.Message{verdict.Say(CodeNoServiceAtTime, m.variant, fmt.Sprintf(
			"no trust service listed the signer's CA %s: the list's entries start later or ended earlier", when), date)}
	}
	// Only CA/QC services, when there is one.
	if slices.ContainsFunc(es, func(x entry) bool { return x.typ == trust.TypeCAQC }) {
		es = slices.DeleteFunc(es, func(x entry) bool { return x.typ != trust.TypeCAQC })
	}
	var notes []verdict.Message
	// The certificate type filter, for certificates issued under eIDAS.
	if e.facts.postEIDAS() {
		var certType CertType
		kept := slices.DeleteFunc(slices.Clone(es), func(x entry) bool {
			f := e.factsFor(x)
			certType = f.typeFromCertificate(f.qcFromCertificate())
			return !e.typeAccepted(x, certType)
		})
		if len(kept) == 0 {
			return CertQualification{NA: true}, []verdict.Message{verdict.Say(CodeTypeNotCovered, m.variant, fmt.Sprintf(
				"the certificate is for %s, and no trust service listing its CA %s covers that use", certType.words(), when),
				verdict.TextParam("Use", certType.String()), date)}
		}
		es = kept
	}
	// Services whose qualifiers contradict each other are left out.
	consistent := es[:0:0]
	for _, x := range es {
		if variant, why := e.inconsistent(x); why != "" {
			notes = append(notes, verdict.Say(CodeInconsistentService, variant+"-"+m.variant, fmt.Sprintf(
				"trust service %q (%s list) is left out %s: %s", x.name, x.listing.Territory, when, why),
				verdict.QuotedParam("Service", x.name), verdict.TextParam("Country", x.listing.Territory), date, verdict.TextParam("Status", x.statusName())))
			continue
		}
		consistent = append(consistent, x)
	}
	if len(consistent) == 0 {
		return CertQualification{NA: true}, notes
	}
	es = consistent
	// Several services: they must agree.
	if len(es) > 1 {
		first, _ := e.with(es[0])
		for _, x := range es[1:] {
			if q, _ := e.with(x); q != first {
				return CertQualification{NA: true}, append(notes, verdict.Say(CodeConflictingServices, m.variant, fmt.Sprintf(
					"the trust services listing the signer's CA disagree %s (%q gives %s, %q gives %s): no qualification can be given",
					when, es[0].name, first, x.name, q), date,
					verdict.QuotedParam("Service", es[0].name), verdict.TextParam("Gives", first.String()),
					verdict.QuotedParam("Other", x.name), verdict.TextParam("OtherGives", q.String())))
			}
		}
		// Prefer a granted one for the reasons given.
		if i := slices.IndexFunc(es, entry.granted); i > 0 {
			es[0], es[i] = es[i], es[0]
		}
	}
	q, why := e.with(es[0])
	for _, w := range why {
		// The reason, said at m: its sentence's variant with m's.
		variant := strings.TrimPrefix(strings.TrimPrefix(w.ID, w.Code), ".")
		if variant != "" {
			variant += "-"
		}
		notes = append(notes, verdict.Say(w.Code, variant+m.variant, w.Message+" "+when, append(slices.Clone(w.Params), verdict.DateParam("At", t))...))
	}
	return q, notes
}

// factsFor is the certificate as service x sees it: for a service of a
// third-country list recognised through an MRA, a certificate that meets
// the pointed party's declaration of a content equivalence counts as
// carrying the EU's statement (ETSI TS 119 612, Annex K): QcCompliance
// (its own legislation statement then no longer names a foreign law),
// QcSSCD. A QcType declaration keeps the certificate's own QcType OIDs,
// which the lists seen so far write as the EU's.
func (e eidas) factsFor(x entry) Facts {
	eq := x.listing.Service.Equivalence
	if eq == nil {
		return e.facts
	}
	f := e.facts
	for _, c := range eq.Content {
		if !Matches(c.Pointed, e.facts) {
			continue
		}
		switch c.Context {
		case trust.ContextQcCompliance:
			f.QcStatements = append(slices.DeleteFunc(slices.Clone(f.QcStatements), func(s string) bool { return s == oidQcCClegislation }), oidQcCompliance)
			f.Legislation = nil
		case trust.ContextQcQSCD:
			f.QcStatements = append(slices.Clone(f.QcStatements), oidQcSSCD)
		}
	}
	return f
}

// typeAccepted reports whether service x covers certificates of type t
// (ETSI TS 119 615, 4.3.4.4): an unknown type passes; a single usage
// qualifier decides; else the additional service information, without
// ForeSignatures when QCForLegalPerson applies; a service naming no use
// (as before eIDAS) passes.
func (e eidas) typeAccepted(x entry, t CertType) bool {
	if t == TypeUnknown {
		return true
	}
	caps := qualifiersOf(captured(x.quals, e.factsFor(x)))
	if u := usage(caps); len(u) == 1 {
		return u[0] == t
	}
	var asi []CertType
	for _, a := range x.asi {
		at := asiType(a)
		if at == TypeUnknown || (at == TypeESig && caps[qForLegalPerson]) {
			continue
		}
		asi = append(asi, at)
	}
	return len(asi) == 0 || slices.Contains(asi, t)
}

func usage(caps map[qualifier]bool) []CertType {
	var out []CertType
	for q, t := range map[qualifier]CertType{qForESig: TypeESig, qForESeal: TypeESeal, qForWSA: TypeWSA} {
		if caps[q] {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// inconsistent says what contradicts itself in service x's qualifiers
// for this certificate (ETSI TS 119 612, 5.5.9.2.3), "" when nothing.
// It returns the reason's variant of the message's sentence with it.
func (e eidas) inconsistent(x entry) (variant, why string) {
	caps := qualifiersOf(captured(x.quals, e.factsFor(x)))
	switch {
	case caps[qQCStatement] && caps[qNotQualified]:
		return "qc", "QCStatement and NotQualified both apply"
	case caps[qWithSSCD] && caps[qNoSSCD], caps[qWithQSCD] && caps[qNoQSCD]:
		return "scd", "it says the key is and is not on a (Q)SCD"
	case (caps[qSSCDAsInCert] || caps[qQSCDAsInCert]) && (caps[qWithSSCD] || caps[qWithQSCD] || caps[qQSCDManagedOnBehalf]):
		return "scd-deferred", "it defers the (Q)SCD status to the certificate and states it"
	case len(usage(caps)) > 1:
		return "usage", "more than one of QCForESig, QCForESeal and QCForWSA apply"
	case caps[qForLegalPerson] && caps[qForESig]:
		return "legal-person", "QCForLegalPerson and QCForESig both apply"
	case !x.postEIDAS() && postEIDASStatus(x.status):
		return "status", "an entry before 1 July 2016 carries an eIDAS status (" + x.statusName() + ")"
	}
	return "", ""
}

// with is the qualification service x gives (steps 7 to 11 of reference
// c.4), and why it is not qualified, if so.
func (e eidas) with(x entry) (CertQualification, []verdict.Message) {
	f := e.factsFor(x)
	var why []verdict.Message
	if x.typ != trust.TypeCAQC {
		why = append(why, verdict.Say(CodeServiceNotQualified, "", fmt.Sprintf(
			"trust service %q (%s list) is of type %s: it does not issue qualified certificates", x.name, x.listing.Territory, x.typeName()),
			verdict.QuotedParam("Service", x.name), verdict.TextParam("Country", x.listing.Territory), verdict.TextParam("Type", x.typeName())))
		return CertQualification{Type: f.typeFromCertificate(false)}, why
	}
	if !x.granted() {
		why = append(why, verdict.Say(CodeServiceNotGranted, "", fmt.Sprintf(
			"trust service %q (%s list) was %s since %s, not granted,", x.name, x.listing.Territory, x.statusName(), x.start.UTC().Format(time.DateOnly)),
			verdict.QuotedParam("Service", x.name), verdict.TextParam("Country", x.listing.Territory), verdict.TextParam("Status", x.statusName()),
			verdict.DateParam("Date", x.start)))
		return CertQualification{Type: f.typeFromCertificate(false)}, why
	}
	caps := qualifiersOf(captured(x.quals, f))
	var qc bool
	switch {
	case caps[qNotQualified]:
		why = append(why, verdict.Say(CodeNotQualified, "", fmt.Sprintf(
			"trust service %q (%s list) marks this certificate NotQualified", x.name, x.listing.Territory),
			verdict.QuotedParam("Service", x.name), verdict.TextParam("Country", x.listing.Territory)))
	case caps[qQCStatement]:
		qc = true
	default:
		qc = f.qcFromCertificate()
		if !qc {
			variant, reason := notQCReason(f)
			why = append(why, verdict.Say(CodeNotQualified, variant, "the certificate does not declare itself qualified ("+reason+")",
				verdict.TextParam("Laws", strings.Join(f.Legislation, ", "))))
		}
	}
	if !qc {
		return CertQualification{Type: f.typeFromCertificate(false)}, why
	}
	q := CertQualification{QC: true}
	switch u := usage(caps); {
	case !x.postEIDAS():
		q.Type = TypeESig
	case len(u) > 1:
		q.Type = TypeUnknown
	case len(u) == 1:
		q.Type = u[0]
	default:
		q.Type = f.typeFromCertificate(true)
	}
	var fromCert bool
	if x.postEIDAS() {
		switch {
		case caps[qWithQSCD], caps[qQSCDManagedOnBehalf]:
			q.QSCD = true
		case caps[qNoQSCD]:
			why = append(why, verdict.Say(CodeNotQSCD, "qscd", fmt.Sprintf(
				"trust service %q (%s list) says the key is not on a qualified signature creation device (QCNoQSCD)", x.name, x.listing.Territory),
				verdict.QuotedParam("Service", x.name), verdict.TextParam("Country", x.listing.Territory)))
		default:
			fromCert = true
		}
	} else {
		switch {
		case caps[qWithSSCD]:
			q.QSCD = true
		case caps[qNoSSCD]:
			why = append(why, verdict.Say(CodeNotQSCD, "sscd", fmt.Sprintf(
				"trust service %q (%s list) says the key is not on a secure signature creation device (QCNoSSCD)", x.name, x.listing.Territory),
				verdict.QuotedParam("Service", x.name), verdict.TextParam("Country", x.listing.Territory)))
		default:
			fromCert = true
		}
	}
	if fromCert {
		q.QSCD = f.qscdFromCertificate()
		if !q.QSCD {
			why = append(why, verdict.Say(CodeNotQSCD, "", "the certificate does not declare its key on a qualified signature creation device (no QcSSCD statement)"))
		}
	}
	if q.Type == TypeWSA {
		q.QSCD = false
	}
	return q, why
}

func notQCReason(f Facts) (variant, reason string) {
	switch {
	case len(f.Legislation) > 0:
		return "legislation", "its QcCClegislation names " + strings.Join(f.Legislation, ", ") + ", a law other than the EU's"
	case f.postEIDAS():
		return "compliance", "no QcCompliance statement"
	}
	return "policy", "no QcCompliance statement and no qualified certificate policy"
}

// final combines the qualifications at issuance and at signing time
// (ETSI TS 119 615, 4.3.6).
func final(issued, signing CertQualification) CertQualification {
	switch {
	case issued == signing:
		return signing
	case issued.NA || signing.NA:
		return CertQualification{NA: true}
	}
	q := CertQualification{QC: issued.QC && signing.QC, Type: TypeUnknown, QSCD: signing.QSCD}
	if issued.Type == signing.Type {
		q.Type = signing.Type
	}
	if !q.QC {
		q.QSCD = false
	}
	return q
}

// signatureQualification is DSS's SignatureQualification for an
// EN 319 102-1 indication and a final certificate qualification (ETSI
// TS 119 615, Annex; reference c.5).
func signatureQualification(indication verdict.Indication, q CertQualification) string {
	if q.NA {
		return NA
	}
	var base string // the TOTAL_PASSED value
	switch {
	case q.QC && q.Type == TypeWSA, !q.QC && q.Type == TypeWSA:
		return NotAdES
	case q.QC && q.QSCD:
		base = map[CertType]string{TypeESig: QESig, TypeESeal: QESeal, TypeUnknown: UnknownQCQSCD}[q.Type]
	case q.QC:
		base = map[CertType]string{TypeESig: AdESigQC, TypeESeal: AdESealQC, TypeUnknown: UnknownQC}[q.Type]
	default:
		base = map[CertType]string{TypeESig: AdESig, TypeESeal: AdESeal, TypeUnknown: Unknown}[q.Type]
	}
	switch indication {
	case verdict.TotalPassed:
		return base
	case verdict.Indeterminate:
		return "INDETERMINATE_" + base
	}
	switch {
	case q.QC && q.QSCD:
		return NotAdESQCQSCD
	case q.QC:
		return NotAdESQC
	}
	return NotAdES
}

// DSS's SignatureQualification names (docs/decisions/0021 maps them to
// their labels: QESig, AdESig-QC…).
const (
	QESig         = "QESIG"
	QESeal        = "QESEAL"
	UnknownQCQSCD = "UNKNOWN_QC_QSCD"
	AdESigQC      = "ADESIG_QC"
	AdESealQC     = "ADESEAL_QC"
	UnknownQC     = "UNKNOWN_QC"
	AdESig        = "ADESIG"
	AdESeal       = "ADESEAL"
	Unknown       = "UNKNOWN"
	NotAdESQCQSCD = "NOT_ADES_QC_QSCD"
	NotAdESQC     = "NOT_ADES_QC"
	NotAdES       = "NOT_ADES"
	NA            = "NA"
)

// Time-stamp qualifications (DSS's TimestampQualification).
const (
	QTSA = "QTSA"
	TSA  = "TSA"
)

// TimestampQualification is QTSA when a time-stamping service of type
// TSA/QTST, granted, lists the TSA's anchor both when the time-stamp was
// generated and at its lowest proof of existence; TSA when a list is
// reached but not so; NA without a list (ETSI TS 119 615, 4.4).
func TimestampQualification(listings []Listing, generated, lowestPOE time.Time) string {
	if len(listings) == 0 {
		return NA
	}
	qtsa := func(t time.Time) bool {
		return slices.ContainsFunc(at(listings, t), func(x entry) bool { return x.typ == trust.TypeQTST && x.granted() })
	}
	if qtsa(generated) && qtsa(lowestPOE) {
		return QTSA
	}
	return TSA
}
