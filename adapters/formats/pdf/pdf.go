// Package pdf gives the objects of a PDF as one of its revisions shows
// them, read only when asked for.
//
// A signed PDF is read many times over: once as delivered, and once more
// as each signature saw it (the revision its byte range ends with).
// Loading every object of every revision costs as much as the document
// is long, times the revisions; here a revision is its own chain of
// cross-reference sections, and an object is parsed the first time it is
// asked for. pdfcpu parses the object syntax and decodes the streams.
//
// A file whose cross-reference data does not hold (offsets that do not
// point at their objects, a missing startxref) is read instead by one
// scan for its objects, linear in its length (see openScan); File answers
// the same in both cases. Only an encrypted file goes to pdfcpu's full
// reader, which decrypts, and only up to MaxFullReadBytes: its repair
// pass is quadratic in the length of a file without a usable
// cross-reference table.
package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Limits on what a file may make the reader do.
const (
	// MaxSections bounds the cross-reference sections of one revision.
	MaxSections = 4096
	// MaxXRefStreamBytes bounds a decoded cross-reference stream.
	MaxXRefStreamBytes = 64 << 20
	// MaxObjectStreamBytes bounds a decoded object stream.
	MaxObjectStreamBytes = 64 << 20
	// MaxDepth bounds nested resolutions (an indirect /Length in an
	// object stream's dictionary, and so on) and page tree depth.
	MaxDepth = 64
	// MaxFullReadBytes bounds the files given to pdfcpu's full reader:
	// the encrypted ones, which only it decrypts. Its repair pass (taken
	// when the cross-reference data does not hold) costs the number of
	// lines times the longest, some 0.4 s on 256 KiB; larger encrypted
	// files are refused before pdfcpu sees them.
	MaxFullReadBytes = 256 << 10
)

// ErrBroken is the error of a file that neither reader can read.
var ErrBroken = errors.New("pdf: the file structure is broken")

// File is a PDF as one revision shows it.
type File struct {
	data []byte
	ctx  *model.Context
	// repaired is set when the file's cross-reference data did not hold:
	// the revision's chain is not known.
	repaired bool
	// full is set when pdfcpu's full reader read the file (an encrypted
	// one): objects are then its loaded ones, and entries is unused.
	full     bool
	entries  map[int]entry
	trailer  types.Dict
	sections []int64 // the cross-reference sections read, newest first
	objects  map[int]types.Object
	streams  map[int][]types.Object // decoded object streams, by number
	depth    int
	// shared holds objects parsed by any revision of the same file, by
	// where they were written (see Revision).
	shared *sharedObjects
	// parsed memoises section: each cross-reference section read alone.
	parsed map[int64]*section
	// read is how far reading the cross-reference sections went.
	read int64

	// heads and streamData are what openScan found: where each object
	// starts, and the stream data passed over. Nil for a file read
	// through its cross-reference data.
	heads      []int64
	streamData [][2]int64
	// For a file read through its cross-reference data: marks is where
	// its sections start (the tables, the cross-reference streams, a
	// hybrid file's /XRefStm); starts is where its objects and sections
	// start, in order, computed from the entries once bounded is set
	// (objectStarts). An object's bytes end where the next one starts.
	marks   []int64
	starts  []int64
	bounded bool
	// budget is what reading the cross-reference sections may still go
	// over, shared with the sections read alone (sectionBudget).
	budget *int64
	// parsedBytes counts the bytes parse went over, and the
	// cross-reference sections and object streams read, for tests: an
	// object ends where the next begins, so reading every object goes
	// over the file about once. streamBytes counts the stream data handed
	// to pdfcpu to decode.
	parsedBytes, streamBytes int64
}

// sharedObjects are the parsed objects the revisions of one file share:
// an object written at an offset is the same bytes in every revision that
// reaches that far, so it parses to the same value.
type sharedObjects struct {
	mu      sync.Mutex
	objects map[int64]sharedObject
}

// sharedObject is an object parsed at some offset, and where its text
// ended: a revision takes it only when its own bounds let it end there.
type sharedObject struct {
	o   types.Object
	end int64
}

// entry is where a revision keeps one object.
type entry struct {
	free bool
	// offset is where "n g obj" starts, for an object not in a stream.
	offset int64
	gen    int
	// stream and index place an object kept in an object stream.
	compressed    bool
	stream, index int
}

