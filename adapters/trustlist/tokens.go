package trustlist

import (
	"encoding/xml"
	"io"

	"github.com/beevik/etree"
)

// rawTokenReader is the part of *xml.Decoder the parser reads from: raw
// tokens, prefixes not yet resolved. A byte decoder or a tree walk.
type rawTokenReader interface {
	RawToken() (xml.Token, error)
}

// limitedTokens enforces the limits of limits.go while the document
// streams through encoding/xml, so that an oversized document is refused
// before it has been decoded into memory rather than after.
//
// It reads raw tokens from the byte-level decoder and is itself handed to
// xml.NewTokenDecoder, which then does the namespace translation and the
// start/end matching once, as it would for a byte stream. Counting by
// local name alone is deliberate: the limits bound work, and an element in
// a stray namespace costs as much as one in the right one.
type limitedTokens struct {
	in         rawTokenReader
	depth      int
	elements   int
	attributes int
	text       int
	pointers   int
	providers  int
	services   int
	history    int
	equivs     int
	eqTypes    int
}

func (l *limitedTokens) Token() (xml.Token, error) {
	tok, err := l.in.RawToken()
	if err != nil {
		return tok, err
	}
	switch t := tok.(type) {
	case xml.StartElement:
		l.depth++
		l.elements++
		if l.depth > MaxDepth {
			return nil, &LimitError{What: "depth", Max: MaxDepth}
		}
		if l.elements > MaxElements {
			return nil, &LimitError{What: "elements", Max: MaxElements}
		}
		if l.attributes += len(t.Attr); l.attributes > MaxAttributes {
			return nil, &LimitError{What: "attributes", Max: MaxAttributes}
		}
		for _, a := range t.Attr {
			l.text += len(a.Value)
		}
		switch t.Name.Local {
		case "OtherTSLPointer":
			if l.pointers++; l.pointers > MaxPointers {
				return nil, &LimitError{What: "OtherTSLPointer", Max: MaxPointers}
			}
		case "TrustServiceProvider":
			if l.providers++; l.providers > MaxProviders {
				return nil, &LimitError{What: "TrustServiceProvider", Max: MaxProviders}
			}
		case "TSPService":
			if l.services++; l.services > MaxServices {
				return nil, &LimitError{What: "TSPService", Max: MaxServices}
			}
		case "ServiceHistoryInstance":
			if l.history++; l.history > MaxHistoryEntries {
				return nil, &LimitError{What: "ServiceHistoryInstance", Max: MaxHistoryEntries}
			}
		case "TrustServiceEquivalenceInformation":
			if l.equivs++; l.equivs > MaxEquivalences {
				return nil, &LimitError{What: "TrustServiceEquivalenceInformation", Max: MaxEquivalences}
			}
		case "TrustServiceTSLType":
			if l.eqTypes++; l.eqTypes > MaxEquivalenceTypes {
				return nil, &LimitError{What: "TrustServiceTSLType", Max: MaxEquivalenceTypes}
			}
		}
	case xml.EndElement:
		l.depth--
	case xml.CharData:
		l.text += len(t)
	case xml.Comment:
		l.text += len(t)
	case xml.ProcInst:
		l.text += len(t.Inst)
	case xml.Directive:
		l.text += len(t)
	}
	if l.text > MaxTextBytes {
		return nil, &LimitError{What: "text bytes", Max: MaxTextBytes}
	}
	return tok, nil
}

// treeTokens walks an element tree as raw tokens, as *xml.Decoder would
// have produced them from its bytes: names keep their prefixes and
// namespace declarations stay attributes, so that the token decoder above
// it resolves namespaces the same way. Comments and processing
// instructions are left out; they carry nothing a list needs.
type treeTokens struct {
	stack []treeFrame
}

type treeFrame struct {
	el   *etree.Element
	next int // index of the next child to emit
}

func newTreeTokens(root *etree.Element) *treeTokens {
	return &treeTokens{stack: []treeFrame{{el: root, next: -1}}}
}

func (t *treeTokens) RawToken() (xml.Token, error) {
	for len(t.stack) > 0 {
		top := &t.stack[len(t.stack)-1]
		if top.next == -1 {
			top.next = 0
			return startOf(top.el), nil
		}
		if top.next == len(top.el.Child) {
			name := xml.Name{Space: top.el.Space, Local: top.el.Tag}
			t.stack = t.stack[:len(t.stack)-1]
			return xml.EndElement{Name: name}, nil
		}
		child := top.el.Child[top.next]
		top.next++
		switch c := child.(type) {
		case *etree.Element:
			t.stack = append(t.stack, treeFrame{el: c, next: -1})
		case *etree.CharData:
			return xml.CharData(c.Data), nil
		}
	}
	return nil, io.EOF
}

func startOf(el *etree.Element) xml.StartElement {
	attrs := make([]xml.Attr, len(el.Attr))
	for i, a := range el.Attr {
		attrs[i] = xml.Attr{Name: xml.Name{Space: a.Space, Local: a.Key}, Value: a.Value}
	}
	return xml.StartElement{Name: xml.Name{Space: el.Space, Local: el.Tag}, Attr: attrs}
}
