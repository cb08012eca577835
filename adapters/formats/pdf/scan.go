package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// errEncrypted is the error of a file whose trailer names an /Encrypt
// dictionary: only pdfcpu's full reader decrypts.
var errEncrypted = errors.New("pdf: encrypted")

// openScan reads a file whose cross-reference data does not hold by
// scanning it once for its objects (ISO 32000-2, 7.3.10 and 7.5.3): the
// last "n g obj" of each number is the object, and the catalog is the
// one the last trailer names, or else the last dictionary of /Type
// /Catalog (when there is none either, the trailer's stays named, and
// Catalog reports it missing). The objects are then read as openXRef's
// are, each within the bytes up to the next object, so that reading
// every object of the file reads it about once. Objects kept in object
// streams are not found; pdfcpu's repairing reader does not find them
// either.
func openScan(data []byte) (*File, error) {
	ctx, err := model.NewContext(bytes.NewReader(data), config())
	if err != nil {
		return nil, err
	}
	s := scanObjects(data)
	if len(s.entries) == 0 {
		return nil, errors.New("pdf: no object found")
	}
	f := &File{data: data, ctx: ctx, repaired: true, entries: s.entries, objects: map[int]types.Object{}, streams: map[int][]types.Object{},
		heads: s.heads, streamData: s.streamData}
	f.trailer = f.scannedTrailer()
	if _, ok := f.trailer.Find("Encrypt"); ok {
		return nil, errEncrypted
	}
	if d, _ := f.Dict(f.trailer["Root"]); d == nil {
		// A missing catalog the trailer names stays named: Catalog
		// reports it, as pdfcpu's repair did.
		if root, ok := f.lastCatalog(); ok {
			f.trailer["Root"] = root
		} else if f.trailer["Root"] == nil {
			return nil, errors.New("pdf: no catalog found")
		}
	}
	return f, nil
}

// scan is what one pass over a file finds.
type scan struct {
	// entries is the last object of each number.
	entries map[int]entry
	// heads is where every object found starts, in order: an object's
	// bytes end where the next one starts.
	heads []int64
	// streamData is the stream data the scan passed over, from the
	// "stream" keyword to the "endstream" after it, in order: no object
	// starts inside.
	streamData [][2]int64
	// searched counts the bytes the keyword searches went over: the scan
	// is linear when it is a few times the file's length.
	searched int64
}

// finder finds the occurrences of a keyword that count (valid), asked
// from offsets that only go forward: asked again from within what its
// last search went over, it answers from that search, so every byte is
// searched at most once. None of the keywords overlaps itself.
type finder struct {
	data  []byte
	kw    []byte
	valid func(i int) bool // whether the occurrence at i counts; nil: all
	// The last search started at from and found at (-1: nothing to the
	// end): no occurrence that counts lies between.
	from, at int
	searched int64 // bytes searched, for tests
}

func newFinder(data []byte, kw string, valid func(int) bool) *finder {
	return &finder{data: data, kw: []byte(kw), valid: valid, from: -1}
}

// next is the first occurrence that counts at or after from, or -1.
func (k *finder) next(from int) int {
	if k.from >= 0 && from >= k.from && (k.at < 0 || from <= k.at) {
		return k.at
	}
	k.from, k.at = from, -1
	for p := from; p < len(k.data); {
		i := bytes.Index(k.data[p:], k.kw)
		if i < 0 {
			k.searched += int64(len(k.data) - p)
			return -1
		}
		k.searched += int64(i + len(k.kw))
		if k.valid == nil || k.valid(p+i) {
			k.at = p + i
			return k.at
		}
		p += i + len(k.kw)
	}
	return -1
}

