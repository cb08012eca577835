package xmldsig

import (
	"bytes"
	"errors"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

// The scanner is the parser's fast path: a tokenizer over the whole input
// that returns the tokens encoding/xml's Decoder.RawToken (Strict) would,
// with the same offsets, as subslices of the input wherever nothing needs
// decoding. encoding/xml reads byte by byte through an interface and
// copies every token; on a large signed document that was most of the
// time a validation takes.
//
// It takes only the common constructs: the XML declaration (with the
// encodings the decoder would read as UTF-8), elements and attributes with
// ASCII names, text and attribute values with the predefined entities and
// character references, CDATA sections, comments and processing
// instructions. On anything else (a DOCTYPE, a non-ASCII name, a token
// near a size limit, any error) next returns errScannerDeclined, and the
// parser starts again with encoding/xml: the scanner never decides what is
// rejected, nor how. Declining costs at most one more pass over what was
// read, so the two together stay linear in the input.
var errScannerDeclined = errors.New("xmldsig: left to encoding/xml")

type tokenKind uint8

const (
	tokStart    tokenKind = iota + 1 // name, attrs
	tokEnd                           // name
	tokText                          // text: character data, decoded
	tokComment                       // text: as written
	tokProcInst                      // name: the target; text: as written
)

// A token is what next read. Its slices alias the input or the scanner's
// buffer and are valid until the next call.
type token struct {
	kind       tokenKind
	name       []byte
	text       []byte
	attrs      []scannedAttr
	start, end int // offsets in the input, as Decoder.InputOffset gives them
}

type scannedAttr struct {
	name  []byte
	raw   []byte // the value as written between its quotes
	value []byte // the value decoded as encoding/xml does
}

type scanner struct {
	data    []byte
	pos     int
	maxText int // the parser's MaxTextBytes: bound of one non-tag token
	// charsetOK reports whether the decoder would take a declared
	// encoding (as the UTF-8 the input is).
	charsetOK func(string) bool

	tok       token
	closeNext bool   // the last start tag was <a/>: the end tag comes next
	buf       []byte // decoded text of the current token
}

// next reads the next token into s.tok. It returns io.EOF at the end of the
// input and errScannerDeclined on anything it leaves to encoding/xml.
func (s *scanner) next() error {
	t := &s.tok
	if s.closeNext {
		// encoding/xml returns <a/> as a start and an end element, the
		// end element reading nothing; t.name is still the start tag's.
		s.closeNext = false
		t.kind, t.start, t.end = tokEnd, s.pos, s.pos
		return nil
	}
	if s.pos >= len(s.data) {
		return io.EOF
	}
	t.start, t.text, t.attrs, s.buf = s.pos, nil, t.attrs[:0], s.buf[:0]
	rest := s.data[s.pos:]
	var ok bool
	switch {
	case rest[0] != '<':
		ok = s.charData()
	case len(rest) < 2:
		ok = false
	case rest[1] == '/':
		ok = s.endTag()
	case rest[1] == '?':
		ok = s.procInst()
	case bytes.HasPrefix(rest, []byte("<!--")):
		ok = s.comment()
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		ok = s.cdata()
	case rest[1] == '!':
		ok = false // DOCTYPE and other declarations
	default:
		ok = s.startTag()
	}
	if !ok {
		return errScannerDeclined
	}
	t.end = s.pos
	return nil
}

// window returns the input the current token may span: the decoder's
// tokenReader refuses a tag longer than MaxTagBytes and any other token
// longer than maxText. Declining a token that does not end in it leaves
// the limit error (or the acceptance of a token just at the limit) to the
// decoder, and bounds what the scanner reads of a hostile token.
func (s *scanner) window(tag bool) []byte {
	n := s.maxText
	if tag {
		n = MaxTagBytes
	}
	if n > math.MaxInt-1-s.pos {
		// tokenReader's bound, offset+n+1, overflows and it refuses
		// every byte of the token: leave that to it.
		return s.data[:s.pos]
	}
	if n >= len(s.data)-s.pos {
		return s.data
	}
	return s.data[:s.pos+n]
}

// charData reads text up to the next "<" or the end of the input.
func (s *scanner) charData() bool {
	w := s.window(false)
	end := bytes.IndexByte(w[s.pos:], '<')
	switch {
	case end >= 0:
		end += s.pos
	case len(w) < len(s.data):
		return false // longer than maxText, or ends just at it
	default:
		end = len(w)
	}
	text, ok := s.chars(s.data[s.pos:end], inText)
	if !ok {
		return false
	}
	s.tok.kind, s.tok.text, s.pos = tokText, text, end
	return true
}

// cdata reads a CDATA section, which encoding/xml returns as character
// data of its own.
func (s *scanner) cdata() bool {
	w := s.window(false)
	from := s.pos + len("<![CDATA[")
	if from > len(w) {
		return false
	}
	end := bytes.Index(w[from:], []byte("]]>"))
	if end < 0 {
		return false
	}
	text, ok := s.chars(w[from:from+end], inCDATA)
	if !ok {
		return false
	}
	s.tok.kind, s.tok.text, s.pos = tokText, text, from+end+len("]]>")
	return true
}

// comment reads a comment, kept as written. As in encoding/xml (and XML),
// the first "--" must end it.
func (s *scanner) comment() bool {
	w := s.window(false)
	from := s.pos + len("<!--")
	if from > len(w) {
		return false
	}
	end := bytes.Index(w[from:], []byte("--"))
	if end < 0 || from+end+2 >= len(w) || w[from+end+2] != '>' {
		return false
	}
	s.tok.kind, s.tok.text, s.pos = tokComment, w[from:from+end], from+end+len("-->")
	return true
}

// procInst reads a processing instruction: the target, white space, then
// the instruction as written up to the first "?>".
func (s *scanner) procInst() bool {
	w := s.window(false)
	target, i, _ := scanName(w, s.pos+2)
	if target == nil {
		return false
	}
	i = skipSpace(w, i)
	end := bytes.Index(w[i:], []byte("?>"))
	if end < 0 {
		return false
	}
	inst := w[i : i+end]
	if string(target) == "xml" && !s.declarationOK(string(inst)) {
		return false
	}
	s.tok.kind, s.tok.name, s.tok.text, s.pos = tokProcInst, target, inst, i+end+len("?>")
	return true
}

// declarationOK reports whether the decoder takes an XML declaration with
// these contents: version 1.0 or none, and an encoding it reads as UTF-8.
// Like encoding/xml it looks for `name="` or `name='` anywhere in the
// declaration, and ignores a declaration it does not find that way in.
func (s *scanner) declarationOK(decl string) bool {
	if v := declParam(decl, "version"); v != "" && v != "1.0" {
		return false
	}
	enc := declParam(decl, "encoding")
	return enc == "" || s.charsetOK(enc)
}

// declParam returns the quoted value that follows the first `name=`
// followed by a quote, or "". A `name=` followed by something else is
// skipped together with that character.
func declParam(decl, name string) string {
	key := name + "="
	for {
		i := strings.Index(decl, key)
		if i < 0 || i+len(key) >= len(decl) {
			return ""
		}
		q := decl[i+len(key)]
		decl = decl[i+len(key)+1:]
		if q == '"' || q == '\'' {
			for j := 0; j < len(decl); j++ {
				if decl[j] == q {
					return decl[:j]
				}
			}
			return ""
		}
	}
}

// endTag reads "</name>", white space allowed before the ">".
func (s *scanner) endTag() bool {
	w := s.window(true)
	name, i, ok := scanQName(w, s.pos+2)
	if !ok {
		return false
	}
	i = skipSpace(w, i)
	if i >= len(w) || w[i] != '>' {
		return false
	}
	s.tok.kind, s.tok.name, s.pos = tokEnd, name, i+1
	return true
}

// startTag reads a start tag. Like encoding/xml it needs no white space
// between one attribute's closing quote and the next attribute's name.
func (s *scanner) startTag() bool {
	w := s.window(true)
	name, i, ok := scanQName(w, s.pos+1)
	if !ok {
		return false
	}
	t := &s.tok
	t.kind, t.name = tokStart, name
	for {
		i = skipSpace(w, i)
		if i >= len(w) {
			return false
		}
		switch w[i] {
		case '>':
			s.pos = i + 1
			return true
		case '/':
			if i+1 >= len(w) || w[i+1] != '>' {
				return false
			}
			s.pos, s.closeNext = i+2, true
			return true
		}
		var a scannedAttr
		if a.name, i, ok = scanQName(w, i); !ok {
			return false
		}
		if i = skipSpace(w, i); i >= len(w) || w[i] != '=' {
			return false
		}
		if i = skipSpace(w, i+1); i >= len(w) || (w[i] != '"' && w[i] != '\'') {
			return false
		}
		end := bytes.IndexByte(w[i+1:], w[i])
		if end < 0 {
			return false
		}
		a.raw = w[i+1 : i+1+end]
		if a.value, ok = s.chars(a.raw, inAttr); !ok {
			return false
		}
		t.attrs = append(t.attrs, a)
		i += end + 2
	}
}

// scanQName reads a name that encoding/xml's nsname takes: a name with at
// most one colon.
func scanQName(b []byte, i int) (name []byte, next int, ok bool) {
	name, next, colons := scanName(b, i)
	if name == nil || colons > 1 {
		return nil, 0, false
	}
	return name, next, true
}

// scanName reads the XML name that starts at b[i], and counts its colons;
// name is nil if there is none the scanner takes. It takes ASCII names
// only: for those the Name production is the two classes below, while
// checking a non-ASCII name would need encoding/xml's tables.
func scanName(b []byte, i int) (name []byte, next, colons int) {
	if i >= len(b) || nameByte[b[i]] != nameStart {
		return nil, 0, 0
	}
	j := i
	for ; j < len(b) && nameByte[b[j]] != 0; j++ {
		if b[j] == ':' {
			colons++
		}
	}
	// encoding/xml reads every byte >= 0x80 into a name: a non-ASCII name
	// (or one the decoder rejects) ends here.
	if j >= len(b) || b[j] >= utf8.RuneSelf {
		return nil, 0, 0
	}
	return b[i:j], j, colons
}

// nameByte classifies ASCII bytes: nameStart may begin a name, nameRest
// only continue one (XML 1.0 section 2.3; encoding/xml's isNameByte).
var nameByte = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = nameStart, nameStart
	}
	t['_'], t[':'] = nameStart, nameStart
	for c := '0'; c <= '9'; c++ {
		t[c] = nameRest
	}
	t['-'], t['.'] = nameRest, nameRest
	return t
}()

