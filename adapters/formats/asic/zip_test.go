package asic_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"hash/crc32"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/asic"
	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/xades"
	"github.com/svc-dss/dss/ports"
)

// entry is one file of a test zip.
type entry struct {
	name   string
	data   []byte
	method uint16
}

// build writes a zip of es, a stored ASiC-E mimetype first unless es
// starts with its own.
func build(tb testing.TB, es ...entry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	if len(es) == 0 || es[0].name != "mimetype" {
		es = append([]entry{{name: "mimetype", data: []byte(asic.MimeASiCE)}}, es...)
	}
	for _, e := range es {
		fw, err := w.CreateHeader(&zip.FileHeader{Name: e.name, Method: e.method})
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := fw.Write(e.data); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func read(data []byte) (*asic.Container, error) {
	return asic.NewReader(cades.NewReader(), xades.NewReader()).ReadContainer(context.Background(), ports.Document{Name: "test.asice", Data: data})
}

// refused asserts data is refused as unreadable with a message that
// contains want.
func refused(t *testing.T, data []byte, want string) {
	t.Helper()
	_, err := read(data)
	if !errors.Is(err, ports.ErrUnreadable) || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want ErrUnreadable with %q", err, want)
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

var (
	bombOnce sync.Once
	bomb     []byte
)

// zipBomb is an ASiC-E of one 300 MB file of zeros: about 300 KB.
func zipBomb(tb testing.TB) []byte {
	bombOnce.Do(func() {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		fw, _ := w.CreateHeader(&zip.FileHeader{Name: "mimetype"})
		fw.Write([]byte(asic.MimeASiCE))
		fw, _ = w.CreateHeader(&zip.FileHeader{Name: "zeros.bin", Method: zip.Deflate})
		io.CopyN(fw, zeros{}, 300<<20)
		w.Close()
		bomb = buf.Bytes()
	})
	return bomb
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

func TestZipBomb(t *testing.T) {
	data := zipBomb(t)
	if len(data) > 1<<20 {
		t.Fatalf("the bomb is %d bytes", len(data))
	}
	var err error
	n := allocated(func() { _, err = read(data) })
	if !errors.Is(err, ports.ErrUnreadable) {
		t.Fatalf("got %v", err)
	}
	if n > 4<<20 {
		t.Errorf("refusing a %d-byte bomb allocated %d bytes", len(data), n)
	}
}

// TestLyingBomb: sizes declared small (1 KB) in both headers, 300 MB
// inflated: reading stops past the declared size.
func TestLyingBomb(t *testing.T) {
	var comp bytes.Buffer
	zw := zip.NewWriter(&comp) // deflate 300 MB through a throwaway zip to get raw deflate
	fw, _ := zw.CreateHeader(&zip.FileHeader{Name: "x", Method: zip.Deflate})
	io.CopyN(fw, zeros{}, 300<<20)
	zw.Close()
	zr, _ := zip.NewReader(bytes.NewReader(comp.Bytes()), int64(comp.Len()))
	raw, _ := zr.File[0].OpenRaw()
	deflated, _ := io.ReadAll(raw)

	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	mw, _ := w.CreateHeader(&zip.FileHeader{Name: "mimetype"})
	mw.Write([]byte(asic.MimeASiCE))
	rw, err := w.CreateRaw(&zip.FileHeader{Name: "liar.bin", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(make([]byte, 1024)),
		CompressedSize64: uint64(len(deflated)), UncompressedSize64: 1024})
	if err != nil {
		t.Fatal(err)
	}
	rw.Write(deflated)
	w.Close()
	n := allocated(func() { refused(t, buf.Bytes(), `entry "liar.bin"`) })
	if n > 4<<20 {
		t.Errorf("allocated %d bytes", n)
	}
}

// TestNestedBomb: a 42.zip-style nest (16 zips of 16 zips of a
// high-ratio file) inside a container is a data file, never opened.
func TestNestedBomb(t *testing.T) {
	leaf := func() []byte {
		var b bytes.Buffer
		w := zip.NewWriter(&b)
		fw, _ := w.CreateHeader(&zip.FileHeader{Name: "0.dat", Method: zip.Deflate})
		io.CopyN(fw, zeros{}, 4<<20)
		w.Close()
		return b.Bytes()
	}()
	layer := func(inner []byte) []byte {
		var b bytes.Buffer
		w := zip.NewWriter(&b)
		for i := range 16 {
			fw, _ := w.CreateHeader(&zip.FileHeader{Name: "lib " + string(rune('a'+i)) + ".zip"})
			fw.Write(inner)
		}
		w.Close()
		return b.Bytes()
	}
	nest := layer(layer(leaf))
	data := build(t, entry{name: "42.zip", data: nest}, entry{name: "META-INF/ASiCManifest.xml", data: []byte("<x/>")})
	var c *asic.Container
	var err error
	n := allocated(func() { c, err = read(data) })
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Files) != 1 || c.Files[0] != "42.zip" {
		t.Errorf("files %v", c.Files)
	}
	if n > uint64(8*len(data))+4<<20 {
		t.Errorf("a %d-byte container allocated %d bytes", len(data), n)
	}
}

func TestManyEntries(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	mw, _ := w.CreateHeader(&zip.FileHeader{Name: "mimetype"})
	mw.Write([]byte(asic.MimeASiCE))
	for i := range 100_000 {
		w.CreateHeader(&zip.FileHeader{Name: "f" + itoa(i)})
	}
	w.Close()
	data := buf.Bytes()
	if !asic.Detect(data) {
		t.Fatal("not detected")
	}
	n := allocated(func() { refused(t, data, "more than 10000") })
	if n > 1<<20 {
		t.Errorf("refusing %d entries allocated %d bytes", 100_000, n)
	}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b []byte
	for ; i > 0; i /= 10 {
		b = append([]byte{byte('0' + i%10)}, b...)
	}
	return string(b)
}

// TestTooLargeInTotal: sizes declared within the ratio, over the total.
func TestTooLargeInTotal(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	mw, _ := w.CreateHeader(&zip.FileHeader{Name: "mimetype"})
	mw.Write([]byte(asic.MimeASiCE))
	junk := make([]byte, 600<<10)
	rand.Read(junk)
	for i := range 4 {
		rw, _ := w.CreateRaw(&zip.FileHeader{Name: "big" + itoa(i), Method: zip.Deflate, CompressedSize64: uint64(len(junk)), UncompressedSize64: 50 << 20})
		rw.Write(junk)
	}
	w.Close()
	refused(t, buf.Bytes(), "bytes uncompressed")
}

func TestRefusedNames(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"../evil.txt", `".." in the path`},
		{"a/../../evil.txt", `".." in the path`},
		{"/etc/passwd", "absolute path"},
		{"C:/x.txt", "absolute path"},
		{"a\\b.txt", "backslash"},
		{"a\x01b.txt", "control character"},
		{"a//b.txt", "empty"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			refused(t, build(t, entry{name: tc.name, data: []byte("x")}, entry{name: "META-INF/signature.p7s", data: []byte("x")}), tc.want)
		})
	}
}

