package xades

import "github.com/svc-dss/dss/domain/ades"

// Forms outside the baseline levels, as DSS names them.
const (
	formNotETSI = "XML_NOT_ETSI"
	formC       = "XAdES_C"
	formX       = "XAdES_X"
	formXL      = "XAdES_XL"
	formA       = "XAdES_A"
	// formLTTM is a BDOC 2.1 time-mark signature, as SiVa and
	// libdigidocpp name it (timemark.go).
	formLTTM = "XAdES_BASELINE_LT_TM"
)

// levelFacts are what the level depends on besides the evidence.
type levelFacts struct {
	// qualifying: the signature has QualifyingProperties whose
	// SignedProperties it signs.
	qualifying bool
	// dataRefs counts SignedInfo references other than the
	// SignedProperties one.
	dataRefs    int
	signatureTS int // SignatureTimeStamp tokens that parsed
	// values: CertificateValues or RevocationValues with content among
	// the unsigned signature properties.
	values bool
	// refs: CompleteCertificateRefs(V2) or CompleteRevocationRefs.
	refs      bool
	xTS       int // SigAndRefsTimeStamp(V2) and RefsOnlyTimeStamp(V2) tokens
	archiveTS int // ArchiveTimeStamp tokens (1.3.2 or 1.4.1) that parsed
	// timeMark: no SignatureTimeStamp, and an OCSP response about the
	// signer whose nonce makes it a time-mark (timemark.go).
	timeMark bool
}

// level is the baseline level the structure of a signature shows (EN 319
// 132-1, clause 6), each level including the previous one, and the form
// outside the baseline when there is one:
//
//   - no QualifyingProperties signed, or no data reference besides the
//     SignedProperties one: XML_NOT_ETSI, NotBaseline, as DSS names a
//     plain XMLDSig signature.
//   - B: a SigningCertificate(V2) is signed. Without one: NotBaseline
//     (XML_NOT_ETSI, ades.SignatureFormat). A missing SigningTime is a problem
//     (CodeNoSigningTime), not a lower level, as DSS has it.
//   - T: B and a SignatureTimeStamp whose token parses.
//   - LT: T and CertificateValues or RevocationValues with content
//     (whether they cover the whole chain is the process's question).
//   - LTA: LT and an ArchiveTimeStamp (1.4.1, or 1.3.2 as DSS counts it)
//     whose token parses.
//   - XAdES_BASELINE_LT_TM, LT: B without a SignatureTimeStamp, with
//     RevocationValues holding a time-mark (an Estonian BDOC 2.1
//     time-mark signature, named as SiVa and libdigidocpp name it); the
//     time-mark stands where the signature time-stamp stands. Whether
//     its nonce matches and its response can be relied on is the
//     process's question, as for a time-stamp.
//
// Validation-data references (CompleteCertificateRefs,
// CompleteRevocationRefs) or their time-stamps make an extended form
// (XAdES 1.3.2 / TS 101 903 annex): XAdES_A with an archive time-stamp,
// else XAdES_XL with SigAndRefs or RefsOnly time-stamps and values,
// XAdES_X with those time-stamps only, XAdES_C with the references only;
// the level is then the baseline level the rest of the evidence stands
// for. The level is about presence: a time-stamp whose imprint fails
// still counts; the process sees the failed checks.
func level(sig *ades.Signature, f levelFacts) (ades.Level, string) {
	if !f.qualifying || f.dataRefs == 0 {
		return ades.NotBaseline, formNotETSI
	}
	if !sig.Reference.Present {
		return ades.NotBaseline, ""
	}
	if f.timeMark && f.values && !f.refs && f.xTS == 0 && f.archiveTS == 0 {
		return ades.LevelLT, formLTTM
	}
	l := ades.LevelB
	if f.signatureTS > 0 {
		l = ades.LevelT
		if f.values {
			l = ades.LevelLT
			if f.archiveTS > 0 {
				l = ades.LevelLTA
			}
		}
	}
	if !f.refs && f.xTS == 0 {
		return l, ""
	}
	switch {
	case f.archiveTS > 0:
		return l, formA
	case f.xTS > 0 && f.values:
		return l, formXL
	case f.xTS > 0:
		return l, formX
	}
	return l, formC
}
