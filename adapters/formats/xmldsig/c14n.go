package xmldsig

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"slices"

	"github.com/beevik/etree"
)

// Canonicalize returns the canonical form, under the algorithm URI method, of
// the document subset made of el and its descendants: what a same-document
// reference to el selects. Comments are kept only by the #WithComments
// methods. If el is the Element embedded in an etree.Document, the whole
// document is canonicalised (see CanonicalizeDocument).
//
// The inclusive methods (C14N10*, C14N11*) render on el every namespace
// declaration in scope and the xml:* attributes it inherits from ancestors
// that are outside the subset (Canonical XML 1.0 section 2.4; 1.1 inherits
// only xml:lang and xml:space). The exclusive methods render only visibly
// utilised namespaces, plus those whose prefixes are listed in
// inclusivePrefixes ("#default" names the default namespace), which the
// other methods ignore.
//
// el should come from ParseDocument: etree's own reader does not apply
// attribute-value normalisation, so literal tabs and newlines in attribute
// values would be canonicalised as character references.
func Canonicalize(el *etree.Element, method string, inclusivePrefixes []string) ([]byte, error) {
	opts, err := newC14NOptions(method, inclusivePrefixes)
	if err != nil {
		return nil, err
	}
	return canonicalize(el, opts)
}

// CanonicalizeDocument returns the canonical form of the whole document under
// the algorithm URI method: no XML declaration or DOCTYPE, no white space
// outside the root element, a line feed between the root element and
// processing instructions or comments (with #WithComments) outside it.
func CanonicalizeDocument(doc *etree.Document, method string, inclusivePrefixes []string) ([]byte, error) {
	return Canonicalize(&doc.Element, method, inclusivePrefixes)
}

// c14nOptions selects the node-set and algorithm: the subtree of the node
// passed to canonicalize, without exclude and its descendants (the
// enveloped-signature transform), without comments unless comments is set.
type c14nOptions struct {
	kind     c14nKind
	comments bool
	prefixes []string // exclusive InclusiveNamespaces PrefixList; "" is #default
	exclude  *etree.Element
}

func newC14NOptions(method string, inclusivePrefixes []string) (c14nOptions, error) {
	m, ok := c14nMethods[method]
	if !ok {
		return c14nOptions{}, fmt.Errorf("%w: canonicalisation method %q", ErrUnsupported, method)
	}
	opts := c14nOptions{kind: m.kind, comments: m.comments}
	if m.kind == kindExcC14N {
		for _, p := range inclusivePrefixes {
			if p == "#default" {
				p = ""
			}
			opts.prefixes = append(opts.prefixes, p)
		}
	}
	return opts, nil
}

func canonicalize(node *etree.Element, opts c14nOptions) ([]byte, error) {
	c := canonicalizer{c14nOptions: opts}
	// Growing the output by doubling costs twice its size in fresh,
	// zeroed memory; for a 10 MB document that was a fifth of the time.
	c.out.Grow(sizeHint(node, opts))
	if err := c.run(node); err != nil {
		return nil, err
	}
	return c.out.Bytes(), nil
}

// canonicalizeTo writes the canonical form of node to w in pieces of
// about flushBytes, so that it is never held whole: a digest over a large
// document costs a small buffer, not a copy of the document (or twice
// that, as exclusive c14n may declare a namespace on every element).
func canonicalizeTo(w io.Writer, node *etree.Element, opts c14nOptions) error {
	c := canonicalizer{c14nOptions: opts, sink: w}
	c.out.Grow(2 * flushBytes)
	if err := c.run(node); err != nil {
		return err
	}
	c.flush()
	return nil
}

// flushBytes is how much output a canonicalizer with a sink gathers
// before writing it.
const flushBytes = 64 << 10

func (c *canonicalizer) run(node *etree.Element) error {
	for p := node; p != nil && c.exclude != nil; p = p.Parent() {
		if p == c.exclude {
			return nil // the whole node-set lies inside the excluded subtree
		}
	}
	if isDocumentNode(node) {
		return c.document(node)
	}
	c.scope = *ancestorScope(node)
	return c.element(node, true)
}

// flush writes the output gathered so far to the sink, if there is one.
// Writes to a hash do not fail.
func (c *canonicalizer) flush() {
	if c.sink != nil {
		c.sink.Write(c.out.Bytes())
		c.out.Reset()
	}
}

// sizeHint estimates the canonical form of node's subtree under opts
// from its tags, attributes and text as parsed: a little more than the
// markup and text it holds, and for exclusive c14n a declaration on each
// element whose prefix is not its parent's (in a UBL invoice each cbc:
// element under a cac: one, which nearly doubles the size).
func sizeHint(node *etree.Element, opts c14nOptions) int {
	n := 2*(len(node.Space)+len(node.Tag)) + 6
	for _, a := range node.Attr {
		n += len(a.Space) + len(a.Key) + len(a.Value) + 5
	}
	for _, tok := range node.Child {
		switch t := tok.(type) {
		case *etree.Element:
			if opts.kind == kindExcC14N && t.Space != node.Space {
				n += len(t.Space) + len(t.NamespaceURI()) + 10
			}
			n += sizeHint(t, opts)
		case *etree.CharData:
			n += len(t.Data)
		}
	}
	return n + n/64
}