func TestRefusedDuplicate(t *testing.T) {
	refused(t, build(t, entry{name: "a.txt", data: []byte("1")}, entry{name: "a.txt", data: []byte("2")}), "appears twice")
}

func TestRefusedEncrypted(t *testing.T) {
	data := build(t, entry{name: "a.txt", data: []byte("secret")})
	// Set the encryption flag in both headers of a.txt.
	patchFlags(data, "a.txt", 0x1)
	refused(t, data, "encrypted")
}

func TestRefusedHeaderDisagreement(t *testing.T) {
	data := build(t, entry{name: "a.txt", data: []byte("hello")})
	i := bytes.Index(data, []byte("PK\x03\x04\x14\x00\x08\x00\x00\x00"))
	j := bytes.LastIndex(data[:bytes.Index(data, []byte("PK\x01\x02"))], []byte("a.txt"))
	if i < 0 || j < 0 {
		t.Fatal("layout")
	}
	data[j] = 'b' // the local name of a.txt becomes b.txt
	refused(t, data, "local and central headers disagree")
}

// patchFlags ORs flag into the general-purpose flags of both headers of
// the entry name.
func patchFlags(data []byte, name string, flag byte) {
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(name))
		if i < 0 {
			return
		}
		at := off + i
		switch {
		case at >= 30 && bytes.Equal(data[at-30:at-26], []byte("PK\x03\x04")):
			data[at-30+6] |= flag
		case at >= 46 && bytes.Equal(data[at-46:at-42], []byte("PK\x01\x02")):
			data[at-46+8] |= flag
		}
		off = at + 1
	}
}

