package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"

	"github.com/svc-dss/dss/fixtures/realworld"
)

// handmade writes a PDF of objs (object n is objs[n-1]) with a
// cross-reference table, or, when stream is set, a cross-reference
// stream that keeps the objects listed in compress in one object stream.
func handmade(t testing.TB, objs []string, compress map[int]bool) []byte {
	t.Helper()
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs)+3)
	var packed []int
	for i, body := range objs {
		n := i + 1
		if compress[n] {
			packed = append(packed, n)
			continue
		}
		offsets[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	if compress == nil {
		xref := b.Len()
		fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
		for n := 1; n <= len(objs); n++ {
			fmt.Fprintf(&b, "%010d 00000 n \n", offsets[n])
		}
		fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
		return b.Bytes()
	}
	// The object stream, then the cross-reference stream.
	osNr, xrefNr := len(objs)+1, len(objs)+2
	var head, body strings.Builder
	for _, n := range packed {
		fmt.Fprintf(&head, "%d %d ", n, body.Len())
		body.WriteString(objs[n-1] + "\n")
	}
	content := head.String() + body.String()
	offsets[osNr] = b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Length %d >>\nstream\n%s\nendstream\nendobj\n",
		osNr, len(packed), head.Len(), len(content), content)
	offsets[xrefNr] = b.Len()
	var rows []byte
	rows = append(rows, 0, 0, 0, 0xff)
	index := map[int]int{}
	for i, n := range packed {
		index[n] = i
	}
	for n := 1; n <= xrefNr; n++ {
		if compress[n] {
			rows = append(rows, 2, byte(osNr>>8), byte(osNr), byte(index[n]))
		} else {
			rows = append(rows, 1, byte(offsets[n]>>8), byte(offsets[n]), 0)
		}
	}
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 2 1] /Root 1 0 R /Length %d >>\nstream\n", xrefNr, xrefNr+1, len(rows))
	b.Write(rows)
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", offsets[xrefNr])
	return b.Bytes()
}

var threePages = []string{
	"<< /Type /Catalog /Pages 2 0 R >>",
	"<< /Type /Pages /Kids [3 0 R 4 0 R 5 0 R] /Count 3 >>",
	"<< /Type /Page /Parent 2 0 R /Contents 6 0 R >>",
	"<< /Type /Page /Parent 2 0 R /Contents [6 0 R] >>",
	"<< /Type /Page /Parent 2 0 R >>",
	"<< /Length 3 >>\nstream\nq Q\nendstream",
}

// Both kinds of cross-reference data are read without repair, and
// objects in an object stream are placed by their stream and index.
func TestOpenReadsTablesAndStreams(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		compress map[int]bool
	}{
		{"table", nil},
		{"xref stream", map[int]bool{}},
		{"object stream", map[int]bool{1: true, 2: true, 4: true}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			data := handmade(t, threePages, tt.compress)
			f, err := Open(data)
			if err != nil {
				t.Fatal(err)
			}
			if f.Repaired() {
				t.Fatal("repaired a sound file")
			}
			pages, err := f.Pages(10)
			if err != nil || len(pages) != 3 {
				t.Fatalf("%d pages, %v", len(pages), err)
			}
			content, err := f.Stream(pages[0].Dict["Contents"], 1<<10)
			if err != nil || string(content) != "q Q" {
				t.Fatalf("content %q, %v", content, err)
			}
			loc := f.Where(4)
			if tt.compress[4] != (loc.Index >= 0) || loc.Offset <= 0 {
				t.Fatalf("object 4 at %+v", loc)
			}
			if got := f.Where(99); got.Offset != -1 {
				t.Fatalf("a missing object at %+v", got)
			}
		})
	}
}

