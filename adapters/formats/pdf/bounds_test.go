package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// hostileXRef are PDFs with sound cross-reference data, built to make
// reading their objects or their sections go back over what it read
// (issue 17): before, each object's parse could run to the end of the
// file, then fall back to pdfcpu's reader, which read it again.
func hostileXRef(tb testing.TB) map[string][]byte {
	const n = 8000
	catalog := []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}
	objects := func(format string) []byte {
		objs := append([]string(nil), catalog...)
		for i := range n {
			objs = append(objs, fmt.Sprintf(format, i))
		}
		return handmade(tb, objs, nil)
	}
	// A stream whose /Length runs to the end of the file: every stream's
	// data would be the rest of the file, copied by the hex filter.
	longStreams := objects("<< /Length 99999999 /Filter /AHx >>\nstream\n%d>\nendstream")
	for i := 0; ; {
		j := bytes.Index(longStreams[i:], []byte("99999999"))
		if j < 0 {
			break
		}
		i += j
		at := i + bytes.Index(longStreams[i:], []byte("stream\n")) + len("stream\n")
		copy(longStreams[i:], fmt.Sprintf("%8d", len(longStreams)-at))
	}
	return map[string][]byte{
		"unclosed strings":             unclosedStrings(tb, n),
		"dictionaries that never end":  noEndobj(objects("<< /T %d /A [1 2 << /B")),
		"streams running on":           longStreams,
		"hex strings that never close": noEndobj(objects("<< /T %d /H <0A0B")),
		"object stream out of order":   objectStreamOutOfOrder(tb, 250), // handmade's indexes are bytes
		"nested tables":                nestedSections(n/2, false),
		"nested xref streams":          nestedSections(n/2, true),
	}
}

// noEndobj takes the endobj keywords out of data, and its sound
// cross-reference table with them: the offsets are kept right.
func noEndobj(data []byte) []byte {
	return bytes.ReplaceAll(data, []byte("\nendobj\n"), []byte("\n%ndobj\n"))
}

// objectStreamOutOfOrder is a PDF of one object stream of n (< 256) objects
// whose header lists them from the last to the first: each object would
// be read to the end of the stream.
func objectStreamOutOfOrder(tb testing.TB, n int) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}
	compress := map[int]bool{}
	for i := range n {
		objs = append(objs, "(x)")
		compress[i+3] = true
	}
	data := handmade(tb, objs, compress)
	// The header lists "3 0 4 4 5 8 ...": give the first object the last
	// offset, and so on (the same numbers, so the same length); every
	// object is 4 bytes.
	var in, out strings.Builder
	for i := range n {
		fmt.Fprintf(&in, "%d %d ", i+3, 4*i)
		fmt.Fprintf(&out, "%d %d ", i+3, 4*(n-1-i))
	}
	if in.Len() != out.Len() || !bytes.Contains(data, []byte(in.String())) {
		tb.Fatal("no object stream header to reorder")
	}
	return bytes.Replace(data, []byte(in.String()), []byte(out.String()), 1)
}

// nestedSections is a PDF of depth cross-reference sections, each inside
// a string of the one before, which names it as /Prev: each section's
// text holds all the next ones. The innermost is a table that lists the
// catalog. The sections are tables, or cross-reference streams.
func nestedSections(depth int, streams bool) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	off1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	off2 := b.Len()
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	base := b.Len()
	prefix, suffix := "xref\n0 1\n0000000000 65535 f \ntrailer\n<< /Root 1 0 R /Size 3 /Prev %010d /X (", ") >>\n"
	if streams {
		prefix, suffix = "3 0 obj\n<< /Type /XRef /Size 3 /W [1 2 1] /Index [0 0] /Root 1 0 R /Length 0 /Prev %010d /X (", ") >>\nstream\n\nendstream\nendobj\n"
	}
	step := len(fmt.Sprintf(prefix, 0))
	for i := range depth {
		fmt.Fprintf(&b, prefix, base+(i+1)*step)
	}
	fmt.Fprintf(&b, "xref\n0 3\n0000000000 65535 f \n%010d 00000 n \n%010d 00000 n \ntrailer\n<< /Root 1 0 R /Size 3 >>\n", off1, off2)
	b.WriteString(strings.Repeat(suffix, depth))
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", base)
	return b.Bytes()
}

// On the xref path too, reading a file goes over it about once (issue
// 17), however it is built: each object's parse stops where the next
// object starts, a stream's data too, the objects of an object stream
// end where the next one starts in the stream, and reading the chain of
// cross-reference sections stops when it has gone over the file twice
// (they overlap). The work is counted, not timed.
func TestXRefLinearOnHostileInput(t *testing.T) {
	t.Parallel()
	for name, data := range hostileXRef(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			// The chain of sections, read as openXRef reads it.
			chain := &File{data: data, entries: map[int]entry{}, objects: map[int]types.Object{}, streams: map[int][]types.Object{},
				budget: sectionBudget(len(data))}
			start, err := startXRef(data)
			if err != nil {
				t.Fatal(err)
			}
			err = chain.readSections(start)
			if chain.parsedBytes > 3*int64(len(data))+4096 {
				t.Errorf("reading the sections went over %d bytes of a file of %d", chain.parsedBytes, len(data))
			}
			nested := strings.HasPrefix(name, "nested")
			if nested != errors.Is(err, errSectionBudget) {
				t.Fatalf("reading the sections: %v", err)
			}
			f, err := Open(data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Repaired() != nested {
				t.Fatalf("repaired %v", f.Repaired())
			}
			if f.Repaired() {
				return // the scan: TestScanLinearOnHostileInput
			}
			f.parsedBytes, f.streamBytes = 0, 0 // what Open read apart
			broken := 0
			for _, n := range f.Numbers() {
				o, err := f.Resolve(indirect(n))
				if _, ok := o.(types.StreamDict); ok && err == nil {
					_, err = f.Stream(indirect(n), 1<<20)
				}
				if err != nil {
					broken++
				}
			}
			if f.parsedBytes > int64(len(data)) {
				t.Errorf("resolving every object parsed %d bytes of a file of %d", f.parsedBytes, len(data))
			}
			// An object stream is decoded for its objects, and again when
			// it is asked for as a stream.
			if f.streamBytes > 2*int64(len(data)) {
				t.Errorf("decoding every stream took %d bytes of a file of %d", f.streamBytes, len(data))
			}
			if name != "object stream out of order" && broken < 8000 {
				t.Errorf("%d objects broken, want the 8,000", broken)
			}
		})
	}
}
