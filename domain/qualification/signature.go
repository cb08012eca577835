package qualification

import (
	"time"

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
		tr := verdict.TimestampReport{Type: ts.Type.String(), GenerationTime: ts.GenTime.UTC()}
		tr.TrustFramework, tr.AnchorCountry, tr.Qualification, t.Listings = ofTSA(ts.Path, anchors, ts.GenTime, ts.POE)
		out.Timestamps = append(out.Timestamps, tr)
		if ts.Type == ades.SignatureTimestamp || ts.Type == ades.ArchiveTimestamp {
			in.Timestamps = append(in.Timestamps, t) // a content time-stamp does not cover the signature
		}
	}
	out.Result = Evaluate(in)
	return out
}

// OfTimestamp qualifies a time-stamp entry the process judged (r, for
// e), as OfSignature qualifies a signature's time-stamps (ofTSA, the one
// place): its report, with the TSA's trust framework, anchor country and
// qualification (QTSA, TSA or NA) at its generation time, its own lowest
// proof of existence. A time-stamp that is not valid is placed by the
// path the process located, not judged, as a failed signature is.
func OfTimestamp(e ades.TimestampEntry, r etsi.TimestampEntryResult, anchors *certpath.AnchorSet) verdict.TimestampEntryReport {
	rep := verdict.TimestampEntryReport{
		ID: e.ID, Name: e.Name, Indication: r.Indication, GenerationTime: r.GenTime.UTC(),
		Errors: r.Errors, Warnings: r.Warnings, TimestampedData: []string{},
	}
	if e.Container != "" {
		c := e.Container
		rep.Container = &c
	}
	if r.SubIndication != "" {
		sub := r.SubIndication
		rep.SubIndication = &sub
	}
	if c := e.Timestamp.TSACertificate; c != nil {
		rep.TSA = c.Subject.String()
	}
	rep.TrustFramework, rep.AnchorCountry, rep.Qualification, _ = ofTSA(r.Path, anchors, r.GenTime, r.GenTime)
	for _, d := range e.DataObjects {
		if d.Found && d.Intact {
			rep.TimestampedData = append(rep.TimestampedData, d.Name)
		}
	}
	return rep
}

// ofTSA is the trust framework, anchor country and qualification of the
// TSA whose path is path (nil: none), for a time-stamp generated at
// generated whose lowest proof of existence is lowestPOE, and the
// listings it was judged on.
func ofTSA(path *certpath.Path, anchors *certpath.AnchorSet, generated, lowestPOE time.Time) (framework string, country *string, qualification string, ls []Listing) {
	framework = verdict.FrameworkUnknown
	if path != nil && !path.Anchor.Private {
		a := path.Anchor
		// A TSA whose own certificate is a listed service (TSA/QTST
		// services list the unit's certificate) is judged by that
		// service; otherwise by the services listing its anchor.
		if own := anchors.Listed(path.Leaf()); len(own) > 0 {
			a = own[0]
		}
		ls = listings(anchors, a)
		if fw := frameworkName(a.Framework); fw != "" {
			territory := a.Territory
			framework, country = fw, &territory
		}
	}
	// On the TSA's own list: the framework of its anchor.
	var own []Listing
	for _, l := range ls {
		if framework != verdict.FrameworkUnknown && frameworkName(l.Framework) == framework {
			own = append(own, l)
		}
	}
	return framework, country, TimestampQualification(own, generated, lowestPOE), ls
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
