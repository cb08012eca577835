package trustlist

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/domain/trust"
)

// Parse reads an ETSI TS 119 612 trusted list, a LOTL or a TL, version 5
// or 6 (the earlier TSL versions 3 and 4 found in old samples parse too),
// into a [trust.List].
//
// Every error wraps [ErrUnparseable]; a *[ParseError] says where, and
// errors.Is(err, [ErrLimit]) or [ErrNotTrustedList] tells the two special
// causes apart. An empty document, malformed XML, a root other than
// TrustServiceStatusList, a malformed date, integer or base64 value, and a
// document over the limits of limits.go are all errors.
//
// Parse does not check the list's signature, does not parse certificates
// (they are returned as DER, as found) and does not judge whether the list
// is current: the caller does those with the returned value. What Parse
// cannot represent in [trust.List] is dropped; [ParseWithNotices] returns
// the same list together with a note of each such loss.
func Parse(data []byte) (trust.List, error) {
	l, _, err := ParseWithNotices(data)
	return l, err
}

// ParseWithNotices is [Parse] that also returns the [Notice]s: unknown
// critical extensions and qualification criteria the domain type cannot
// express. Notices are not errors: the list is complete in every other
// respect. On error the notices are nil.
func ParseWithNotices(data []byte) (trust.List, []Notice, error) {
	if len(data) > MaxInputBytes {
		return trust.List{}, nil, &ParseError{Err: &LimitError{What: "input size", Max: MaxInputBytes}}
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	in := xml.NewDecoder(bytes.NewReader(data))
	raw, err := decode(in, in.InputPos)
	if err != nil {
		return trust.List{}, nil, err
	}
	return convert(raw)
}

// ParseTree is [Parse] over a document already parsed by
// xmldsig.ParseDocumentLimits, so that one parse of the bytes serves both
// the list's content and its signature check. The caller bounds the input
// size (MaxInputBytes) and passes [DocumentLimits] to the parse, so that a
// hostile document never becomes a tree; the other limits apply as in
// Parse.
func ParseTree(doc *etree.Document) (trust.List, error) {
	root := doc.Root()
	if root == nil {
		return trust.List{}, &ParseError{Err: errors.New("no root element")}
	}
	raw, err := decode(newTreeTokens(root), func() (int, int) { return 0, 0 })
	if err != nil {
		return trust.List{}, err
	}
	l, _, err := convert(raw)
	return l, err
}

func convert(raw *rawList) (trust.List, []Notice, error) {
	var c converter
	l, err := c.list(raw)
	if err != nil {
		return trust.List{}, nil, err
	}
	return l, c.notices, nil
}

// utf8BOM is skipped: some member states publish their list with one.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decode checks that the raw tokens of in make one well-formed XML
// document whose root is a TrustServiceStatusList and decodes it into the
// private structs. pos reports the input position for errors.
func decode(in rawTokenReader, pos func() (line, column int)) (*rawList, error) {
	dec := xml.NewTokenDecoder(&limitedTokens{in: in})
	fail := func(err error) error {
		line, col := pos()
		// The token decoder that matches start and end tags has no input
		// of its own and numbers every line 1; the byte-level position
		// goes into the ParseError instead.
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			err = errors.New("XML syntax error: " + se.Msg)
		}
		return &ParseError{Line: line, Column: col, Err: err}
	}

	var root *xml.StartElement
	for root == nil {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil, &ParseError{Err: errors.New("no root element")}
		}
		if err != nil {
			return nil, fail(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			root = &t
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return nil, fail(errors.New("text before the root element"))
			}
		}
	}
	if root.Name.Space != nsTSL || root.Name.Local != "TrustServiceStatusList" {
		return nil, &ParseError{Err: fmt.Errorf("%w: root element is {%s}%s",
			ErrNotTrustedList, clip(root.Name.Space), clip(root.Name.Local))}
	}

	var raw rawList
	if err := dec.DecodeElement(&raw, root); err != nil {
		return nil, fail(err)
	}
	// A truncated or concatenated download can still hold one complete
	// root followed by junk; refuse anything but comments, processing
	// instructions and white space after it.
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return &raw, nil
		}
		if err != nil {
			return nil, fail(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			return nil, fail(errors.New("content after the root element"))
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return nil, fail(errors.New("text after the root element"))
			}
		}
	}
}

// clip shortens attacker-controlled text quoted in an error message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
