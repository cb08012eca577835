package xmldsig

import (
	"strings"

	"github.com/antchfx/xpath"
	"github.com/beevik/etree"
)

// MaxXPathSteps bounds the navigation steps (moves and string values, by
// the node) all the XPath expressions of one signature may take. An XPath
// transform evaluates its expression once per node of its input, so a
// quadratic expression over a large document must stop; the reference is
// then reported with ReasonXPathLimit. A step costs 50 to 700 ns (unions
// hash every node they meet): the largest trusted list of the corpus (2 MB,
// Italy's) takes 0.2 million steps with not(ancestor-or-self::ds:Signature)
// and 3.3 million, 2 seconds, with the here() form of XMLDSig 6.6.3.
const MaxXPathSteps = 5_000_000

// xpathBudget counts the steps of the navigators of one signature.
type xpathBudget struct {
	left     int
	exceeded bool
}

// errXPathBudget is the panic value that stops an evaluation out of
// steps. A move that merely failed would leave antchfx/xpath's loops
// spinning on a navigator that no longer moves; the panic unwinds to the
// recover of evaluate.
type errXPathBudget struct{}

// spend takes n steps from the budget; when none are left it marks the
// budget exceeded and stops the evaluation (see errXPathBudget). It
// returns true, so that callers read as the moves they guard.
func (b *xpathBudget) spend(n int) bool {
	if b.left < n {
		b.left, b.exceeded = 0, true
		panic(errXPathBudget{})
	}
	b.left -= n
	return true
}

// navigator is an xpath.NodeNavigator over an etree document in the XPath
// data model: the document node, elements, attributes (not namespace
// declarations), text and comments. Processing instructions and DOCTYPEs
// are not visited: no expression can select them, and a node-set that
// holds an element holds the processing instructions in it.
//
// The position is el when attr and tok are -1, el's attribute attr, or
// el's child token tok (text or comment).
type navigator struct {
	top    *etree.Element // the document node
	el     *etree.Element
	attr   int
	tok    int
	budget *xpathBudget
}

var _ xpath.NodeNavigator = (*navigator)(nil)

func newNavigator(top *etree.Element, budget *xpathBudget) *navigator {
	return &navigator{top: top, el: top, attr: -1, tok: -1, budget: budget}
}

// navigable reports whether a child token is a node of the data model.
func navigable(t etree.Token) bool {
	switch t.(type) {
	case *etree.Element, *etree.CharData, *etree.Comment:
		return true
	}
	return false
}

func (n *navigator) NodeType() xpath.NodeType {
	switch {
	case n.attr >= 0:
		return xpath.AttributeNode
	case n.tok >= 0:
		if _, ok := n.el.Child[n.tok].(*etree.Comment); ok {
			return xpath.CommentNode
		}
		return xpath.TextNode
	case n.el == n.top:
		return xpath.RootNode
	}
	return xpath.ElementNode
}

func (n *navigator) LocalName() string {
	switch {
	case n.attr >= 0:
		return n.el.Attr[n.attr].Key
	case n.tok >= 0 || n.el == n.top:
		return ""
	}
	return n.el.Tag
}

func (n *navigator) Prefix() string {
	switch {
	case n.attr >= 0:
		return n.el.Attr[n.attr].Space
	case n.tok >= 0 || n.el == n.top:
		return ""
	}
	return n.el.Space
}

// NamespaceURL is the namespace name, which antchfx/xpath compares with
// the one a prefixed name test maps to (CompileWithNS). An unprefixed
// attribute is in no namespace.
func (n *navigator) NamespaceURL() string {
	switch {
	case n.attr >= 0:
		a := n.el.Attr[n.attr]
		if a.Space == "" {
			return ""
		}
		uri, _ := lookupPrefix(n.el, a.Space)
		return uri
	case n.tok >= 0 || n.el == n.top:
		return ""
	}
	return elementNamespace(n.el)
}

