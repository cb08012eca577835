package etsi

import (
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/qualification"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Qualify derives the qualification of a validated signature from its
// result and the anchors it was validated against, and writes it into
// rep: eidasQualification, swissQualification, handwrittenEquivalent,
// and the reasons among the warnings (validation-service.md §2).
func Qualify(rep *verdict.SignatureReport, sig ades.Signature, r Result, anchors *certpath.AnchorSet) {
	in := qualification.Input{
		Indication:        r.Indication,
		Signer:            sig.SigningCertificate,
		Framework:         trust.Unknown,
		BestSignatureTime: r.BestSignatureTime,
	}
	if r.Path != nil && !r.Path.Anchor.Private {
		in.Framework = r.Path.Anchor.Framework
		in.Listings = listings(anchors, r.Path.Anchor)
	}
	for _, ts := range r.Timestamps {
		t := qualification.Timestamp{Generated: ts.GenTime, LowestPOE: ts.POE}
		tr := verdict.TimestampReport{Type: ts.Type.String(), GenerationTime: ts.GenTime.UTC(), TrustFramework: verdict.FrameworkUnknown}
		if ts.Path != nil && !ts.Path.Anchor.Private {
			a := ts.Path.Anchor
			// A TSA whose own certificate is a listed service (TSA/QTST
			// services list the unit's certificate) is judged by that
			// service; otherwise by the services listing its anchor.
			if own := anchors.Listed(ts.Path.Leaf()); len(own) > 0 {
				a = own[0]
			}
			t.Listings = listings(anchors, a)
			if fw := frameworkName(a.Framework); fw != "" {
				country := a.Territory
				tr.TrustFramework, tr.AnchorCountry = fw, &country
			}
		}
		// On the TSA's own list: the framework of its anchor.
		var own []qualification.Listing
		for _, l := range t.Listings {
			if tr.TrustFramework != verdict.FrameworkUnknown && frameworkName(l.Framework) == tr.TrustFramework {
				own = append(own, l)
			}
		}
		tr.Qualification = qualification.TimestampQualification(own, ts.GenTime, ts.POE)
		rep.Timestamps = append(rep.Timestamps, tr)
		if ts.Type == ades.SignatureTimestamp || ts.Type == ades.ArchiveTimestamp {
			in.Timestamps = append(in.Timestamps, t) // a content time-stamp does not cover the signature
		}
	}
	q := qualification.Evaluate(in)
	rep.EIDASQualification, rep.SwissQualification, rep.HandwrittenEquivalent = q.EIDAS, q.Swiss, q.Handwritten
	rep.Warnings = append(rep.Warnings, q.Notes...)
}

// listings are the services of every list that name the anchor a.
func listings(anchors *certpath.AnchorSet, a certpath.Anchor) []qualification.Listing {
	listed := anchors.Listed(a.Certificate)
	if len(listed) == 0 && a.Service != nil {
		listed = []certpath.Anchor{a}
	}
	out := make([]qualification.Listing, 0, len(listed))
	for _, l := range listed {
		if l.Service != nil {
			out = append(out, qualification.Listing{Service: l.Service, Territory: l.Territory, Framework: l.Framework})
		}
	}
	return out
}

func frameworkName(f trust.Framework) string {
	switch f {
	case trust.EUEIDAS:
		return verdict.FrameworkEUEIDAS
	case trust.CHZERTES:
		return verdict.FrameworkCHZertES
	}
	return ""
}
