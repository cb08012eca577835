package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// longHex is the length from which a hex string is kept out of pdfcpu's
// parser, which reads hex strings at some 30 MB/s: a signature
// dictionary's /Contents holds tens of kilobytes of them, and every
// signature and document time-stamp has one.
const longHex = 256

// hexName is the name that stands in for the i-th long hex string while
// the rest of the object is parsed.
const hexName = "svc-dss-hex-"

// parse parses the object at offset, whose bytes end by limit at the
// latest (extent): the text up to its "endobj", or for a stream its
// dictionary up to "stream", with the long hex strings taken out and put
// back as they are. end is where that text ends. An object that does not
// end by limit is an error: its text would run on into the next objects,
// and reading every object would read the file once per object.
func (f *File) parse(offset, limit int64) (o types.Object, end int64, err error) {
	if _, _, ok := objectHeader(f.data, offset); !ok {
		return nil, 0, errors.New("no object header")
	}
	start := int64(bytes.Index(f.data[offset:min(int64(len(f.data)), offset+64)], []byte("obj"))) + offset + 3
	limit = min(max(limit, start), int64(len(f.data)))
	end, stream, hexes, ok := scanObject(f.data[:limit], start)
	if !ok {
		f.parsedBytes += limit - start
		return nil, 0, fmt.Errorf("it does not end before %d, where the next object starts or the file ends", limit)
	}
	f.parsedBytes += end - start
	var text []byte
	last := start
	for i, h := range hexes {
		text = append(text, f.data[last:h[0]]...)
		text = append(text, " /"+hexName+strconv.Itoa(i)+" "...)
		last = h[1]
	}
	text = append(text, f.data[last:end]...)
	s := string(bytes.TrimSpace(text))
	if s == "" {
		return nil, end, nil // the null object
	}
	if o, err = model.ParseObjectContext(context.Background(), &s, 0, MaxDepth); err != nil {
		return nil, 0, err
	}
	if len(hexes) > 0 {
		o = restoreHex(o, f.data, hexes, 0)
	}
	if !stream {
		return o, end, nil
	}
	d, ok := o.(types.Dict)
	if !ok {
		return nil, 0, errors.New("a stream without a dictionary")
	}
	// The data starts after the end of line that follows "stream"
	// (ISO 32000-2, 7.3.8.1); a lone CR is tolerated. It starts by limit.
	within := f.data[:limit]
	at := end + int64(len("stream"))
	if bytes.HasPrefix(within[at:], []byte("\r\n")) {
		at += 2
	} else if at < limit && (within[at] == '\n' || within[at] == '\r') {
		at++
	}
	filters, err := f.pipeline(d)
	if err != nil {
		return nil, 0, err
	}
	length, lengthRef := d.Length()
	return types.NewStreamDict(d, at, length, lengthRef, filters), end, nil
}

// filterNames are the abbreviations of filter names (ISO 32000-2, 8.9.7,
// Table 92), which some writers use outside inline images too.
var filterNames = map[string]string{
	"AHx": "ASCIIHexDecode", "A85": "ASCII85Decode", "LZW": "LZWDecode", "Fl": "FlateDecode",
	"RL": "RunLengthDecode", "CCF": "CCITTFaxDecode", "DCT": "DCTDecode",
}

