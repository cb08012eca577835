package xmldsig

import (
	"fmt"
	"io"
)

// Bounds on the tree ParseDocument builds, checked while the input is
// tokenised so that a hostile document is refused before it has become a
// tree. A tree costs far more than its markup: an element takes some 300
// bytes of allocation, so 63 MB of "<a/>" (16 million elements) took
// 4 GiB. The defaults suit the signed documents this package reads, trusted
// lists, of which the largest has 18 437 elements, 6 181 attributes and
// 1.8 MB of text and nests 21 deep; [ParseDocumentLimits] takes others.
const (
	// MaxDepth bounds element nesting. It also keeps recursion in the
	// canonicaliser shallow.
	MaxDepth = 256

	// MaxElements bounds the elements of a document, about 160 MiB of
	// allocation at most.
	MaxElements = 500_000

	// MaxAttributes bounds the attributes of a document, namespace
	// declarations included; each costs some 500 bytes of allocation.
	MaxAttributes = 250_000

	// MaxTextBytes bounds the text of a document: character data,
	// attribute values, comments and processing instructions. Half of
	// MaxDocumentSize: signed XML is mostly markup.
	MaxTextBytes = 16 << 20

	// MaxElementAttributes bounds the attributes of one element (9 at
	// most in a trusted list). etree checks each new attribute against
	// those before it, so an element costs the square of its attributes.
	MaxElementAttributes = 256

	// MaxTagBytes bounds one start or end tag as written, attributes
	// included; the largest in a trusted list has 463 bytes. encoding/xml
	// decodes all of a tag's attributes before the attribute count can be
	// checked, at some 50 bytes of allocation per byte of empty
	// attributes, so the tag itself must be short.
	MaxTagBytes = 64 << 10
)

// Limits bound what [ParseDocumentLimits] accepts. A zero field means the
// package default of the same name; a caller may set a field below or
// above it.
type Limits struct {
	MaxElements   int // elements in the document
	MaxDepth      int // element nesting, the root at depth 1
	MaxAttributes int // attributes in the document
	// MaxTextBytes bounds the bytes of character data, attribute values,
	// comments and processing instructions in total. It also bounds each
	// run of text, comment or processing instruction as it is read,
	// because encoding/xml buffers a whole token before returning it.
	MaxTextBytes int
}

// orDefaults returns l with every zero field set to the package default.
func (l Limits) orDefaults() Limits {
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxElements, MaxElements)
	set(&l.MaxDepth, MaxDepth)
	set(&l.MaxAttributes, MaxAttributes)
	set(&l.MaxTextBytes, MaxTextBytes)
	return l
}

// A LimitError says which limit a document exceeded. It wraps
// [ErrLimitExceeded].
type LimitError struct {
	// What names the limit: "elements", "depth", "attributes", "element
	// attributes" (of one element), "text bytes" or "tag bytes" (of one
	// tag).
	What string
	Max  int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("xmldsig: limit exceeded: %s over %d", e.What, e.Max)
}

// Unwrap returns [ErrLimitExceeded].
func (e *LimitError) Unwrap() error { return ErrLimitExceeded }

// tokenReader is the decoder's input: data, of which it hands out at most
// MaxTagBytes (for a tag) or maxText (for anything else) bytes past the end
// of the last token, then a *LimitError. encoding/xml reads a whole token
// before returning it, so without this one 60 MB run of text would be
// buffered, and grown by doubling, before any count could see it.
type tokenReader struct {
	data    []byte
	pos     int
	maxText int
	limit   int  // pos past which the current token is too long
	tag     bool // whether the current token is a tag
}

// startToken bounds the token that starts at offset. The decoder may read
// one byte past a token to see where a run of text ends.
func (r *tokenReader) startToken(offset int64) {
	start := int(offset)
	// A tag is "<" not followed by "!" (comment, CDATA, DOCTYPE) or "?"
	// (processing instruction).
	r.tag = start+1 < len(r.data) && r.data[start] == '<' && r.data[start+1] != '!' && r.data[start+1] != '?'
	if r.tag {
		r.limit = start + MaxTagBytes + 1
	} else {
		r.limit = start + r.maxText + 1
	}
}

func (r *tokenReader) tooLong() error {
	if r.tag {
		return &LimitError{What: "tag bytes", Max: MaxTagBytes}
	}
	return &LimitError{What: "text bytes", Max: r.maxText}
}

// ReadByte makes tokenReader an io.ByteReader, which encoding/xml reads
// directly instead of through a bufio.Reader that would read ahead.
func (r *tokenReader) ReadByte() (byte, error) {
	if r.pos >= len(r.data) {
		return 0, io.EOF
	}
	if r.pos >= r.limit {
		return 0, r.tooLong()
	}
	b := r.data[r.pos]
	r.pos++
	return b, nil
}

func (r *tokenReader) Read(p []byte) (int, error) {
	if r.pos >= len(r.data) {
		return 0, io.EOF
	}
	if r.pos >= r.limit {
		return 0, r.tooLong()
	}
	n := copy(p, r.data[r.pos:min(len(r.data), r.limit)])
	r.pos += n
	return n, nil
}
