package trustlist

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"errors"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/trust"
)

// Authenticate checks a list's own signature against the certificates
// allowed to sign it (validation-service.md §3, "Authenticity of a trusted
// list"): INVALID when signed content or the signature value was altered,
// VALID when it verifies with an allowed signer and covers the whole list,
// and INDETERMINATE otherwise (another signer, no signature, a signature
// over something else than the list, or one that cannot be checked), each
// with its [trust.AuthReason]. With no allowed certificate it returns
// NOT_CHECKED: nothing is configured to check against.
func Authenticate(data []byte, allowed []*x509.Certificate) trust.Check {
	if len(allowed) == 0 {
		return trust.Check{Authenticity: trust.AuthNotChecked}
	}
	if len(data) > MaxInputBytes {
		return trust.Check{Authenticity: trust.AuthIndeterminate, Reason: trust.ReasonUnreadableSignature}
	}
	doc, err := xmldsig.ParseDocumentLimits(data, DocumentLimits())
	if err != nil {
		return trust.Check{Authenticity: trust.AuthIndeterminate, Reason: trust.ReasonUnreadableSignature}
	}
	return AuthenticateTree(doc, allowed)
}

// AuthenticateTree is [Authenticate] over a document already parsed by
// xmldsig.ParseDocument (see [ParseTree]).
//
// A VALID outcome vouches for doc's root element, the node [ParseTree]
// reads: the signature's reference resolved to that very node (or to the
// whole document), never to a look-alike found by name or Id elsewhere in
// the document.
func AuthenticateTree(doc *etree.Document, allowed []*x509.Certificate) trust.Check {
	if len(allowed) == 0 {
		return trust.Check{Authenticity: trust.AuthNotChecked}
	}
	res, err := xmldsig.VerifyDocument(doc, xmldsig.WithCertificates(allowed...))
	c := trust.Check{Authenticity: trust.AuthIndeterminate}
	if res != nil {
		c.SHA1 = res.UsesHash(crypto.SHA1)
		c.Uses = uses(res)
	}
	if err != nil {
		c.Authenticity, c.Reason = failure(err)
		return c
	}
	switch scope := coverage(res, doc.Root()); {
	case scope != 0:
		// An intact signature over something else than the list vouches
		// for that only: the list read could have been written by anyone
		// (EU DSS's TL policy requires the full scope, FullScope at FAIL).
		c.Reason = scope
	case !allowedSigner(res.Signer, allowed):
		c.Reason = trust.ReasonSignerNotAllowed
	default:
		c.Authenticity = trust.AuthValid
	}
	return c
}

// failure classifies a signature the checker refused.
func failure(err error) (trust.Authenticity, trust.AuthReason) {
	switch {
	case xmldsig.IsTampered(err):
		return trust.AuthInvalid, trust.ReasonAltered
	case errors.Is(err, xmldsig.ErrNoSignature):
		return trust.AuthIndeterminate, trust.ReasonNoSignature
	case errors.Is(err, xmldsig.ErrMultipleSignatures):
		return trust.AuthIndeterminate, trust.ReasonSeveralSignatures
	case errors.Is(err, xmldsig.ErrDuplicateID):
		return trust.AuthIndeterminate, trust.ReasonAmbiguousReference
	}
	return trust.AuthIndeterminate, trust.ReasonUnreadableSignature
}

// coverage returns zero when a verified reference covers the whole list,
// and otherwise what the signature covers instead. The whole list is the
// document (URI "" or "#xpointer(/)") or its root element, reached by an
// ID the resolver found on exactly that node, each with the
// enveloped-signature transform: the signature sits inside the list. The
// decision is made on the node the reference resolved to, never on the
// URI's text.
func coverage(res *xmldsig.Result, root *etree.Element) trust.AuthReason {
	reason := trust.ReasonCoversPart
	for _, r := range res.References {
		switch {
		case !r.Enveloped():
		case r.Document, r.Element != nil && r.Element == root:
			return 0
		}
		if r.Element != nil && root != nil && r.Element.Tag == root.Tag {
			// A list-shaped element other than the root: a copy nested in
			// the document or in the signature.
			reason = trust.ReasonCoversOtherElement
		}
	}
	return reason
}

// allowedSigner accepts the signer when it is one of the allowed
// certificates or carries the same public key (a re-issued certificate
// for the announced key).
func allowedSigner(signer *x509.Certificate, allowed []*x509.Certificate) bool {
	for _, c := range allowed {
		if bytes.Equal(signer.Raw, c.Raw) || bytes.Equal(signer.RawSubjectPublicKeyInfo, c.RawSubjectPublicKeyInfo) {
			return true
		}
	}
	return false
}

// uses are the algorithms a verified signature relies on, for the
// cryptographic constraints (trust.Check.Judged): its signature method
// with the signer's key, and each reference's digest.
func uses(res *xmldsig.Result) []algorithm.Use {
	var out []algorithm.Use
	if res.Signer != nil {
		if key, bits, ok := algorithm.KeyOf(res.Signer.PublicKey); ok {
			u := algorithm.Use{Key: key, Bits: bits}
			if res.SignatureHash != 0 {
				u.Digest = algorithm.Digest(res.SignatureHash.String())
			}
			out = append(out, u)
		}
	}
	for _, r := range res.References {
		if h, ok := r.Hash(); ok {
			out = append(out, algorithm.Use{Digest: algorithm.Digest(h.String())})
		}
	}
	return out
}
