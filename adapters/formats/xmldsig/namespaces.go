package xmldsig

import "github.com/beevik/etree"

// nsScope is a stack of namespace bindings. Lookups scan from the innermost
// binding outwards; documents declare few namespaces, so a slice beats maps.
type nsScope struct {
	bindings []nsBinding
	marks    []int
}

type nsBinding struct {
	prefix, uri string
}

func (s *nsScope) push() { s.marks = append(s.marks, len(s.bindings)) }

func (s *nsScope) pop() {
	n := len(s.marks) - 1
	s.bindings = s.bindings[:s.marks[n]]
	s.marks = s.marks[:n]
}

func (s *nsScope) bind(prefix, uri string) {
	s.bindings = append(s.bindings, nsBinding{prefix, uri})
}

// lookup returns the namespace bound to prefix. The xml prefix is always
// bound; the default namespace ("") is always "bound", to "" when absent.
func (s *nsScope) lookup(prefix string) (string, bool) {
	if prefix == "xml" {
		return namespaceXML, true
	}
	for i := len(s.bindings) - 1; i >= 0; i-- {
		if s.bindings[i].prefix == prefix {
			return s.bindings[i].uri, true
		}
	}
	return "", prefix == ""
}

// pushElement opens a scope for el and binds its declarations.
func (s *nsScope) pushElement(el *etree.Element) {
	s.push()
	for _, a := range el.Attr {
		if prefix, ok := declaredPrefix(a.Space, a.Key); ok {
			s.bind(prefix, a.Value)
		}
	}
}

// ancestorScope returns the bindings in scope at el's parent, built from the
// declarations of el's ancestors, outermost first.
func ancestorScope(el *etree.Element) *nsScope {
	var chain []*etree.Element
	for p := el.Parent(); p != nil && !isDocumentNode(p); p = p.Parent() {
		chain = append(chain, p)
	}
	s := &nsScope{}
	for i := len(chain) - 1; i >= 0; i-- {
		s.pushElement(chain[i])
	}
	return s
}

// isDocumentNode reports whether el is the Element embedded in an
// etree.Document: the document node, not an element.
func isDocumentNode(el *etree.Element) bool {
	return el.Parent() == nil && el.Tag == "" && el.Space == ""
}

// elementNamespace returns the namespace URI of el by walking its
// ancestors' declarations. Use it for one-off lookups; walks over many
// elements keep an nsScope instead.
func elementNamespace(el *etree.Element) string {
	uri, _ := lookupPrefix(el, el.Space)
	return uri
}

func lookupPrefix(el *etree.Element, prefix string) (string, bool) {
	if prefix == "xml" {
		return namespaceXML, true
	}
	for e := el; e != nil && !isDocumentNode(e); e = e.Parent() {
		for _, a := range e.Attr {
			if p, ok := declaredPrefix(a.Space, a.Key); ok && p == prefix {
				return a.Value, true
			}
		}
	}
	return "", prefix == ""
}
