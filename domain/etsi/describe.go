package etsi

import (
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

// Describe fills what a person reads first of rep (docs/validate-api.md)
// from the evidence sig and the process's result r, whose plan of
// certificate paths is p (nil: the partial path of a signer that reached
// no anchor is not known, and the chain is the signing certificate alone):
// signingTime, bestSignatureTime, signatureScope and certificateChain.
// It decides nothing: every value is what r and sig already hold, said
// for people. signedBy is the caller's (qualification.SignedBy), which
// reads the certificate as qualification does.
func Describe(rep *verdict.SignatureReport, sig ades.Signature, r Result, p *Plan) {
	if !sig.ClaimedSigningTime.IsZero() {
		t := sig.ClaimedSigningTime.UTC()
		rep.SigningTime = &t
	}
	if t, ok := provedTime(r); ok {
		rep.BestSignatureTime = &t
	}
	rep.SignatureScope = Scopes(sig)
	rep.CertificateChain = chainOf(sig, r, p)
}

// provedTime is r's best-signature-time when a proof of existence gave
// it, a valid signature or archive time-stamp or an accepted time-mark
// (validate.go: the lowest of them); false when only the validation
// time stands.
func provedTime(r Result) (time.Time, bool) {
	bst := r.BestSignatureTime
	for _, ts := range r.Timestamps {
		if (ts.Type == ades.SignatureTimestamp || ts.Type == ades.ArchiveTimestamp) && ts.GenTime.Equal(bst) {
			return bst.UTC(), true
		}
	}
	if r.TimeMark != nil && r.TimeMark.ProducedAt.Equal(bst) {
		return bst.UTC(), true
	}
	return time.Time{}, false
}

// Scopes is what sig covers, as DSS's simple report lists its
// signature scopes: the signature value of its parent for a
// counter-signature; the revision of a PDF it covers, whole or
// partial; else each data object: a container's file, a detached file,
// the document's content, an XML element, or data known only by its
// digest. The readers name a data object (ades.DataObject.Name) by its
// file name, "content" (CMS) or "payload" (JWS) for the attached
// content, "/" for a whole XML document and the element's path from
// the root (/a/b[2]) for an XML element.
func Scopes(sig ades.Signature) []verdict.SignatureScope {
	if sig.CounterSignatureOf != "" {
		return []verdict.SignatureScope{{Kind: verdict.ScopeCounterSignature, Name: sig.CounterSignatureOf,
			Description: fmt.Sprintf("The signature value of signature %s, which this signature counter-signs.", sig.CounterSignatureOf),
			ID:          verdict.ScopeIDCounterSignature, Params: []verdict.Param{verdict.TextParam("Signature", sig.CounterSignatureOf)}}}
	}
	if pl := sig.Placement; pl != nil && pl.Kind == ades.PDFField {
		return []verdict.SignatureScope{pdfScope(*pl)}
	}
	out := make([]verdict.SignatureScope, 0, len(sig.DataObjects))
	for _, d := range sig.DataObjects {
		out = append(out, dataScope(sig, d))
	}
	return out
}

// pdfScope is the scope of a PDF signature: the revision it covers, and
// what came after it. The changes are the PDF reader's words, in
// English (ades.Placement.Changes).
func pdfScope(pl ades.Placement) verdict.SignatureScope {
	s := verdict.SignatureScope{Kind: verdict.ScopePartial, Name: pl.Name}
	revision := []verdict.Param{verdict.NumberParam("Revision", pl.Revision), verdict.NumberParam("Revisions", pl.Revisions)}
	switch {
	case pl.Revision == 0:
		s.ID = verdict.ScopeIDPDFUnsound
		s.Description = "Part of the PDF document: the signature's byte range is unsound, so which revision it covers cannot be told."
	case pl.CoversWholeDocument:
		s.Kind = verdict.ScopeFull
		s.ID, s.Params = verdict.ScopeIDPDFWhole, revision
		s.Description = fmt.Sprintf("The whole PDF document (revision %d of %d): nothing was added after the signature.", pl.Revision, pl.Revisions)
	default:
		later := max(pl.Revisions-pl.Revision, 0)
		updates, them := "a later update was", "it"
		switch {
		case later > 1:
			updates, them = fmt.Sprintf("%d later updates were", later), "them"
		case later < 1:
			updates, them = "bytes outside any revision were", "them"
		}
		changes := strings.TrimSuffix(strings.Join(pl.Changes, "; "), ".")
		s.ID = verdict.ScopeIDPDFRevision
		s.Params = append(revision, verdict.NumberParam("Later", later), verdict.TextParam("Changes", changes))
		s.Description = fmt.Sprintf("Revision %d of %d of the PDF document, not the whole document: %s added after the signature", pl.Revision, pl.Revisions, updates)
		if changes == "" {
			s.Description += ", and no change to what was signed was found in " + them + "."
		} else {
			s.Description += "; " + changes + "."
		}
	}
	return s
}

// dataScope is the scope of one data object of sig.
func dataScope(sig ades.Signature, d ades.DataObject) verdict.SignatureScope {
	s := verdict.SignatureScope{Kind: verdict.ScopeFull, Name: d.Name}
	name := verdict.TextParam("Name", d.Name)
	switch {
	case !d.Found:
		s.Kind = verdict.ScopeDigest
		s.ID, s.Params = verdict.ScopeIDNotFound, []verdict.Param{verdict.QuotedParam("Name", d.Name)}
		s.Description = fmt.Sprintf("The data %q, which was not found: only its digest is known.", d.Name)
		if d.Name == "" || d.Name == "content" || d.Name == "payload" {
			s.ID, s.Params = verdict.ScopeIDDetachedMissing, nil
			s.Description = "Detached data, which was not supplied: only its digest is known."
		}
		return s
	case sig.Container != "":
		s.ID, s.Params = verdict.ScopeIDContainerFile, []verdict.Param{verdict.QuotedParam("Name", d.Name), verdict.TextParam("Container", sig.Container)}
		s.Description = fmt.Sprintf("The whole file %q of the %s container.", d.Name, sig.Container)
	case d.Part > 0:
		s.ID, s.Params = verdict.ScopeIDDetachedFile, []verdict.Param{verdict.QuotedParam("Name", d.Name)}
		s.Description = fmt.Sprintf("The whole detached file %q.", d.Name)
	case d.Name == "content" || d.Name == "payload" || d.Name == "/":
		s.ID = verdict.ScopeIDDocument
		s.Description = "The whole document."
	case enveloped(d.Name):
		s.ID, s.Params = verdict.ScopeIDEnveloped, []verdict.Param{name}
		s.Description = fmt.Sprintf("The whole content enveloped in the signature, the XML element %s.", d.Name)
	case strings.HasPrefix(d.Name, "/"):
		s.Kind = verdict.ScopePartial
		s.ID, s.Params = verdict.ScopeIDXMLElement, []verdict.Param{name}
		s.Description = fmt.Sprintf("The XML element %s of the document, not the whole document.", d.Name)
	default:
		s.ID, s.Params = verdict.ScopeIDData, []verdict.Param{verdict.QuotedParam("Name", d.Name)}
		s.Description = fmt.Sprintf("The data %q.", d.Name)
	}
	changed := ""
	if !d.Intact && d.Unchecked == "" {
		changed = "yes"
		s.Description = strings.TrimSuffix(s.Description, ".") + "; it was changed after it was signed."
	}
	s.Params = append(s.Params, verdict.TextParam("Changed", changed))
	return s
}

// enveloped reports whether the XML element at path (/a/b[2]) is a
// ds:Object of a signature that is the document's root: the content of
// an enveloping signature, which is all the document holds besides the
// signature, whatever prefix the document gives the namespace.
func enveloped(path string) bool {
	steps := strings.Split(strings.TrimPrefix(path, "/"), "/")
	local := func(step string) string {
		if i := strings.LastIndexByte(step, ':'); i >= 0 {
			step = step[i+1:]
		}
		name, _, _ := strings.Cut(step, "[")
		return name
	}
	return strings.HasPrefix(path, "/") && len(steps) == 2 && local(steps[0]) == "Signature" && local(steps[1]) == "Object"
}

// chainOf is the certification path of sig's signing certificate as r
// chose it, or, when none reached an anchor, as far as the closest
// attempt of p got; each certificate with the revocation data the
// process relied on.
func chainOf(sig ades.Signature, r Result, p *Plan) []verdict.ChainCertificate {
	var out []verdict.ChainCertificate
	if r.Path != nil {
		for _, c := range r.Path.Certificates {
			cc := verdict.ChainCertificate{Certificate: verdict.CertificateOf(c), Revocation: revocationOf(c, r.Revocation)}
			if a := r.Path.Anchor; a.Certificate != nil && c.Equal(a.Certificate) {
				cc.TrustAnchor = true
				cc.AnchorSource, cc.TrustedList = anchorSource(a)
			}
			out = append(out, cc)
		}
		return out
	}
	if sig.SigningCertificate == nil {
		return nil
	}
	partial := []*x509.Certificate{sig.SigningCertificate}
	var nc *certpath.NoChainError
	if p != nil && sameCert(p.signer.leaf, sig.SigningCertificate) && errors.As(p.signer.err, &nc) && len(nc.Closest.Partial) > 0 {
		partial = nc.Closest.Partial
	}
	for _, c := range partial {
		out = append(out, verdict.ChainCertificate{Certificate: verdict.CertificateOf(c)})
	}
	return out
}

// anchorSource says where anchor a came from.
func anchorSource(a certpath.Anchor) (string, *verdict.AnchorList) {
	if a.Private {
		return verdict.AnchorPrivateCA, nil
	}
	fw := verdict.FrameworkUnknown
	switch a.Framework {
	case trust.EUEIDAS:
		fw = verdict.FrameworkEUEIDAS
	case trust.CHZERTES:
		fw = verdict.FrameworkCHZertES
	}
	return verdict.AnchorTrustedList, &verdict.AnchorList{TrustFramework: fw, Territory: a.Territory, Authenticated: a.Authenticated}
}

// revocationOf is the revocation data the process relied on for c, of
// facts (Result.Revocation): its earliest revocation when one says it
// was revoked, as the validation reports name it, else the latest GOOD
// data; nil when none is about c.
func revocationOf(c *x509.Certificate, facts []revocation.Fact) *verdict.RevocationStatus {
	var chosen *revocation.Fact
	for i, f := range facts {
		if !sameCert(f.Certificate, c) {
			continue
		}
		switch {
		case chosen == nil:
			chosen = &facts[i]
		case f.Status == revocation.Revoked && (chosen.Status != revocation.Revoked || f.RevokedAt.Before(chosen.RevokedAt)):
			chosen = &facts[i]
		case f.Status == revocation.Good && chosen.Status == revocation.Good && f.ThisUpdate.After(chosen.ThisUpdate):
			chosen = &facts[i]
		}
	}
	if chosen == nil {
		return nil
	}
	st := &verdict.RevocationStatus{Status: chosen.Status.String(), Source: chosen.Source.String(), Embedded: chosen.Embedded,
		ThisUpdate: chosen.ThisUpdate.UTC(), ProducedAt: utcPtr(chosen.ProducedAt), NextUpdate: utcPtr(chosen.NextUpdate)}
	if chosen.Status == revocation.Revoked {
		st.RevokedAt = utcPtr(chosen.RevokedAt)
	}
	return st
}

func utcPtr(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}
