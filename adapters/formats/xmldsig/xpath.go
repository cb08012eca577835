package xmldsig

import "github.com/beevik/etree"

// selection is the explicit membership of a node-set an XPath transform
// computed: elements, attributes and the other nodes (text, comments,
// processing instructions). A namespace node belongs to the node-set when
// its element does.
type selection struct {
	elements map[*etree.Element]bool
	attrs    map[*etree.Attr]bool
	tokens   map[etree.Token]bool
}

func (ck *checker) xpathTransform(in data, _ *etree.Element) (data, string) {
	return in, ReasonUnsupportedTransform
}

func (ck *checker) xpathFilter2(in data, _ *etree.Element) (data, string) {
	return in, ReasonUnsupportedTransform
}

func canonicalizeSelection(s nodeSet, opts c14nOptions) ([]byte, error) {
	return nil, ErrUnsupported
}