// Location is where an object of a revision was written: two equal
// locations are the same bytes of the file.
type Location struct {
	// Offset is where the object, or the object stream holding it, starts;
	// -1 when the object is not in the revision.
	Offset int64
	// Index is the object's place in its object stream, -1 outside one.
	Index int
}

// pdfcpu keeps its settings in a configuration directory it creates on
// first use; the validator reads no settings of pdfcpu's and must not
// write files it was not asked to.
var disableConfig = sync.OnceFunc(func() { model.ConfigPath = "disable" })

func config() *model.Configuration {
	disableConfig()
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	return conf
}

// Open reads the cross-reference sections of data, the revision that
// ends where data ends; when they do not hold, it scans data for its
// objects (Repaired). An encrypted file is read by pdfcpu's full reader,
// up to MaxFullReadBytes. data must not change while the File is in use.
func Open(data []byte) (f *File, err error) {
	// pdfcpu panics on some malformed input: its panic is a broken file;
	// a panic of our own code goes on up (Recover).
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, Recover(p)
		}
	}()
	f, err = openXRef(data)
	if err == nil {
		return f, nil
	}
	if !errors.Is(err, errEncrypted) {
		if f, err = openScan(data); err == nil {
			return f, nil
		}
		if !errors.Is(err, errEncrypted) {
			return nil, fmt.Errorf("%w: %w", ErrBroken, err)
		}
	}
	return openFull(data)
}

// openFull reads an encrypted file with pdfcpu's full reader, which
// decrypts; a file longer than MaxFullReadBytes is refused first.
func openFull(data []byte) (*File, error) {
	if len(data) > MaxFullReadBytes {
		return nil, fmt.Errorf("%w: %w: the file is encrypted and has %d bytes: only pdfcpu's full reader decrypts, and it is given at most %d",
			ErrBroken, ErrLimit, len(data), MaxFullReadBytes)
	}
	if err := fullReadable(data); err != nil {
		return nil, fmt.Errorf("%w: the file is encrypted, and only pdfcpu's full reader decrypts: %w", ErrBroken, err)
	}
	return readFull(data)
}

// readFull reads data with pdfcpu's full reader, which decrypts and
// repairs what it can, in time quadratic in the length of a file it
// repairs: only openFull calls it.
func readFull(data []byte) (*File, error) {
	conf := config()
	// What pdfcpu decodes while it reads (object streams), as we do.
	conf.Limits.MaxDecodeBytes = MaxObjectStreamBytes
	ctx, err := pdfcpu.Read(bytes.NewReader(data), conf)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBroken, err)
	}
	return &File{data: data, ctx: ctx, repaired: true, full: true}, nil
}

// OpenExact is Open without the repair: it reads data only through its
// own cross-reference chain, and fails where that does not hold.
func OpenExact(data []byte) (f *File, err error) { return openExactHint(data, 0) }

// openExactHint is OpenExact with room for about hint objects.
func openExactHint(data []byte, hint int) (f *File, err error) {
	defer func() {
		if p := recover(); p != nil {
			f, err = nil, Recover(p) // as in Open
		}
	}()
	if f, err = openXRefHint(data, hint); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBroken, err)
	}
	return f, nil
}

// Revision opens data[:end], the revision of the file that ends at end,
// through its own cross-reference chain (as OpenExact), sharing with f the
// objects both parse: comparing many revisions of a large document parses
// each object once. Objects are shared only when they were written at the
// same offset and need nothing of the revision to be read (a stream whose
// /Length is an indirect object is parsed again), so each revision still
// reads exactly what its own sections say.
func (f *File) Revision(end int) (*File, error) {
	if f.repaired || end <= 0 || end > len(f.data) {
		return nil, fmt.Errorf("%w: no revision ends at %d", ErrBroken, end)
	}
	if f.shared == nil {
		f.shared = &sharedObjects{objects: map[int64]sharedObject{}}
		// What f parsed before it had revisions is theirs too; its text
		// ended by its extent.
		for n, o := range f.objects {
			if e, ok := f.entries[n]; ok && !e.free && !e.compressed {
				f.shared.put(e.offset, o, f.extent(e.offset))
			}
		}
	}
	if r, ok := f.revisionFromSections(end); ok {
		return r, nil
	}
	// An earlier revision has about as many objects: sizing its table
	// up front spares growing it object by object.
	r, err := openExactHint(f.data[:end], len(f.entries))
	if err != nil {
		return nil, err
	}
	r.shared = f.shared
	return r, nil
}

