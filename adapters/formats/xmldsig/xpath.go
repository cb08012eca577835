package xmldsig

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/antchfx/xpath"
	"github.com/beevik/etree"
)

// Bounds on XPath expressions, beside MaxXPathSteps.
const (
	// MaxXPathLength bounds the text of one expression.
	MaxXPathLength = 4096
	// MaxXPathFilters bounds the dsig-xpath:XPath elements of one XPath
	// Filter 2.0 transform.
	MaxXPathFilters = 16
)

// NamespaceXPathFilter2 is the namespace of XPath Filter 2.0's XPath
// elements.
const NamespaceXPathFilter2 = "http://www.w3.org/2002/06/xmldsig-filter2"

// selection is the explicit membership of a node-set an XPath transform
// computed: elements, attributes, and text, comment and processing
// instruction tokens. Namespace nodes are not tracked: an element's
// namespace nodes belong to the node-set when the element does, which is
// what the XPath expressions signatures use (not(ancestor-or-self::...),
// subtree filters) select; expressions on the namespace axis are not
// supported by antchfx/xpath anyway.
type selection struct {
	elements map[*etree.Element]bool
	attrs    map[*etree.Attr]bool
	tokens   map[etree.Token]bool
}

func newSelection() *selection {
	return &selection{elements: map[*etree.Element]bool{}, attrs: map[*etree.Attr]bool{}, tokens: map[etree.Token]bool{}}
}

// nodeVisitor receives the nodes of a node-set in document order: an
// element (attr nil, tok nil), one of its attributes, or a child token.
type nodeVisitor func(el *etree.Element, attr *etree.Attr, tok etree.Token) bool

// each calls visit with every node of s, in document order, until visit
// returns false. Namespace declarations are not attributes here.
func (s nodeSet) each(visit nodeVisitor) {
	if s.exclude != nil && isInside(s.root, s.exclude) {
		return
	}
	in := func(el *etree.Element, attr *etree.Attr, tok etree.Token) bool {
		if s.sel == nil {
			return true
		}
		switch {
		case attr != nil:
			return s.sel.attrs[attr]
		case tok != nil:
			return s.sel.tokens[tok]
		}
		return s.sel.elements[el]
	}
	var walk func(el *etree.Element) bool
	walk = func(el *etree.Element) bool {
		if el == s.exclude {
			return true
		}
		if !isDocumentNode(el) {
			if in(el, nil, nil) && !visit(el, nil, nil) {
				return false
			}
			for i := range el.Attr {
				a := &el.Attr[i]
				if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl {
					continue
				}
				if in(el, a, nil) && !visit(el, a, nil) {
					return false
				}
			}
		}
		for _, tok := range el.Child {
			switch t := tok.(type) {
			case *etree.Element:
				if !walk(t) {
					return false
				}
			case *etree.Comment:
				if s.comments && in(el, nil, t) && !visit(el, nil, t) {
					return false
				}
			case *etree.CharData, *etree.ProcInst:
				if in(el, nil, t) && !visit(el, nil, t) {
					return false
				}
			}
		}
		return true
	}
	walk(s.root)
}

// documentNode returns the document node of the tree holding el.
func documentNode(el *etree.Element) *etree.Element {
	for el.Parent() != nil {
		el = el.Parent()
	}
	return el
}

