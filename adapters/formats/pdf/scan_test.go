package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A PDF without a usable cross-reference table is scanned for its
// objects, never given to pdfcpu's repairing reader, whose repair pass is
// quadratic in it (issue 17): 50,000 tiny signature fields took it 40 s.
// The work is counted, not timed: the scan's keyword searches go over the
// file at most once each, and resolving every object parses each once,
// within the bytes up to the next object.
func TestOpenScansWithoutXRef(t *testing.T) {
	t.Parallel()
	const n = 50000
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"trailer names the catalog", manyFields(n, true)},
		{"no trailer: the last catalog", manyFields(n, false)},
		{"CR line ends", bytes.ReplaceAll(manyFields(n, true), []byte("\n"), []byte("\r"))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Open(tt.data)
			if err != nil {
				t.Fatal(err)
			}
			if !f.Repaired() || f.full || f.heads == nil {
				t.Fatalf("repaired %v, by pdfcpu %v: want the scan", f.Repaired(), f.full)
			}
			if got := signatureFields(t, tt.data); got != n {
				t.Fatalf("%d signature fields, want %d", got, n)
			}
			if pages, err := f.Pages(10); err != nil || len(pages) != 1 {
				t.Fatalf("%d pages, %v", len(pages), err)
			}
			checkLinear(t, tt.data)
		})
	}
}

// checkLinear scans data, opens it and resolves every object, counting
// the bytes gone over: a few times the file, however it is built.
func checkLinear(t *testing.T, data []byte) {
	t.Helper()
	s := scanObjects(data)
	// Three keywords, each searched for over the file at most once.
	if s.searched > 3*int64(len(data)) {
		t.Errorf("the scan searched %d bytes of a file of %d", s.searched, len(data))
	}
	f, err := Open(data)
	if err != nil {
		return
	}
	for _, n := range f.Numbers() {
		if o, err := f.Resolve(indirect(n)); err == nil {
			if _, ok := o.(types.StreamDict); ok {
				_, _ = f.Stream(indirect(n), 1<<20)
			}
		}
	}
	if f.parsedBytes > int64(len(data)) {
		t.Errorf("resolving every object parsed %d bytes of a file of %d", f.parsedBytes, len(data))
	}
}

// Files built to make a scan go back over what it read: keywords that are
// not headers, objects that never end, streams without endstream, many
// trailers and candidate catalogs. Each is scanned and read in work
// linear in its length (or refused), never handed to pdfcpu.
func TestScanLinearOnHostileInput(t *testing.T) {
	t.Parallel()
	const n = 20000
	repeat := func(format string) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, format, i+2, i)
		}
		return b.String()
	}
	catalog := "1 0 obj\n<< /Type /Catalog /Pages 1 0 R >>\nendobj\n"
	for _, tt := range []struct {
		name string
		body string
	}{
		{"obj that is no header", strings.Repeat("x obj obj 1 obj\n", n) + catalog},
		{"objects that never end", catalog + repeat("%d 0 obj\n<< /T (never closed %d <\n")},
		{"streams without endstream", catalog + repeat("%d 0 obj\n<< /Length 99999 >> stream\n%d")},
		{"endstream without stream", catalog + repeat("%d 0 obj\n%d endstream\nendobj\n")},
		{"a string of headers", catalog + "2 0 obj\n(" + repeat("\n%d 0 obj %d")},
		{"catalogs in strings, no trailer", catalog + repeat("%d 0 obj\n<< /S (/Catalog) /T %d >>\nendobj\n")},
		{"trailers everywhere", catalog + repeat("trailer\n<< /Root %d 0 R /Size %d\n")},
		{"objects in stream data", catalog + "2 0 obj\n<< /Length 5 >>\nstream\n" + repeat("%d 0 obj\n<< /Type /Catalog /N %d >>\nendobj\n") + "\nendstream\nendobj\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := []byte("%PDF-1.7\n" + tt.body)
			f, err := Open(data)
			if err == nil && (f.full || !f.Repaired()) {
				t.Fatalf("read by pdfcpu %v, repaired %v", f.full, f.Repaired())
			}
			if err != nil && !errors.Is(err, ErrBroken) {
				t.Fatalf("error not ErrBroken: %v", err)
			}
			checkLinear(t, data)
		})
	}
}

