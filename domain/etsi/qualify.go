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
		if ts.Type != ades.SignatureTimestamp && ts.Type != ades.ArchiveTimestamp {
			continue // a content time-stamp does not cover the signature
		}
		t := qualification.Timestamp{Generated: ts.GenTime, LowestPOE: ts.POE}
		if ts.Path != nil && !ts.Path.Anchor.Private {
			t.Listings = listings(anchors, ts.Path.Anchor)
		}
		in.Timestamps = append(in.Timestamps, t)
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
