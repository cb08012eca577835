package cms

import (
	"bytes"
	"encoding/asn1"
	"fmt"
	"math/big"
	"slices"

	"golang.org/x/crypto/cryptobyte"
)

// Tag classes.
const (
	classUniversal   = 0
	classApplication = 1
	classContext     = 2
	classPrivate     = 3
)

// An element is one TLV of BER input, read where it is: raw and content are
// slices of the input, so the original bytes stay at hand (signed
// attributes are checked against them).
type element struct {
	class       int
	tag         int
	constructed bool
	indefinite  bool
	raw         []byte // the whole encoding, end-of-contents octets included
	content     []byte // the content octets, end-of-contents excluded
	depth       int    // nesting depth from the outermost element
}

// readElement reads the element at the start of b, nested at depth.
func readElement(b []byte, depth int) (element, []byte, error) {
	if depth > MaxDepth {
		return element{}, nil, fmt.Errorf("%w: nesting deeper than %d", ErrLimitExceeded, MaxDepth)
	}
	if len(b) < 2 {
		return element{}, nil, fmt.Errorf("%w: truncated element", ErrMalformed)
	}
	e := element{class: int(b[0] >> 6), constructed: b[0]&0x20 != 0, tag: int(b[0] & 0x1f), depth: depth}
	i := 1
	if e.tag == 0x1f {
		// High tag number form, base 128. Four bytes give 28 bits, far
		// beyond any tag CMS uses.
		e.tag = 0
		for {
			if i >= len(b) || i > 4 {
				return element{}, nil, fmt.Errorf("%w: tag number", ErrMalformed)
			}
			c := b[i]
			i++
			e.tag = e.tag<<7 | int(c&0x7f)
			if c&0x80 == 0 {
				break
			}
		}
		if e.tag < 0x1f {
			return element{}, nil, fmt.Errorf("%w: tag number in high form", ErrMalformed)
		}
	}
	if i >= len(b) {
		return element{}, nil, fmt.Errorf("%w: truncated length", ErrMalformed)
	}
	l := b[i]
	i++
	switch {
	case l < 0x80:
		return e.withContent(b, i, int(l))
	case l == 0x80:
		if !e.constructed {
			return element{}, nil, fmt.Errorf("%w: indefinite length on a primitive element", ErrMalformed)
		}
		e.indefinite = true
		rest := b[i:]
		for {
			if len(rest) >= 2 && rest[0] == 0 && rest[1] == 0 {
				end := len(b) - len(rest)
				e.content = b[i:end]
				e.raw = b[:end+2]
				return e, rest[2:], nil
			}
			var err error
			if _, rest, err = readElement(rest, depth+1); err != nil {
				return element{}, nil, err
			}
		}
	case l == 0xff:
		return element{}, nil, fmt.Errorf("%w: reserved length octet", ErrMalformed)
	default:
		n := int(l & 0x7f)
		if n > 4 || i+n > len(b) {
			return element{}, nil, fmt.Errorf("%w: length of %d octets", ErrMalformed, n)
		}
		length := 0
		for _, c := range b[i : i+n] {
			length = length<<8 | int(c)
		}
		return e.withContent(b, i+n, length)
	}
}

func (e element) withContent(b []byte, start, length int) (element, []byte, error) {
	if length < 0 || length > len(b)-start {
		return element{}, nil, fmt.Errorf("%w: element longer than its input", ErrMalformed)
	}
	e.content = b[start : start+length]
	e.raw = b[:start+length]
	return e, b[start+length:], nil
}

// is reports whether e has the given class, tag and form.
func (e element) is(class, tag int, constructed bool) bool {
	return e.class == class && e.tag == tag && e.constructed == constructed
}

func (e element) isUniversal(tag int) bool { return e.class == classUniversal && e.tag == tag }

func (e element) isContext(tag int) bool { return e.class == classContext && e.tag == tag }

func (e element) String() string {
	return fmt.Sprintf("[class %d tag %d constructed %v]", e.class, e.tag, e.constructed)
}

// children reads the elements inside constructed e, at most max of them.
func (e element) children(max int) ([]element, error) {
	if !e.constructed {
		return nil, fmt.Errorf("%w: %v is not constructed", ErrMalformed, e)
	}
	var out []element
	rest := e.content
	for len(rest) > 0 {
		if len(out) == max {
			return nil, fmt.Errorf("%w: more than %d elements in %v", ErrLimitExceeded, max, e)
		}
		c, r, err := readChild(rest, e.depth+1)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
		rest = r
	}
	return out, nil
}