func (n *navigator) Value() string {
	switch {
	case n.attr >= 0:
		return n.el.Attr[n.attr].Value
	case n.tok >= 0:
		switch t := n.el.Child[n.tok].(type) {
		case *etree.CharData:
			return t.Data
		case *etree.Comment:
			return t.Data
		}
		return ""
	}
	// The string value of an element or the document: its text
	// descendants. Each is a step, so that asking it of every node of a
	// deep document is bounded too.
	var b strings.Builder
	var walk func(el *etree.Element) bool
	walk = func(el *etree.Element) bool {
		for _, tok := range el.Child {
			if !n.budget.spend(1) {
				return false
			}
			switch t := tok.(type) {
			case *etree.Element:
				if !walk(t) {
					return false
				}
			case *etree.CharData:
				b.WriteString(t.Data)
			}
		}
		return true
	}
	if !walk(n.el) {
		return ""
	}
	return b.String()
}

func (n *navigator) Copy() xpath.NodeNavigator {
	c := *n
	return &c
}

func (n *navigator) MoveToRoot() {
	n.el, n.attr, n.tok = n.top, -1, -1
}

func (n *navigator) MoveToParent() bool {
	if !n.budget.spend(1) {
		return false
	}
	switch {
	case n.attr >= 0:
		n.attr = -1
	case n.tok >= 0:
		n.tok = -1
	case n.el == n.top || n.el.Parent() == nil:
		return false
	default:
		n.el = n.el.Parent()
	}
	return true
}

// MoveToNextAttribute moves from an element to its first attribute, or
// from an attribute to the next; namespace declarations are skipped.
func (n *navigator) MoveToNextAttribute() bool {
	if n.tok >= 0 || n.el == n.top || !n.budget.spend(1) {
		return false
	}
	for i := n.attr + 1; i < len(n.el.Attr); i++ {
		a := n.el.Attr[i]
		if _, isDecl := declaredPrefix(a.Space, a.Key); !isDecl {
			n.attr = i
			return true
		}
	}
	return false
}

func (n *navigator) MoveToChild() bool {
	if n.attr >= 0 || n.tok >= 0 || !n.budget.spend(1) {
		return false
	}
	for i, t := range n.el.Child {
		if navigable(t) {
			n.moveToChildToken(n.el, i)
			return true
		}
	}
	return false
}

// moveToChildToken positions n on child i of parent.
func (n *navigator) moveToChildToken(parent *etree.Element, i int) {
	if e, ok := parent.Child[i].(*etree.Element); ok {
		n.el, n.attr, n.tok = e, -1, -1
		return
	}
	n.el, n.attr, n.tok = parent, -1, i
}

// sibling returns the parent and index of the current node among its
// parent's children; ok false for the document node and attributes.
func (n *navigator) sibling() (parent *etree.Element, i int, ok bool) {
	switch {
	case n.attr >= 0:
		return nil, 0, false
	case n.tok >= 0:
		return n.el, n.tok, true
	case n.el == n.top || n.el.Parent() == nil:
		return nil, 0, false
	}
	return n.el.Parent(), n.el.Index(), true
}

func (n *navigator) MoveToFirst() bool {
	parent, _, ok := n.sibling()
	if !ok || !n.budget.spend(1) {
		return false
	}
	for i, t := range parent.Child {
		if navigable(t) {
			n.moveToChildToken(parent, i)
			return true
		}
	}
	return false
}

func (n *navigator) MoveToNext() bool {
	parent, at, ok := n.sibling()
	if !ok {
		return false
	}
	for i := at + 1; i < len(parent.Child); i++ {
		if !n.budget.spend(1) {
			return false
		}
		if navigable(parent.Child[i]) {
			n.moveToChildToken(parent, i)
			return true
		}
	}
	return false
}

func (n *navigator) MoveToPrevious() bool {
	parent, at, ok := n.sibling()
	if !ok {
		return false
	}
	for i := at - 1; i >= 0; i-- {
		if !n.budget.spend(1) {
			return false
		}
		if navigable(parent.Child[i]) {
			n.moveToChildToken(parent, i)
			return true
		}
	}
	return false
}

func (n *navigator) MoveTo(other xpath.NodeNavigator) bool {
	o, ok := other.(*navigator)
	if !ok || o.top != n.top {
		return false
	}
	n.el, n.attr, n.tok = o.el, o.attr, o.tok
	return true
}
