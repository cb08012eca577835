package jades

import (
	"errors"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A JSON value as the strict reader gives it. encoding/json keeps the
// last of two members of the same name; a signature over such a header
// says two things at once, so this reader refuses it instead.
type kind uint8

const (
	kindNull kind = iota + 1
	kindBool
	kindNumber
	kindString
	kindArray
	kindObject
)

func (k kind) String() string {
	switch k {
	case kindNull:
		return "null"
	case kindBool:
		return "a boolean"
	case kindNumber:
		return "a number"
	case kindString:
		return "a string"
	case kindArray:
		return "an array"
	case kindObject:
		return "an object"
	}
	return "nothing"
}

// value is one JSON value. raw is its text in the input, as written
// (used where a time-stamp covers a member as it appears).
type value struct {
	kind    kind
	str     string // kindString: the decoded text; kindNumber: as written
	boolean bool
	elems   []*value // kindArray
	members []member // kindObject, in order
	raw     []byte
}

type member struct {
	name string
	val  *value
}

// get returns the member name of an object, nil when absent or when v is
// not an object.
func (v *value) get(name string) *value {
	if v == nil || v.kind != kindObject {
		return nil
	}
	for _, m := range v.members {
		if m.name == name {
			return m.val
		}
	}
	return nil
}

// errJSON is wrapped by every error of the strict reader.
var errJSON = errors.New("jades: JSON")

// jsonError is a syntax or limit error at an offset of the input.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return fmt.Sprintf("JSON: %s at offset %d", e.msg, e.off) }
func (e *jsonError) Unwrap() error { return errJSON }

// parseJSON reads data, one JSON text (RFC 8259) with white space around
// it, strictly: no duplicate member names, no invalid UTF-8, no lone
// surrogate escapes, no trailing data, nesting at most MaxDepth, strings
// at most MaxStringBytes, at most MaxValues values. It works in one pass
// over data; a limit is refused where it is crossed, before any buffer
// grows past it.
func parseJSON(data []byte) (*value, error) {
	p := &parser{data: data}
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.off != len(p.data) {
		return nil, p.fail("data after the JSON value")
	}
	return v, nil
}

type parser struct {
	data   []byte
	off    int
	values int
}

func (p *parser) fail(format string, args ...any) error {
	return &jsonError{off: p.off, msg: fmt.Sprintf(format, args...)}
}

func (p *parser) space() {
	for p.off < len(p.data) {
		switch p.data[p.off] {
		case ' ', '\t', '\r', '\n':
			p.off++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (*value, error) {
	if p.values++; p.values > MaxValues {
		return nil, p.fail("more than %d values", MaxValues)
	}
	if p.off >= len(p.data) {
		return nil, p.fail("unexpected end of input")
	}
	start := p.off
	var v *value
	var err error
	switch c := p.data[p.off]; {
	case c == '{':
		v, err = p.object(depth + 1)
	case c == '[':
		v, err = p.array(depth + 1)
	case c == '"':
		var s string
		s, err = p.string()
		v = &value{kind: kindString, str: s}
	case c == 't':
		err = p.literal("true")
		v = &value{kind: kindBool, boolean: true}
	case c == 'f':
		err = p.literal("false")
		v = &value{kind: kindBool}
	case c == 'n':
		err = p.literal("null")
		v = &value{kind: kindNull}
	case c == '-' || (c >= '0' && c <= '9'):
		err = p.number()
		v = &value{kind: kindNumber}
	default:
		return nil, p.fail("unexpected character %q", c)
	}
	if err != nil {
		return nil, err
	}
	v.raw = p.data[start:p.off]
	if v.kind == kindNumber {
		v.str = string(v.raw)
	}
	return v, nil
}

func (p *parser) literal(word string) error {
	if len(p.data)-p.off < len(word) || string(p.data[p.off:p.off+len(word)]) != word {
		return p.fail("invalid literal")
	}
	p.off += len(word)
	return nil
}

func (p *parser) number() error {
	d := p.data
	if p.off < len(d) && d[p.off] == '-' {
		p.off++
	}
	digits := func() int {
		n := 0
		for p.off < len(d) && d[p.off] >= '0' && d[p.off] <= '9' {
			p.off++
			n++
		}
		return n
	}
	switch {
	case p.off < len(d) && d[p.off] == '0':
		p.off++
	case digits() == 0:
		return p.fail("invalid number")
	}
	if p.off < len(d) && d[p.off] == '.' {
		p.off++
		if digits() == 0 {
			return p.fail("invalid number")
		}
	}
	if p.off < len(d) && (d[p.off] == 'e' || d[p.off] == 'E') {
		p.off++
		if p.off < len(d) && (d[p.off] == '+' || d[p.off] == '-') {
			p.off++
		}
		if digits() == 0 {
			return p.fail("invalid number")
		}
	}
	return nil
}

// string reads a string at p.off (its opening quote).
func (p *parser) string() (string, error) {
	p.off++ // "
	start := p.off
	d := p.data
	// Fast path: no escape.
	for p.off < len(d) {
		c := d[p.off]
		if c == '"' {
			s := d[start:p.off]
			if !utf8.Valid(s) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			p.off++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.fail("control character in a string")
		}
		if p.off-start >= MaxStringBytes {
			return "", p.fail("string over %d bytes", MaxStringBytes)
		}
		p.off++
	}
	if p.off >= len(d) {
		return "", p.fail("unterminated string")
	}
	buf := append([]byte(nil), d[start:p.off]...)
	for p.off < len(d) {
		if len(buf) >= MaxStringBytes {
			return "", p.fail("string over %d bytes", MaxStringBytes)
		}
		c := d[p.off]
		switch {
		case c == '"':
			if !utf8.Valid(buf) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			p.off++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("control character in a string")
		case c != '\\':
			buf = append(buf, c)
			p.off++
			continue
		}
		p.off++
		if p.off >= len(d) {
			break
		}
		e := d[p.off]
		p.off++
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				if p.off+1 >= len(d) || d[p.off] != '\\' || d[p.off+1] != 'u' {
					return "", p.fail("lone surrogate escape")
				}
				p.off += 2
				r2, err := p.hex4()
				if err != nil {
					return "", err
				}
				if r = utf16.DecodeRune(r, r2); r == utf8.RuneError {
					return "", p.fail("invalid surrogate pair")
				}
			}
			buf = utf8.AppendRune(buf, r)
		default:
			return "", p.fail("invalid escape \\%c", e)
		}
	}
	return "", p.fail("unterminated string")
}

func (p *parser) hex4() (rune, error) {
	if len(p.data)-p.off < 4 {
		return 0, p.fail("short \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.off:p.off+4]), 16, 32)
	if err != nil {
		return 0, p.fail("invalid \\u escape")
	}
	p.off += 4
	return rune(n), nil
}

func (p *parser) array(depth int) (*value, error) {
	if depth > MaxDepth {
		return nil, p.fail("nesting deeper than %d", MaxDepth)
	}
	p.off++ // [
	v := &value{kind: kindArray}
	p.space()
	if p.off < len(p.data) && p.data[p.off] == ']' {
		p.off++
		return v, nil
	}
	for {
		p.space()
		e, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		v.elems = append(v.elems, e)
		p.space()
		if p.off >= len(p.data) {
			return nil, p.fail("unterminated array")
		}
		switch p.data[p.off] {
		case ',':
			p.off++
		case ']':
			p.off++
			return v, nil
		default:
			return nil, p.fail("expected , or ] in an array")
		}
	}
}

func (p *parser) object(depth int) (*value, error) {
	if depth > MaxDepth {
		return nil, p.fail("nesting deeper than %d", MaxDepth)
	}
	p.off++ // {
	v := &value{kind: kindObject}
	p.space()
	if p.off < len(p.data) && p.data[p.off] == '}' {
		p.off++
		return v, nil
	}
	var seen map[string]bool
	for {
		p.space()
		if p.off >= len(p.data) || p.data[p.off] != '"' {
			return nil, p.fail("expected a member name")
		}
		at := p.off
		name, err := p.string()
		if err != nil {
			return nil, err
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[name] {
			return nil, &jsonError{off: at, msg: fmt.Sprintf("duplicate member name %q", name)}
		}
		seen[name] = true
		p.space()
		if p.off >= len(p.data) || p.data[p.off] != ':' {
			return nil, p.fail("expected : after a member name")
		}
		p.off++
		p.space()
		val, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		v.members = append(v.members, member{name, val})
		p.space()
		if p.off >= len(p.data) {
			return nil, p.fail("unterminated object")
		}
		switch p.data[p.off] {
		case ',':
			p.off++
		case '}':
			p.off++
			return v, nil
		default:
			return nil, p.fail("expected , or } in an object")
		}
	}
}
