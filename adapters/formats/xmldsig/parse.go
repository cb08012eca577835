package xmldsig

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/beevik/etree"
	"golang.org/x/text/encoding/charmap"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// ParseDocument parses data into an etree document that canonicalises as the
// XML data model requires. It differs from etree's own reader in the details
// canonical XML depends on:
//
//   - literal tab, CR and LF in attribute values become spaces (attribute-value
//     normalisation, XML 1.0 section 3.3.3), while the same characters written
//     as character references are kept: encoding/xml cannot tell them apart
//     after decoding, so the raw start tag is consulted;
//   - a repeated attribute is an error rather than "last one wins";
//   - the document must have exactly one root element, no text outside it,
//     and bound namespace prefixes (namespace well-formedness);
//   - a UTF-8 byte order mark is skipped; a document declared in one of the
//     single-byte encodings ISO-8859-x or windows-125x is transcoded to
//     UTF-8 first; other encodings than these, UTF-8 and US-ASCII are
//     refused (ErrUnsupported) instead of being misread.
//
// The XML declaration is not kept. A DOCTYPE is kept as an etree.Directive
// but not processed: no entity expansion, no default attributes.
//
// The document is held to the default limits (MaxElements, MaxDepth,
// MaxAttributes, MaxTextBytes) as it is read; [ParseDocumentLimits] takes
// others. ParseDocument does not bound len(data): the caller does.
// Errors wrap ErrMalformedXML, ErrUnsupported or ErrLimitExceeded (a
// *LimitError).
func ParseDocument(data []byte) (*etree.Document, error) {
	return ParseDocumentLimits(data, Limits{})
}