// pipeline is a stream's /Filter and /DecodeParms, indirect ones resolved
// (ISO 32000-2, 7.3.8.2).
func (f *File) pipeline(d types.Dict) ([]types.PDFFilter, error) {
	fo, err := f.Resolve(d["Filter"])
	if err != nil {
		return nil, fmt.Errorf("/Filter: %w", err)
	}
	var names []types.Object
	switch v := fo.(type) {
	case nil:
		return nil, nil
	case types.Name:
		names = types.Array{v}
	case types.Array:
		names = v
	default:
		return nil, fmt.Errorf("/Filter is a %T", fo)
	}
	po, err := f.Resolve(d["DecodeParms"])
	if err != nil {
		return nil, fmt.Errorf("/DecodeParms: %w", err)
	}
	var parms types.Array
	switch v := po.(type) {
	case types.Dict:
		parms = types.Array{v}
	case types.Array:
		parms = v
	}
	out := make([]types.PDFFilter, 0, len(names))
	for i, n := range names {
		n, _ := f.Resolve(n)
		name, ok := n.(types.Name)
		if !ok {
			return nil, fmt.Errorf("/Filter holds a %T", n)
		}
		filter := types.PDFFilter{Name: string(name)}
		if long, ok := filterNames[filter.Name]; ok {
			filter.Name = long
		}
		if i < len(parms) {
			if p, _ := f.Dict(parms[i]); len(p) > 0 {
				filter.DecodeParms = p
			}
		}
		out = append(out, filter)
	}
	return out, nil
}

// scanObject finds where the body of an object that starts at start ends:
// the offset of its "endobj", or of its "stream" keyword (stream set),
// and its long hex strings, delimiters included. It reports false for a
// body that does not end.
func scanObject(data []byte, start int64) (end int64, stream bool, hexes [][2]int64, ok bool) {
	for i := start; i < int64(len(data)); {
		switch c := data[i]; c {
		case '%':
			for i < int64(len(data)) && data[i] != '\r' && data[i] != '\n' {
				i++
			}
		case '(':
			i = skipLiteral(data, i)
		case '<':
			if i+1 < int64(len(data)) && data[i+1] == '<' {
				i += 2
				continue
			}
			j := bytes.IndexByte(data[i:], '>')
			if j < 0 {
				return 0, false, nil, false
			}
			if j+1 >= longHex {
				hexes = append(hexes, [2]int64{i, i + int64(j) + 1})
			}
			i += int64(j) + 1
		case 'e', 's':
			if delimited(data, i) {
				if bytes.HasPrefix(data[i:], []byte("endobj")) {
					return i, false, hexes, true
				}
				if bytes.HasPrefix(data[i:], []byte("stream")) {
					return i, true, hexes, true
				}
			}
			i++
		default:
			i++
		}
	}
	return 0, false, nil, false
}

// delimited reports whether a keyword may start at i: after white space
// or a delimiter (ISO 32000-2, 7.2.3).
func delimited(data []byte, i int64) bool {
	if i == 0 {
		return true
	}
	switch data[i-1] {
	case ' ', '\t', '\r', '\n', '\f', 0, '>', ']', ')', '}':
		return true
	}
	return false
}

// skipLiteral moves past the literal string opening at i: balanced
// parentheses, backslash escapes (ISO 32000-2, 7.3.4.2).
func skipLiteral(data []byte, i int64) int64 {
	depth := 0
	for ; i < int64(len(data)); i++ {
		switch data[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

// restoreHex puts the long hex strings back where their names stand.
func restoreHex(o types.Object, data []byte, hexes [][2]int64, depth int) types.Object {
	if depth > MaxDepth {
		return o
	}
	switch v := o.(type) {
	case types.Name:
		s := string(v)
		if len(s) > len(hexName) && s[:len(hexName)] == hexName {
			if i, err := strconv.Atoi(s[len(hexName):]); err == nil && i >= 0 && i < len(hexes) {
				h := data[hexes[i][0]+1 : hexes[i][1]-1]
				if bytes.ContainsAny(h, " \t\r\n\f") {
					h = bytes.Join(bytes.Fields(h), nil)
				}
				hex := strings.ToUpper(string(h)) // as pdfcpu writes them
				if len(hex)%2 == 1 {
					hex += "0" // a missing last digit is 0 (ISO 32000-2, 7.3.4.3)
				}
				return types.HexLiteral(hex)
			}
		}
	case types.Dict:
		for k, e := range v {
			v[k] = restoreHex(e, data, hexes, depth+1)
		}
	case types.Array:
		for i, e := range v {
			v[i] = restoreHex(e, data, hexes, depth+1)
		}
	}
	return o
}
