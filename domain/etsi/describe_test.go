package etsi_test

import (
	"crypto/x509"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/certpath"
	"github.com/svc-dss/dss/domain/etsi"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
)

func scope(kind verdict.ScopeKind, name, description string) verdict.SignatureScope {
	return verdict.SignatureScope{Kind: kind, Name: name, Description: description}
}

// described is scopes without what a catalogue words them from
// (adapters/catalog tests that the English template is the description).
func described(scopes []verdict.SignatureScope) []verdict.SignatureScope {
	out := make([]verdict.SignatureScope, len(scopes))
	for i, s := range scopes {
		out[i] = scope(s.Kind, s.Name, s.Description)
	}
	return out
}

// Scopes says what a signature covers, from the evidence alone.
func TestScopes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sig  ades.Signature
		want []verdict.SignatureScope
	}{
		{"counter-signature", ades.Signature{CounterSignatureOf: "S-1", DataObjects: []ades.DataObject{{Name: "signature-value", Found: true, Intact: true}}},
			[]verdict.SignatureScope{scope(verdict.ScopeCounterSignature, "S-1", "The signature value of signature S-1, which this signature counter-signs.")}},
		{"PDF, whole", ades.Signature{Placement: &ades.Placement{Kind: ades.PDFField, Name: "Sig1", Revision: 2, Revisions: 2, CoversWholeDocument: true}},
			[]verdict.SignatureScope{scope(verdict.ScopeFull, "Sig1", "The whole PDF document (revision 2 of 2): nothing was added after the signature.")}},
		{"PDF, revision with changes after it", ades.Signature{Placement: &ades.Placement{Kind: ades.PDFField, Name: "Sig1", Revision: 1, Revisions: 3,
			Changes: []string{"annotations were added after signing, on page 1", "form fields were filled in or changed after signing: name."}}},
			[]verdict.SignatureScope{scope(verdict.ScopePartial, "Sig1", "Revision 1 of 3 of the PDF document, not the whole document: 2 later updates were added after the signature; "+
				"annotations were added after signing, on page 1; form fields were filled in or changed after signing: name.")}},
		{"PDF, revision followed by validation data only", ades.Signature{Placement: &ades.Placement{Kind: ades.PDFField, Name: "Sig1", Revision: 1, Revisions: 2}},
			[]verdict.SignatureScope{scope(verdict.ScopePartial, "Sig1", "Revision 1 of 2 of the PDF document, not the whole document: a later update was added after the signature, and no change to what was signed was found in it.")}},
		{"PDF, unsound byte range", ades.Signature{Placement: &ades.Placement{Kind: ades.PDFField, Name: "Sig1"}},
			[]verdict.SignatureScope{scope(verdict.ScopePartial, "Sig1", "Part of the PDF document: the signature's byte range is unsound, so which revision it covers cannot be told.")}},
		{"XML element, changed", ades.Signature{DataObjects: []ades.DataObject{{Name: "/Invoice/Total", Found: true}}},
			[]verdict.SignatureScope{scope(verdict.ScopePartial, "/Invoice/Total", "The XML element /Invoice/Total of the document, not the whole document; it was changed after it was signed.")}},
		{"content of an enveloping signature", ades.Signature{DataObjects: []ades.DataObject{{Name: "/ds:Signature/ds:Object[2]", Found: true, Intact: true}}},
			[]verdict.SignatureScope{scope(verdict.ScopeFull, "/ds:Signature/ds:Object[2]", "The whole content enveloped in the signature, the XML element /ds:Signature/ds:Object[2].")}},
		{"an element inside an enveloped object", ades.Signature{DataObjects: []ades.DataObject{{Name: "/Signature/Object/Manifest", Found: true, Intact: true}}},
			[]verdict.SignatureScope{scope(verdict.ScopePartial, "/Signature/Object/Manifest", "The XML element /Signature/Object/Manifest of the document, not the whole document.")}},
		{"detached, not supplied", ades.Signature{DataObjects: []ades.DataObject{{Name: "content"}}},
			[]verdict.SignatureScope{scope(verdict.ScopeDigest, "content", "Detached data, which was not supplied: only its digest is known.")}},
		{"container files", ades.Signature{Container: "ASiC-E", DataObjects: []ades.DataObject{{Name: "a.txt", Found: true, Intact: true}, {Name: "b.txt", Found: true, Intact: true}}},
			[]verdict.SignatureScope{scope(verdict.ScopeFull, "a.txt", `The whole file "a.txt" of the ASiC-E container.`), scope(verdict.ScopeFull, "b.txt", `The whole file "b.txt" of the ASiC-E container.`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is.New(t).Equal(described(etsi.Scopes(tt.sig)), tt.want)
		})
	}
}

// Describe carries the process's facts: the time claimed and the time
// proved, apart; the chosen path with its anchor's list, and for each
// certificate the revocation data relied on, a revocation before GOOD
// data.
func TestDescribe(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := newPKI(t)
	signer, ca := p.SignerEUQES.Certificate, p.IntermediateEU.Certificate
	claimed := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	stamped := claimed.Add(time.Minute)
	good := revocation.Fact{Certificate: signer, Issuer: ca, Source: revocation.CRL, Status: revocation.Good, ThisUpdate: claimed.Add(time.Hour)}
	revoked := revocation.Fact{Certificate: signer, Issuer: ca, Source: revocation.OCSP, Embedded: true, Status: revocation.Revoked,
		RevokedAt: claimed.Add(2 * time.Hour), ProducedAt: claimed.Add(3 * time.Hour), ThisUpdate: claimed.Add(3 * time.Hour)}
	sig := ades.Signature{SigningCertificate: signer, ClaimedSigningTime: claimed}
	r := etsi.Result{
		Path:              &certpath.Path{Certificates: []*x509.Certificate{signer, ca}, Anchor: certpath.Anchor{Certificate: ca, Framework: trust.EUEIDAS, Territory: "DE", Authenticated: true}},
		BestSignatureTime: stamped,
		Timestamps:        []etsi.TimestampResult{{Type: ades.SignatureTimestamp, GenTime: stamped}},
		Revocation:        []revocation.Fact{good, revoked},
	}
	var rep verdict.SignatureReport
	etsi.Describe(&rep, sig, r, nil)
	is.True(rep.SigningTime.Equal(claimed))
	is.True(rep.BestSignatureTime.Equal(stamped))
	is.Equal(len(rep.CertificateChain), 2)
	is.Equal(rep.CertificateChain[0].Revocation.Status, "REVOKED")
	is.Equal(rep.CertificateChain[0].Revocation.Source, "OCSP")
	is.True(rep.CertificateChain[0].Revocation.Embedded)
	is.True(rep.CertificateChain[0].Revocation.RevokedAt.Equal(revoked.RevokedAt))
	is.True(rep.CertificateChain[0].Revocation.ProducedAt.Equal(revoked.ProducedAt))
	is.Equal(rep.CertificateChain[1].TrustAnchor, true)
	is.Equal(rep.CertificateChain[1].TrustedList, &verdict.AnchorList{TrustFramework: verdict.FrameworkEUEIDAS, Territory: "DE", Authenticated: true})

	// Only a content time-stamp: it proves when the data existed, not the
	// signature; the validation time stands.
	r.Timestamps = []etsi.TimestampResult{{Type: ades.ContentTimestamp, GenTime: stamped}}
	r.BestSignatureTime = stamped.Add(24 * time.Hour)
	rep = verdict.SignatureReport{}
	etsi.Describe(&rep, sig, r, nil)
	is.Equal(rep.BestSignatureTime, nil)
}