// compileXPath compiles the text of el (a ds:XPath or dsig-xpath:XPath
// element) with the namespaces in scope at el, here() replaced by the path
// of el when the node-set is in el's document (XMLDSig 6.6.3.1).
func compileXPath(el *etree.Element, sameDocument bool) (expr *compiledXPath, reason string) {
	text := el.Text()
	if len(text) > MaxXPathLength || strings.TrimSpace(text) == "" {
		return nil, ReasonXPathInvalid
	}
	text, usesHere := replaceHere(text, absolutePath(el))
	if usesHere && !sameDocument {
		return nil, ReasonXPathInvalid
	}
	ns := map[string]string{}
	scope := ancestorScope(el)
	scope.pushElement(el)
	for _, b := range scope.bindings {
		if b.prefix != "" {
			ns[b.prefix] = b.uri
		}
	}
	// antchfx/xpath may panic on expressions it half-parses.
	defer recoverXPath(&reason)
	e, err := xpath.CompileWithNS(text, ns)
	if err != nil {
		return nil, ReasonXPathInvalid
	}
	c := &compiledXPath{whole: e}
	if l, op, r, ok := splitComparison(text); ok {
		left, lerr := xpath.CompileWithNS(l, ns)
		right, rerr := xpath.CompileWithNS(r, ns)
		if lerr == nil && rerr == nil {
			c.left, c.op, c.right = left, op, right
		}
	}
	return c, ""
}

// compiledXPath is an expression and, when it is one comparison at the top
// level, its two operands compiled apart.
//
// antchfx/xpath (v1.3.9) evaluates the operands of a comparison one after
// the other on the same context navigator, and a union or a predicate in
// the first leaves that navigator moved: in the XMLDSig 6.6.3 example
// count(ancestor-or-self::dsig:Signature | here()/ancestor::dsig:Signature[1])
// > count(ancestor-or-self::dsig:Signature) the second count was taken
// from the wrong node. Operands are therefore evaluated here, each on its
// own copy of the context, and compared by the XPath 1.0 rules; any other
// expression whose evaluation moves the context is reported unreliable
// rather than trusted.
type compiledXPath struct {
	whole       *xpath.Expr
	left, right *xpath.Expr
	op          string
}

// splitComparison splits expr at its one top-level comparison operator;
// ok is false when there is none, several, or a top-level and, or, or |
// (which bind more loosely, or make the split meaningless).
func splitComparison(expr string) (left, op, right string, ok bool) {
	depth, at, n := 0, -1, 0
	var quote byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '"' || c == '\'':
			quote = c
			continue
		case c == '(' || c == '[':
			depth++
			continue
		case c == ')' || c == ']':
			depth--
			continue
		}
		if depth != 0 {
			continue
		}
		switch {
		case c == '|':
			return "", "", "", false
		case (strings.HasPrefix(expr[i:], "and") || strings.HasPrefix(expr[i:], "or")) && (i == 0 || !isNameChar(expr[i-1])):
			w := 2
			if c == 'a' {
				w = 3
			}
			if i+w >= len(expr) || !isNameChar(expr[i+w]) {
				return "", "", "", false
			}
		case c == '!' && i+1 < len(expr) && expr[i+1] == '=', (c == '<' || c == '>') && i+1 < len(expr) && expr[i+1] == '=':
			at, op, n = i, expr[i:i+2], n+1
			i++
		case c == '=' || c == '<' || c == '>':
			at, op, n = i, expr[i:i+1], n+1
		}
	}
	if n != 1 {
		return "", "", "", false
	}
	left, right = strings.TrimSpace(expr[:at]), strings.TrimSpace(expr[at+len(op):])
	return left, op, right, left != "" && right != ""
}

