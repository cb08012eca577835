package pdf

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// manyFields is the shape of issue 17: a PDF of n tiny signature fields,
// each with a value, and no cross-reference table; the catalog lists the
// fields on one line. pdfcpu's repairing reader takes time quadratic in
// n on it (the number of lines times the longest).
func manyFields(n int, trailer bool) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [")
	for i := range n {
		fmt.Fprintf(&b, " %d 0 R", i+4)
	}
	b.WriteString("] >> >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n")
	b.WriteString("3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>\nendobj\n")
	for i := range n {
		fmt.Fprintf(&b, "%d 0 obj\n<< /FT /Sig /T (s%d) /V << /Type /Sig /ByteRange [0 1 2 3] /Contents <00> >> >>\nendobj\n", i+4, i)
	}
	if trailer {
		b.WriteString("trailer\n<< /Size 4 /Root 1 0 R >>\n")
	}
	b.WriteString("%%EOF\n")
	return b.Bytes()
}

// signatureFields opens data and resolves every field of its form, as
// the PAdES reader's walk does: it returns how many are signature fields.
func signatureFields(tb testing.TB, data []byte) int {
	tb.Helper()
	f, err := Open(data)
	if err != nil {
		tb.Fatal(err)
	}
	catalog, err := f.Catalog()
	if err != nil {
		tb.Fatal(err)
	}
	form, err := f.Dict(catalog["AcroForm"])
	if err != nil {
		tb.Fatal(err)
	}
	fields, err := f.Array(form["Fields"])
	if err != nil {
		tb.Fatal(err)
	}
	sigs := 0
	for _, o := range fields {
		d, err := f.Dict(o)
		if err != nil {
			tb.Fatal(err)
		}
		if ft := d.NameEntry("FT"); ft != nil && *ft == "Sig" {
			sigs++
		}
	}
	return sigs
}

// BenchmarkOpenWithoutXRef opens PDFs of 10,000 and 50,000 signature
// fields and no cross-reference table (issue 17), then also resolves
// every field: the time must grow with the file, not its square.
func BenchmarkOpenWithoutXRef(b *testing.B) {
	for _, n := range []int{10000, 50000} {
		data := manyFields(n, true)
		b.Run(fmt.Sprintf("%dfields/open", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Open(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("%dfields/resolve", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if got := signatureFields(b, data); got != n {
					b.Fatalf("%d signature fields, want %d", got, n)
				}
			}
		})
	}
}

// unclosedStrings is a PDF with a sound cross-reference table and n
// objects whose literal string never closes (the xref path's finding of
// issue 17): each object's text runs on into the next ones.
func unclosedStrings(tb testing.TB, n int) []byte {
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>"}
	for i := range n {
		objs = append(objs, fmt.Sprintf("<< /T (never closed %d", i))
	}
	return handmade(tb, objs, nil)
}

// BenchmarkReadHostileXRef opens each PDF of hostileXRef (8,000 objects
// that do not end, streams whose /Length runs to the end of the file,
// sections nested in one another...) and reads every object and stream,
// as TestXRefLinearOnHostileInput does: each object's parse stops where
// the next one starts, so the time grows with the file, not its square.
// Per file of 0.3 to 0.8 MB, on a shared machine of 2 cores (timings
// varied with its load), before and after issue 17 (time, allocated):
//
//	unclosed strings               3 to 10 s,   62 MB   9 to 12 ms, 4.5 MB
//	dictionaries that never end   12 to 20 s,   23 GB   9 to 12 ms, 4.5 MB
//	hex strings that never close   8 to 13 s,   23 GB  13 to 19 ms, 4.5 MB
//	streams running on           1.4 to 2.3 s, 3.8 GB  24 to 34 ms,  10 MB
//	nested tables                1.2 to 4.4 s, 747 MB       1.3 ms, 0.7 MB
//	nested xref streams          3.3 to 5.8 s, 2.1 GB         5 ms, 3.2 MB
func BenchmarkReadHostileXRef(b *testing.B) {
	shapes := hostileXRef(b)
	for _, name := range slices.Sorted(maps.Keys(shapes)) {
		data := shapes[name]
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				f, err := Open(data)
				if err != nil {
					b.Fatal(err)
				}
				for _, n := range f.Numbers() {
					if o, err := f.Resolve(indirect(n)); err == nil {
						if _, ok := o.(types.StreamDict); ok {
							_, _ = f.Stream(indirect(n), 1<<20)
						}
					}
				}
			}
		})
	}
}