// revisionFromSections builds the revision ending at end from what f read
// of its cross-reference chain, when that revision's chain is the tail of
// f's: its table is f's, but for the objects the newer sections list,
// which take their entries from the revision's own sections. This is what
// reading the revision's chain gives (checked offsets included: the bytes
// are the same), without reading a large first table once per revision.
// ok is false when the chain is not such a tail; the caller reads the
// revision itself.
func (f *File) revisionFromSections(end int) (r *File, ok bool) {
	data := f.data[:end]
	start, err := startXRef(data)
	if err != nil {
		return nil, false
	}
	k := slices.Index(f.sections, start)
	if k < 0 {
		return nil, false
	}
	tail := f.sections[k:]
	for i, off := range tail {
		s, err := f.section(off)
		// Every section must lie within the revision, and chain to the
		// next as it does in f.
		if err != nil || s.end > int64(end) {
			return nil, false
		}
		prev := s.trailer.Prev()
		if i+1 < len(tail) && (prev == nil || *prev != tail[i+1]) {
			return nil, false
		}
	}
	ctx, err := model.NewContext(bytes.NewReader(data), config())
	if err != nil {
		return nil, false
	}
	r = &File{data: data, ctx: ctx, entries: maps.Clone(f.entries), objects: map[int]types.Object{}, streams: map[int][]types.Object{},
		sections: slices.Clone(tail), shared: f.shared, parsed: f.parsed, budget: f.budget}
	newest, _ := f.section(start)
	r.trailer = maps.Clone(newest.trailer)
	for _, off := range tail[1:] {
		if s, _ := f.section(off); r.trailer["Root"] == nil && s.trailer["Root"] != nil {
			r.trailer["Root"] = s.trailer["Root"]
		}
	}
	if r.trailer["Root"] == nil {
		return nil, false
	}
	if _, enc := r.trailer.Find("Encrypt"); enc {
		return nil, false
	}
	// The objects the newer sections list take their entries from the
	// revision's own chain, newest first, or are not in it.
	var changed []int
	for _, off := range f.sections[:k] {
		s, err := f.section(off)
		if err != nil {
			return nil, false
		}
		changed = append(changed, s.nums...)
	}
	for _, n := range changed {
		delete(r.entries, n)
	}
	for _, n := range changed {
		for _, off := range tail {
			s, _ := f.section(off)
			if e, ok := s.entries[n]; ok {
				r.entries[n] = e
				break
			}
		}
	}
	if r.checkWithin(changed) != nil {
		return nil, false
	}
	for _, off := range tail {
		s, _ := f.section(off)
		r.marks = append(r.marks, s.marks...)
	}
	r.bounded = true
	return r, true
}

// checkWithin is checkOffsets for a revision derived from a later one:
// the objects in changed get their headers checked, and every other
// entry, whose header the later revision checked in the same bytes, only
// has to lie within the revision.
func (f *File) checkWithin(changed []int) error {
	rechecked := make(map[int]bool, len(changed))
	for _, n := range changed {
		rechecked[n] = true
	}
	for n, e := range f.entries {
		switch {
		case e.free:
		case e.compressed:
			s, ok := f.entries[e.stream]
			if !ok || s.free || s.compressed {
				return fmt.Errorf("pdf: object %d is in object stream %d, which is not in the file", n, e.stream)
			}
		case e.offset <= 0 || e.offset >= int64(len(f.data)):
			return fmt.Errorf("pdf: object %d at %d is not in the file", n, e.offset)
		case rechecked[n]:
			if m, g, ok := objectHeader(f.data, e.offset); !ok || m != n || g != e.gen {
				return fmt.Errorf("pdf: object %d is not at %d", n, e.offset)
			}
		}
	}
	return nil
}

// Revisions lists where the revisions the file's cross-reference chain
// passes through end (after their %%EOF line), oldest first; the last is
// the file's end. Nil for a repaired file, whose chain is not known.
func (f *File) Revisions() []int {
	if f.repaired {
		return nil
	}
	ends := append(f.sectionEnds(), len(f.data))
	slices.Sort(ends)
	return slices.Compact(ends)
}

// End is where the last revision the cross-reference chain reaches ends:
// after the %%EOF line that follows the last written of its sections.
// What follows End is in no revision: no cross-reference section of the
// chain lists it. -1 for a repaired file, or when no %%EOF follows.
func (f *File) End() int {
	end := -1
	if !f.repaired {
		for _, e := range f.sectionEnds() {
			end = max(end, e)
		}
	}
	return end
}

