package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// The validator decodes few streams: cross-reference streams, object
// streams, the certificates, CRLs and OCSP responses of the DSS, and
// annotation appearances (to tell whether one draws anything). None of
// them is an image, so no image filter is needed, and pdfcpu's image
// filters trust their parameters: CCITTFaxDecode with /Columns 0 and a
// negative /Rows yields nothing, forever, and pdfcpu waits for it
// (issue 17). Only the general filters (ISO 32000-2, 7.4) are decoded;
// a stream with any other is refused before pdfcpu sees it.
var decodableFilters = map[string]bool{
	filter.Flate:     true,
	filter.LZW:       true,
	filter.ASCIIHex:  true,
	filter.ASCII85:   true,
	filter.RunLength: true,
}

// Bounds on what a stream's filters may make pdfcpu do.
const (
	// MaxFilters bounds a stream's pipeline: each filter may produce up
	// to the caller's limit, so the decoding costs up to that many times
	// the limit (writers use one or two: /ASCII85Decode /FlateDecode).
	MaxFilters = 4
	// MaxPredictorRow bounds a row of a predictor (ISO 32000-2, 7.4.4.4,
	// Table 8): pdfcpu allocates two rows up front, of any size the
	// parameters make up to the decode limit. A cross-reference stream's
	// rows are a few bytes.
	MaxPredictorRow = 1 << 20
	// maxColors bounds the predictor's /Colors; a DeviceN colour space
	// has at most 32 components (ISO 32000-2, Annex C).
	maxColors = 32
)

// ErrFilter is the error of a stream whose filters the reader refuses to
// apply: an image filter, too many filters, or predictor parameters out
// of bounds.
var ErrFilter = errors.New("pdf: a stream filter the validator does not decode")

// decodable checks a stream's filter pipeline before pdfcpu decodes it,
// into at most limit bytes per filter.
func decodable(filters []types.PDFFilter, limit int64) error {
	if len(filters) > MaxFilters {
		return fmt.Errorf("%w: %d filters, more than %d", ErrFilter, len(filters), MaxFilters)
	}
	for _, fl := range filters {
		if !decodableFilters[fl.Name] {
			return fmt.Errorf("%w: /%s", ErrFilter, fl.Name)
		}
		if err := predictor(fl, limit); err != nil {
			return fmt.Errorf("%w: /%s: %w", ErrFilter, fl.Name, err)
		}
	}
	return nil
}

// predictor checks the predictor parameters of a filter (ISO 32000-2,
// 7.4.4.4, Table 8), read as pdfcpu reads them (integers, and booleans
// as 0 and 1): a row of at most MaxPredictorRow bytes, and of the
// decode limit.
func predictor(fl types.PDFFilter, limit int64) error {
	parms := map[string]int64{}
	for k, v := range fl.DecodeParms {
		switch v := v.(type) {
		case types.Integer:
			parms[k] = int64(v)
		case types.Boolean:
			parms[k] = 0
			if v {
				parms[k] = 1
			}
		}
	}
	p, ok := parms["Predictor"]
	if !ok || p == 1 {
		return nil
	}
	if fl.Name != filter.Flate && fl.Name != filter.LZW {
		return nil // pdfcpu reads no predictor for the others
	}
	if p != 2 && (p < 10 || p > 15) {
		return fmt.Errorf("/Predictor %d", p)
	}
	get := func(key string, def int64) int64 {
		if v, ok := parms[key]; ok {
			return v
		}
		return def
	}
	colors, bpc, columns := get("Colors", 1), get("BitsPerComponent", 8), get("Columns", 1)
	switch {
	case colors < 1 || colors > maxColors:
		return fmt.Errorf("/Colors %d", colors)
	case bpc != 1 && bpc != 2 && bpc != 4 && bpc != 8 && bpc != 16:
		return fmt.Errorf("/BitsPerComponent %d", bpc)
	case columns < 1 || columns > MaxPredictorRow*8:
		return fmt.Errorf("/Columns %d", columns)
	}
	if row := (colors*bpc*columns + 7) / 8; row > min(MaxPredictorRow, limit) {
		return fmt.Errorf("rows of %d bytes, more than %d", row, min(MaxPredictorRow, limit))
	}
	return nil
}

