package pdf

import (
	"bytes"
	"fmt"
	"testing"
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