type canonicalizer struct {
	c14nOptions
	out bytes.Buffer
	// sink, when set, takes the output as it is written: out then holds
	// only what has not been written to it yet (canonicalizeTo).
	sink     io.Writer
	scope    nsScope // namespace bindings in scope
	rendered nsScope // namespace declarations rendered by output ancestors
	attrs    []sortedAttr
}

type sortedAttr struct {
	uri, local, qname, value string
}

func (c *canonicalizer) document(doc *etree.Element) error {
	afterRoot := false
	for _, tok := range doc.Child {
		switch t := tok.(type) {
		case *etree.Element:
			if t == c.exclude {
				continue
			}
			if err := c.element(t, true); err != nil {
				return err
			}
			afterRoot = true
		case *etree.Comment:
			if c.comments {
				c.outsideRoot(afterRoot, func() { c.comment(t) })
			}
		case *etree.ProcInst:
			c.outsideRoot(afterRoot, func() { c.procInst(t) })
		}
		// Text, the XML declaration and the DOCTYPE are not rendered.
	}
	return nil
}

// outsideRoot renders a node that precedes or follows the root element,
// separated from it by a line feed (Canonical XML 1.0 section 2.3).
func (c *canonicalizer) outsideRoot(afterRoot bool, render func()) {
	if afterRoot {
		c.out.WriteByte('\n')
	}
	render()
	if !afterRoot {
		c.out.WriteByte('\n')
	}
}

// element renders el and its subtree. apex marks the first element of the
// node-set, whose output ancestors are none.
func (c *canonicalizer) element(el *etree.Element, apex bool) error {
	c.scope.pushElement(el)
	c.rendered.push()
	defer c.scope.pop()
	defer c.rendered.pop()

	qname := qualified(el.Space, el.Tag)
	c.out.WriteByte('<')
	c.out.WriteString(qname)
	if err := c.namespaces(el, apex); err != nil {
		return err
	}
	if err := c.attributes(el, apex); err != nil {
		return err
	}
	c.out.WriteByte('>')

	for _, tok := range el.Child {
		switch t := tok.(type) {
		case *etree.Element:
			if t == c.exclude {
				continue
			}
			if err := c.element(t, false); err != nil {
				return err
			}
		case *etree.CharData:
			c.text(t.Data)
		case *etree.Comment:
			if c.comments {
				c.comment(t)
			}
		case *etree.ProcInst:
			c.procInst(t)
		}
	}
	c.out.WriteString("</")
	c.out.WriteString(qname)
	c.out.WriteByte('>')
	if c.out.Len() >= flushBytes {
		c.flush()
	}
	return nil
}

// text renders a text node; with a sink, a long one (an embedded
// attachment) in pieces, so that out stays small. escapeText works byte by
// byte, so any cut is safe.
func (c *canonicalizer) text(s string) {
	for c.sink != nil && len(s) > flushBytes {
		escapeText(&c.out, s[:flushBytes])
		s = s[flushBytes:]
		c.flush()
	}
	escapeText(&c.out, s)
}

// namespaces renders the namespace axis of el: the declarations that differ
// from what the output ancestors rendered, sorted by prefix.
func (c *canonicalizer) namespaces(el *etree.Element, apex bool) error {
	var candidates []string
	switch {
	case c.kind == kindExcC14N:
		// Visibly utilised prefixes (an unprefixed attribute does not use
		// the default namespace), then the InclusiveNamespaces PrefixList.
		if _, ok := c.scope.lookup(el.Space); !ok {
			return fmt.Errorf("%w: unbound prefix %q on element %s", ErrMalformedXML, el.Space, el.Tag)
		}
		candidates = append(candidates, el.Space)
		for _, a := range el.Attr {
			if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl || a.Space == "" || a.Space == "xml" {
				continue
			}
			if _, ok := c.scope.lookup(a.Space); !ok {
				return fmt.Errorf("%w: unbound prefix %q on attribute %s", ErrMalformedXML, a.Space, a.Key)
			}
			candidates = append(candidates, a.Space)
		}
		candidates = append(candidates, c.prefixes...)
	case apex:
		// Inclusive: the apex renders every binding in scope.
		for _, b := range c.scope.bindings {
			candidates = append(candidates, b.prefix)
		}
	default:
		// Inclusive: below the apex the output parent rendered everything
		// in scope there, so only el's own declarations can differ.
		for _, a := range el.Attr {
			if p, ok := declaredPrefix(a.Space, a.Key); ok {
				candidates = append(candidates, p)
			}
		}
	}
	slices.Sort(candidates)
	candidates = slices.Compact(candidates)

	for _, p := range candidates {
		if p == "xml" {
			continue // the xml namespace is never declared in the output
		}
		uri, bound := c.scope.lookup(p)
		if !bound || (p != "" && uri == "") {
			continue // an InclusiveNamespaces prefix not in scope
		}
		prev, renderedBefore := c.rendered.lookup(p)
		if p == "" {
			// xmlns="" only undoes a non-empty default rendered above.
			if uri == prev {
				continue
			}
		} else if renderedBefore && uri == prev {
			continue
		}
		c.rendered.bind(p, uri)
		c.out.WriteString(" xmlns")
		if p != "" {
			c.out.WriteByte(':')
			c.out.WriteString(p)
		}
		c.out.WriteString(`="`)
		escapeAttr(&c.out, uri)
		c.out.WriteByte('"')
	}
	return nil
}