// A file whose offsets are off is read by the repairing reader; a file
// that is not a PDF at all is ErrBroken.
func TestOpenRepairsOrRefuses(t *testing.T) {
	t.Parallel()
	data := handmade(t, threePages, nil)
	shifted := bytes.Replace(data, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\n\n\n\n"), 1)
	f, err := Open(shifted)
	if err != nil {
		t.Fatal(err)
	}
	if !f.Repaired() {
		t.Fatal("shifted offsets were trusted")
	}
	if pages, err := f.Pages(10); err != nil || len(pages) != 3 {
		t.Fatalf("%d pages, %v", len(pages), err)
	}
	for _, bad := range [][]byte{nil, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\nstartxref\n5\n%%EOF")} {
		if _, err := Open(bad); !errors.Is(err, ErrBroken) {
			t.Errorf("%q: %v, want ErrBroken", bad, err)
		}
	}
}

// A page tree that reaches a node twice, or holds more pages than asked,
// is an error.
func TestPagesLimits(t *testing.T) {
	t.Parallel()
	cyclic := append([]string(nil), threePages...)
	cyclic[1] = "<< /Type /Pages /Kids [3 0 R 2 0 R] /Count 2 >>"
	f, err := Open(handmade(t, cyclic, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Pages(10); err == nil || !strings.Contains(err.Error(), "reached twice") {
		t.Fatalf("cycle: %v", err)
	}
	f, _ = Open(handmade(t, threePages, nil))
	if _, err := f.Pages(2); err == nil || !strings.Contains(err.Error(), "more than 2 pages") {
		t.Fatalf("limit: %v", err)
	}
}

// On every real PDF of the corpus, and on every revision of each, the
// lazy reading shows what pdfcpu's full reader shows: the same pages,
// the same content objects at the same places. A revision the lazy
// reading refuses is scanned for its objects (openScan), which must show
// what pdfcpu's repairing reader shows of it.
func TestOpenAgreesWithFullReaderOnCorpus(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(realworld.Dir(), "files", "*.pdf"))
	if len(files) == 0 {
		t.Skipf("shared corpus not found at %s: skipping the real-world checks", realworld.Dir())
	}
	revisions, repaired, streams := 0, 0, 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, end := range revisionEnds(data) {
			rev := data[:end]
			at := fmt.Sprintf("%s (%d bytes)", filepath.Base(name), end)
			lazy, err := openXRef(rev)
			if err != nil {
				t.Logf("%s: scanned: %v", at, err)
				lazy, err = openScan(rev)
				if _, errFull := readFull(rev); (err == nil) != (errFull == nil) {
					t.Errorf("%s: the scan: %v; the full reader: %v", at, err, errFull)
				}
				if err != nil {
					continue
				}
				repaired++
			} else {
				revisions++
			}
			full, err := readFull(rev)
			if err != nil {
				if lazy.heads == nil {
					t.Errorf("%s: the full reader fails where the lazy one reads: %v", at, err)
				}
				continue
			}
			streams += agree(t, at, lazy, full)
		}
	}
	t.Logf("%d revisions of %d files read alike (every object, %d streams decoded); %d more scanned alike", revisions, len(files), streams, repaired)
	// A revision the lazy reader refuses is read another way, or counted,
	// not failed: the floors catch a lazy reader that starts refusing.
	if revisions < corpusRevisionsFloor || streams < corpusStreamsFloor {
		t.Errorf("only %d revisions compared and %d streams decoded, below the floors %d and %d: the lazy reader refuses revisions it read before",
			revisions, streams, corpusRevisionsFloor, corpusStreamsFloor)
	}
}

// Floors of the corpus tests: what they compared when they were set
// (the 32 PDFs of the corpus, 2026-11). The tests skip a file or a
// revision a reader refuses, so that a refusal is not a failure; the
// floors make a reader that starts refusing what it read fail them. A
// corpus that grows leaves them true; lower one only for a file taken
// out of the corpus.
const (
	// TestOpenAgreesWithFullReaderOnCorpus: revisions the lazy reader
	// opens and compares with the full one, and their streams.
	corpusRevisionsFloor = 107
	corpusStreamsFloor   = 1527
	// TestRevisionReadsAsOpenExact: objects of corpus revisions compared.
	corpusSharedObjectsFloor = 4739
	// TestChangedSince: pairs of corpus revisions checked.
	corpusRevisionPairsFloor = 106
)

// agree compares what f shows with what pdfcpu's full reader shows of the
// same bytes: the pages, every object and every stream; it returns the
// number of streams compared.
func agree(t *testing.T, at string, f, full *File) (streams int) {
	t.Helper()
	if a, b := view(t, f), view(t, full); a != b && !(f.heads != nil && strings.HasPrefix(a, "error:") && strings.HasPrefix(b, "error:")) {
		t.Errorf("%s:\nlazy %s\nfull %s", at, a, b)
	}
	if f.RootRef() == nil || full.RootRef() == nil || *f.RootRef() != *full.RootRef() {
		t.Errorf("%s: catalog %v, the full reader %v", at, f.RootRef(), full.RootRef())
	}
	for _, n := range f.Numbers() {
		a, errA := f.Resolve(indirect(n))
		b, errB := full.Resolve(indirect(n))
		if f.heads != nil {
			a, b = withoutLength(a), withoutLength(b)
		}
		if printed(a) != printed(b) && errB == nil {
			t.Errorf("%s: object %d:\nlazy %.300s (%v)\nfull %.300s", at, n, printed(a), errA, printed(b))
		}
		if sd, ok := b.(types.StreamDict); ok {
			x, errX := f.Stream(indirect(n), 64<<20)
			y, errY := full.Stream(indirect(n), 64<<20)
			if errY == nil && (errX != nil || !bytes.Equal(x, y)) && !(f.heads != nil && repairCut(f.data, sd, x, y)) {
				t.Errorf("%s: stream %d: %d bytes (%v), the full reader %d", at, n, len(x), errX, len(y))
			}
			streams++
		}
	}
	return streams
}

// withoutLength is o without the /Length of a stream, which pdfcpu's
// repairing reader rewrites to the length of the data it takes.
func withoutLength(o types.Object) types.Object {
	if sd, ok := o.(types.StreamDict); ok {
		d := sd.Dict.Clone().(types.Dict)
		delete(d, "Length")
		return d
	}
	return o
}

// repairCut reports whether y, pdfcpu's repairing reader's data of the
// unfiltered stream sd, is the scan's data x cut as that reader cuts it:
// at the first "endstream" after the data starts (one inside the data
// included), the end of line before it dropped (the data's own last
// newline included). The scan keeps /Length bytes when "endstream"
// follows them.
func repairCut(data []byte, sd types.StreamDict, x, y []byte) bool {
	if sd.Dict["Filter"] != nil || !bytes.HasPrefix(x, y) {
		return false
	}
	i := bytes.Index(data[sd.StreamOffset:], []byte("endstream"))
	return i >= 0 && string(bytes.TrimRight(data[sd.StreamOffset:sd.StreamOffset+int64(i)], "\r\n")) == string(y)
}

// revisionEnds is where each %%EOF marker of data ends, end of line
// included.
func revisionEnds(data []byte) []int {
	var ends []int
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte("%%EOF"))
		if j < 0 {
			return ends
		}
		i += j + len("%%EOF")
		for i < len(data) && (data[i] == '\r' || data[i] == '\n') {
			i++
		}
		ends = append(ends, i)
	}
}

