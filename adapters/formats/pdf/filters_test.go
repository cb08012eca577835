package pdf

import (
	"bytes"
	"compress/zlib"
	"encoding/ascii85"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
)

// ccitt is the stream filter of the finding (issue 17): pdfcpu's
// CCITTFaxDecode yields nothing for ever on /Columns 0 and a negative
// /Rows, and pdfcpu waits for it.
const ccitt = "/Filter /CCITTFaxDecode /DecodeParms << /K -1 /Columns 0 /Rows -89 >>"

// streamObject is the body of a stream object of dictionary entries dict
// and data.
func streamObject(dict, data string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

func flated(tb testing.TB, data string) string {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	if _, err := io.WriteString(w, data); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return b.String()
}

// encoded is data encoded with one of pdfcpu's filters.
func encoded(tb testing.TB, name, data string) string {
	fl, err := filter.NewFilter(name, nil)
	if err != nil {
		tb.Fatal(err)
	}
	r, err := fl.Encode(strings.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// Streams are decoded with the general filters only (the validator
// decodes cross-reference and object streams, DSS entries and
// appearances, none an image), within bounds on the pipeline and on the
// predictors; any other filter is refused with ErrFilter before pdfcpu
// sees it. The CCITTFaxDecode stream of the finding, as an appearance and
// as a DSS certificate, fails at once (run under go test -timeout 30s).
func TestStreamFilters(t *testing.T) {
	t.Parallel()
	const content = "q 1 0 0 1 0 0 cm 0 0 10 10 re f Q"
	a85 := func(s string) string {
		b := make([]byte, ascii85.MaxEncodedLen(len(s)))
		return string(b[:ascii85.Encode(b, []byte(s))]) + "~>"
	}
	// A cross-reference stream's rows: the PNG Up predictor, 4 columns.
	rows := strings.Repeat("\x02\x01\x00\x10\x00", 3)
	form := "/Type /XObject /Subtype /Form /BBox [0 0 10 10] "
	for _, tt := range []struct {
		name, dict, data string
		want             string // the content; "" for ErrFilter
	}{
		{"no filter", "", content, content},
		{"FlateDecode", "/Filter /FlateDecode", flated(t, content), content},
		{"Fl", "/Filter /Fl", flated(t, content), content},
		{"LZWDecode", "/Filter /LZWDecode", encoded(t, filter.LZW, content), content},
		{"ASCIIHexDecode", "/Filter /ASCIIHexDecode", fmt.Sprintf("%x>", content), content},
		{"ASCII85Decode", "/Filter /ASCII85Decode", a85(content), content},
		{"RunLengthDecode", "/Filter /RunLengthDecode", encoded(t, filter.RunLength, content), content},
		{"ASCII85 then Flate", "/Filter [/A85 /Fl]", a85(flated(t, content)), content},
		{"a cross-reference stream's predictor", "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 4 >>", flated(t, rows), "\x01\x00\x10\x00\x02\x00\x20\x00\x03\x00\x30\x00"},

		{"CCITTFaxDecode as an appearance", form + ccitt, "\x00\x00\x00\x00", ""},
		{"CCF after FlateDecode as a DSS certificate", "/Filter [/FlateDecode /CCF] /DecodeParms [null << /K -1 /Columns 0 /Rows -89 >>]", flated(t, "\x00\x00\x00\x00"), ""},
		{"DCTDecode", form + "/Filter /DCTDecode", "\xff\xd8\xff\xd9", ""},
		{"JPXDecode", "/Filter /JPXDecode", "x", ""},
		{"JBIG2Decode", "/Filter /JBIG2Decode", "x", ""},
		{"Crypt", "/Filter /Crypt /DecodeParms << /Name /Identity >>", content, ""},
		{"an unknown filter", "/Filter /NoSuchDecode", content, ""},
		{"five filters", "/Filter [/AHx /AHx /AHx /AHx /AHx]", "x", ""},
		{"a row of 2^30 columns", "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 1073741824 >>", flated(t, rows), ""},
		{"a row of 1,000 colours", "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 1000 >>", flated(t, rows), ""},
		{"a row of 1.3 MB", "/Filter /FlateDecode /DecodeParms << /Predictor 12 /Colors 32 /BitsPerComponent 16 /Columns 20000 >>", flated(t, rows), ""},
		{"3 bits per component", "/Filter /FlateDecode /DecodeParms << /Predictor 12 /BitsPerComponent 3 >>", flated(t, rows), ""},
		{"predictor 7", "/Filter /FlateDecode /DecodeParms << /Predictor 7 >>", flated(t, rows), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := OpenExact(handmade(t, append(threePages[:5:5], streamObject(tt.dict, tt.data)), nil))
			if err != nil {
				t.Fatal(err)
			}
			got, err := f.Stream(indirect(6), 1<<20)
			switch {
			case tt.want == "" && !errors.Is(err, ErrFilter):
				t.Fatalf("%q, %v; want ErrFilter", got, err)
			case tt.want != "" && (err != nil || string(got) != tt.want):
				t.Fatalf("%q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// The structures the reader decodes itself fail at once on the filter
// too: a cross-reference stream (the file is then scanned), an object
// stream (its objects do not read).
func TestStructureFilters(t *testing.T) {
	t.Parallel()
	xref := handmade(t, threePages, map[int]bool{})
	xref = bytes.Replace(xref, []byte("/Type /XRef"), []byte("/Type /XRef "+ccitt), 1)
	f, err := Open(xref)
	if err != nil || !f.Repaired() {
		t.Fatalf("a cross-reference stream of CCITTFaxDecode: repaired %v, %v", err == nil && f.Repaired(), err)
	}
	if _, err := openXRef(xref); !errors.Is(err, ErrFilter) {
		t.Fatalf("the cross-reference stream: %v, want ErrFilter", err)
	}

	// An update rewrites the object stream (7) with the filter.
	objstm := handmade(t, threePages, map[int]bool{3: true})
	start, err := startXRef(objstm)
	if err != nil {
		t.Fatal(err)
	}
	at := len(objstm)
	objstm = fmt.Appendf(objstm, "7 0 obj\n%s\nendobj\n", streamObject("/Type /ObjStm /N 1 /First 4 "+ccitt, "3 0 \x00\x00\x00\x00"))
	objstm = fmt.Appendf(objstm, "xref\n7 1\n%010d 00000 n \ntrailer\n<< /Size 9 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", at, start, len(objstm))
	f, err = Open(objstm)
	if err != nil || f.Repaired() {
		t.Fatalf("repaired %v, %v", err == nil && f.Repaired(), err)
	}
	if _, err := f.Resolve(indirect(3)); !errors.Is(err, ErrFilter) {
		t.Fatalf("an object in an object stream of CCITTFaxDecode: %v, want ErrFilter", err)
	}
}

// An encrypted file goes to pdfcpu's full reader, which decodes its
// cross-reference and object streams itself, with whatever filter they
// name, wherever its offsets lead: one that names CCITTFaxDecode, or
// whose streams could make pdfcpu allocate beyond its limit, is refused
// before pdfcpu sees it.
func TestFullReadFilters(t *testing.T) {
	t.Parallel()
	encrypt := "<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>"
	// encrypted is a file read by its cross-reference stream, with an
	// /Encrypt dictionary; the trailer the scan finds names it too.
	encrypted := func(xrefEntries, extra string) []byte {
		objs := append(threePages[:6:6], encrypt)
		if extra != "" {
			objs = append(objs, extra)
		}
		data := handmade(t, objs, map[int]bool{})
		data = bytes.Replace(data, []byte("/Type /XRef"), []byte("/Type /XRef /Encrypt 7 0 R "+xrefEntries), 1)
		return append(data, "\ntrailer\n<< /Root 1 0 R /Encrypt 7 0 R >>\n"...)
	}
	for _, tt := range []struct {
		name    string
		data    []byte
		refused bool
	}{
		{"a cross-reference stream of CCITTFaxDecode", encrypted(ccitt, ""), true},
		{"an image of CCITTFaxDecode", encrypted("", streamObject("/Type /XObject /Subtype /Image /Width 8 /Height 1 /BitsPerComponent 1 /Filter /CCITTFaxDecode /DecodeParms << /Columns 8 /Rows 1 >>", "\x00")), true},
		{"the filter's name escaped", encrypted("", streamObject("/Filter /CCITTFax#44ecode", "\x00")), true},
		{"an indirect /DecodeParms", encrypted("", streamObject("/Filter /FlateDecode /DecodeParms 2 0 R", "x")), true},
		{"a predictor row of 2^30 bytes", encrypted("/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 1073741824 >>", ""), true},
		{"a stream whose dictionary does not end", encrypted("", "<< /Filter /FlateDecode /T (x >>\nstream\nx\nendstream"), true},
		{"an image of DCTDecode", encrypted("", streamObject("/Type /XObject /Subtype /Image /Filter /DCTDecode", "\xff\xd8\xff\xd9")), false},
		{"a content stream of FlateDecode", encrypted("", streamObject("/Filter /FlateDecode", flated(t, "q Q"))), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Open(tt.data)
			if refused := errors.Is(err, ErrFilter); refused != tt.refused || (err != nil && !errors.Is(err, ErrBroken)) {
				t.Fatalf("%v; want refused %v", err, tt.refused)
			}
			if err == nil && !f.full {
				t.Fatal("an encrypted file was read without pdfcpu, which decrypts")
			}
		})
	}
}