// What the scan makes of a file: the last object of each number, the
// catalog the trailer names or else the last one, a stream's data by its
// /Length when endstream follows it and up to endstream otherwise.
func TestScan(t *testing.T) {
	t.Parallel()
	open := func(t *testing.T, body string) *File {
		t.Helper()
		f, err := Open([]byte("%PDF-1.7\n" + body))
		if err != nil {
			t.Fatal(err)
		}
		if f.heads == nil {
			t.Fatal("not scanned")
		}
		return f
	}
	t.Run("last object wins, trailer names the catalog", func(t *testing.T) {
		f := open(t, "1 0 obj\n<< /Type /Catalog /V 1 >>\nendobj\n2 0 obj\n<< /Type /Catalog /V 2 >>\nendobj\n"+
			"1 0 obj\n<< /Type /Catalog /V 3 >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n")
		c, err := f.Catalog()
		if err != nil || c.IntEntry("V") == nil || *c.IntEntry("V") != 3 {
			t.Fatalf("catalog %v, %v", c, err)
		}
	})
	t.Run("no trailer: the last catalog", func(t *testing.T) {
		f := open(t, "1 0 obj\n<< /Type /Catalog /V 1 >>\nendobj\n2 0 obj\n<< /Type /Catalog /V 2 >>\nendobj\n"+
			"3 0 obj\n(/Type /Catalog)\nendobj\n")
		if r := f.RootRef(); r == nil || r.ObjectNumber != 2 {
			t.Fatalf("root %v", r)
		}
	})
	t.Run("a trailer naming a missing catalog", func(t *testing.T) {
		f := open(t, "1 0 obj\n<< /Type /Page >>\nendobj\ntrailer\n<< /Root 5 0 R >>\n")
		if _, err := f.Catalog(); err == nil {
			t.Fatal("a missing catalog reads")
		}
	})
	t.Run("no catalog at all", func(t *testing.T) {
		if _, err := Open([]byte("%PDF-1.7\n1 0 obj\n<< /Type /Page >>\nendobj\n")); !errors.Is(err, ErrBroken) {
			t.Fatalf("%v, want ErrBroken", err)
		}
	})
	t.Run("streams", func(t *testing.T) {
		f := open(t, "1 0 obj\n<< /Type /Catalog >>\nendobj\n"+
			"2 0 obj\n<< /Length 4 >>\nstream\nab\n\nendstream\nendobj\n"+ // /Length holds
			"3 0 obj\n<< /Length 40 >>\nstream\nabc\r\nendstream\nendobj\n"+ // it does not
			"4 0 obj\n<< /Length 5 >>\nstream\nendstream\nendobj\n"+ // empty
			"5 0 obj\n<< /Length 5 >>\nstream\n5 0 obj\nendstream\nendobj\n") // a header in the data
		for n, want := range map[int]string{2: "ab\n\n", 3: "abc", 4: "", 5: "5 0 obj"} {
			got, err := f.Stream(indirect(n), 1<<10)
			if err != nil || string(got) != want {
				t.Errorf("stream %d: %q, %v; want %q", n, got, err, want)
			}
		}
		if w := f.Where(5); w.Offset != int64(bytes.Index(f.data, []byte("5 0 obj"))) {
			t.Errorf("object 5 at %v: a header in stream data was taken", w)
		}
	})
}

// pdfcpu's full reader reads only encrypted files (it alone decrypts),
// and none longer than MaxFullReadBytes: those are refused before it
// sees them, with a sound cross-reference table or without.
func TestOpenEncryptedWithinBound(t *testing.T) {
	t.Parallel()
	objs := append([]string(nil), threePages...)
	objs = append(objs, "<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>")
	encrypted := func(size int) []byte {
		o := append([]string(nil), objs...)
		o = append(o, "("+strings.Repeat("x", size)+")")
		data := handmade(t, o, nil)
		return bytes.Replace(data, []byte("/Root 1 0 R"), []byte("/Root 1 0 R /Encrypt 7 0 R"), 1)
	}
	shift := func(data []byte) []byte {
		return bytes.Replace(data, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\n\n\n"), 1)
	}
	for _, tt := range []struct {
		name    string
		data    []byte
		refused bool
	}{
		{"large", encrypted(MaxFullReadBytes), true},
		{"large, offsets off", shift(encrypted(MaxFullReadBytes)), true},
		{"small", encrypted(100), false},
		{"small, offsets off", shift(encrypted(100)), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, err := Open(tt.data)
			if refused := errors.Is(err, ErrLimit); refused != tt.refused || (err != nil && !errors.Is(err, ErrBroken)) {
				t.Fatalf("%d bytes: %v; want refused %v", len(tt.data), err, tt.refused)
			}
			if err == nil && !f.full {
				t.Fatal("an encrypted file was read without pdfcpu, which decrypts")
			}
		})
	}
}