// sectionEnds is where the %%EOF line after each section read ends, in
// the order of the sections' offsets. The sections are taken in that
// order so that the file is scanned once: the first %%EOF after a
// section is the one after the section before it, unless that one lies
// before this section.
func (f *File) sectionEnds() []int {
	offsets := slices.Clone(f.sections)
	slices.Sort(offsets)
	var ends []int
	eof := -1 // where the last %%EOF found starts
	for _, s := range offsets {
		if eof < int(s) {
			i := bytes.Index(f.data[s:], []byte("%%EOF"))
			if i < 0 {
				break // nor after any later section
			}
			eof = int(s) + i
		}
		end := eof + len("%%EOF")
		for end < len(f.data) && (f.data[end] == '\r' || f.data[end] == '\n') {
			end++
		}
		ends = append(ends, end)
	}
	return ends
}

// openXRef reads the revision's own cross-reference chain.
func openXRef(data []byte) (*File, error) { return openXRefHint(data, 0) }

// openXRefHint is openXRef with room for about hint objects.
func openXRefHint(data []byte, hint int) (*File, error) {
	ctx, err := model.NewContext(bytes.NewReader(data), config())
	if err != nil {
		return nil, err
	}
	f := &File{data: data, ctx: ctx, entries: make(map[int]entry, hint), objects: map[int]types.Object{}, streams: map[int][]types.Object{},
		budget: sectionBudget(len(data))}
	start, err := startXRef(data)
	if err != nil {
		return nil, err
	}
	if err := f.readSections(start); err != nil {
		return nil, err
	}
	if f.trailer == nil || f.trailer["Root"] == nil {
		return nil, errors.New("pdf: the trailer names no catalog")
	}
	if _, ok := f.trailer.Find("Encrypt"); ok {
		return nil, errEncrypted
	}
	if err := f.checkOffsets(); err != nil {
		return nil, err
	}
	f.bounded = true
	return f, nil
}

// Repaired reports whether the file's cross-reference data did not hold
// (or it is encrypted): its objects were found by scanning the file, or
// by pdfcpu's full reader, and its revisions are not known.
func (f *File) Repaired() bool { return f.repaired }

// RootRef is the catalog's object, nil when it is direct.
func (f *File) RootRef() *types.IndirectRef {
	if f.full {
		return f.ctx.XRefTable.Root
	}
	if r, ok := f.trailer["Root"].(types.IndirectRef); ok {
		return &r
	}
	return nil
}

// InfoRef is the trailer's document information dictionary, nil when
// there is none or it is direct.
func (f *File) InfoRef() *types.IndirectRef {
	if f.full {
		return f.ctx.XRefTable.Info
	}
	if r, ok := f.trailer["Info"].(types.IndirectRef); ok {
		return &r
	}
	return nil
}

// Numbers lists the objects in use in this revision, in no order.
func (f *File) Numbers() []int {
	var out []int
	if f.full {
		for n, e := range f.ctx.XRefTable.Table {
			if n > 0 && e != nil && !e.Free {
				out = append(out, n)
			}
		}
		return out
	}
	for n, e := range f.entries {
		if !e.free {
			out = append(out, n)
		}
	}
	return out
}

// Catalog is the document catalog.
func (f *File) Catalog() (types.Dict, error) {
	if f.full {
		return f.ctx.XRefTable.Catalog()
	}
	d, err := f.Dict(f.trailer["Root"])
	if err != nil {
		return nil, fmt.Errorf("pdf: catalog: %w", err)
	}
	if d == nil {
		return nil, errors.New("pdf: no catalog")
	}
	return d, nil
}

// Resolve follows o when it is a reference: the object it names, nil for
// a free or missing one (ISO 32000-2, 7.3.10); o itself otherwise.
func (f *File) Resolve(o types.Object) (types.Object, error) {
	ref, ok := o.(types.IndirectRef)
	if !ok {
		return o, nil
	}
	if f.full {
		return f.ctx.XRefTable.Dereference(ref)
	}
	return f.object(ref.ObjectNumber.Value())
}

// Dict resolves o to a dictionary (a stream's dictionary counts), nil
// for null.
func (f *File) Dict(o types.Object) (types.Dict, error) {
	v, err := f.Resolve(o)
	if err != nil {
		return nil, err
	}
	switch d := v.(type) {
	case nil:
		return nil, nil
	case types.Dict:
		return d, nil
	case types.StreamDict:
		return d.Dict, nil
	}
	return nil, fmt.Errorf("pdf: %T where a dictionary was expected", v)
}