// ParseDocumentLimits is [ParseDocument] with the limits lim instead of the
// defaults, for callers that know their documents to be smaller than any
// XML signature can be, such as a trusted list.
func ParseDocumentLimits(data []byte, lim Limits) (*etree.Document, error) {
	p, err := newParser(data, lim)
	if err != nil {
		return nil, err
	}
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// newParser returns the parser of data: without a UTF-8 byte order mark,
// transcoded to UTF-8 from a single-byte encoding it declares.
func newParser(data []byte, lim Limits) (*parser, error) {
	if bytes.HasPrefix(data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) {
		return nil, fmt.Errorf("%w: UTF-16 document", ErrUnsupported)
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	charset := ""
	if name := declaredEncoding(data); name != "" {
		if cm, ok := singleByteCharsets[strings.ToLower(name)]; ok {
			// Transcoded before parsing, so that the raw start tags the
			// parser reads attribute values from are UTF-8 too; the
			// declaration then names an encoding already applied.
			utf8Data, err := cm.NewDecoder().Bytes(data)
			if err != nil {
				return nil, fmt.Errorf("%w: %s: %w", ErrMalformedXML, name, err)
			}
			data, charset = utf8Data, strings.ToLower(name)
		}
	}
	return &parser{data: data, doc: etree.NewDocument(), lim: lim.orDefaults(), charset: charset}, nil
}

type parser struct {
	data  []byte
	doc   *etree.Document
	scope nsScope
	root  *etree.Element
	cur   *etree.Element // the element the next node goes into
	depth int            // of cur, the root at 1

	// charset is the single-byte encoding data was transcoded from, which
	// the decoder then reads as UTF-8.
	charset string

	// strs interns element names and short texts: a document repeats
	// the same few (tags, indentation, codes), and one copy of each
	// instead of one per occurrence is a quarter of a large tree.
	strs map[string]string

	lim        Limits
	elements   int
	attributes int
	text       int // bytes of text so far, as MaxTextBytes counts them

	// attrs, keys and rawValues are reused from one start tag to the
	// next.
	attrs     []xml.Attr
	keys      []string
	rawValues [][]byte
}

// run parses p.data into p.doc. The scanner reads the common documents
// several times faster than encoding/xml; anything it does not take, and
// any error at all, parses again from the start with encoding/xml, so that
// what is accepted and every error stay encoding/xml's.
func (p *parser) run() error {
	if p.runScanner() == nil {
		return nil
	}
	p.reset()
	return p.runDecoder()
}

// reset forgets what a failed runScanner built. The interned strings stay:
// they are only strings.
func (p *parser) reset() {
	p.doc = etree.NewDocument()
	p.scope = nsScope{}
	p.root, p.cur, p.depth = nil, &p.doc.Element, 0
	p.elements, p.attributes, p.text = 0, 0, 0
}

// runScanner parses with the scanner. Its error only says that the
// decoder has to parse again: it is not the error to report.
func (p *parser) runScanner() error {
	s := scanner{data: p.data, maxText: p.lim.MaxTextBytes, charsetOK: p.charsetOK}
	p.cur = &p.doc.Element
	for {
		err := s.next()
		if err == io.EOF {
			return p.finish()
		}
		if err != nil {
			return err
		}
		t := &s.tok
		switch t.kind {
		case tokStart:
			p.attrs, p.keys, p.rawValues = p.attrs[:0], p.keys[:0], p.rawValues[:0]
			for _, a := range t.attrs {
				key := p.intern(a.name)
				p.attrs = append(p.attrs, xml.Attr{Name: splitName(key), Value: p.intern(a.value)})
				p.keys = append(p.keys, key)
				p.rawValues = append(p.rawValues, a.raw)
			}
			err = p.startTag(xml.StartElement{Name: p.name(t.name), Attr: p.attrs}, p.keys, p.rawValues)
		case tokEnd:
			if p.isCurrent(t.name) {
				err = p.endTag(xml.Name{Space: p.cur.Space, Local: p.cur.Tag})
			} else {
				err = p.endTag(p.name(t.name))
			}
		case tokText:
			err = p.charData(t.text)
		case tokComment:
			err = p.comment(t.text)
		case tokProcInst:
			err = p.procInst(p.intern(t.name), t.text, t.start)
		}
		if err != nil {
			return err
		}
	}
}

// name returns a name the scanner read (at most one colon) interned, split
// as encoding/xml splits it.
func (p *parser) name(b []byte) xml.Name {
	return splitName(p.intern(b))
}

// splitName splits a name of at most one colon as encoding/xml does: a
// colon with a non-empty part either side separates the prefix, else the
// whole name is the local part. Both parts share s.
func splitName(s string) xml.Name {
	if i := strings.IndexByte(s, ':'); i > 0 && i < len(s)-1 {
		return xml.Name{Space: s[:i], Local: s[i+1:]}
	}
	return xml.Name{Local: s}
}

// isCurrent reports whether the name b the scanner read is the name of
// p.cur, so that its end tag needs neither a split nor a look-up.
func (p *parser) isCurrent(b []byte) bool {
	space, tag := p.cur.Space, p.cur.Tag
	if space == "" {
		return string(b) == tag
	}
	return len(b) == len(space)+1+len(tag) && string(b[:len(space)]) == space &&
		b[len(space)] == ':' && string(b[len(space)+1:]) == tag
}

// runDecoder parses with encoding/xml, held to the limits by tokenReader.
func (p *parser) runDecoder() error {
	in := &tokenReader{data: p.data, maxText: p.lim.MaxTextBytes}
	dec := xml.NewDecoder(in)
	dec.Strict = true
	dec.CharsetReader = p.openCharset
	p.cur = &p.doc.Element
	for {
		start := dec.InputOffset()
		in.startToken(start)
		tok, err := dec.RawToken()
		if err == io.EOF {
			return p.finish()
		}
		if err != nil {
			if errors.Is(err, ErrUnsupported) || errors.Is(err, ErrLimitExceeded) {
				return err
			}
			return fmt.Errorf("%w: %w", ErrMalformedXML, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			t.Name = xml.Name{Space: p.internString(t.Name.Space), Local: p.internString(t.Name.Local)}
			p.keys = p.keys[:0]
			for _, a := range t.Attr {
				p.keys = append(p.keys, qualified(a.Name.Space, a.Name.Local))
			}
			err = p.startTag(t, p.keys, rawAttrValues(p.data[start:dec.InputOffset()]))
		case xml.EndElement:
			err = p.endTag(t.Name)
		case xml.CharData:
			err = p.charData(t)
		case xml.Comment:
			err = p.comment(t)
		case xml.ProcInst:
			err = p.procInst(t.Target, t.Inst, int(start))
		case xml.Directive:
			err = p.directive(t)
		}
		if err != nil {
			return err
		}
	}
}

// openCharset is the decoder's CharsetReader.
func (p *parser) openCharset(charset string, input io.Reader) (io.Reader, error) {
	if p.charset != "" && strings.ToLower(charset) == p.charset {
		return input, nil
	}
	return charsetReader(charset, input)
}

// charsetOK reports whether the decoder reads a document declared in
// charset as the UTF-8 it is.
func (p *parser) charsetOK(charset string) bool {
	_, err := p.openCharset(charset, nil)
	return err == nil
}

// startTag opens the element of t. keys are its attribute names as written,
// rawValues its attribute values as written, in order.
func (p *parser) startTag(t xml.StartElement, keys []string, rawValues [][]byte) error {
	if p.depth == 0 && p.root != nil {
		return fmt.Errorf("%w: more than one root element", ErrMalformedXML)
	}
	if err := p.count(t); err != nil {
		return err
	}
	if p.depth++; p.depth > p.lim.MaxDepth {
		return &LimitError{What: "depth", Max: p.lim.MaxDepth}
	}
	el, err := p.startElement(p.cur, t, keys, rawValues)
	if err != nil {
		return err
	}
	if p.depth == 1 {
		p.root = el
	}
	p.cur = el
	return nil
}

func (p *parser) endTag(name xml.Name) error {
	if p.depth == 0 || p.cur.Space != name.Space || p.cur.Tag != name.Local {
		return fmt.Errorf("%w: unexpected end tag </%s>", ErrMalformedXML, qualified(name.Space, name.Local))
	}
	p.scope.pop()
	p.depth--
	p.cur = p.cur.Parent()
	return nil
}

func (p *parser) charData(t []byte) error {
	if p.depth == 0 {
		if len(bytes.Trim(t, " \t\r\n")) != 0 {
			return fmt.Errorf("%w: text outside the root element", ErrMalformedXML)
		}
		return nil // not part of the data model
	}
	if err := p.addText(len(t)); err != nil {
		return err
	}
	p.cur.CreateText(p.intern(t))
	return nil
}

func (p *parser) comment(t []byte) error {
	if err := p.addText(len(t)); err != nil {
		return err
	}
	p.cur.CreateComment(string(t))
	return nil
}

// procInst adds a processing instruction that starts at offset start.
func (p *parser) procInst(target string, inst []byte, start int) error {
	if strings.EqualFold(target, "xml") {
		if start != 0 {
			return fmt.Errorf("%w: XML declaration not at the start", ErrMalformedXML)
		}
		return nil
	}
	if err := p.addText(len(inst)); err != nil {
		return err
	}
	p.cur.CreateProcInst(target, string(inst))
	return nil
}

func (p *parser) directive(t []byte) error {
	if p.depth != 0 || p.root != nil || !bytes.HasPrefix(t, []byte("DOCTYPE")) {
		return fmt.Errorf("%w: misplaced <!%s", ErrMalformedXML, firstWord(t))
	}
	if err := p.addText(len(t)); err != nil {
		return err
	}
	p.cur.CreateDirective(string(t))
	return nil
}

// finish checks the document once all of it is read.
func (p *parser) finish() error {
	if p.depth != 0 {
		return fmt.Errorf("%w: unexpected end of document", ErrMalformedXML)
	}
	if p.root == nil {
		return fmt.Errorf("%w: no root element", ErrMalformedXML)
	}
	return nil
}

// count holds the start tag t to the limits before anything of it enters
// the tree.
func (p *parser) count(t xml.StartElement) error {
	if p.elements++; p.elements > p.lim.MaxElements {
		return &LimitError{What: "elements", Max: p.lim.MaxElements}
	}
	if len(t.Attr) > MaxElementAttributes {
		return &LimitError{What: "element attributes", Max: MaxElementAttributes}
	}
	if p.attributes += len(t.Attr); p.attributes > p.lim.MaxAttributes {
		return &LimitError{What: "attributes", Max: p.lim.MaxAttributes}
	}
	for _, a := range t.Attr {
		if err := p.addText(len(a.Value)); err != nil {
			return err
		}
	}
	return nil
}

// Bounds on interning: strings up to maxInterned bytes, at most
// maxInternedStrings of them (a document of distinct texts gains nothing,
// and the table must not grow with it).
const (
	maxInterned        = 32
	maxInternedStrings = 4096
)

// intern returns b as a string, the same string for the same bytes when
// b is short.
func (p *parser) intern(b []byte) string {
	if len(b) > maxInterned {
		return string(b)
	}
	if s, ok := p.strs[string(b)]; ok {
		return s
	}
	return p.add(string(b))
}

// internString is intern for a string already made.
func (p *parser) internString(s string) string {
	if len(s) > maxInterned {
		return s
	}
	if t, ok := p.strs[s]; ok {
		return t
	}
	return p.add(s)
}

func (p *parser) add(s string) string {
	if p.strs == nil {
		p.strs = make(map[string]string)
	}
	if len(p.strs) < maxInternedStrings {
		p.strs[s] = s
	}
	return s
}

func (p *parser) addText(n int) error {
	if p.text += n; p.text > p.lim.MaxTextBytes {
		return &LimitError{What: "text bytes", Max: p.lim.MaxTextBytes}
	}
	return nil
}

// startElement creates the element for t under parent. keys are its
// attribute names as written (qualified), rawValues its attribute values as
// written, used to apply attribute-value normalisation exactly.
func (p *parser) startElement(parent *etree.Element, t xml.StartElement, keys []string, rawValues [][]byte) (*etree.Element, error) {
	// encoding/xml leaves names it cannot split as a QName (":", "a:",
	// ":b") whole in Local; Namespaces in XML forbids them.
	if !isQName(t.Name) {
		return nil, fmt.Errorf("%w: element name %q is not a QName", ErrMalformedXML, qualified(t.Name.Space, t.Name.Local))
	}
	for _, a := range t.Attr {
		if !isQName(a.Name) {
			return nil, fmt.Errorf("%w: attribute name %q is not a QName", ErrMalformedXML, qualified(a.Name.Space, a.Name.Local))
		}
	}
	el := parent.CreateElement(t.Name.Local)
	el.Space = t.Name.Space

	if len(rawValues) != len(t.Attr) {
		// Cannot happen for a tag encoding/xml accepted; refuse rather than
		// guess which value is which.
		return nil, fmt.Errorf("%w: cannot read attributes of <%s>", ErrMalformedXML, qualified(el.Space, el.Tag))
	}
	p.scope.push()
	for i, a := range t.Attr {
		v := a.Value
		if bytes.ContainsAny(rawValues[i], "\t\r\n") {
			var err error
			if v, err = normalizeAttrValue(rawValues[i]); err != nil {
				return nil, fmt.Errorf("%w: attribute %s: %w", ErrMalformedXML, qualified(a.Name.Space, a.Name.Local), err)
			}
		}
		if hasAttr(el, a.Name.Space, a.Name.Local) {
			return nil, fmt.Errorf("%w: repeated attribute %s on <%s>", ErrMalformedXML, qualified(a.Name.Space, a.Name.Local), qualified(el.Space, el.Tag))
		}
		el.CreateAttr(keys[i], v)
		if prefix, ok := declaredPrefix(a.Name.Space, a.Name.Local); ok {
			if err := checkDeclaration(prefix, v); err != nil {
				return nil, err
			}
			p.scope.bind(prefix, v)
		}
	}
	return el, p.checkNames(el)
}

// checkNames enforces namespace well-formedness: every prefix bound, no two
// attributes with the same expanded name.
func (p *parser) checkNames(el *etree.Element) error {
	if _, ok := p.scope.lookup(el.Space); !ok && el.Space != "" {
		return fmt.Errorf("%w: unbound prefix %q on element %s", ErrMalformedXML, el.Space, el.Tag)
	}
	seen := make(map[[2]string]bool, len(el.Attr))
	for _, a := range el.Attr {
		if _, isDecl := declaredPrefix(a.Space, a.Key); isDecl || a.Space == "" {
			continue
		}
		uri, ok := p.scope.lookup(a.Space)
		if !ok {
			return fmt.Errorf("%w: unbound prefix %q on attribute %s", ErrMalformedXML, a.Space, a.Key)
		}
		k := [2]string{uri, a.Key}
		if seen[k] {
			return fmt.Errorf("%w: attribute {%s}%s repeated", ErrMalformedXML, uri, a.Key)
		}
		seen[k] = true
	}
	return nil
}

func isQName(n xml.Name) bool {
	return n.Local != "" && !strings.Contains(n.Local, ":") && !strings.Contains(n.Space, ":")
}

func checkDeclaration(prefix, uri string) error {
	switch {
	case prefix == "xmlns":
		return fmt.Errorf("%w: the xmlns prefix cannot be declared", ErrMalformedXML)
	case prefix == "xml" && uri != namespaceXML, prefix != "xml" && uri == namespaceXML:
		return fmt.Errorf("%w: the xml prefix and namespace belong together", ErrMalformedXML)
	case uri == namespaceXMLNS:
		return fmt.Errorf("%w: the xmlns namespace cannot be declared", ErrMalformedXML)
	case prefix != "" && uri == "":
		// Namespaces in XML 1.0 has no prefix undeclaration.
		return fmt.Errorf("%w: empty namespace name for prefix %q", ErrMalformedXML, prefix)
	}
	return nil
}

// rawAttrValues returns the quoted attribute values of a start tag as they
// are written. Inside a start tag quotes can only delimit values, so a
// quote-state scan is exact.
func rawAttrValues(tag []byte) [][]byte {
	var vals [][]byte
	for i := 0; i < len(tag); i++ {
		q := tag[i]
		if q != '"' && q != '\'' {
			continue
		}
		end := bytes.IndexByte(tag[i+1:], q)
		if end < 0 {
			break
		}
		vals = append(vals, tag[i+1:i+1+end])
		i += end + 1
	}
	return vals
}

// normalizeAttrValue decodes a raw attribute value applying XML 1.0 section
// 3.3.3 for CDATA attributes: every literal white space character (after
// line-end normalisation, so CR LF counts once) becomes a space; character
// and predefined entity references are decoded without normalisation.
func normalizeAttrValue(raw []byte) (string, error) {
	var b strings.Builder
	b.Grow(len(raw))
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch c {
		case '\r':
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			b.WriteByte(' ')
		case '\n', '\t':
			b.WriteByte(' ')
		case '&':
			end := bytes.IndexByte(raw[i:], ';')
			if end < 0 {
				return "", errors.New("unterminated reference")
			}
			r, err := decodeReference(string(raw[i+1 : i+end]))
			if err != nil {
				return "", err
			}
			b.WriteRune(r)
			i += end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

func decodeReference(name string) (rune, error) {
	switch name {
	case "amp":
		return '&', nil
	case "lt":
		return '<', nil
	case "gt":
		return '>', nil
	case "quot":
		return '"', nil
	case "apos":
		return '\'', nil
	}
	var (
		n   uint64
		err error
	)
	switch {
	case strings.HasPrefix(name, "#x"):
		n, err = strconv.ParseUint(name[2:], 16, 32)
	case strings.HasPrefix(name, "#"):
		n, err = strconv.ParseUint(name[1:], 10, 32)
	default:
		return 0, fmt.Errorf("unknown entity &%s;", name)
	}
	if err != nil || !utf8.ValidRune(rune(n)) {
		return 0, fmt.Errorf("invalid character reference &%s;", name)
	}
	return rune(n), nil
}

// charsetReader accepts the encodings that are byte-identical to UTF-8 for
// a well-formed document and refuses the rest: decoding UTF-16 as UTF-8
// would canonicalise different characters than were signed. The
// single-byte encodings of singleByteCharsets are transcoded before
// parsing.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "utf-8", "utf8", "us-ascii", "ascii":
		return input, nil
	}
	return nil, fmt.Errorf("%w: character encoding %q", ErrUnsupported, charset)
}

// declaredPrefix reports whether the raw attribute name space:local is a
// namespace declaration and which prefix it declares ("" for the default).
func declaredPrefix(space, local string) (string, bool) {
	switch {
	case space == "" && local == "xmlns":
		return "", true
	case space == "xmlns":
		return local, true
	}
	return "", false
}

func qualified(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

func firstWord(b []byte) string {
	if i := bytes.IndexAny(b, " \t\r\n"); i >= 0 {
		b = b[:i]
	}
	if len(b) > 20 {
		b = b[:20]
	}
	return string(b)
}

// hasAttr reports whether el has an attribute with exactly this raw name.
// etree's SelectAttr treats a missing prefix as a wildcard, which would
// confuse "a" with "p:a".
func hasAttr(el *etree.Element, space, key string) bool {
	for _, a := range el.Attr {
		if a.Space == space && a.Key == key {
			return true
		}
	}
	return false
}

// singleByteCharsets are the single-byte encodings a document may declare:
// transcoded to UTF-8 before parsing (canonical XML is UTF-8 whatever the
// input encoding, Canonical XML 1.0 section 2.1). A XAdES test file of
// ETSI's plugtests is ISO-8859-2.
var singleByteCharsets = map[string]*charmap.Charmap{
	"iso-8859-1":   charmap.ISO8859_1,
	"latin1":       charmap.ISO8859_1,
	"iso-8859-2":   charmap.ISO8859_2,
	"iso-8859-3":   charmap.ISO8859_3,
	"iso-8859-4":   charmap.ISO8859_4,
	"iso-8859-5":   charmap.ISO8859_5,
	"iso-8859-7":   charmap.ISO8859_7,
	"iso-8859-9":   charmap.ISO8859_9,
	"iso-8859-13":  charmap.ISO8859_13,
	"iso-8859-15":  charmap.ISO8859_15,
	"iso-8859-16":  charmap.ISO8859_16,
	"windows-1250": charmap.Windows1250,
	"windows-1251": charmap.Windows1251,
	"windows-1252": charmap.Windows1252,
}

// declaredEncoding returns the encoding the XML declaration at the start of
// data names, or "".
func declaredEncoding(data []byte) string {
	if !bytes.HasPrefix(data, []byte("<?xml")) {
		return ""
	}
	end := bytes.Index(data[:min(len(data), 256)], []byte("?>"))
	if end < 0 {
		return ""
	}
	decl := string(data[5:end])
	i := strings.Index(decl, "encoding")
	if i < 0 {
		return ""
	}
	rest := strings.TrimLeft(decl[i+len("encoding"):], " \t\r\n")
	rest, ok := strings.CutPrefix(rest, "=")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, " \t\r\n")
	if rest == "" || (rest[0] != '"' && rest[0] != '\'') {
		return ""
	}
	name, _, ok := strings.Cut(rest[1:], rest[:1])
	if !ok {
		return ""
	}
	return name
}
