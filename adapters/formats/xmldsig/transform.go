package xmldsig

import (
	"encoding/base64"
	"io"
	"strings"

	"github.com/beevik/etree"
)

// Transform algorithm URIs CheckSignature knows beside canonicalisation
// and enveloped-signature.
const (
	TransformBase64       = "http://www.w3.org/2000/09/xmldsig#base64"
	TransformXPath        = "http://www.w3.org/TR/1999/REC-xpath-19991116"
	TransformXPathFilter2 = "http://www.w3.org/2002/06/xmldsig-filter2"
	TransformXSLT         = "http://www.w3.org/TR/1999/REC-xslt-19991116"
)

// data is what flows through a reference's transforms (XMLDSig 4.4.3.2):
// octets, or a node-set of a parsed document.
type data struct {
	isOctets bool
	octets   []byte
	set      nodeSet
}

// nodeSet is a node-set of a document: the subtree of root (an element, or
// the document node for the whole document), less the subtree of exclude
// (the enveloped signature), less comments unless comments is set, and,
// when sel is not nil, only the nodes sel selects (XPath transforms).
type nodeSet struct {
	root     *etree.Element
	comments bool
	exclude  *etree.Element
	sel      *selection
}

// transform applies ref's transforms to in and returns the octets to
// digest, or a stable reason why it could not. A node-set left at the end
// is canonicalised with Canonical XML 1.0 without comments, as Verify
// does (XMLDSig section 4.4.3.2). With a sink, a canonicalisation that
// ends the chain writes into it instead, and streamed is true: the octets
// are then nil, and the sink has them all.
func (ck *checker) transform(ref parsedReference, in data, sink io.Writer) (octets []byte, streamed bool, reason string) {
	cur := in
	for i, t := range ref.transforms {
		var reason string
		switch alg := t.algorithm; {
		case alg == TransformEnveloped:
			if cur, reason = toNodeSet(cur); reason == "" {
				cur.set.exclude = ck.sig.el
			}
		case alg == TransformBase64:
			cur, reason = decodeBase64Transform(cur)
		case alg == TransformXSLT:
			reason = ReasonXSLTUnsupported
		case alg == TransformXPath:
			if cur, reason = toNodeSet(cur); reason == "" {
				cur, reason = ck.xpathTransform(cur, t.el)
			}
		case alg == TransformXPathFilter2:
			if cur, reason = toNodeSet(cur); reason == "" {
				cur, reason = ck.xpathFilter2(cur, t.el)
			}
		default:
			if _, ok := c14nMethods[alg]; !ok {
				return nil, false, ReasonUnsupportedTransform
			}
			if cur, reason = toNodeSet(cur); reason != "" {
				break
			}
			opts, err := newC14NOptions(alg, t.prefixes)
			if err != nil {
				return nil, false, ReasonUnsupportedTransform
			}
			if sink != nil && i == len(ref.transforms)-1 && cur.set.sel == nil {
				if err := canonicalizeSetTo(sink, cur.set, opts); err != nil {
					return nil, false, ReasonTransformFailed
				}
				return nil, true, ""
			}
			out, err := canonicalizeSet(cur.set, opts)
			if err != nil {
				return nil, false, ReasonTransformFailed
			}
			cur = data{isOctets: true, octets: out}
		}
		if reason != "" {
			return nil, false, reason
		}
	}
	if cur.isOctets {
		return cur.octets, false, ""
	}
	opts := c14nOptions{kind: kindC14N10}
	cur.set.comments = false
	if sink != nil && cur.set.sel == nil {
		if err := canonicalizeSetTo(sink, cur.set, opts); err != nil {
			return nil, false, ReasonTransformFailed
		}
		return nil, true, ""
	}
	out, err := canonicalizeSet(cur.set, opts)
	if err != nil {
		return nil, false, ReasonTransformFailed
	}
	return out, false, ""
}

// toNodeSet returns d as a node-set: octets are parsed as an XML document
// (with the package limits), whose node-set keeps its comments.
func toNodeSet(d data) (data, string) {
	if !d.isOctets {
		return d, ""
	}
	doc, err := ParseDocument(d.octets)
	if err != nil {
		return data{}, ReasonTransformFailed
	}
	for _, tok := range doc.Child {
		if _, ok := tok.(*etree.Directive); ok {
			return data{}, ReasonTransformFailed // no entity expansion
		}
	}
	return data{set: nodeSet{root: &doc.Element, comments: true}}, ""
}

// canonicalizeSet canonicalises a node-set with opts (whose comments flag
// is anded with the node-set's).
func canonicalizeSet(s nodeSet, opts c14nOptions) ([]byte, error) {
	opts.comments = opts.comments && s.comments
	opts.exclude = s.exclude
	if s.sel == nil {
		return canonicalize(s.root, opts)
	}
	return canonicalizeSelection(s, opts)
}

// canonicalizeSetTo is canonicalizeSet writing to w, for a node-set
// without an XPath selection.
func canonicalizeSetTo(w io.Writer, s nodeSet, opts c14nOptions) error {
	opts.comments = opts.comments && s.comments
	opts.exclude = s.exclude
	return canonicalizeTo(w, s.root, opts)
}

// decodeBase64Transform applies the base64 transform: a node-set is first
// reduced to the string value of its text nodes (XMLDSig 6.6.2), then the
// text is decoded, white space ignored.
func decodeBase64Transform(d data) (data, string) {
	var text string
	if d.isOctets {
		text = string(d.octets)
	} else {
		var b strings.Builder
		d.set.eachText(func(t *etree.CharData) { b.WriteString(t.Data) })
		text = b.String()
	}
	text = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, text)
	out, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return data{}, ReasonTransformFailed
	}
	return data{isOctets: true, octets: out}, ""
}

// eachText calls f with every text node of the node-set, in document
// order.
func (s nodeSet) eachText(f func(*etree.CharData)) {
	if s.exclude != nil && isInside(s.root, s.exclude) {
		return
	}
	var walk func(el *etree.Element)
	walk = func(el *etree.Element) {
		if el == s.exclude {
			return
		}
		for _, tok := range el.Child {
			switch t := tok.(type) {
			case *etree.Element:
				walk(t)
			case *etree.CharData:
				if s.sel == nil || s.sel.tokens[t] {
					f(t)
				}
			}
		}
	}
	walk(s.root)
}