// Array resolves o to an array, nil for null.
func (f *File) Array(o types.Object) (types.Array, error) {
	v, err := f.Resolve(o)
	if err != nil {
		return nil, err
	}
	switch a := v.(type) {
	case nil:
		return nil, nil
	case types.Array:
		return a, nil
	}
	return nil, fmt.Errorf("pdf: %T where an array was expected", v)
}

// Stream resolves o to a stream and returns its decoded content, of at
// most limit bytes. The content may share memory with the file: it is
// read-only.
func (f *File) Stream(o types.Object, limit int64) ([]byte, error) {
	v, err := f.Resolve(o)
	if err != nil {
		return nil, err
	}
	sd, ok := v.(types.StreamDict)
	if !ok {
		return nil, fmt.Errorf("pdf: %T where a stream was expected", v)
	}
	return f.content(sd, limit)
}

// content decodes sd, reading its bytes where they lie in the file, up
// to where the next object starts. Only the filters the validator needs
// are applied (decodable); a stream with any other is refused before
// pdfcpu sees it.
func (f *File) content(sd types.StreamDict, limit int64) ([]byte, error) {
	if sd.Content != nil {
		return sd.Content, nil // pdfcpu's full reader has it (an identity Crypt filter)
	}
	if err := decodable(sd.FilterPipeline, limit); err != nil {
		return nil, err
	}
	if sd.Raw == nil && f.heads != nil {
		raw, err := f.scannedRaw(sd)
		if err != nil {
			return nil, err
		}
		sd.Raw = raw
	}
	if sd.Raw == nil {
		n, err := f.streamLength(sd)
		if err != nil {
			return nil, err
		}
		if sd.StreamOffset < 0 || n < 0 || sd.StreamOffset > int64(len(f.data)) || n > int64(len(f.data))-sd.StreamOffset {
			return nil, fmt.Errorf("pdf: a stream of %d bytes at %d reaches beyond the file", n, sd.StreamOffset)
		}
		if next := f.dataEnd(sd.StreamOffset); n > next-sd.StreamOffset {
			return nil, fmt.Errorf("pdf: a stream of %d bytes at %d runs into the next object, at %d", n, sd.StreamOffset, next)
		}
		sd.Raw = f.data[sd.StreamOffset : sd.StreamOffset+n : sd.StreamOffset+n]
	}
	f.streamBytes += int64(len(sd.Raw))
	if err := sd.DecodeWithLimit(limit); err != nil {
		return nil, fmt.Errorf("pdf: decode stream: %w", err)
	}
	return sd.Content, nil
}

func (f *File) streamLength(sd types.StreamDict) (int64, error) {
	if sd.StreamLength != nil {
		return *sd.StreamLength, nil
	}
	if sd.StreamLengthObjNr == nil {
		return 0, errors.New("pdf: a stream has no /Length")
	}
	v, err := f.object(*sd.StreamLengthObjNr)
	if err != nil {
		return 0, fmt.Errorf("pdf: stream length: %w", err)
	}
	n, ok := v.(types.Integer)
	if !ok {
		return 0, fmt.Errorf("pdf: stream length is %T", v)
	}
	return int64(n), nil
}

// Where says where object n was written in this revision.
func (f *File) Where(n int) Location {
	if f.full {
		e, ok := f.ctx.XRefTable.Find(n)
		switch {
		case !ok || e.Free:
		case e.Compressed && e.ObjectStream != nil && e.ObjectStreamInd != nil:
			if s, ok := f.ctx.XRefTable.Find(*e.ObjectStream); ok && s.Offset != nil {
				return Location{Offset: *s.Offset, Index: *e.ObjectStreamInd}
			}
		case e.Offset != nil:
			return Location{Offset: *e.Offset, Index: -1}
		}
		return Location{Offset: -1, Index: -1}
	}
	e, ok := f.entries[n]
	switch {
	case !ok || e.free:
		return Location{Offset: -1, Index: -1}
	case e.compressed:
		s := f.entries[e.stream]
		return Location{Offset: s.offset, Index: e.index}
	}
	return Location{Offset: e.offset, Index: -1}
}