const (
	nameStart = 1 + iota
	nameRest
)

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// What chars reads: text between tags, an attribute value, or the content
// of a CDATA section.
const (
	inText = iota
	inAttr
	inCDATA
)

// plain marks the bytes chars passes on as they are in every context:
// printable ASCII but "<", "&", ">" and CR, and tab and line feed.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = true
	}
	t['<'], t['&'], t['>'] = false, false, false
	t['\t'], t['\n'] = true, true
	return t
}()

// chars checks and decodes raw as encoding/xml's Decoder.text does: line
// ends (CR LF, or a CR alone) become LF; outside CDATA the five predefined
// entities and character references are replaced; a character outside the
// XML Char production, invalid UTF-8, "<" in an attribute value and "]]>"
// in text are errors (declined here). The result is raw itself when
// nothing changes, else a part of s.buf.
func (s *scanner) chars(raw []byte, ctx int) ([]byte, bool) {
	i := 0
	for i < len(raw) && plain[raw[i]] {
		i++
	}
	if i == len(raw) {
		return raw, true
	}
	from := len(s.buf)
	copied := false // whether the result is in s.buf from `from`
	for i < len(raw) {
		c := raw[i]
		n := 1
		switch {
		case plain[c]:
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 || !isXMLChar(r) {
				return nil, false
			}
			n = size
		case c == '>':
			// "]]>" ends a CDATA section and is an error in text; the
			// decoder does not look for it in attribute values.
			if ctx == inText && i >= 2 && raw[i-1] == ']' && raw[i-2] == ']' {
				return nil, false
			}
		case c == '<' && ctx == inCDATA, c == '&' && ctx == inCDATA:
		case c == '\r':
			if !copied {
				s.buf, copied = append(s.buf, raw[:i]...), true
			}
			s.buf = append(s.buf, '\n')
			if i+1 < len(raw) && raw[i+1] == '\n' {
				i++
			}
			i++
			continue
		case c == '&':
			r, size, ok := reference(raw[i:])
			if !ok {
				return nil, false
			}
			if !copied {
				s.buf, copied = append(s.buf, raw[:i]...), true
			}
			s.buf = utf8.AppendRune(s.buf, r)
			i += size
			continue
		default:
			return nil, false // "<" in an attribute value, or a control character
		}
		if copied {
			s.buf = append(s.buf, raw[i:i+n]...)
		}
		i += n
	}
	if !copied {
		return raw, true
	}
	return s.buf[from:len(s.buf):len(s.buf)], true
}