// view prints what a revision shows of its pages.
func view(t *testing.T, f *File) string {
	t.Helper()
	pages, err := f.Pages(10000)
	if err != nil {
		return "error: " + err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d pages:", len(pages))
	for _, p := range pages {
		c := p.Dict["Contents"]
		if a, err := f.Array(c); err == nil && a != nil {
			for _, e := range a {
				if r, ok := e.(types.IndirectRef); ok {
					fmt.Fprintf(&b, " %d@%v", r.ObjectNumber, f.Where(r.ObjectNumber.Value()))
				}
			}
		}
		if r, ok := c.(types.IndirectRef); ok {
			fmt.Fprintf(&b, " %d@%v", r.ObjectNumber, f.Where(r.ObjectNumber.Value()))
		}
		annots, _ := f.Array(p.Dict["Annots"])
		fmt.Fprintf(&b, " a%d;", len(annots))
	}
	return b.String()
}

// Revisions are the ends of the revisions the cross-reference chain
// passes through; OpenExact reads none that needs repair.
func TestRevisionsAndOpenExact(t *testing.T) {
	t.Parallel()
	first, data, at := rotatedLater(t)
	f, err := OpenExact(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Revisions(); !slices.Equal(got, []int{len(first), len(data)}) {
		t.Fatalf("revisions %v, want [%d %d]", got, len(first), len(data))
	}
	if a, b := f.Where(5), f.Where(4); a.Offset != int64(at) || b.Offset >= int64(len(first)) {
		t.Fatalf("object 5 at %+v, object 4 at %+v", a, b)
	}
	if _, err := OpenExact(bytes.Replace(data, []byte("%PDF-1.7\n"), []byte("%PDF-1.7\nAB"), 1)); !errors.Is(err, ErrBroken) {
		t.Fatalf("shifted offsets: %v", err)
	}
	if f, err := Open(data[:10]); err == nil && f.Revisions() != nil {
		t.Fatal("a repaired file claims revisions")
	}
}

// revisionSamples are documents of several revisions to read them
// through: a handmade update, and the corpus PDFs when the corpus is
// there. corpus tells which samples come from the corpus.
func revisionSamples(t *testing.T) (samples map[string][]byte, corpus map[string]bool) {
	t.Helper()
	_, rotated, _ := rotatedLater(t)
	samples = map[string][]byte{"handmade": rotated, "listed ahead": listedAhead(t)}
	corpus = map[string]bool{}
	files, _ := filepath.Glob(filepath.Join(realworld.Dir(), "files", "*.pdf"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		samples[filepath.Base(name)] = data
		corpus[filepath.Base(name)] = true
	}
	return samples, corpus
}

// rotatedLater is a three-page document, first, and the same with an
// update that rewrites page 5 at offset at.
func rotatedLater(t *testing.T) (first, data []byte, at int) {
	t.Helper()
	first = handmade(t, threePages, nil)
	start, err := startXRef(first)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(first)
	at = b.Len()
	b.WriteString("5 0 obj\n<< /Type /Page /Parent 2 0 R /Rotate 90 >>\nendobj\n")
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n5 1\n%010d 00000 n \ntrailer\n<< /Size 7 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", at, start, xref)
	return first, b.Bytes(), at
}

// sameEntries reports whether two dictionaries hold the same keys with
// values printed alike (their own printing follows map order).
func sameEntries(a, b types.Dict) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || printed(v) != printed(w) {
			return false
		}
	}
	return true
}

// listedAhead is a document whose first cross-reference table lists an
// object at an offset only the second revision writes: the document as a
// whole reads, its first revision alone does not.
func listedAhead(t *testing.T) []byte {
	t.Helper()
	objs := append(slices.Clone(threePages), "")
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	offsets := make([]int, len(objs)+1)
	for i, body := range objs[:len(objs)-1] {
		offsets[i+1] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, body)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for n := 1; n < len(objs); n++ {
		fmt.Fprintf(&b, "%010d 00000 n \n", offsets[n])
	}
	ahead := b.Len()
	fmt.Fprintf(&b, "%010d 00000 n \n", 0) // object 7, patched below
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	at := b.Len()
	b.WriteString("7 0 obj\n(ahead)\nendobj\n5 0 obj\n<< /Type /Page /Parent 2 0 R /Rotate 90 >>\nendobj\n")
	second := b.Len()
	fmt.Fprintf(&b, "xref\n5 1\n%010d 00000 n \ntrailer\n<< /Size 8 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n", at+len("7 0 obj\n(ahead)\nendobj\n"), xref, second)
	data := b.Bytes()
	copy(data[ahead:], fmt.Sprintf("%010d", at))
	return data
}

func indirect(n int) types.IndirectRef { return *types.NewIndirectRef(n, 0) }

// printed is o in PDF syntax; a stream is its dictionary.
func printed(o types.Object) string {
	switch v := o.(type) {
	case nil:
		return "null"
	case types.StreamDict:
		return v.Dict.PDFString()
	}
	return o.PDFString()
}

// Objects the fast parser must read as pdfcpu would: a long hex string
// with white space and an odd digit count, keywords inside literal
// strings and comments, a stream whose filter is abbreviated and whose
// decode parameters and length are indirect.
func TestParseTricky(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("AB CD\n", 60) + "E"
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [] /Count 0 >>",
		"<< /Contents <" + long + "> /S (endobj stream \\) (nested) x) /T 5 % endobj in a comment\n>>",
		"<< /Length 6 0 R /Filter [/AHx] /DecodeParms [5 0 R] >>\nstream\n414243>\nendstream",
		"<< >>",
		"7",
	}
	f, err := OpenExact(handmade(t, objs, nil))
	if err != nil {
		t.Fatal(err)
	}
	d, err := f.Dict(indirect(3))
	if err != nil {
		t.Fatal(err)
	}
	contents, err := d.StringEntryBytes("Contents")
	want := bytes.Repeat([]byte{0xab, 0xcd}, 60)
	if err != nil || !bytes.Equal(contents, append(want, 0xe0)) {
		t.Fatalf("/Contents % x, %v", contents, err)
	}
	if s, _ := d.StringEntryBytes("S"); string(s) != "endobj stream ) (nested) x" {
		t.Fatalf("/S %q", s)
	}
	if n := d.IntEntry("T"); n == nil || *n != 5 {
		t.Fatalf("/T %v", n)
	}
	content, err := f.Stream(indirect(4), 1<<10)
	if err != nil || string(content) != "ABC" {
		t.Fatalf("stream %q, %v", content, err)
	}
}