// scanObjects scans data once for the headers of its objects. A header is
// "n g obj" at the start of a line; the data of a stream, from its
// "stream" keyword to the next "endstream", is passed over. Each keyword
// is searched for from offsets that only go forward, so the scan is
// linear in data.
func scanObjects(data []byte) scan {
	objs := newFinder(data, "obj", func(i int) bool {
		start, ok := headerStart(data, i)
		if ok {
			_, _, ok = objectHeader(data, int64(start))
		}
		return ok
	})
	streamKw := newFinder(data, "stream", func(i int) bool { return keywordAt(data, i, "stream") })
	endstream := newFinder(data, "endstream", nil)
	s := scan{entries: map[int]entry{}}
	pos := 0
	for {
		i := objs.next(pos)
		if i < 0 {
			break
		}
		start, _ := headerStart(data, i)
		n, gen, _ := objectHeader(data, int64(start))
		s.heads = append(s.heads, int64(start))
		if n > 0 {
			s.entries[n] = entry{offset: int64(start), gen: gen, index: -1}
		}
		end := i + len("obj")
		pos = end
		// A stream: its "stream" keyword comes before the next header.
		// Its data is passed over up to the next "endstream"; without
		// one, the scan goes on after the keyword.
		st := streamKw.next(end)
		if st < 0 {
			continue
		}
		if next := objs.next(end); next >= 0 && next < st {
			continue
		}
		e := endstream.next(st + len("stream"))
		if e < 0 {
			pos = st + len("stream")
			continue
		}
		s.streamData = append(s.streamData, [2]int64{int64(st), int64(e)})
		pos = e + len("endstream")
	}
	s.searched = objs.searched + streamKw.searched + endstream.searched
	return s
}

// headerStart is where the object header whose "obj" is at i starts:
// "n g obj" at the start of a line, after spaces or tabs. It looks back
// a bounded number of bytes.
func headerStart(data []byte, i int) (int, bool) {
	start, ok := headerAnywhere(data, i)
	if !ok {
		return 0, false
	}
	blank := func(c byte) bool { return c == ' ' || c == '\t' }
	if l := back(data, start, blank, 16); l > 0 && data[l-1] != '\n' && data[l-1] != '\r' {
		return 0, false
	}
	return start, true
}

// headerAnywhere is headerStart wherever the header stands on its line.
func headerAnywhere(data []byte, i int) (int, bool) {
	if i >= 3 && string(data[i-3:i]) == "end" {
		return 0, false
	}
	if e := i + len("obj"); e < len(data) && !isDelimiter(data[e]) {
		return 0, false
	}
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	j := back(data, i, isSpace, 16)
	g := back(data, j, isDigit, 10) // the generation
	k := back(data, g, isSpace, 16)
	start := back(data, k, isDigit, 10) // the number
	if g == j || k == g || start == k {
		return 0, false
	}
	return start, true
}

// back moves i back over at most limit bytes for which in holds.
func back(data []byte, i int, in func(byte) bool, limit int) int {
	for j := i; j > 0 && j > i-limit; j-- {
		if !in(data[j-1]) {
			return j
		}
	}
	return max(0, i-limit)
}

// keywordAt reports whether the keyword kw at i stands alone: delimited
// before and after (ISO 32000-2, 7.2.3).
func keywordAt(data []byte, i int, kw string) bool {
	if !delimited(data, int64(i)) {
		return false
	}
	e := i + len(kw)
	return e >= len(data) || isDelimiter(data[e])
}

