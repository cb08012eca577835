package xmldsig

import (
	"crypto"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// parsedSignature is the checked structure of a ds:Signature element.
type parsedSignature struct {
	el           *etree.Element
	id           string
	signedInfo   *etree.Element
	c14nURI      string
	c14nPrefixes []string
	method       string
	pss          *pssParams // parameters of SignatureRSAPSS
	// methodErr and c14nErr record an unsupported SignatureMethod or
	// CanonicalizationMethod when the signature was read leniently (for
	// CheckSignature, which reports them instead of failing).
	methodErr    error
	c14nErr      error
	value        []byte
	references   []parsedReference
	certificates [][]byte         // DER, from KeyInfo/X509Data/X509Certificate
	keyValue     crypto.PublicKey // KeyInfo/KeyValue, used by CheckSignature only
}

type parsedReference struct {
	el         *etree.Element
	uri        string
	hasURI     bool // false: the URI attribute is absent (the application knows the data)
	typ        string
	id         string
	transforms []parsedTransform
	digestURI  string
	digest     []byte
	digestErr  error // an unsupported DigestMethod, when read leniently
	// digestValueErr records a DigestValue that is not base64.
	digestValueErr error
}

type parsedTransform struct {
	el        *etree.Element // the ds:Transform, for the parameters of XPath transforms
	algorithm string
	prefixes  []string // exclusive c14n InclusiveNamespaces PrefixList
}

// pssParams are the RFC 9231 RSAPSSParams of SignatureRSAPSS.
type pssParams struct {
	hash       crypto.Hash
	saltLength int
}

func (s *parsedSignature) result() *Result {
	r := &Result{
		SignatureID:            s.id,
		CanonicalizationMethod: s.c14nURI,
		SignatureMethod:        s.method,
		SignatureHash:          signatureMethods[s.method].hash,
	}
	if s.pss != nil {
		r.SignatureHash = s.pss.hash
	}
	for _, ref := range s.references {
		rr := Reference{URI: ref.uri, Type: ref.typ, ID: ref.id, DigestMethod: ref.digestURI}
		for _, t := range ref.transforms {
			rr.Transforms = append(rr.Transforms, t.algorithm)
		}
		r.References = append(r.References, rr)
	}
	return r
}

// parseSignature reads the XMLDSig structure: SignedInfo, SignatureValue,
// optional KeyInfo, then Objects. Anything out of place is refused: a lax
// reader is how signature-wrapping attacks get in.
func parseSignature(el *etree.Element) (*parsedSignature, error) {
	return readSignature(el, true)
}

// readSignature is parseSignature; with strict false, an unsupported
// canonicalisation, signature or digest method and a Reference without URI
// are recorded in the result instead of refused, so that CheckSignature can
// report them reference by reference. The structure is checked the same.
func readSignature(el *etree.Element, strict bool) (*parsedSignature, error) {
	s := &parsedSignature{el: el, id: attrValue(el, "Id")}
	children, err := dsChildren(el)
	if err != nil {
		return nil, err
	}
	if len(children) < 2 || !isDS(children[0], "SignedInfo") || !isDS(children[1], "SignatureValue") {
		return nil, fmt.Errorf("%w: ds:Signature must start with ds:SignedInfo and ds:SignatureValue", ErrMalformedSignature)
	}
	for i, c := range children[2:] {
		switch {
		case i == 0 && isDS(c, "KeyInfo"):
			if s.certificates, err = keyInfoCertificates(c); err != nil {
				return nil, err
			}
			s.keyValue = keyInfoKeyValue(c)
		case isDS(c, "Object"):
		default:
			return nil, fmt.Errorf("%w: unexpected <%s> in ds:Signature", ErrMalformedSignature, qualified(c.Space, c.Tag))
		}
	}
	if s.value, err = decodeBase64(children[1]); err != nil {
		return nil, fmt.Errorf("%w: SignatureValue: %w", ErrMalformedSignature, err)
	}
	if err := s.parseSignedInfo(children[0], strict); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *parsedSignature) parseSignedInfo(si *etree.Element, strict bool) error {
	s.signedInfo = si
	children, err := dsChildren(si)
	if err != nil {
		return err
	}
	if len(children) < 3 || !isDS(children[0], "CanonicalizationMethod") || !isDS(children[1], "SignatureMethod") {
		return fmt.Errorf("%w: ds:SignedInfo must hold CanonicalizationMethod, SignatureMethod and References", ErrMalformedSignature)
	}
	cm := parseTransform(children[0])
	s.c14nURI, s.c14nPrefixes = cm.algorithm, cm.prefixes
	if _, ok := c14nMethods[cm.algorithm]; !ok {
		s.c14nErr = fmt.Errorf("%w: canonicalisation method %q", ErrUnsupported, cm.algorithm)
		if strict {
			return s.c14nErr
		}
	}

	if err := s.parseSignatureMethod(children[1]); err != nil {
		if strict || !errors.Is(err, ErrUnsupported) {
			return err
		}
		s.methodErr = err
	}

	refs := children[2:]
	if len(refs) > MaxReferences {
		return fmt.Errorf("%w: %d references, at most %d", ErrLimitExceeded, len(refs), MaxReferences)
	}
	for _, r := range refs {
		if !isDS(r, "Reference") {
			return fmt.Errorf("%w: unexpected <%s> in ds:SignedInfo", ErrMalformedSignature, qualified(r.Space, r.Tag))
		}
		ref, err := parseReference(r)
		if err != nil {
			return err
		}
		if strict && !ref.hasURI {
			return fmt.Errorf("%w: Reference without URI", ErrUnsupported)
		}
		if strict && ref.digestErr != nil {
			return ref.digestErr
		}
		if strict && ref.digestValueErr != nil {
			return ref.digestValueErr
		}
		s.references = append(s.references, ref)
	}
	return nil
}

func (s *parsedSignature) parseSignatureMethod(sm *etree.Element) error {
	s.method = attrValue(sm, "Algorithm")
	if _, ok := signatureMethods[s.method]; ok {
		return nil
	}
	if s.method != SignatureRSAPSS {
		return fmt.Errorf("%w: signature method %q", ErrUnsupported, s.method)
	}
	// RFC 9231 section 2.3.10: DigestMethod defaults to SHA-256, the MGF1
	// digest to the same, SaltLength to the digest size, TrailerField to 1.
	p := &pssParams{hash: crypto.SHA256, saltLength: -1}
	mgfHash := crypto.Hash(0)
	for _, params := range sm.ChildElements() {
		if elementNamespace(params) != NamespaceDSigMore || params.Tag != "RSAPSSParams" {
			continue
		}
		for _, c := range params.ChildElements() {
			switch {
			case isDS(c, "DigestMethod"):
				h, err := digestHash(attrValue(c, "Algorithm"))
				if err != nil {
					return err
				}
				p.hash = h
			case elementNamespace(c) == NamespaceDSigMore && c.Tag == "MaskGenerationFunction":
				if alg := attrValue(c, "Algorithm"); alg != NamespaceDSigMore+"MGF1" {
					return fmt.Errorf("%w: mask generation function %q", ErrUnsupported, alg)
				}
				if dm := c.ChildElements(); len(dm) > 0 && isDS(dm[0], "DigestMethod") {
					h, err := digestHash(attrValue(dm[0], "Algorithm"))
					if err != nil {
						return err
					}
					mgfHash = h
				}
			case elementNamespace(c) == NamespaceDSigMore && c.Tag == "SaltLength":
				n, err := strconv.Atoi(strings.TrimSpace(c.Text()))
				if err != nil || n < 0 {
					return fmt.Errorf("%w: RSAPSSParams SaltLength %q", ErrMalformedSignature, c.Text())
				}
				p.saltLength = n
			case elementNamespace(c) == NamespaceDSigMore && c.Tag == "TrailerField":
				if strings.TrimSpace(c.Text()) != "1" {
					return fmt.Errorf("%w: RSAPSSParams TrailerField %q", ErrUnsupported, c.Text())
				}
			}
		}
	}
	if mgfHash != 0 && mgfHash != p.hash {
		// crypto/rsa uses the message digest for MGF1 too.
		return fmt.Errorf("%w: RSA-PSS with a different MGF1 digest", ErrUnsupported)
	}
	if p.saltLength < 0 {
		p.saltLength = p.hash.Size()
	}
	s.pss = p
	return nil
}

func parseReference(r *etree.Element) (parsedReference, error) {
	ref := parsedReference{
		el:  r,
		typ: attrValue(r, "Type"),
		id:  attrValue(r, "Id"),
	}
	ref.uri, ref.hasURI = lookupAttr(r, "URI")
	children, err := dsChildren(r)
	if err != nil {
		return ref, err
	}
	if len(children) > 0 && isDS(children[0], "Transforms") {
		ts, err := dsChildren(children[0])
		if err != nil {
			return ref, err
		}
		if len(ts) > MaxTransforms {
			return ref, fmt.Errorf("%w: %d transforms, at most %d", ErrLimitExceeded, len(ts), MaxTransforms)
		}
		for _, t := range ts {
			if !isDS(t, "Transform") {
				return ref, fmt.Errorf("%w: unexpected <%s> in ds:Transforms", ErrMalformedSignature, qualified(t.Space, t.Tag))
			}
			ref.transforms = append(ref.transforms, parseTransform(t))
		}
		children = children[1:]
	}
	if len(children) != 2 || !isDS(children[0], "DigestMethod") || !isDS(children[1], "DigestValue") {
		return ref, fmt.Errorf("%w: ds:Reference %q must end with DigestMethod and DigestValue", ErrMalformedSignature, ref.uri)
	}
	ref.digestURI = attrValue(children[0], "Algorithm")
	_, ref.digestErr = digestHash(ref.digestURI)
	if ref.digest, err = decodeBase64(children[1]); err != nil {
		// Verify refuses it; CheckSignature reports the reference as not
		// intact: an altered DigestValue is tampering, not a format error.
		ref.digest = nil
		ref.digestValueErr = fmt.Errorf("%w: DigestValue of reference %q: %w", ErrMalformedSignature, ref.uri, err)
	}
	return ref, nil
}

// parseTransform reads a Transform or CanonicalizationMethod: its algorithm
// and, for exclusive c14n, the InclusiveNamespaces PrefixList.
func parseTransform(t *etree.Element) parsedTransform {
	pt := parsedTransform{el: t, algorithm: attrValue(t, "Algorithm")}
	for _, c := range t.ChildElements() {
		if c.Tag == "InclusiveNamespaces" && elementNamespace(c) == NamespaceExcC14N {
			pt.prefixes = append(pt.prefixes, strings.Fields(attrValue(c, "PrefixList"))...)
		}
	}
	return pt
}

func digestHash(uri string) (crypto.Hash, error) {
	h, ok := digestMethods[uri]
	if !ok || !h.Available() {
		return 0, fmt.Errorf("%w: digest method %q", ErrUnsupported, uri)
	}
	return h, nil
}

// isDS reports whether el is the XMLDSig element named local.
func isDS(el *etree.Element, local string) bool {
	return el.Tag == local && elementNamespace(el) == NamespaceDSig
}

// dsChildren returns the element children of el, refusing text other than
// white space between them.
func dsChildren(el *etree.Element) ([]*etree.Element, error) {
	var out []*etree.Element
	for _, tok := range el.Child {
		switch t := tok.(type) {
		case *etree.Element:
			out = append(out, t)
		case *etree.CharData:
			if strings.Trim(t.Data, " \t\r\n") != "" {
				return nil, fmt.Errorf("%w: text inside <%s>", ErrMalformedSignature, qualified(el.Space, el.Tag))
			}
		}
	}
	return out, nil
}

// decodeBase64 decodes the base64Binary content of el, which may be broken
// into lines.
func decodeBase64(el *etree.Element) ([]byte, error) {
	var text strings.Builder
	for _, tok := range el.Child {
		switch t := tok.(type) {
		case *etree.CharData:
			text.WriteString(t.Data)
		case *etree.Element:
			return nil, fmt.Errorf("element inside <%s>", qualified(el.Space, el.Tag))
		}
	}
	s := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, text.String())
	return base64.StdEncoding.DecodeString(s)
}

// attrValue returns the value of el's unprefixed attribute name, or "".
func attrValue(el *etree.Element, name string) string {
	v, _ := lookupAttr(el, name)
	return v
}

// lookupAttr finds el's unprefixed attribute name. etree's SelectAttr would
// also match any prefixed attribute with that local name.
func lookupAttr(el *etree.Element, name string) (string, bool) {
	for _, a := range el.Attr {
		if a.Space == "" && a.Key == name {
			return a.Value, true
		}
	}
	return "", false
}
