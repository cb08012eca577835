package cades

import "github.com/svc-dss/dss/domain/ades"

// levelFacts are what the level depends on besides the evidence.
type levelFacts struct {
	// signedDataValues: the SignedData certificates and crls fields hold
	// certificates and at least one CRL or OCSP response.
	signedDataValues bool
	signatureTS      int // signature-time-stamps whose token parsed
	archiveV3        int // archive-time-stamp-v3 whose token parsed
	topLevel         bool
}

// level is the baseline level the structure of sig shows (EN 319 122-1,
// clause 6), each level including the previous one:
//
//   - B: a signing-certificate(-v2) reference is signed. Without it
//     (plain CMS/PKCS #7): NotBaseline. A missing signing-time is a
//     problem (CodeNoSigningTime), not a lower level, as CAdES-BES
//     readers (DSS) have it.
//   - T: B and a signature-time-stamp whose token parses.
//   - LT: T and the SignedData certificates and crls fields carry
//     certificates and some revocation data (a CRL or an OCSP response).
//     Baseline signatures keep the validation data there;
//     certificate-values and revocation-values belong to the extended
//     CAdES-X-L forms and, though read into the evidence, do not make LT
//     here. Whether the data covers the whole chain is not checked: the
//     process decides and may downgrade.
//   - LTA: LT and an archive-time-stamp-v3 whose token parses, on a
//     signer of the SignedData. Archive time-stamps v2 (TS 101 733) are
//     read and checked but do not make a baseline level.
//
// The level is about presence: a time-stamp whose imprint or signature
// fails still counts here; the process sees the failed checks in
// Timestamps and reports the level it can rely on.
func level(sig *ades.Signature, f levelFacts) ades.Level {
	switch {
	case !sig.Reference.Present:
		return ades.NotBaseline
	case f.signatureTS == 0:
		return ades.LevelB
	case !f.signedDataValues:
		return ades.LevelT
	case f.archiveV3 == 0 || !f.topLevel:
		return ades.LevelLT
	}
	return ades.LevelLTA
}
