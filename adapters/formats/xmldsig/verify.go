package xmldsig

import (
	"crypto"
	"crypto/x509"
	"fmt"
	"time"

	"github.com/beevik/etree"
)

// Bounds on untrusted input. A European trusted list is at most a few
// megabytes and carries one signature with two or three references.
const (
	// MaxDocumentSize is the largest document Verify accepts. Callers that
	// download lists should stop reading at this size.
	MaxDocumentSize = 32 << 20
	// MaxReferences bounds the Reference elements of one SignedInfo.
	MaxReferences = 16
	// MaxTransforms bounds the Transform elements of one Reference.
	MaxTransforms = 8
	// MaxCertificates bounds the X509Certificate elements read from KeyInfo.
	MaxCertificates = 32
)

// Result describes a verified signature. Verify also returns it, partly
// filled, with errors found after the signature was parsed (a *DigestError,
// ErrSignatureInvalid, ErrNoCertificate), so that callers can report what the
// signature claims; Signer is set only when Verify returns nil.
type Result struct {
	// Signer is the certificate whose public key verified the
	// SignatureValue. Verify does not judge whether it is trusted: callers
	// check it against their trust anchors.
	Signer *x509.Certificate
	// Certificates holds every certificate embedded in KeyInfo/X509Data,
	// in document order.
	Certificates []*x509.Certificate

	SignatureID            string // Id attribute of ds:Signature
	CanonicalizationMethod string
	SignatureMethod        string
	// SignatureHash is the hash the signature method signs with (for
	// rsa-pss with RSAPSSParams, the one its parameters name).
	SignatureHash crypto.Hash
	References    []Reference

	// SignedProperties reports a verified XAdES SignedProperties reference
	// (Type http://uri.etsi.org/01903#SignedProperties).
	SignedProperties bool
	// SigningTime is the XAdES SigningTime inside the referenced (so
	// signed) SignedProperties; zero when absent.
	SigningTime time.Time
}

// Reference describes one ds:Reference of SignedInfo.
type Reference struct {
	URI          string
	Type         string
	ID           string
	Transforms   []string
	DigestMethod string

	// Document reports a reference that selected the whole document (URI
	// "" or "#xpointer(/)"); Element is then nil.
	Document bool
	// Element is the element an ID reference resolved to, in the tree
	// Verify read: what the digest covers is that element's subtree (less
	// the signature, with the enveloped-signature transform). Callers that
	// need to know what a signature vouches for compare this node, never a
	// second lookup by name or ID. Nil for a whole-document reference and
	// for references Verify did not get to.
	Element *etree.Element
}

// UsesHash reports whether the signature relies on h: as the hash of its
// signature method or as the digest of a reference. A validation policy
// asks it of SHA-1.
func (r *Result) UsesHash(h crypto.Hash) bool {
	if r.SignatureHash == h {
		return true
	}
	for _, ref := range r.References {
		if d, ok := digestMethods[ref.DigestMethod]; ok && d == h {
			return true
		}
	}
	return false
}

// Hash is the hash of the reference's DigestMethod; ok is false for a
// method this package does not know.
func (r Reference) Hash() (crypto.Hash, bool) {
	h, ok := digestMethods[r.DigestMethod]
	return h, ok
}

// Enveloped reports whether the reference applies the enveloped-signature
// transform.
func (r Reference) Enveloped() bool {
	for _, t := range r.Transforms {
		if t == TransformEnveloped {
			return true
		}
	}
	return false
}

// VerifyOption configures Verify.
type VerifyOption func(*verifyConfig)

type verifyConfig struct {
	extraCerts []*x509.Certificate
}

// WithCertificates adds candidate signer certificates to those found in
// KeyInfo, for lists whose signature omits the certificate (the trusted list
// signer announced in the LOTL pointer, say). Candidates from KeyInfo are
// tried first.
func WithCertificates(certs ...*x509.Certificate) VerifyOption {
	return func(c *verifyConfig) { c.extraCerts = append(c.extraCerts, certs...) }
}

// Verify checks the enveloped XMLDSig signature of doc: the document must
// carry exactly one ds:Signature, a child of the root element. Every
// Reference digest is recomputed (references to "" or "#id" only; nothing is
// ever fetched), then the SignatureValue is verified over the canonical
// SignedInfo with the public key of the first candidate certificate that
// verifies it.
//
// Errors: a *DigestError or ErrSignatureInvalid when content or signature
// were altered (see IsTampered); ErrNoSignature, ErrMultipleSignatures;
// otherwise the signature could not be checked (ErrMalformedXML,
// ErrMalformedSignature, ErrUnsupported, ErrDuplicateID, ErrNoCertificate,
// ErrLimitExceeded).
func Verify(doc []byte, opts ...VerifyOption) (*Result, error) {
	if len(doc) > MaxDocumentSize {
		return nil, fmt.Errorf("%w: document of %d bytes, at most %d", ErrLimitExceeded, len(doc), MaxDocumentSize)
	}
	tree, err := ParseDocument(doc)
	if err != nil {
		return nil, err
	}
	return VerifyDocument(tree, opts...)
}

