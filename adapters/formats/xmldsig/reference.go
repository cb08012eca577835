package xmldsig

import (
	"crypto/subtle"
	"fmt"
	"strings"

	"github.com/beevik/etree"
)

// verifier holds what checking one signature needs.
type verifier struct {
	doc *etree.Document
	sig *parsedSignature
	idx docIndex
}

// checkReference recomputes the digest of reference i and returns the
// element it selects (nil for the whole document).
func (v *verifier) checkReference(i int) (*etree.Element, error) {
	ref := &v.sig.references[i]
	node, target, comments, err := v.dereference(ref.uri)
	if err != nil {
		return nil, err
	}
	data, err := v.transform(ref, node, comments)
	if err != nil {
		return nil, err
	}
	h, err := digestHash(ref.digestURI)
	if err != nil {
		return nil, err
	}
	d := h.New()
	d.Write(data)
	if subtle.ConstantTimeCompare(d.Sum(nil), ref.digest) != 1 {
		return target, &DigestError{Index: i, URI: ref.uri, Type: ref.typ, Algorithm: ref.digestURI}
	}
	return target, nil
}

// dereference resolves a same-document URI to the root of its node-set and
// says whether comments belong to it. "" and "#id" select without comments,
// the XPointer forms with them (XMLDSig section 4.4.3.3). Every other URI is
// refused: a signature must never make us fetch anything.
func (v *verifier) dereference(uri string) (node, target *etree.Element, comments bool, err error) {
	switch {
	case isDocumentURI(uri):
		return &v.doc.Element, nil, uri != "", nil
	case !strings.HasPrefix(uri, "#"):
		return nil, nil, false, fmt.Errorf("%w: reference URI %q is not a same-document reference", ErrUnsupported, uri)
	}
	id := uri[1:]
	comments = false
	if inner, ok := strings.CutPrefix(id, "xpointer(id("); ok {
		quoted, ok := strings.CutSuffix(inner, "))")
		if !ok || len(quoted) < 2 || (quoted[0] != '\'' && quoted[0] != '"') || quoted[len(quoted)-1] != quoted[0] {
			return nil, nil, false, fmt.Errorf("%w: XPointer %q", ErrUnsupported, uri)
		}
		id, comments = quoted[1:len(quoted)-1], true
	} else if strings.HasPrefix(id, "xpointer(") {
		return nil, nil, false, fmt.Errorf("%w: XPointer %q", ErrUnsupported, uri)
	}
	el, err := v.idx.resolve(uri, id)
	if err != nil {
		return nil, nil, false, err
	}
	return el, el, comments, nil
}

// isDocumentURI reports the two same-document URIs that select the whole
// document: "" (without comments) and "#xpointer(/)" (with them).
func isDocumentURI(uri string) bool { return uri == "" || uri == "#xpointer(/)" }

// transform applies the reference's transforms to the node-set rooted at
// node and returns the octets to digest. Only the transforms that keep the
// data a node-set of the parsed document are supported: enveloped-signature
// first, then one canonicalisation. A node-set left at the end is
// canonicalised with Canonical XML 1.0 (XMLDSig section 4.4.3.2).
func (v *verifier) transform(ref *parsedReference, node *etree.Element, comments bool) ([]byte, error) {
	opts := c14nOptions{kind: kindC14N10}
	var (
		out  []byte
		done bool // out holds octets
	)
	for _, t := range ref.transforms {
		if done {
			return nil, fmt.Errorf("%w: transform %q after canonicalisation", ErrUnsupported, t.algorithm)
		}
		if t.algorithm == TransformEnveloped {
			opts.exclude = v.sig.el
			continue
		}
		m, ok := c14nMethods[t.algorithm]
		if !ok {
			return nil, fmt.Errorf("%w: transform %q", ErrUnsupported, t.algorithm)
		}
		o, err := newC14NOptions(t.algorithm, t.prefixes)
		if err != nil {
			return nil, err
		}
		o.comments = m.comments && comments
		o.exclude = opts.exclude
		if out, err = canonicalize(node, o); err != nil {
			return nil, fmt.Errorf("reference %q: %w", ref.uri, err)
		}
		done = true
	}
	if done {
		return out, nil
	}
	opts.comments = false
	out, err := canonicalize(node, opts)
	if err != nil {
		return nil, fmt.Errorf("reference %q: %w", ref.uri, err)
	}
	return out, nil
}