// attributes renders the attribute axis sorted by namespace URI, then local
// name. For the inclusive methods the apex also gets the xml:* attributes of
// its ancestors, which are outside the node-set.
func (c *canonicalizer) attributes(el *etree.Element, apex bool) error {
	attrs := c.attrs[:0]
	for _, a := range el.Attr {
		if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl {
			continue
		}
		uri := ""
		if a.Space != "" {
			var ok bool
			if uri, ok = c.scope.lookup(a.Space); !ok {
				return fmt.Errorf("%w: unbound prefix %q on attribute %s", ErrMalformedXML, a.Space, a.Key)
			}
		}
		attrs = append(attrs, sortedAttr{uri, a.Key, qualified(a.Space, a.Key), a.Value})
	}
	if apex && c.kind != kindExcC14N {
		var err error
		if attrs, err = c.inheritXMLAttrs(el, attrs); err != nil {
			return err
		}
	}
	slices.SortFunc(attrs, func(a, b sortedAttr) int {
		return cmp.Or(cmp.Compare(a.uri, b.uri), cmp.Compare(a.local, b.local))
	})
	for _, a := range attrs {
		c.out.WriteByte(' ')
		c.out.WriteString(a.qname)
		c.out.WriteString(`="`)
		escapeAttr(&c.out, a.value)
		c.out.WriteByte('"')
	}
	c.attrs = attrs[:0]
	return nil
}

// inheritXMLAttrs adds to attrs the xml:* attributes that el inherits from
// the nearest ancestor carrying them. Canonical XML 1.1 inherits only
// xml:lang and xml:space; its xml:base fix-up (joining relative URIs of the
// omitted ancestors) is not implemented and is refused rather than
// approximated.
func (c *canonicalizer) inheritXMLAttrs(el *etree.Element, attrs []sortedAttr) ([]sortedAttr, error) {
	have := func(local string) bool {
		return slices.ContainsFunc(attrs, func(a sortedAttr) bool { return a.uri == namespaceXML && a.local == local })
	}
	for p := el.Parent(); p != nil && !isDocumentNode(p); p = p.Parent() {
		for _, a := range p.Attr {
			if a.Space != "xml" || have(a.Key) {
				continue
			}
			if c.kind == kindC14N11 {
				switch a.Key {
				case "lang", "space":
				case "base":
					return nil, fmt.Errorf("%w: Canonical XML 1.1 xml:base fix-up for a document subset", ErrUnsupported)
				default:
					continue
				}
			}
			attrs = append(attrs, sortedAttr{namespaceXML, a.Key, "xml:" + a.Key, a.Value})
		}
	}
	return attrs, nil
}

func (c *canonicalizer) comment(t *etree.Comment) {
	c.out.WriteString("<!--")
	c.out.WriteString(t.Data)
	c.out.WriteString("-->")
}

func (c *canonicalizer) procInst(t *etree.ProcInst) {
	c.out.WriteString("<?")
	c.out.WriteString(t.Target)
	if t.Inst != "" {
		c.out.WriteByte(' ')
		c.out.WriteString(t.Inst)
	}
	c.out.WriteString("?>")
}

// escapeText writes text content: &, <, > and CR as references (a CR that
// survived parsing came from a character reference and must stay one).
func escapeText(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\r':
			esc = "&#xD;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}

// escapeAttr writes an attribute value: &, <, " and the white space
// characters that attribute-value normalisation would otherwise turn into
// spaces when the output is parsed again.
func escapeAttr(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '"':
			esc = "&quot;"
		case '\t':
			esc = "&#x9;"
		case '\n':
			esc = "&#xA;"
		case '\r':
			esc = "&#xD;"
		default:
			continue
		}
		b.WriteString(s[last:i])
		b.WriteString(esc)
		last = i + 1
	}
	b.WriteString(s[last:])
}
