package qualification

import (
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// A Signature is the qualification of one validated signature: what the
// summary reports beside the indication (validation-service.md §2).
type Signature struct {
	Result
	// Timestamps are the signature's valid time-stamps with their
	// framework and qualification, in generation order.
	Timestamps []verdict.TimestampReport
}

// Apply writes q into the signature's report: eidasQualification,
// swissQualification, handwrittenEquivalent, the time-stamps, and the
// reasons among the warnings.
func (q Signature) Apply(rep *verdict.SignatureReport) {
	rep.EIDASQualification, rep.SwissQualification, rep.HandwrittenEquivalent = q.EIDAS, q.Swiss, q.Handwritten
	rep.Timestamps = append(rep.Timestamps, q.Timestamps...)
	rep.Warnings = append(rep.Warnings, q.Notes...)
}

// OfSignature qualifies a signature the validation process judged (r),
// with the anchors it was validated against: the step after the process,
// which decides what the signature is worth, never whether it holds.
func OfSignature(sig ades.Signature, r etsi.Result, anchors *certpath.AnchorSet) Signature {
	var out Signature
	in := Input{
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
		t := Timestamp{Generated: ts.GenTime, LowestPOE: ts.POE}
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
		var own []Listing
		for _, l := range t.Listings {
			if tr.TrustFramework != verdict.FrameworkUnknown && frameworkName(l.Framework) == tr.TrustFramework {
				own = append(own, l)
			}
		}
		tr.Qualification = TimestampQualification(own, ts.GenTime, ts.POE)
		out.Timestamps = append(out.Timestamps, tr)
		if ts.Type == ades.SignatureTimestamp || ts.Type == ades.ArchiveTimestamp {
			in.Timestamps = append(in.Timestamps, t) // a content time-stamp does not cover the signature
		}
	}
	out.Result = Evaluate(in)
	return out
}

// listings are the services of every list that name the anchor a.
func listings(anchors *certpath.AnchorSet, a certpath.Anchor) []Listing {
	listed := anchors.Listed(a.Certificate)
	if len(listed) == 0 && a.Service != nil {
		listed = []certpath.Anchor{a}
	}
	out := make([]Listing, 0, len(listed))
	for _, l := range listed {
		if l.Service != nil {
			out = append(out, Listing{Service: l.Service, Territory: l.Territory, Framework: l.Framework})
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
