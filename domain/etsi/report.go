package etsi

import (
	"slices"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Report fills a verdict.SignatureReport from a Result: signatureId,
// signatureFormat (the level the reader found in the structure), indication, subIndication (nil when
// passed), trustFramework and anchorCountry from the anchor of r.Path
// (EU_EIDAS or CH_ZERTES with the list's territory; UNKNOWN with a nil
// anchorCountry for a private anchor or no path), errors and warnings
// (copied, never nil), signedData from the detached parts whose digest
// matched.
//
// anchorDataAuthenticated is the anchor's own [certpath.Anchor.Authenticated]:
// true only when the copy of the list the anchor came from was
// authenticated VALID, whatever other lists of its territory say.
//
// Report leaves the qualifications and handwrittenEquivalent nil: the
// caller fills them from domain/qualification.
func Report(sig ades.Signature, r Result) verdict.SignatureReport {
	rep := verdict.SignatureReport{
		SignatureID:     sig.ID,
		SignatureFormat: sig.FormatName(),
		Indication:      r.Indication,
		TrustFramework:  verdict.FrameworkUnknown,
		Errors:          slices.Clone(r.Errors),
		Warnings:        slices.Clone(r.Warnings),
	}
	if rep.Errors == nil {
		rep.Errors = []verdict.Message{}
	}
	if rep.Warnings == nil {
		rep.Warnings = []verdict.Message{}
	}
	if r.Indication != verdict.TotalPassed && r.SubIndication != "" {
		sub := r.SubIndication
		rep.SubIndication = &sub
	}
	if sig.Container != "" {
		c := sig.Container
		rep.Container = &c
	}
	rep.CounterSignatureOf = sig.CounterSignatureOf
	for _, d := range sig.DataObjects {
		// A container's files are named in it; a supplied part by its
		// upload name.
		if (d.Part > 0 || sig.Container != "") && d.Found && d.Intact {
			rep.SignedData = append(rep.SignedData, d.Name)
		}
	}
	// Every placement renders as the summary's placement object, pdf
	// (docs/validate-api.md), whatever holds the signature.
	if p := sig.Placement; p != nil {
		rep.PDF = &verdict.PDFSignature{
			Field: p.Name, Revision: p.Revision, CoversWholeDocument: p.CoversWholeDocument,
			Reason: p.Reason, Location: p.Location, ContactInfo: p.ContactInfo,
		}
	}
	if r.Path == nil || r.Path.Anchor.Private {
		return rep
	}
	a := r.Path.Anchor
	switch a.Framework {
	case trust.EUEIDAS:
		rep.TrustFramework = verdict.FrameworkEUEIDAS
	case trust.CHZERTES:
		rep.TrustFramework = verdict.FrameworkCHZertES
	default:
		return rep
	}
	if a.Territory != "" {
		country := a.Territory
		rep.AnchorCountry = &country
	}
	rep.AnchorDataAuthenticated = a.Authenticated
	return rep
}
