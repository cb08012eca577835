package xades

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

var (
	utf8BOM     = []byte{0xEF, 0xBB, 0xBF}
	dsNamespace = []byte(nsDS)
)

// Detect reports whether data is of the format Read reads: an XML
// document (after an optional UTF-8 byte order mark and white space)
// that mentions the XMLDSig namespace, which Read may still find
// unreadable or without signatures. Read returns an error wrapping
// ports.ErrNotThisFormat for exactly the data Detect does not claim.
func Detect(data []byte) bool {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	return len(trimmed) > 0 && trimmed[0] == '<' && bytes.Contains(data, dsNamespace)
}

// parse reads data into a tree, refusing a DOCTYPE before anything else:
// no entity is ever expanded, so billion laughs and external entities are
// refused in the prolog, whatever follows.
func parse(data []byte) (*etree.Document, error) {
	if len(data) > MaxDocumentSize {
		return nil, fmt.Errorf("document over %d bytes", MaxDocumentSize)
	}
	if hasDoctype(data) {
		return nil, errors.New("a document with a DOCTYPE is refused (no DTD or entity is processed)")
	}
	if n := longestText(data); n > xmldsig.MaxTextBytes {
		// encoding/xml returns a text token only once all of it is read:
		// its buffer would grow to the whole node before the tokenizer's
		// count could refuse it. Bytes between two '<' are text or
		// attribute values, which the same limit counts, so a run over it
		// is refused here, before any buffer.
		return nil, fmt.Errorf("%w: %d bytes of text without markup, at most %d", xmldsig.ErrLimitExceeded, n, xmldsig.MaxTextBytes)
	}
	tree, err := xmldsig.ParseDocumentLimits(data, xmldsig.Limits{})
	if err != nil {
		return nil, err
	}
	for _, tok := range tree.Child {
		if _, ok := tok.(*etree.Directive); ok {
			return nil, errors.New("a document with a DOCTYPE is refused (no DTD or entity is processed)")
		}
	}
	return tree, nil
}

// hasDoctype reports whether the prolog of data (before the root
// element) holds a DOCTYPE. It skips the XML declaration, processing
// instructions, comments and white space, each once: linear.
func hasDoctype(data []byte) bool {
	s := bytes.TrimPrefix(data, utf8BOM)
	for {
		s = bytes.TrimLeft(s, " \t\r\n")
		switch {
		case bytes.HasPrefix(s, []byte("<?")):
			end := bytes.Index(s, []byte("?>"))
			if end < 0 {
				return false
			}
			s = s[end+2:]
		case bytes.HasPrefix(s, []byte("<!--")):
			end := bytes.Index(s[4:], []byte("-->"))
			if end < 0 {
				return false
			}
			s = s[4+end+3:]
		default:
			return bytes.HasPrefix(s, []byte("<!DOCTYPE"))
		}
	}
}

// longestText returns the longest run of bytes of data without a '<'.
func longestText(data []byte) int {
	longest := 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '<')
		if i < 0 {
			i = len(data)
		}
		longest = max(longest, i)
		data = data[min(i+1, len(data)):]
	}
	return longest
}