// readChild reads the element at the start of the content b of a
// constructed element, at depth.
func readChild(b []byte, depth int) (element, []byte, error) {
	c, r, err := readElement(b, depth)
	if err != nil {
		return element{}, nil, err
	}
	if c.class == classUniversal && c.tag == 0 {
		return element{}, nil, fmt.Errorf("%w: end-of-contents inside a definite-length element", ErrMalformed)
	}
	return c, r, nil
}

// fields reads the elements of a SEQUENCE of fixed structure with at most
// max fields: more is malformed, not a limit.
func (e element) fields(max int) ([]element, error) {
	kids, err := e.children(max + 1)
	if err != nil {
		return nil, err
	}
	if len(kids) > max {
		return nil, fmt.Errorf("%w: %v has more than %d fields", ErrMalformed, e, max)
	}
	return kids, nil
}

// stringTags are the universal types whose BER encoding may be split into
// segments (X.690, section 8.21): BIT STRING, OCTET STRING and the
// character strings and times.
var stringTags = map[int]bool{
	asn1.TagBitString: true, asn1.TagOctetString: true, asn1.TagUTF8String: true,
	asn1.TagNumericString: true, asn1.TagPrintableString: true, asn1.TagT61String: true,
	21: true, asn1.TagIA5String: true, asn1.TagUTCTime: true, asn1.TagGeneralizedTime: true,
	25: true, 26: true, 27: true, 28: true, asn1.TagBMPString: true,
}

// octets returns the value of an OCTET STRING (or another string type),
// joining the segments of a constructed encoding. A primitive encoding is
// returned without copying.
func (e element) octets() ([]byte, error) {
	if !e.constructed {
		return e.content, nil
	}
	var out []byte
	segments := 0
	var walk func(e element) error
	walk = func(e element) error {
		kids, err := e.children(MaxStringSegments)
		if err != nil {
			return err
		}
		for _, k := range kids {
			if segments++; segments > MaxStringSegments {
				return fmt.Errorf("%w: string of more than %d segments", ErrLimitExceeded, MaxStringSegments)
			}
			if k.class != classUniversal || k.tag != e.tag && e.class == classUniversal {
				return fmt.Errorf("%w: segment %v of a constructed string", ErrMalformed, k)
			}
			if k.constructed {
				if err := walk(k); err != nil {
					return err
				}
				continue
			}
			out = append(out, k.content...)
		}
		return nil
	}
	if err := walk(e); err != nil {
		return nil, err
	}
	return out, nil
}

// der returns the DER encoding of e: definite, minimal lengths and strings
// in one segment. Sets keep their order (sortedSetDER sorts); everything
// else in BER that DER forbids is left to the parsers of the values.
// isDER reports whether e's input bytes are already what der would
// produce: definite lengths in their shortest form, the shortest tag
// form, no constructed strings, at most MaxElements children, all the way
// down. It reads e where it is and allocates nothing, so that DER input,
// the common case, is not re-encoded only to find it unchanged.
func (e element) isDER() bool {
	if e.indefinite || len(e.raw) != headerLen(e.tag, len(e.content))+len(e.content) {
		return false
	}
	if !e.constructed {
		return true
	}
	if e.class == classUniversal && stringTags[e.tag] {
		return false
	}
	rest := e.content
	for n := 0; len(rest) > 0; n++ {
		if n == MaxElements {
			return false
		}
		var k element
		var err error
		if k, rest, err = readChild(rest, e.depth+1); err != nil || !k.isDER() {
			return false
		}
	}
	return true
}

// headerLen is the length of the DER identifier and length octets of an
// element with tag and n content octets, as appendTLV writes them.
func headerLen(tag, n int) int {
	h := 1
	if tag >= 0x1f {
		for t := tag; t > 0; t >>= 7 {
			h++
		}
	}
	h++
	if n >= 0x80 {
		for ; n > 0; n >>= 8 {
			h++
		}
	}
	return h
}

func (e element) der() ([]byte, error) {
	var b cryptobyte.Builder
	if err := e.appendDER(&b); err != nil {
		return nil, err
	}
	return b.Bytes()
}

func (e element) appendDER(b *cryptobyte.Builder) error {
	if !e.constructed {
		appendTLV(b, e.class, e.tag, false, e.content)
		return nil
	}
	if e.class == classUniversal && stringTags[e.tag] {
		v, err := e.octets()
		if err != nil {
			return err
		}
		if e.tag == asn1.TagBitString {
			if v, err = joinBitString(e); err != nil {
				return err
			}
		}
		appendTLV(b, e.class, e.tag, false, v)
		return nil
	}
	kids, err := e.children(MaxElements)
	if err != nil {
		return err
	}
	var inner cryptobyte.Builder
	for _, k := range kids {
		if err := k.appendDER(&inner); err != nil {
			return err
		}
	}
	body, err := inner.Bytes()
	if err != nil {
		return err
	}
	appendTLV(b, e.class, e.tag, true, body)
	return nil
}