// object parses object n the first time it is asked for.
func (f *File) object(n int) (types.Object, error) {
	if o, ok := f.objects[n]; ok {
		return o, nil
	}
	e, ok := f.entries[n]
	if !ok || e.free {
		return nil, nil
	}
	if f.depth >= MaxDepth {
		return nil, fmt.Errorf("pdf: object %d: references nested deeper than %d", n, MaxDepth)
	}
	f.depth++
	defer func() { f.depth-- }()
	var o types.Object
	var err error
	if e.compressed {
		o, err = f.compressed(n, e)
	} else {
		// Within its bounds, where pdfcpu's reader would read on into
		// the next objects.
		extent := f.extent(e.offset)
		if o, ok = f.shared.get(e.offset, extent); !ok {
			var end int64
			if o, end, err = f.parse(e.offset, extent); err == nil {
				f.shared.put(e.offset, o, end)
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("pdf: object %d: %w", n, err)
	}
	f.objects[n] = o
	return o, nil
}

// compressed reads object n from its object stream (ISO 32000-2,
// 7.5.7), decoding the stream once.
func (f *File) compressed(n int, e entry) (types.Object, error) {
	objs, ok := f.streams[e.stream]
	if !ok {
		var err error
		if objs, err = f.objectStream(e.stream); err != nil {
			return nil, err
		}
		f.streams[e.stream] = objs
	}
	if e.index < 0 || e.index >= len(objs) {
		return nil, fmt.Errorf("not in object stream %d", e.stream)
	}
	return objs[e.index], nil
}

// objectStream decodes object stream s: N pairs of object number and
// offset, then the objects.
func (f *File) objectStream(s int) ([]types.Object, error) {
	if se, ok := f.entries[s]; !ok || se.free || se.compressed {
		return nil, fmt.Errorf("object stream %d is not in the file", s)
	}
	v, err := f.object(s)
	if err != nil {
		return nil, err
	}
	sd, ok := v.(types.StreamDict)
	if !ok {
		return nil, fmt.Errorf("object stream %d is a %T", s, v)
	}
	content, err := f.content(sd, MaxObjectStreamBytes)
	if err != nil {
		return nil, fmt.Errorf("object stream %d: %w", s, err)
	}
	first, count := sd.First(), sd.N()
	if first == nil || count == nil || *first < 0 || *first > len(content) || *count < 0 || *count > len(content)/2+1 {
		return nil, fmt.Errorf("object stream %d: bad /First or /N", s)
	}
	head := content[:*first]
	offsets := make([]int, 0, *count)
	pos := int64(0)
	for range *count {
		var ok1, ok2 bool
		var off int
		_, pos, ok1 = readInt(head, pos)
		off, pos, ok2 = readInt(head, pos)
		if !ok1 || !ok2 || *first+off > len(content) {
			return nil, fmt.Errorf("object stream %d: bad header", s)
		}
		offsets = append(offsets, *first+off)
	}
	// Each object ends where the next one in the stream starts, in the
	// order of their offsets, whatever the order of the header: objects
	// at one offset are parsed once, so that parsing them all goes over
	// the stream once.
	starts := slices.Sorted(slices.Values(offsets))
	starts = slices.Compact(starts)
	parsed := make(map[int]types.Object, len(starts))
	objs := make([]types.Object, len(offsets))
	for i, off := range offsets {
		o, ok := parsed[off]
		if !ok {
			end := len(content)
			if k, _ := slices.BinarySearch(starts, off); k+1 < len(starts) {
				end = starts[k+1]
			}
			text := string(content[off:end])
			f.parsedBytes += int64(len(text))
			var err error
			if o, err = model.ParseObjectContext(context.Background(), &text, 0, MaxDepth); err != nil {
				return nil, fmt.Errorf("object stream %d, object %d: %w", s, i, err)
			}
			parsed[off] = o
		}
		objs[i] = o
	}
	return objs, nil
}

// get is the object parsed at offset, when its text ended by extent, the
// asking revision's bound for it.
func (s *sharedObjects) get(offset, extent int64) (types.Object, bool) {
	if s == nil {
		return nil, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.objects[offset]
	if !ok || o.end > extent {
		return nil, false
	}
	return o.o, true
}

// put keeps o, whose text ended at end, unless it needs the revision to
// be read: a stream whose length is another object of the revision.
func (s *sharedObjects) put(offset int64, o types.Object, end int64) {
	if s == nil {
		return
	}
	if sd, ok := o.(types.StreamDict); ok && sd.StreamLengthObjNr != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.objects[offset] = sharedObject{o: o, end: end}
}