// VerifyDocument is [Verify] over a document [ParseDocument] returned, for
// callers that also read the document's content: one parse then serves
// both. It does not change tree. The caller bounds the input size.
func VerifyDocument(tree *etree.Document, opts ...VerifyOption) (*Result, error) {
	var cfg verifyConfig
	for _, o := range opts {
		o(&cfg)
	}
	var err error
	for _, tok := range tree.Child {
		if _, ok := tok.(*etree.Directive); ok {
			// Entity and default-attribute declarations would change what
			// was signed, and we do not process them.
			return nil, fmt.Errorf("%w: document with a DOCTYPE", ErrUnsupported)
		}
	}

	idx := indexDocument(tree)
	switch n := len(idx.signatures); {
	case n == 0:
		return nil, ErrNoSignature
	case n > 1:
		return nil, fmt.Errorf("%w: found %d", ErrMultipleSignatures, n)
	}
	sigEl := idx.signatures[0]
	if sigEl.Parent() != tree.Root() {
		return nil, fmt.Errorf("%w: ds:Signature is not a child of the root element", ErrMalformedSignature)
	}

	sig, err := parseSignature(sigEl)
	if err != nil {
		return nil, err
	}
	res := sig.result()
	certs, certErr := parseCertificates(sig.certificates)
	res.Certificates = certs

	v := verifier{doc: tree, sig: sig, idx: idx}
	targets := make([]*etree.Element, len(sig.references))
	for i := range sig.references {
		targets[i], err = v.checkReference(i)
		res.References[i].Element = targets[i]
		res.References[i].Document = isDocumentURI(sig.references[i].uri)
		if err != nil {
			return res, err
		}
	}

	candidates := append(append([]*x509.Certificate(nil), certs...), cfg.extraCerts...)
	if len(candidates) == 0 {
		if certErr != nil {
			return res, fmt.Errorf("%w: %w", ErrNoCertificate, certErr)
		}
		return res, fmt.Errorf("%w: KeyInfo has no X509Certificate", ErrNoCertificate)
	}
	signer, err := v.checkSignatureValue(candidates)
	if err != nil {
		if certErr != nil {
			err = fmt.Errorf("%w (and %w)", err, certErr)
		}
		return res, err
	}

	if err := readXAdES(res, sig, targets); err != nil {
		return res, err
	}
	res.Signer = signer
	return res, nil
}

// docIndex is what one walk over the document collects: the ds:Signature
// elements and, for each ID value, every element that claims it.
type docIndex struct {
	signatures []*etree.Element
	ids        map[string][]idClaim
}

// An idClaim is an element carrying an ID value, and whether it carries it
// in an attribute a same-document reference resolves through.
type idClaim struct {
	el         *etree.Element
	resolvable bool
}

// idAttributes are the attribute names treated as IDs without a DTD or
// schema: XMLDSig and XAdES use Id, other vocabularies ID and id. Only the
// unprefixed attributes resolve a reference; see [isIDName] for the
// prefixed ones.
var idAttributes = [...]string{"Id", "ID", "id"}

// isIDName reports whether an attribute's local name is one of
// idAttributes. A prefixed attribute with such a name (tsl:Id, xml:id,
// wsu:Id) resolves nothing here, but another processor may take it for the
// element's ID: an element carrying one makes every reference to that
// value ambiguous, and so refused. That is the signature-wrapping attack
// on lists that reference their root by Id: a new root carrying the Id
// under a prefix, the genuine root nested inside it.
func isIDName(local string) bool {
	for _, name := range idAttributes {
		if local == name {
			return true
		}
	}
	return false
}

func indexDocument(doc *etree.Document) docIndex {
	idx := docIndex{ids: make(map[string][]idClaim)}
	var scope nsScope
	var walk func(el *etree.Element)
	walk = func(el *etree.Element) {
		scope.pushElement(el)
		defer scope.pop()
		if uri, _ := scope.lookup(el.Space); uri == NamespaceDSig && el.Tag == "Signature" {
			idx.signatures = append(idx.signatures, el)
		}
		for _, a := range el.Attr {
			if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl || !isIDName(a.Key) {
				continue
			}
			claims := idx.ids[a.Value]
			// An element naming itself twice (Id and id, or Id and
			// xml:id) is one claim.
			if n := len(claims); n > 0 && claims[n-1].el == el {
				claims[n-1].resolvable = claims[n-1].resolvable || a.Space == ""
				continue
			}
			idx.ids[a.Value] = append(claims, idClaim{el: el, resolvable: a.Space == ""})
		}
		for _, c := range el.ChildElements() {
			walk(c)
		}
	}
	walk(doc.Root())
	return idx
}

// resolve returns the one element a same-document reference to id
// selects. The value must be claimed by exactly one element in the whole
// document, through any ID-like attribute, prefixed or not, and that
// element must carry it in an unprefixed one: a reference two elements
// could answer to is refused (ErrDuplicateID), never resolved to either.
func (idx docIndex) resolve(uri, id string) (*etree.Element, error) {
	switch claims := idx.ids[id]; {
	case len(claims) == 0:
		return nil, fmt.Errorf("%w: reference URI %q: no element has that ID", ErrMalformedSignature, uri)
	case len(claims) > 1:
		return nil, fmt.Errorf("%w: reference URI %q: %d elements have that ID", ErrDuplicateID, uri, len(claims))
	case !claims[0].resolvable:
		return nil, fmt.Errorf("%w: reference URI %q: the ID is carried only by a prefixed attribute", ErrUnsupported, uri)
	default:
		return claims[0].el, nil
	}
}