// joinBitString joins the segments of a constructed BIT STRING: each
// starts with its count of unused bits, which must be zero but in the last.
func joinBitString(e element) ([]byte, error) {
	out := []byte{0}
	segments := 0
	var walk func(e element) error
	walk = func(e element) error {
		kids, err := e.children(MaxStringSegments)
		if err != nil {
			return err
		}
		for _, k := range kids {
			if segments++; segments > MaxStringSegments {
				return fmt.Errorf("%w: string of more than %d segments", ErrLimitExceeded, MaxStringSegments)
			}
			if k.constructed {
				if err := walk(k); err != nil {
					return err
				}
				continue
			}
			if len(k.content) == 0 || out[0] != 0 {
				return fmt.Errorf("%w: BIT STRING segment", ErrMalformed)
			}
			out[0] = k.content[0]
			out = append(out, k.content[1:]...)
		}
		return nil
	}
	if err := walk(e); err != nil {
		return nil, err
	}
	return out, nil
}

// appendTLV writes a DER TLV. Tags above 30 use the high tag number form.
func appendTLV(b *cryptobyte.Builder, class, tag int, constructed bool, content []byte) {
	id := byte(class << 6)
	if constructed {
		id |= 0x20
	}
	if tag < 0x1f {
		b.AddUint8(id | byte(tag))
	} else {
		b.AddUint8(id | 0x1f)
		var base128 []byte
		for t := tag; t > 0; t >>= 7 {
			base128 = append(base128, byte(t&0x7f))
		}
		slices.Reverse(base128)
		for i := range len(base128) - 1 {
			base128[i] |= 0x80
		}
		b.AddBytes(base128)
	}
	switch n := len(content); {
	case n < 0x80:
		b.AddUint8(byte(n))
	default:
		var l []byte
		for ; n > 0; n >>= 8 {
			l = append(l, byte(n))
		}
		slices.Reverse(l)
		b.AddUint8(0x80 | byte(len(l)))
		b.AddBytes(l)
	}
	b.AddBytes(content)
}

// sortedSetDER returns the DER encoding of a SET OF with the given DER
// element encodings, in the ascending order DER wants (X.690, 11.6).
func sortedSetDER(elems [][]byte) []byte {
	sorted := slices.Clone(elems)
	slices.SortFunc(sorted, bytes.Compare)
	var b cryptobyte.Builder
	appendTLV(&b, classUniversal, asn1.TagSet, true, bytes.Join(sorted, nil))
	return b.BytesOrPanic() // appendTLV records no error
}

// oid reads e as an OBJECT IDENTIFIER.
func (e element) oid() (asn1.ObjectIdentifier, error) {
	if !e.is(classUniversal, asn1.TagOID, false) {
		return nil, fmt.Errorf("%w: %v is not an OBJECT IDENTIFIER", ErrMalformed, e)
	}
	der, err := e.der()
	if err != nil {
		return nil, err
	}
	s := cryptobyte.String(der)
	var oid asn1.ObjectIdentifier
	if !s.ReadASN1ObjectIdentifier(&oid) {
		return nil, fmt.Errorf("%w: OBJECT IDENTIFIER", ErrMalformed)
	}
	return oid, nil
}

// integer reads e as an INTEGER (two's complement, non-minimal encodings
// accepted).
func (e element) integer() (*big.Int, error) {
	if !e.is(classUniversal, asn1.TagInteger, false) || len(e.content) == 0 {
		return nil, fmt.Errorf("%w: %v is not an INTEGER", ErrMalformed, e)
	}
	n := new(big.Int).SetBytes(e.content)
	if e.content[0]&0x80 != 0 {
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(e.content))*8))
	}
	return n, nil
}

// smallInt reads e as an INTEGER between 0 and max.
func (e element) smallInt(max int) (int, error) {
	n, err := e.integer()
	if err != nil {
		return 0, err
	}
	if n.Sign() < 0 || n.Cmp(big.NewInt(int64(max))) > 0 {
		return 0, fmt.Errorf("%w: INTEGER %v out of range", ErrMalformed, n)
	}
	return int(n.Int64()), nil
}