// fullReadable checks an encrypted file before pdfcpu's full reader is
// given it. pdfcpu decodes the streams it takes for cross-reference and
// object streams (and some metadata) with whatever filters they name, and
// it takes them where the file's offsets say, whatever their dictionary
// says they are; it resolves indirect filters and parameters, even from
// an object stream, whose text is encrypted. So the whole file is looked
// at, and it is refused when:
//   - it names the CCITTFaxDecode filter anywhere (/CCF included, #
//     escapes decoded): pdfcpu decodes it for ever on /Columns 0 and a
//     negative /Rows. An encrypted file with fax images is refused with
//     it, as encrypted files larger than MaxFullReadBytes are;
//   - a stream's dictionary (after any "obj" keyword) does not parse, has
//     an indirect /Filter or /DecodeParms, or fails decodable's bounds on
//     the number of filters and the predictors (the image filters pdfcpu
//     never decodes while reading excepted).
//
// Linear in data: each object is parsed up to the next "obj".
func fullReadable(data []byte) error {
	if name, ok := namesCCITT(data); ok {
		return fmt.Errorf("%w: the file names /%s, which pdfcpu may decode without end", ErrFilter, name)
	}
	objs := newFinder(data, "obj", func(i int) bool {
		e := i + len("obj")
		return (i < 3 || string(data[i-3:i]) != "end") && (e >= len(data) || isDelimiter(data[e]))
	})
	for i := objs.next(0); i >= 0; {
		start := int64(i + len("obj"))
		next := objs.next(i + len("obj"))
		limit := int64(len(data))
		if next >= 0 {
			limit = int64(next)
		}
		i = next
		end, stream, _, ok := scanObject(data[:limit], start)
		if !ok {
			if k := bytes.Index(data[start:limit], []byte("stream")); k >= 0 && keywordAt(data, int(start)+k, "stream") {
				return fmt.Errorf("%w: a stream's dictionary at %d does not end", ErrFilter, start)
			}
			continue
		}
		if !stream {
			continue
		}
		text := string(data[start:end])
		o, err := model.ParseObjectContext(context.Background(), &text, 0, MaxDepth)
		d, isDict := o.(types.Dict)
		if err != nil || !isDict {
			return fmt.Errorf("%w: a stream's dictionary at %d does not parse", ErrFilter, start)
		}
		if err := fullReadableStream(d); err != nil {
			return fmt.Errorf("%w: the stream at %d: %w", ErrFilter, start, err)
		}
	}
	return nil
}

// fullReadableStream checks the filters of a stream's dictionary d for
// fullReadable.
func fullReadableStream(d types.Dict) error {
	var names, parms types.Array
	switch v := d["Filter"].(type) {
	case nil:
		return nil
	case types.Name:
		names = types.Array{v}
	case types.Array:
		names = v
	default:
		return fmt.Errorf("/Filter is a %T", v)
	}
	switch v := d["DecodeParms"].(type) {
	case nil:
	case types.Dict:
		parms = types.Array{v}
	case types.Array:
		parms = v
	default:
		return fmt.Errorf("/DecodeParms is a %T", v)
	}
	if len(names) > MaxFilters {
		return fmt.Errorf("%d filters, more than %d", len(names), MaxFilters)
	}
	for i, n := range names {
		name, ok := n.(types.Name)
		if !ok {
			return fmt.Errorf("/Filter holds a %T", n)
		}
		fl := types.PDFFilter{Name: string(name)}
		if long, ok := filterNames[fl.Name]; ok {
			fl.Name = long
		}
		if i < len(parms) {
			switch p := parms[i].(type) {
			case nil:
			case types.Dict:
				fl.DecodeParms = p
			default:
				return fmt.Errorf("/DecodeParms holds a %T", p)
			}
		}
		// pdfcpu decodes no image filter while it reads: a single DCT
		// stream is kept as it is, JPX and JBIG2 are not supported.
		if fl.Name == filter.DCT || fl.Name == filter.JPX || fl.Name == filter.JBIG2 {
			continue
		}
		if err := predictor(fl, filter.DefaultMaxDecodeBytes); err != nil {
			return fmt.Errorf("/%s: %w", fl.Name, err)
		}
	}
	return nil
}

// namesCCITT reports whether data holds a name token that stands for the
// CCITTFaxDecode filter, # escapes decoded (ISO 32000-2, 7.3.5).
func namesCCITT(data []byte) (string, bool) {
	for i := 0; i < len(data); i++ {
		if data[i] != '/' {
			continue
		}
		j := i + 1
		for j < len(data) && !isDelimiter(data[j]) {
			j++
		}
		name := data[i+1 : j]
		if bytes.IndexByte(name, '#') >= 0 {
			name = unescapeName(name)
		}
		if s := string(name); s == filter.CCITTFax || s == "CCF" {
			return s, true
		}
		i = j - 1
	}
	return "", false
}

// unescapeName decodes the #xx escapes of a name's bytes.
func unescapeName(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			if v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return out
}
