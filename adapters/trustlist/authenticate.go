package trustlist

import (
	"bytes"
	"crypto/x509"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/trust"
)

// Authenticate checks a list's own signature against the certificates
// allowed to sign it (validation-service.md §3, "Authenticity of a trusted
// list"): INVALID when signed content or the signature value
// was altered, VALID when it verifies with an allowed signer, and
// INDETERMINATE otherwise (another signer, no signature, or a signature
// that cannot be checked). With no allowed certificate it returns
// NOT_CHECKED: nothing is configured to check against.
func Authenticate(data []byte, allowed []*x509.Certificate) trust.Authenticity {
	if len(allowed) == 0 {
		return trust.AuthNotChecked
	}
	if len(data) > xmldsig.MaxDocumentSize {
		return trust.AuthIndeterminate
	}
	doc, err := xmldsig.ParseDocument(data)
	if err != nil {
		return trust.AuthIndeterminate
	}
	return AuthenticateTree(doc, allowed)
}

// AuthenticateTree is [Authenticate] over a document already parsed by
// xmldsig.ParseDocument (see [ParseTree]).
func AuthenticateTree(doc *etree.Document, allowed []*x509.Certificate) trust.Authenticity {
	if len(allowed) == 0 {
		return trust.AuthNotChecked
	}
	res, err := xmldsig.VerifyDocument(doc, xmldsig.WithCertificates(allowed...))
	switch {
	case err == nil && !coversDocument(res, doc.Root()):
		// An intact signature over part of the list vouches for that part
		// only: the rest could have been changed (EU DSS's TL policy
		// requires the full scope, FullScope at FAIL).
		return trust.AuthIndeterminate
	case err == nil && allowedSigner(res.Signer, allowed):
		return trust.AuthValid
	case err == nil:
		return trust.AuthIndeterminate
	case xmldsig.IsTampered(err):
		return trust.AuthInvalid
	default:
		return trust.AuthIndeterminate
	}
}

// coversDocument reports whether a verified reference covers the whole
// list: the document (URI "" or #xpointer(/)) or its root element by Id.
func coversDocument(res *xmldsig.Result, root *etree.Element) bool {
	id := ""
	if root != nil {
		id = root.SelectAttrValue("Id", "")
	}
	for _, r := range res.References {
		switch {
		case r.URI == "", r.URI == "#xpointer(/)":
			return true
		case id != "" && (r.URI == "#"+id || r.URI == "#xpointer(id('"+id+"'))"):
			return true
		}
	}
	return false
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