// isSpace reports PDF white space (ISO 32000-2, 7.2.3, Table 1).
func isSpace(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

// isDelimiter reports white space or a delimiter (ISO 32000-2, 7.2.3).
func isDelimiter(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return isSpace(c)
}

// outsideStreams is the last occurrence of the keyword kw before end that
// is not in a stream's data, or -1. Each search starts where the last one
// stopped, so finding the last occurrence is linear in data.
func (f *File) outsideStreams(kw string, end int64) int64 {
	for end > 0 {
		i := int64(bytes.LastIndex(f.data[:end], []byte(kw)))
		if i < 0 {
			return -1
		}
		if r, ok := f.streamAround(i); ok {
			end = r[0]
			continue
		}
		return i
	}
	return -1
}

// scannedTrailer is the trailer of a scanned file: the dictionary after
// the last "trailer" keyword, empty when there is none. A cross-reference
// stream's dictionary is not taken for one, as pdfcpu's repair did not
// take it: the catalog it names is most often in an object stream, which
// the scan does not read; a direct one is found by its /Type.
func (f *File) scannedTrailer() types.Dict {
	var trailer types.Dict
	for end := int64(len(f.data)); ; {
		t := f.outsideStreams("trailer", end)
		if t < 0 {
			break
		}
		if !keywordAt(f.data, int(t), "trailer") {
			end = t
			continue
		}
		stop := f.extent(t)
		if i := bytes.Index(f.data[t:stop], []byte("startxref")); i >= 0 {
			stop = t + int64(i)
		}
		text := string(f.data[t+int64(len("trailer")) : max(stop, t+int64(len("trailer")))])
		if o, err := model.ParseObjectContext(context.Background(), &text, 0, MaxDepth); err == nil {
			trailer, _ = o.(types.Dict)
		}
		break
	}
	if trailer == nil {
		return types.Dict{}
	}
	return trailer.Clone().(types.Dict)
}

// headBefore is the start of the last object the scan found at or before
// offset, -1 when there is none.
func (f *File) headBefore(offset int64) int64 {
	i, found := slices.BinarySearch(f.heads, offset)
	if found {
		return f.heads[i]
	}
	if i == 0 {
		return -1
	}
	return f.heads[i-1]
}

// scannedDict parses the object that starts at head when it is the
// current one of its number and its dictionary names /Type typ.
func (f *File) scannedDict(head int64, typ string) (types.Dict, bool) {
	n, _, ok := objectHeader(f.data, head)
	if e, in := f.entries[n]; !ok || !in || e.offset != head {
		return nil, false // not an object, or one written again later
	}
	d, err := f.Dict(*types.NewIndirectRef(n, f.entries[n].gen))
	if err != nil || d == nil {
		return nil, false
	}
	if t := d.Type(); t == nil || *t != typ {
		return nil, false
	}
	return d, true
}

// lastCatalog is the last object of the file whose dictionary is of
// /Type /Catalog. Every candidate is parsed at most once, from the last
// back, so the search is linear in the file.
func (f *File) lastCatalog() (types.IndirectRef, bool) {
	for end := int64(len(f.data)); end > 0; {
		c := f.outsideStreams("/Catalog", end)
		if c < 0 {
			break
		}
		head := f.headBefore(c)
		if head < 0 {
			break
		}
		end = head
		if _, ok := f.scannedDict(head, "Catalog"); ok {
			n, _, _ := objectHeader(f.data, head)
			return *types.NewIndirectRef(n, f.entries[n].gen), true
		}
	}
	return types.IndirectRef{}, false
}

// scannedRaw is the data of a stream of a scanned file: /Length bytes
// when "endstream" follows them, as in a sound file; otherwise the bytes
// up to the next "endstream", end of line left out, as pdfcpu's repairing
// reader took them. Either way the data ends at that "endstream" at the
// latest.
func (f *File) scannedRaw(sd types.StreamDict) ([]byte, error) {
	at := sd.StreamOffset
	if at <= 0 || at > int64(len(f.data)) {
		return nil, fmt.Errorf("pdf: a stream at %d is not in the file", at)
	}
	r, scanned := f.streamAround(at - 1) // an empty stream's data starts at its endstream
	if n, err := f.streamLength(sd); err == nil && n >= 0 && n <= int64(len(f.data))-at && (!scanned || at+n <= r[1]) {
		p := at + n
		for p < int64(len(f.data)) && isSpace(f.data[p]) && p < at+n+4 {
			p++
		}
		if bytes.HasPrefix(f.data[p:], []byte("endstream")) {
			return f.data[at : at+n : at+n], nil
		}
	}
	if !scanned {
		return nil, fmt.Errorf("pdf: a stream at %d has no endstream", at)
	}
	end := r[1]
	for end > at && (f.data[end-1] == '\n' || f.data[end-1] == '\r') {
		end--
	}
	return f.data[at:end:end], nil
}

// streamAround is the stream data the scan passed over that holds offset.
func (f *File) streamAround(offset int64) ([2]int64, bool) {
	k, _ := slices.BinarySearchFunc(f.streamData, offset, func(r [2]int64, offset int64) int {
		if r[1] <= offset {
			return -1
		}
		return 1
	})
	if k < len(f.streamData) && f.streamData[k][0] <= offset {
		return f.streamData[k], true
	}
	return [2]int64{}, false
}