// replaceHere replaces the calls here() outside string literals with path.
func replaceHere(expr, path string) (string, bool) {
	var (
		b     strings.Builder
		found bool
		quote byte
	)
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case strings.HasPrefix(expr[i:], "here") && (i == 0 || !isNameChar(expr[i-1])):
			j := i + 4
			for j < len(expr) && strings.IndexByte(" \t\r\n", expr[j]) >= 0 {
				j++
			}
			if j+1 < len(expr) && expr[j] == '(' {
				k := j + 1
				for k < len(expr) && strings.IndexByte(" \t\r\n", expr[k]) >= 0 {
					k++
				}
				if k < len(expr) && expr[k] == ')' {
					// Unparenthesised: antchfx/xpath evaluates
					// "(path)/step" inside a union wrongly, and a
					// location path stands wherever here() can.
					b.WriteString(path)
					found = true
					i = k
					continue
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String(), found
}

func isNameChar(c byte) bool {
	return c == '_' || c == '-' || c == '.' || c == ':' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// absolutePath is an XPath location path that selects exactly el:
// /*[i]/*[j]... by element position.
func absolutePath(el *etree.Element) string {
	var steps []string
	for e := el; e.Parent() != nil; e = e.Parent() {
		pos := 0
		for _, sib := range e.Parent().ChildElements() {
			pos++
			if sib == e {
				break
			}
		}
		steps = append(steps, "*["+strconv.Itoa(pos)+"]")
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(steps[i])
	}
	return b.String()
}

// truth converts an XPath result to a boolean (XPath 1.0 boolean()).
func truth(v any) bool {
	switch r := v.(type) {
	case bool:
		return r
	case float64:
		return r != 0 && !math.IsNaN(r)
	case string:
		return r != ""
	case []navigator:
		return len(r) > 0
	}
	return false
}

// evaluate evaluates expr with a copy of nav as the context node, turning
// a panic of antchfx/xpath into an invalid expression. moved reports that
// the evaluation left the context elsewhere (see compiledXPath); a
// node-set result is lazy and does not move it until iterated.
func evaluate(expr *xpath.Expr, nav *navigator) (v any, moved bool, reason string) {
	defer recoverXPath(&reason)
	ctx := *nav
	v = expr.Evaluate(&ctx)
	moved = ctx.el != nav.el || ctx.attr != nav.attr || ctx.tok != nav.tok
	if it, ok := v.(*xpath.NodeIterator); ok {
		// Node-sets are lazy: materialise them here, under the recover.
		var nodes []navigator
		for it.MoveNext() {
			if n, ok := it.Current().(*navigator); ok {
				nodes = append(nodes, *n)
			}
		}
		v = nodes
	}
	return v, moved, ""
}

// recoverXPath turns a panic inside antchfx/xpath into a reason: the step
// budget running out (errXPathBudget), or anything else the library does
// not expect of an expression, which the untrusted document wrote.
func recoverXPath(reason *string) {
	switch r := recover(); r.(type) {
	case nil:
	case errXPathBudget:
		*reason = ReasonXPathLimit
	default:
		*reason = ReasonXPathInvalid
	}
}

// test evaluates c with nav as the context and converts the result to a
// boolean.
func (c *compiledXPath) test(nav *navigator) (bool, string) {
	if c.left != nil {
		l, _, reason := evaluate(c.left, nav)
		if reason != "" {
			return false, reason
		}
		r, _, reason := evaluate(c.right, nav)
		if reason != "" {
			return false, reason
		}
		if v, ok := compareScalars(l, c.op, r); ok {
			return v, ""
		}
	}
	v, moved, reason := evaluate(c.whole, nav)
	if reason != "" {
		return false, reason
	}
	if moved {
		return false, ReasonXPathUnreliable
	}
	return truth(v), ""
}

// compareScalars compares two scalar results by XPath 1.0 section 3.4;
// ok is false when either is a node-set.
func compareScalars(l any, op string, r any) (result, ok bool) {
	for _, v := range []any{l, r} {
		switch v.(type) {
		case bool, float64, string:
		default:
			return false, false
		}
	}
	if op == "=" || op == "!=" {
		var eq bool
		_, lb := l.(bool)
		_, rb := r.(bool)
		_, ln := l.(float64)
		_, rn := r.(float64)
		switch {
		case lb || rb:
			eq = truth(l) == truth(r)
		case ln || rn:
			eq = number(l) == number(r)
		default:
			eq = l.(string) == r.(string)
		}
		return eq == (op == "="), true
	}
	a, b := number(l), number(r)
	switch op {
	case "<":
		return a < b, true
	case "<=":
		return a <= b, true
	case ">":
		return a > b, true
	case ">=":
		return a >= b, true
	}
	return false, false
}

// number converts a scalar to an XPath number.
func number(v any) float64 {
	switch x := v.(type) {
	case float64:
		return x
	case bool:
		if x {
			return 1
		}
		return 0
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return math.NaN()
		}
		return f
	}
	return math.NaN()
}

// position places nav on a node of the node-set.
func (n *navigator) position(el *etree.Element, attr *etree.Attr, tok etree.Token) {
	n.el, n.attr, n.tok = el, -1, -1
	switch {
	case attr != nil:
		for i := range el.Attr {
			if &el.Attr[i] == attr {
				n.attr = i
			}
		}
	case tok != nil:
		n.tok = tok.Index()
	}
}

// xpathTransform applies the XMLDSig XPath transform (6.6.3): the output
// is the nodes of the input for which the expression, evaluated with the
// node as context, is true. Namespace nodes and processing instructions,
// which the navigator does not visit, follow their element.
func (ck *checker) xpathTransform(in data, t *etree.Element) (data, string) {
	var xp *etree.Element
	for _, c := range t.ChildElements() {
		if isDS(c, "XPath") {
			xp = c
			break
		}
	}
	if xp == nil {
		return data{}, ReasonXPathInvalid
	}
	top := documentNode(in.set.root)
	expr, reason := compileXPath(xp, top == documentNode(ck.sig.el))
	if reason != "" {
		return data{}, reason
	}
	sel := newSelection()
	nav := newNavigator(top, ck.budget())
	in.set.each(func(el *etree.Element, attr *etree.Attr, tok etree.Token) bool {
		if _, isPI := tok.(*etree.ProcInst); isPI {
			if sel.elements[el] || isDocumentNode(el) {
				sel.tokens[tok] = true
			}
			return true
		}
		nav.position(el, attr, tok)
		keep, r := expr.test(nav)
		if ck.xpathSteps.exceeded {
			r = ReasonXPathLimit
		}
		if r != "" {
			reason = r
			return false
		}
		if keep {
			sel.add(el, attr, tok)
		}
		return true
	})
	if reason != "" {
		return data{}, reason
	}
	in.set.sel = sel
	return in, ""
}

func (s *selection) add(el *etree.Element, attr *etree.Attr, tok etree.Token) {
	switch {
	case attr != nil:
		s.attrs[attr] = true
	case tok != nil:
		s.tokens[tok] = true
	default:
		s.elements[el] = true
	}
}

// budget returns the signature's XPath budget, created on first use.
func (ck *checker) budget() *xpathBudget {
	if ck.xpathSteps == nil {
		ck.xpathSteps = &xpathBudget{left: MaxXPathSteps}
	}
	return ck.xpathSteps
}

// filterOp is the Filter attribute of an XPath Filter 2.0 expression.
type filterOp int

const (
	filterIntersect filterOp = iota + 1
	filterSubtract
	filterUnion
)

// xpathFilter2 applies XPath Filter 2.0 (XMLDSig XPath Filter 2.0,
// section 3.4): each expression is evaluated once, with the document node
// as context, and selects the subtrees of the nodes it returns; starting
// from the whole document, intersect, subtract and union combine them in
// order; the output is the input less what the combination excludes.
func (ck *checker) xpathFilter2(in data, t *etree.Element) (data, string) {
	type filter struct {
		op  filterOp
		sel *selection
	}
	var filters []filter
	top := documentNode(in.set.root)
	sameDocument := top == documentNode(ck.sig.el)
	for _, c := range t.ChildElements() {
		if c.Tag != "XPath" || elementNamespace(c) != NamespaceXPathFilter2 {
			continue
		}
		if len(filters) == MaxXPathFilters {
			return data{}, ReasonXPathLimit
		}
		var op filterOp
		switch attrValue(c, "Filter") {
		case "intersect":
			op = filterIntersect
		case "subtract":
			op = filterSubtract
		case "union":
			op = filterUnion
		default:
			return data{}, ReasonXPathInvalid
		}
		expr, reason := compileXPath(c, sameDocument)
		if reason != "" {
			return data{}, reason
		}
		nav := newNavigator(top, ck.budget())
		v, _, reason := evaluate(expr.whole, nav)
		if reason != "" {
			return data{}, reason
		}
		nodes, ok := v.([]navigator)
		if !ok {
			return data{}, ReasonXPathInvalid // the expression must select nodes
		}
		sel := newSelection()
		for _, n := range nodes {
			switch {
			case n.attr >= 0:
				sel.attrs[&n.el.Attr[n.attr]] = true
			case n.tok >= 0:
				sel.tokens[n.el.Child[n.tok]] = true
			default:
				sel.elements[n.el] = true // the document node included
			}
		}
		if ck.xpathSteps.exceeded {
			return data{}, ReasonXPathLimit
		}
		filters = append(filters, filter{op, sel})
	}
	if len(filters) == 0 {
		return data{}, ReasonXPathInvalid
	}

	// Walk the document once, knowing for each filter whether the current
	// node lies in a subtree it selected.
	out := newSelection()
	inside := make([]bool, len(filters))
	member := func(el *etree.Element, attr *etree.Attr, tok etree.Token, under []bool) bool {
		z := true
		for i, f := range filters {
			s := under[i]
			switch {
			case attr != nil:
				s = s || f.sel.attrs[attr]
			case tok != nil:
				s = s || f.sel.tokens[tok]
			}
			switch f.op {
			case filterIntersect:
				z = z && s
			case filterSubtract:
				z = z && !s
			case filterUnion:
				z = z || s
			}
		}
		return z
	}
	var walk func(el *etree.Element, under []bool)
	walk = func(el *etree.Element, under []bool) {
		here := make([]bool, len(under))
		for i, f := range filters {
			here[i] = under[i] || f.sel.elements[el]
		}
		if !isDocumentNode(el) {
			if member(el, nil, nil, here) {
				out.elements[el] = true
			}
			for i := range el.Attr {
				if a := &el.Attr[i]; member(el, a, nil, here) {
					out.attrs[a] = true
				}
			}
		}
		for _, tok := range el.Child {
			if e, ok := tok.(*etree.Element); ok {
				walk(e, here)
			} else if member(el, nil, tok, here) {
				out.tokens[tok] = true
			}
		}
	}
	walk(top, inside)

	// The output is the input node-set intersected with the filter.
	sel := newSelection()
	in.set.each(func(el *etree.Element, attr *etree.Attr, tok etree.Token) bool {
		var keep bool
		switch {
		case attr != nil:
			keep = out.attrs[attr]
		case tok != nil:
			keep = out.tokens[tok]
		default:
			keep = out.elements[el]
		}
		if keep {
			sel.add(el, attr, tok)
		}
		return true
	})
	in.set.sel = sel
	return in, ""
}

// canonicalizeSelection canonicalises a node-set with an explicit
// selection (Canonical XML 1.0 section 2.4, Exclusive XML Canonicalization
// section 3): elements outside the selection are not rendered but their
// content is visited; an element's namespace nodes are taken to be in the
// node-set with it.
func canonicalizeSelection(s nodeSet, opts c14nOptions) ([]byte, error) {
	c := canonicalizer{c14nOptions: opts}
	sel := s.sel
	if s.exclude != nil {
		// The enveloped-signature transform after an XPath transform.
		trimmed := newSelection()
		s.each(func(el *etree.Element, attr *etree.Attr, tok etree.Token) bool {
			trimmed.add(el, attr, tok)
			return true
		})
		sel = trimmed
	}
	top := documentNode(s.root)
	afterRoot := false
	for _, tok := range top.Child {
		switch t := tok.(type) {
		case *etree.Element:
			if err := c.selElement(t, sel); err != nil {
				return nil, err
			}
			afterRoot = true
		case *etree.Comment:
			if c.comments && sel.tokens[t] {
				c.outsideRoot(afterRoot, func() { c.comment(t) })
			}
		case *etree.ProcInst:
			if sel.tokens[t] {
				c.outsideRoot(afterRoot, func() { c.procInst(t) })
			}
		}
	}
	return c.out.Bytes(), nil
}

// selElement renders el if selected, then the selected nodes of its
// content.
func (c *canonicalizer) selElement(el *etree.Element, sel *selection) error {
	c.scope.pushElement(el)
	defer c.scope.pop()
	visible := sel.elements[el]
	qname := qualified(el.Space, el.Tag)
	if visible {
		c.rendered.push()
		defer c.rendered.pop()
		c.out.WriteByte('<')
		c.out.WriteString(qname)
		if err := c.selNamespaces(el, sel); err != nil {
			return err
		}
		if err := c.selAttributes(el, sel); err != nil {
			return err
		}
		c.out.WriteByte('>')
	}
	for _, tok := range el.Child {
		switch t := tok.(type) {
		case *etree.Element:
			if err := c.selElement(t, sel); err != nil {
				return err
			}
		case *etree.CharData:
			if sel.tokens[t] {
				escapeText(&c.out, t.Data)
			}
		case *etree.Comment:
			if c.comments && sel.tokens[t] {
				c.comment(t)
			}
		case *etree.ProcInst:
			if sel.tokens[t] {
				c.procInst(t)
			}
		}
	}
	if visible {
		c.out.WriteString("</")
		c.out.WriteString(qname)
		c.out.WriteByte('>')
	}
	return nil
}

// selNamespaces renders the namespace nodes of a selected element that its
// nearest rendered ancestor did not render with the same value. The
// inclusive methods consider every binding in scope (an element's
// namespace nodes), the exclusive one the visibly utilised prefixes and
// the InclusiveNamespaces PrefixList.
func (c *canonicalizer) selNamespaces(el *etree.Element, sel *selection) error {
	var candidates []string
	if c.kind == kindExcC14N {
		if _, ok := c.scope.lookup(el.Space); !ok {
			return fmt.Errorf("%w: unbound prefix %q on element %s", ErrMalformedXML, el.Space, el.Tag)
		}
		candidates = append(candidates, el.Space)
		for i := range el.Attr {
			a := &el.Attr[i]
			if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl || a.Space == "" || a.Space == "xml" || !sel.attrs[a] {
				continue
			}
			candidates = append(candidates, a.Space)
		}
		candidates = append(candidates, c.prefixes...)
	} else {
		for _, b := range c.scope.bindings {
			candidates = append(candidates, b.prefix)
		}
		candidates = append(candidates, "") // xmlns="" when a default was rendered above
	}
	sortCompact(&candidates)
	for _, p := range candidates {
		if p == "xml" {
			continue
		}
		uri, bound := c.scope.lookup(p)
		if !bound || (p != "" && uri == "") {
			continue
		}
		prev, renderedBefore := c.rendered.lookup(p)
		if p == "" {
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

// selAttributes renders the selected attributes of el and, for the
// inclusive methods when el's parent is not selected, the xml:* attributes
// it inherits.
func (c *canonicalizer) selAttributes(el *etree.Element, sel *selection) error {
	attrs := c.attrs[:0]
	for i := range el.Attr {
		a := &el.Attr[i]
		if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl || !sel.attrs[a] {
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
	if p := el.Parent(); c.kind != kindExcC14N && p != nil && !sel.elements[p] {
		var err error
		if attrs, err = c.inheritXMLAttrs(el, attrs); err != nil {
			return err
		}
	}
	sortAttrs(attrs)
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

func sortCompact(s *[]string) {
	slices.Sort(*s)
	*s = slices.Compact(*s)
}

func sortAttrs(attrs []sortedAttr) {
	slices.SortFunc(attrs, func(a, b sortedAttr) int {
		return cmp.Or(cmp.Compare(a.uri, b.uri), cmp.Compare(a.local, b.local))
	})
}