func TestMimetype(t *testing.T) {
	sig := entry{name: "META-INF/timestamp.tst", data: []byte("not a token")}
	// Compressed: detected and reported.
	c, err := read(build(t, entry{name: "mimetype", data: []byte(asic.MimeASiCS), method: zip.Deflate}, entry{name: "doc.txt", data: []byte("x")}, sig))
	if err != nil {
		t.Fatal(err)
	}
	if c.Type != asic.ASiCS || !hasProblem(c, asic.CodeMimetypeCompressed, false) {
		t.Errorf("compressed: %v %+v", c.Type, c.Problems)
	}
	// Not first: a warning, not a format failure (DSS reads such containers).
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for _, e := range []entry{{name: "doc.txt", data: []byte("x")}, {name: "mimetype", data: []byte(asic.MimeASiCE)}, sig} {
		fw, _ := w.CreateHeader(&zip.FileHeader{Name: e.name})
		fw.Write(e.data)
	}
	w.Close()
	if c, err = read(b.Bytes()); err != nil || !hasProblem(c, asic.CodeMimetypeNotFirst, false) {
		t.Errorf("not first: %v %+v", err, c)
	}
	// Missing: a format failure, as DSS's policy has it.
	b.Reset()
	w = zip.NewWriter(&b)
	for _, e := range []entry{{name: "doc.txt", data: []byte("x")}, sig} {
		fw, _ := w.CreateHeader(&zip.FileHeader{Name: e.name})
		fw.Write(e.data)
	}
	w.Close()
	if c, err = read(b.Bytes()); err != nil || !hasProblem(c, asic.CodeMimetypeMissing, true) {
		t.Errorf("missing: %v %+v", err, c)
	}
	// Wrong: a warning.
	if c, err = read(build(t, entry{name: "mimetype", data: []byte("text/plain")}, sig)); err != nil || !hasProblem(c, asic.CodeMimetypeUnknown, false) {
		t.Errorf("wrong: %v %+v", err, c)
	}
}

func hasProblem(c *asic.Container, code string, failure bool) bool {
	for _, p := range c.Problems {
		if p.Code == code && p.FormatFailure == failure {
			return true
		}
	}
	return false
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		want bool
	}{
		{"asic-e mimetype", build(t), true},
		{"asic-s mimetype", build(t, entry{name: "mimetype", data: []byte(asic.MimeASiCS)}), true},
		{"odf without signatures", build(t, entry{name: "mimetype", data: []byte("application/vnd.oasis.opendocument.text")}, entry{name: "content.xml", data: []byte("<x/>")}), false},
		{"odf signed", build(t, entry{name: "mimetype", data: []byte("application/vnd.oasis.opendocument.text")}, entry{name: "META-INF/documentsignatures.xml", data: []byte("<x/>")}), true},
		{"plain zip", build(t, entry{name: "mimetype", data: []byte("text/plain")}, entry{name: "a.txt", data: []byte("x")}), false},
		{"structure only", build(t, entry{name: "mimetype", data: []byte("text/plain")}, entry{name: "META-INF/signature.p7s", data: []byte("x")}), true},
		{"not a zip", []byte("%PDF-1.7"), false},
		{"empty", nil, false},
	} {
		if got := asic.Detect(tc.data); got != tc.want {
			t.Errorf("%s: Detect = %v", tc.name, got)
		}
	}
}

func BenchmarkRefuseZipBomb(b *testing.B) {
	data := zipBomb(b)
	b.ReportAllocs()
	for b.Loop() {
		read(data)
	}
}

func BenchmarkRefuseManyEntries(b *testing.B) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	mw, _ := w.CreateHeader(&zip.FileHeader{Name: "mimetype"})
	mw.Write([]byte(asic.MimeASiCE))
	for i := range 100_000 {
		w.CreateHeader(&zip.FileHeader{Name: "f" + itoa(i)})
	}
	w.Close()
	data := buf.Bytes()
	b.ReportAllocs()
	for b.Loop() {
		read(data)
	}
}
