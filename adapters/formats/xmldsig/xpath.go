package xmldsig

import "github.com/beevik/etree"

// selection is the explicit membership of a node-set an XPath transform
// computed: text, comments and processing instructions by token.
type selection struct {
	tokens map[etree.Token]bool
}

// xpathTransform is not implemented yet: the reference is reported
// unchecked.
func (ck *checker) xpathTransform(in data, _ *etree.Element) (data, string) {
	return in, ReasonUnsupportedTransform
}

// xpathFilter2 is not implemented yet: the reference is reported
// unchecked.
func (ck *checker) xpathFilter2(in data, _ *etree.Element) (data, string) {
	return in, ReasonUnsupportedTransform
}

func canonicalizeSelection(nodeSet, c14nOptions) ([]byte, error) {
	return nil, ErrUnsupported
}