// A revision opened through the final file (Revision) shares parsed
// objects with it and reads exactly what OpenExact reads of the same
// bytes: every object of every revision of the corpus, and a revision
// whose object was rewritten later.
func TestRevisionReadsAsOpenExact(t *testing.T) {
	t.Parallel()
	samples, corpus := revisionSamples(t)
	compared, fromCorpus := 0, 0
	for name, data := range samples {
		final, err := OpenExact(data)
		if err != nil {
			continue // repaired files have no revisions to share
		}
		// Parse everything in the final file first, so that the revisions
		// find it shared.
		for _, n := range final.Numbers() {
			final.Resolve(indirect(n))
		}
		for _, end := range final.Revisions() {
			r, err := final.Revision(end)
			exact, errExact := OpenExact(data[:end])
			if (err == nil) != (errExact == nil) {
				t.Fatalf("%s (%d bytes): Revision %v, OpenExact %v", name, end, err, errExact)
			}
			if err != nil {
				continue
			}
			// The same table: the same objects at the same places, the
			// same trailer and chain of sections.
			if !slices.Equal(slices.Sorted(slices.Values(r.Numbers())), slices.Sorted(slices.Values(exact.Numbers()))) || !slices.Equal(r.sections, exact.sections) || !sameEntries(r.trailer, exact.trailer) {
				t.Fatalf("%s (%d bytes): Revision lists %d objects, sections %v, trailer %s; OpenExact %d, %v, %s",
					name, end, len(r.Numbers()), r.sections, r.trailer, len(exact.Numbers()), exact.sections, exact.trailer)
			}
			for _, n := range exact.Numbers() {
				if r.Where(n) != exact.Where(n) {
					t.Errorf("%s (%d bytes): object %d at %v, OpenExact %v", name, end, n, r.Where(n), exact.Where(n))
				}
			}
			for _, n := range exact.Numbers() {
				a, errA := r.Resolve(indirect(n))
				e, errE := exact.Resolve(indirect(n))
				if printed(a) != printed(e) || (errA == nil) != (errE == nil) {
					t.Errorf("%s (%d bytes): object %d: shared %.200s (%v), exact %.200s (%v)", name, end, n, printed(a), errA, printed(e), errE)
				}
				compared++
				if corpus[name] {
					fromCorpus++
				}
			}
		}
	}
	if r, err := (&File{repaired: true}).Revision(10); err == nil || r != nil {
		t.Error("a repaired file has no revisions to open")
	}
	t.Logf("%d objects of %d files compared (%d of the corpus)", compared, len(samples), fromCorpus)
	if len(corpus) > 0 && fromCorpus < corpusSharedObjectsFloor {
		t.Errorf("only %d objects of corpus revisions compared, below the floor %d: OpenExact refuses files or revisions it read before", fromCorpus, corpusSharedObjectsFloor)
	}
}

