package cms

import (
	"bytes"
	"encoding/asn1"
	"testing"
)

// The tests that sign with fixtures/cmswrite are in package cms_test:
// cmswrite imports this package, so they cannot be internal tests. These
// are the internals they need.

// ReencodeDER reads the first element of data as Parse does and returns
// its DER re-encoding; readErr is the error of reading the element, derErr
// that of re-encoding it.
func ReencodeDER(data []byte) (der []byte, readErr, derErr error) {
	e, _, err := readElement(data, 0)
	if err != nil {
		return nil, err, nil
	}
	der, err = e.der()
	return der, nil, err
}

// ToBER re-encodes DER input with indefinite lengths for every constructed
// element at a depth (0 for the ContentInfo) for which convert returns
// true, and splits OCTET STRINGs longer than segment bytes into
// constructed segments (segment 0: no splitting).
// It is how streaming CAdES signers write.
func ToBER(tb testing.TB, der []byte, segment int, convert func(depth int) bool) []byte {
	tb.Helper()
	e, rest, err := readElement(der, 0)
	if err != nil || len(rest) != 0 {
		tb.Fatalf("ToBER: %v", err)
	}
	var out bytes.Buffer
	var walk func(e element)
	walk = func(e element) {
		if !e.constructed {
			if segment > 0 && e.isUniversal(asn1.TagOctetString) && len(e.content) > segment && convert(e.depth) {
				out.Write([]byte{0x24, 0x80})
				for c := e.content; len(c) > 0; {
					n := min(segment, len(c))
					var seg bytes.Buffer
					writeTLV(&seg, 0x04, c[:n])
					out.Write(seg.Bytes())
					c = c[n:]
				}
				out.Write([]byte{0, 0})
				return
			}
			out.Write(e.raw)
			return
		}
		if !convert(e.depth) {
			out.Write(e.raw)
			return
		}
		out.WriteByte(e.raw[0]) // CMS tags are all in the low form
		out.WriteByte(0x80)
		kids, err := e.children(MaxElements)
		if err != nil {
			tb.Fatalf("ToBER: %v", err)
		}
		for _, k := range kids {
			walk(k)
		}
		out.Write([]byte{0, 0})
	}
	walk(e)
	return out.Bytes()
}

func writeTLV(w *bytes.Buffer, tag byte, content []byte) {
	w.WriteByte(tag)
	switch n := len(content); {
	case n < 0x80:
		w.WriteByte(byte(n))
	case n < 0x100:
		w.Write([]byte{0x81, byte(n)})
	case n < 0x10000:
		w.Write([]byte{0x82, byte(n >> 8), byte(n)})
	default:
		w.Write([]byte{0x83, byte(n >> 16), byte(n >> 8), byte(n)})
	}
	w.Write(content)
}