// reference decodes the entity or character reference at the start of b,
// which starts with "&": one of the five predefined entities, "&#" decimal
// digits ";" or "&#x" hexadecimal digits ";" naming an XML character. It
// declines what encoding/xml rejects or decodes otherwise (a reference to
// a surrogate, which it turns into U+FFFD).
func reference(b []byte) (r rune, size int, ok bool) {
	if len(b) > 1 && b[1] == '#' {
		i, base := 2, rune(10)
		if i < len(b) && b[i] == 'x' {
			i, base = i+1, 16
		}
		digits := i
		for ; i < len(b); i++ {
			d := digitValue(b[i])
			if d >= base {
				break
			}
			if r = r*base + d; r > utf8.MaxRune {
				return 0, 0, false
			}
		}
		if i == digits || i >= len(b) || b[i] != ';' || !isXMLChar(r) {
			return 0, 0, false
		}
		return r, i + 1, true
	}
	// encoding/xml reads a whole name (any bytes it takes in names) before
	// it looks for the ";".
	i := 1
	for i < len(b) && (nameByte[b[i]] != 0 || b[i] >= utf8.RuneSelf) {
		i++
	}
	if i >= len(b) || b[i] != ';' {
		return 0, 0, false
	}
	switch string(b[1:i]) {
	case "lt":
		r = '<'
	case "gt":
		r = '>'
	case "amp":
		r = '&'
	case "apos":
		r = '\''
	case "quot":
		r = '"'
	default:
		return 0, 0, false
	}
	return r, i + 1, true
}

// digitValue returns the value of a hexadecimal digit, or 16.
func digitValue(c byte) rune {
	switch {
	case '0' <= c && c <= '9':
		return rune(c - '0')
	case 'a' <= c && c <= 'f':
		return rune(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return rune(c-'A') + 10
	}
	return 16
}

// isXMLChar reports whether r is in the Char production of XML 1.0
// section 2.2.
func isXMLChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' ||
		0x20 <= r && r <= 0xD7FF ||
		0xE000 <= r && r <= 0xFFFD ||
		0x10000 <= r && r <= utf8.MaxRune
}
