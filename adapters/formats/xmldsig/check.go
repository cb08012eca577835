package xmldsig

import (
	"crypto"
	"crypto/subtle"
	"crypto/x509"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/url"
	"strconv"
	"strings"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// Bounds of CheckSignature beside those of Verify.
const (
	// MaxSignatures bounds the ds:Signature elements Signatures returns,
	// counter-signatures included.
	MaxSignatures = 64
	// MaxManifestReferences bounds the references of all the ds:Manifest
	// elements one signature's references point to, together.
	MaxManifestReferences = 256
)

// Stable reasons of ValueCheck.Reason and ReferenceCheck.Unchecked. They are
// codes a report carries, never to be parsed.
const (
	// ReasonNoCertificate: no candidate certificate at all (KeyInfo has
	// none, CheckOptions.Certificates is empty).
	ReasonNoCertificate = "NO_CERTIFICATE"
	// ReasonNoMatchingKey: no candidate has a key the signature method can
	// use (an RSA key for ecdsa-sha256, say).
	ReasonNoMatchingKey = "NO_MATCHING_KEY"
	// ReasonUnsupportedKey: a candidate's key has the right type but cannot
	// be used (an RSA modulus below 1024 bits, a curve not implemented).
	ReasonUnsupportedKey = "UNSUPPORTED_KEY"
	// ReasonUnsupportedSignatureMethod: SignatureMethod is not one this
	// package verifies (HMAC, DSA, unknown URI).
	ReasonUnsupportedSignatureMethod = "UNSUPPORTED_SIGNATURE_METHOD"
	// ReasonUnsupportedCanonicalization: SignedInfo's
	// CanonicalizationMethod is unknown.
	ReasonUnsupportedCanonicalization = "UNSUPPORTED_CANONICALIZATION"
	// ReasonCanonicalizationFailed: SignedInfo could not be canonicalised
	// (the Canonical XML 1.1 xml:base fix-up, an unbound prefix).
	ReasonCanonicalizationFailed = "CANONICALIZATION_FAILED"
	// ReasonSignatureInvalid: candidates had usable keys and none verified
	// the SignatureValue (ValueCheck Done, not Valid).
	ReasonSignatureInvalid = "SIGNATURE_INVALID"

	// ReasonUnsupportedDigest: the Reference's DigestMethod is unknown.
	ReasonUnsupportedDigest = "UNSUPPORTED_DIGEST"
	// ReasonUnsupportedTransform: a Transform algorithm this package does
	// not apply.
	ReasonUnsupportedTransform = "UNSUPPORTED_TRANSFORM"
	// ReasonXSLTUnsupported: an XSLT transform. Running a stylesheet from
	// an untrusted document is refused outright.
	ReasonXSLTUnsupported = "XSLT_TRANSFORM_UNSUPPORTED"
	// ReasonTransformFailed: a supported transform could not be applied to
	// this data (base64 that does not decode, detached data that is not
	// XML where a node-set is needed, a parse limit).
	ReasonTransformFailed = "TRANSFORM_FAILED"
	// ReasonXPathInvalid: an XPath or XPath Filter 2.0 expression does not
	// compile (syntax, an unknown function or prefix).
	ReasonXPathInvalid = "XPATH_INVALID"
	// ReasonXPathLimit: evaluating an XPath expression took more steps
	// than MaxXPathSteps.
	ReasonXPathLimit = "XPATH_LIMIT_EXCEEDED"
	// ReasonXPathUnreliable: evaluating an XPath expression moved its
	// context node inside antchfx/xpath, so its value cannot be trusted
	// (see compiledXPath).
	ReasonXPathUnreliable = "XPATH_UNRELIABLE"
	// ReasonUnsupportedURI: a same-document URI form other than "", "#id",
	// "#xpointer(/)" and "#xpointer(id('id'))".
	ReasonUnsupportedURI = "UNSUPPORTED_REFERENCE_URI"
)

// Reference types.
const (
	TypeManifest = "http://www.w3.org/2000/09/xmldsig#Manifest"
	TypeObject   = "http://www.w3.org/2000/09/xmldsig#Object"
)

// Signatures returns the ds:Signature elements of tree in document order
// (bounded by MaxSignatures), counter-signatures included (a caller tells
// them apart by their ancestors).
func Signatures(tree *etree.Document) ([]*etree.Element, error) {
	if tree == nil || tree.Root() == nil {
		return nil, nil
	}
	var (
		out   []*etree.Element
		scope nsScope
		err   error
	)
	var walk func(el *etree.Element)
	walk = func(el *etree.Element) {
		scope.pushElement(el)
		defer scope.pop()
		if uri, _ := scope.lookup(el.Space); uri == NamespaceDSig && el.Tag == "Signature" {
			if len(out) == MaxSignatures {
				err = fmt.Errorf("%w: more than %d signatures", ErrLimitExceeded, MaxSignatures)
				return
			}
			out = append(out, el)
		}
		for _, c := range el.ChildElements() {
			if err != nil {
				return
			}
			walk(c)
		}
	}
	walk(tree.Root())
	if err != nil {
		return nil, err
	}
	return out, nil
}

// A Resolver returns the data of a reference that is not same-document (a
// detached file): name and part identify what matched (part from 1, as
// ades.DataObject.Part); ok false when nothing matches. uri is the
// Reference URI, percent-decoded; "" for a Reference without a URI
// attribute (the application knows what it signs).
type Resolver func(uri string) (data []byte, name string, part int, ok bool)

// CheckOptions are the caller's inputs to CheckSignature.
type CheckOptions struct {
	// Certificates are candidate signer certificates besides KeyInfo's
	// (XAdES CertificateValues, the validator's anchors).
	Certificates []*x509.Certificate
	Resolve      Resolver // nil: no detached data
	// DiscardOctets leaves every ReferenceCheck.Octets nil: a reference's
	// canonical form is hashed as it is written and never held whole. A
	// whole-document reference's exclusive canonical form can be twice
	// the document (a namespace declared again on every element). Set it
	// when nothing will hash the octets again (XAdES: no content or
	// archive time-stamp).
	DiscardOctets bool
}

// ValueCheck is the outcome of checking the SignatureValue.
type ValueCheck struct {
	// Done is false when the value could not be checked (no certificate,
	// unsupported method); Reason then says why.
	Done bool
	// Valid: a candidate's key verified the value. Meaningful when Done.
	Valid bool
	// Reason is a stable code (Reason* constants) when not Done or not
	// Valid.
	Reason string
}

// Checked is one signature's checks. CheckSignature returns it for every
// signature it can parse; per-reference and signature-value failures are
// recorded here, not returned as errors.
type Checked struct {
	Element                *etree.Element // the ds:Signature
	ID                     string
	SignedInfo             *etree.Element
	CanonicalizationMethod string
	SignatureMethod        string
	SignatureHash          crypto.Hash
	// Algorithm names the signature as ades.Check does: RSA-SHA256,
	// RSASSA-PSS-SHA256, ECDSA-SHA256; "" for a method this package does
	// not know.
	Algorithm string
	// Value: Done false with Reason when the value could not be checked
	// (no certificate, unsupported method); Done and Valid when a
	// candidate's key verified it.
	Value ValueCheck
	// Signer is the candidate whose key verified the value; nil otherwise.
	Signer *x509.Certificate
	// KeyValue is the KeyInfo/KeyValue public key (RSAKeyValue, or
	// dsig11:ECKeyValue on a named curve), nil when absent. It is tried
	// after every certificate; when it is the key that verified the value,
	// Value is Valid and Signer nil: a bare key names no signer.
	KeyValue crypto.PublicKey
	// KeyInfoCertificates are the KeyInfo/X509Data certificates that
	// parse (brainpool keys included), in document order.
	KeyInfoCertificates []*x509.Certificate
	SignatureValue      *etree.Element
	// References are SignedInfo's, in order, then each Manifest's after
	// them, manifest by manifest.
	References []ReferenceCheck
}

// ReferenceCheck is the check of one ds:Reference.
type ReferenceCheck struct {
	Reference // URI, Type, ID, Transforms, DigestMethod, Document, Element
	// Manifest is the ds:Manifest holding the reference; nil for a
	// SignedInfo reference.
	Manifest *etree.Element
	Detached bool // resolved through the Resolver
	// Name is what was signed: the detached file's name (the URI when
	// nothing matched), the element path (/a/b[2]), "/" for the
	// document, or the URI of a same-document reference that matched
	// nothing.
	Name   string
	Part   int  // the Resolver's part, 0 otherwise
	Found  bool // the data was found
	Intact bool // the recomputed digest equals DigestValue
	// Unchecked is the stable reason (Reason* constants) the digest could
	// not be computed: an unsupported transform or digest; Intact is then
	// false and means nothing.
	Unchecked string
	Digest    []byte // DigestValue
	// Octets are the digest input (after transforms): XAdES archive
	// time-stamps hash them again. Nil when not computed.
	Octets []byte
}

// CheckSignature checks sig, a ds:Signature of tree. Its error is for a
// signature that cannot be read at all (no SignedInfo, a missing
// SignatureValue, too many references, a reference to an ID that several
// elements carry...): the caller reports a format failure. Errors wrap
// ErrMalformedSignature, ErrUnsupported, ErrDuplicateID or
// ErrLimitExceeded.
//
// Unlike Verify, any ds:Signature of the document is checked, detached
// data comes through o.Resolve, Manifest references are followed, and
// unsupported algorithms or transforms are reported on the reference or
// value they concern instead of stopping the check.
func CheckSignature(tree *etree.Document, sig *etree.Element, o CheckOptions) (*Checked, error) {
	if tree == nil || sig == nil || tree.Root() == nil {
		return nil, fmt.Errorf("%w: no signature element", ErrMalformedSignature)
	}
	for _, tok := range tree.Child {
		if _, ok := tok.(*etree.Directive); ok {
			return nil, fmt.Errorf("%w: document with a DOCTYPE", ErrUnsupported)
		}
	}
	if !isInside(sig, tree.Root()) || !isDS(sig, "Signature") {
		return nil, fmt.Errorf("%w: the element is not a ds:Signature of the document", ErrMalformedSignature)
	}
	s, err := readSignature(sig, false)
	if err != nil {
		return nil, err
	}
	c := &Checked{
		Element:                sig,
		ID:                     s.id,
		SignedInfo:             s.signedInfo,
		CanonicalizationMethod: s.c14nURI,
		SignatureMethod:        s.method,
		SignatureValue:         sig.ChildElements()[1],
	}
	if m, ok := signatureMethods[s.method]; ok {
		c.SignatureHash = m.hash
	}
	if s.pss != nil {
		c.SignatureHash = s.pss.hash
	}
	c.Algorithm = algorithmName(s)

	ck := &checker{doc: tree, sig: s, idx: indexDocument(tree), resolve: o.Resolve, discardOctets: o.DiscardOctets}
	for _, ref := range s.references {
		rc, err := ck.check(ref, nil)
		if err != nil {
			return nil, err
		}
		c.References = append(c.References, rc)
	}
	if err := ck.manifests(c); err != nil {
		return nil, err
	}

	for _, der := range s.certificates {
		// cert.Parse reads what crypto/x509 refuses (brainpool keys among
		// others); a certificate it cannot read either is no candidate.
		if cc, err := cert.Parse(der); err == nil && cc.PublicKey != nil {
			c.KeyInfoCertificates = append(c.KeyInfoCertificates, cc)
		}
	}
	c.KeyValue = s.keyValue
	candidates := append(append([]*x509.Certificate(nil), c.KeyInfoCertificates...), o.Certificates...)
	var bare *x509.Certificate
	if s.keyValue != nil {
		// A certificate-less candidate: verifying with it leaves Signer nil.
		bare = &x509.Certificate{PublicKey: s.keyValue}
		candidates = append(candidates, bare)
	}
	c.Value, c.Signer = checkValue(s, candidates)
	if c.Signer == bare {
		c.Signer = nil
	}
	return c, nil
}

// algorithmName names the signature method as ades.Check does.
func algorithmName(s *parsedSignature) string {
	if s.methodErr != nil {
		return ""
	}
	if s.pss != nil {
		return "RSASSA-PSS-" + cert.HashName(s.pss.hash)
	}
	m, ok := signatureMethods[s.method]
	if !ok {
		return ""
	}
	switch m.family {
	case familyRSA:
		return "RSA-" + cert.HashName(m.hash)
	case familyRSAPSS:
		return "RSASSA-PSS-" + cert.HashName(m.hash)
	case familyECDSA:
		return "ECDSA-" + cert.HashName(m.hash)
	}
	return ""
}

// checkValue verifies the SignatureValue with each candidate's key.
func checkValue(s *parsedSignature, candidates []*x509.Certificate) (ValueCheck, *x509.Certificate) {
	switch {
	case s.c14nErr != nil:
		return ValueCheck{Reason: ReasonUnsupportedCanonicalization}, nil
	case s.methodErr != nil:
		return ValueCheck{Reason: ReasonUnsupportedSignatureMethod}, nil
	case len(candidates) == 0:
		return ValueCheck{Reason: ReasonNoCertificate}, nil
	}
	signed, err := Canonicalize(s.signedInfo, s.c14nURI, s.c14nPrefixes)
	if err != nil {
		return ValueCheck{Reason: ReasonCanonicalizationFailed}, nil
	}
	usable, unsupported := 0, false
	for _, cand := range candidates {
		if cand == nil || cand.PublicKey == nil {
			continue
		}
		switch err := verifyWithKey(s, cand.PublicKey, signed); {
		case err == nil:
			return ValueCheck{Done: true, Valid: true}, cand
		case errors.Is(err, errKeyMismatch):
		case errors.Is(err, ErrSignatureInvalid):
			usable++
		default:
			unsupported = true
		}
	}
	switch {
	case usable > 0:
		return ValueCheck{Done: true, Reason: ReasonSignatureInvalid}, nil
	case unsupported:
		return ValueCheck{Reason: ReasonUnsupportedKey}, nil
	}
	return ValueCheck{Reason: ReasonNoMatchingKey}, nil
}

// checker checks the references of one signature.
type checker struct {
	doc     *etree.Document
	sig     *parsedSignature
	idx     docIndex
	resolve Resolver
	// discardOctets is CheckOptions.DiscardOctets.
	discardOctets bool
	// xpathSteps is the XPath budget of the signature, MaxXPathSteps
	// navigation steps over all its references.
	xpathSteps *xpathBudget
}

// manifests checks the references of every ds:Manifest a SignedInfo
// reference of Type Manifest resolved to, appending them to c. Manifests
// are followed one level deep: a manifest's own Manifest references are
// checked as references, not followed.
func (ck *checker) manifests(c *Checked) error {
	total := 0
	n := len(c.References)
	for i := range n {
		r := c.References[i]
		if r.Type != TypeManifest || !r.Found || r.Element == nil || !isDS(r.Element, "Manifest") {
			continue
		}
		children, err := dsChildren(r.Element)
		if err != nil {
			return err
		}
		for _, el := range children {
			if !isDS(el, "Reference") {
				return fmt.Errorf("%w: unexpected <%s> in ds:Manifest", ErrMalformedSignature, qualified(el.Space, el.Tag))
			}
			if total++; total > MaxManifestReferences {
				return fmt.Errorf("%w: more than %d manifest references", ErrLimitExceeded, MaxManifestReferences)
			}
			ref, err := parseReference(el)
			if err != nil {
				return err
			}
			rc, err := ck.check(ref, r.Element)
			if err != nil {
				return err
			}
			c.References = append(c.References, rc)
		}
	}
	return nil
}

// check resolves ref, applies its transforms and compares the digest.
// Only a reference that cannot be resolved unambiguously is an error.
func (ck *checker) check(ref parsedReference, manifest *etree.Element) (ReferenceCheck, error) {
	rc := ReferenceCheck{
		Reference: Reference{URI: ref.uri, Type: ref.typ, ID: ref.id, DigestMethod: ref.digestURI},
		Manifest:  manifest,
		Digest:    ref.digest,
	}
	for _, t := range ref.transforms {
		rc.Transforms = append(rc.Transforms, t.algorithm)
	}
	in, err := ck.dereference(ref, &rc)
	if err != nil || !rc.Found {
		return rc, err
	}
	var d hash.Hash
	var sink io.Writer
	if ref.digestErr == nil {
		h, _ := digestHash(ref.digestURI)
		d = h.New()
		if ck.discardOctets {
			sink = d
		}
	}
	octets, streamed, reason := ck.transform(ref, in, sink)
	if reason != "" {
		rc.Unchecked = reason
		return rc, nil
	}
	if !ck.discardOctets {
		rc.Octets = octets
	}
	if ref.digestErr != nil {
		rc.Unchecked = ReasonUnsupportedDigest
		return rc, nil
	}
	if !streamed {
		d.Write(octets)
	}
	rc.Intact = subtle.ConstantTimeCompare(d.Sum(nil), ref.digest) == 1
	return rc, nil
}

// dereference resolves ref's URI, filling rc's Found, Detached, Name,
// Part, Document and Element. Same-document URIs select a node-set of the
// tree; anything else goes to the Resolver, which yields octets. An ID
// claimed by several elements is an error (ErrDuplicateID): resolving it
// to either would let an attacker choose what was verified.
func (ck *checker) dereference(ref parsedReference, rc *ReferenceCheck) (data, error) {
	uri := ref.uri
	switch {
	case !ref.hasURI || !strings.HasPrefix(uri, "#") && uri != "":
		rc.Detached = true
		if !ref.hasURI {
			uri = ""
		} else if u, err := url.PathUnescape(uri); err == nil {
			uri = u
		}
		if ck.resolve == nil {
			rc.Name = uri
			return data{}, nil
		}
		b, name, part, ok := ck.resolve(uri)
		rc.Name = uri
		if !ok {
			return data{}, nil
		}
		rc.Found, rc.Name, rc.Part = true, name, part
		return data{octets: b, isOctets: true}, nil
	case isDocumentURI(uri):
		rc.Found, rc.Document, rc.Name = true, true, "/"
		return data{set: nodeSet{root: &ck.doc.Element, comments: uri != ""}}, nil
	}
	id, comments := uri[1:], false
	if inner, ok := strings.CutPrefix(id, "xpointer(id("); ok {
		quoted, ok := strings.CutSuffix(inner, "))")
		if !ok || len(quoted) < 2 || (quoted[0] != '\'' && quoted[0] != '"') || quoted[len(quoted)-1] != quoted[0] {
			rc.Unchecked = ReasonUnsupportedURI
			return data{}, nil
		}
		id, comments = quoted[1:len(quoted)-1], true
	} else if strings.HasPrefix(id, "xpointer(") {
		rc.Unchecked = ReasonUnsupportedURI
		return data{}, nil
	}
	claims := ck.idx.ids[id]
	switch {
	case len(claims) == 0:
		rc.Name = uri // nothing to name but what was asked for
		return data{}, nil
	case len(claims) > 1:
		return data{}, fmt.Errorf("%w: reference URI %q: %d elements have that ID", ErrDuplicateID, uri, len(claims))
	}
	el := claims[0].el
	rc.Found, rc.Element, rc.Name = true, el, elementPath(el)
	return data{set: nodeSet{root: el, comments: comments}}, nil
}

// elementPath names el by its path from the root: /a/b[2], the position
// given when the parent has several children of that name.
func elementPath(el *etree.Element) string {
	var parts []string
	for e := el; e != nil && !isDocumentNode(e); e = e.Parent() {
		name := qualified(e.Space, e.Tag)
		if p := e.Parent(); p != nil {
			same, pos := 0, 0
			for _, sib := range p.ChildElements() {
				if sib.Space == e.Space && sib.Tag == e.Tag {
					same++
					if sib == e {
						pos = same
					}
				}
			}
			if same > 1 {
				name += "[" + strconv.Itoa(pos) + "]"
			}
		}
		parts = append(parts, name)
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(parts[i])
	}
	return b.String()
}
