package trustlist

import "encoding/xml"

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
	in        *xml.Decoder
	depth     int
	elements  int
	pointers  int
	providers int
	services  int
	history   int
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
		}
	case xml.EndElement:
		l.depth--
	}
	return tok, nil
}