// ChangedSince lists every object a later revision has elsewhere than an
// earlier one, on every pair of revisions of the corpus and of a
// handmade update; a revision whose chain is not the tail of the later
// one's gets no list.
func TestChangedSince(t *testing.T) {
	t.Parallel()
	samples, corpus := revisionSamples(t)
	pairs, fromCorpus := 0, 0
	for name, data := range samples {
		final, err := OpenExact(data)
		if err != nil {
			continue
		}
		for _, end := range final.Revisions() {
			r, err := OpenExact(data[:end])
			if err != nil {
				continue
			}
			listed, ok := final.ChangedSince(r)
			if !ok {
				continue
			}
			pairs++
			if corpus[name] {
				fromCorpus++
			}
			in := map[int]bool{}
			for _, n := range listed {
				in[n] = true
			}
			for _, n := range slices.Concat(r.Numbers(), final.Numbers()) {
				if r.Where(n) != final.Where(n) && !in[n] {
					t.Errorf("%s (%d bytes): object %d moved but is not listed", name, end, n)
				}
			}
		}
	}
	if _, ok := (&File{repaired: true}).ChangedSince(&File{}); ok {
		t.Error("a repaired file lists changes")
	}
	t.Logf("%d pairs of revisions checked (%d of the corpus)", pairs, fromCorpus)
	if len(corpus) > 0 && fromCorpus < corpusRevisionPairsFloor {
		t.Errorf("only %d pairs of corpus revisions checked, below the floor %d: OpenExact or ChangedSince refuses revisions it read before", fromCorpus, corpusRevisionPairsFloor)
	}
}
