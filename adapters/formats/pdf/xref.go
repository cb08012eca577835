package pdf

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// startXRef is the offset the last startxref of data names (ISO 32000-2,
// 7.5.5): the newest cross-reference section of the revision.
func startXRef(data []byte) (int64, error) {
	tail := data[max(0, len(data)-4096):]
	i := bytes.LastIndex(tail, []byte("startxref"))
	if i < 0 {
		return 0, errors.New("pdf: no startxref at the end of the file")
	}
	n, _, ok := readInt(tail, int64(i+len("startxref")))
	if !ok || n <= 0 || n >= len(data) {
		return 0, fmt.Errorf("pdf: startxref %d is not in the file", n)
	}
	return int64(n), nil
}

// readSections follows the chain of cross-reference sections from the
// newest, at offset, through /Prev: an object's newest entry wins, the
// newest trailer is the file's.
func (f *File) readSections(offset int64) error {
	seen := map[int64]bool{}
	for range MaxSections {
		if seen[offset] {
			return nil // a /Prev loop: everything on it is read
		}
		seen[offset] = true
		f.sections = append(f.sections, offset)
		f.marks = append(f.marks, offset)
		var trailer types.Dict
		var err error
		if bytes.HasPrefix(f.data[skipSpace(f.data, offset):], []byte("xref")) {
			trailer, err = f.table(offset)
		} else {
			trailer, err = f.xrefStream(offset)
		}
		if err != nil {
			return err
		}
		if f.trailer == nil {
			f.trailer = trailer
		} else if f.trailer["Root"] == nil && trailer["Root"] != nil {
			f.trailer["Root"] = trailer["Root"]
		}
		prev := trailer.Prev()
		if prev == nil || *prev == 0 {
			return nil
		}
		if *prev < 0 || *prev >= int64(len(f.data)) {
			return fmt.Errorf("pdf: /Prev %d is not in the file", *prev)
		}
		offset = *prev
	}
	return fmt.Errorf("pdf: more than %d cross-reference sections", MaxSections)
}

// add records e for object n unless a newer section did.
func (f *File) add(n int, e entry) {
	if _, ok := f.entries[n]; !ok && n > 0 {
		f.entries[n] = e
	}
}

// table reads a cross-reference table and its trailer (ISO 32000-2,
// 7.5.4). A hybrid file's /XRefStm is read with it: its entries complete
// the table's, whose free entries stand for objects kept in streams.
func (f *File) table(offset int64) (types.Dict, error) {
	if err := f.spend(0); err != nil {
		return nil, err
	}
	pos := skipSpace(f.data, offset) + int64(len("xref"))
	var free []int
	for {
		pos = skipSpace(f.data, pos)
		if pos >= int64(len(f.data)) {
			return nil, errors.New("pdf: cross-reference table without trailer")
		}
		if bytes.HasPrefix(f.data[pos:], []byte("trailer")) {
			pos += int64(len("trailer"))
			break
		}
		first, p, ok := readInt(f.data, pos)
		if !ok {
			return nil, fmt.Errorf("pdf: bad cross-reference subsection at %d", pos)
		}
		count, p, ok := readInt(f.data, p)
		if !ok || count < 0 || first < 0 || int64(count) > (int64(len(f.data))-p)/18 {
			return nil, fmt.Errorf("pdf: bad cross-reference subsection at %d", pos)
		}
		pos = p
		for i := range count {
			off, p, ok1 := readInt(f.data, pos)
			gen, p, ok2 := readInt(f.data, p)
			p = skipSpace(f.data, p)
			if !ok1 || !ok2 || p >= int64(len(f.data)) || (f.data[p] != 'n' && f.data[p] != 'f') {
				return nil, fmt.Errorf("pdf: bad cross-reference entry at %d", pos)
			}
			pos = p + 1
			if f.data[p] == 'f' {
				free = append(free, first+i)
				continue
			}
			f.add(first+i, entry{offset: int64(off), gen: gen, index: -1})
		}
	}
	end := int64(len(f.data))
	if i := bytes.Index(f.data[pos:], []byte("startxref")); i >= 0 {
		end = pos + int64(i)
	}
	f.read = max(f.read, end+int64(len("startxref")))
	f.parsedBytes += end - offset
	if err := f.spend(end - offset); err != nil {
		return nil, err
	}
	text := string(f.data[pos:end])
	o, err := model.ParseObjectContext(context.Background(), &text, 0, MaxDepth)
	if err != nil {
		return nil, fmt.Errorf("pdf: trailer: %w", err)
	}
	trailer, ok := o.(types.Dict)
	if !ok {
		return nil, errors.New("pdf: the trailer is not a dictionary")
	}
	if stm := trailer.Int64Entry("XRefStm"); stm != nil {
		if *stm <= 0 || *stm >= int64(len(f.data)) {
			return nil, fmt.Errorf("pdf: /XRefStm %d is not in the file", *stm)
		}
		f.marks = append(f.marks, *stm)
		if _, err := f.xrefStream(*stm); err != nil {
			return nil, err
		}
	}
	for _, n := range free {
		f.add(n, entry{free: true})
	}
	return trailer, nil
}

// xrefStream reads a cross-reference stream (ISO 32000-2, 7.5.8); its
// dictionary is the section's trailer.
func (f *File) xrefStream(offset int64) (types.Dict, error) {
	if _, _, ok := objectHeader(f.data, offset); !ok {
		return nil, fmt.Errorf("pdf: no cross-reference section at %d", offset)
	}
	// Its text ends within what the budget leaves.
	limit := f.sectionLimit(offset)
	o, end, err := f.parse(offset, limit)
	switch {
	case err == nil:
		err = f.spend(end - offset)
	case limit < int64(len(f.data)):
		err = fmt.Errorf("%w: %w", errSectionBudget, err)
	}
	if err != nil {
		return nil, fmt.Errorf("pdf: cross-reference stream at %d: %w", offset, err)
	}
	sd, ok := o.(types.StreamDict)
	if !ok || sd.Type() == nil || *sd.Type() != "XRef" {
		return nil, fmt.Errorf("pdf: no cross-reference stream at %d", offset)
	}
	content, err := f.content(sd, MaxXRefStreamBytes)
	if err != nil {
		return nil, fmt.Errorf("pdf: cross-reference stream at %d: %w", offset, err)
	}
	if n, err := f.streamLength(sd); err == nil && sd.Raw == nil {
		f.read = max(f.read, sd.StreamOffset+n)
		if err := f.spend(n); err != nil {
			return nil, fmt.Errorf("pdf: cross-reference stream at %d: %w", offset, err)
		}
	} else {
		f.read = int64(len(f.data)) // not known: as far as the file goes
	}
	xs, err := model.ParseXRefStreamDict(&sd)
	if err != nil {
		return nil, fmt.Errorf("pdf: cross-reference stream at %d: %w", offset, err)
	}
	w := xs.W
	size := w[0] + w[1] + w[2]
	if w[0] < 0 || w[1] < 0 || w[2] < 0 || size == 0 || w[1] > 8 || w[0] > 8 || w[2] > 8 {
		return nil, fmt.Errorf("pdf: cross-reference stream at %d: bad /W %v", offset, w)
	}
	for i, obj := range xs.Objects {
		if (i+1)*size > len(content) {
			break
		}
		row := content[i*size : (i+1)*size]
		typ := int64(1) // the default when the first field is absent
		if w[0] > 0 {
			typ = field(row[:w[0]])
		}
		b, c := field(row[w[0]:w[0]+w[1]]), field(row[w[0]+w[1]:])
		switch typ {
		case 0:
			f.add(obj, entry{free: true})
		case 1:
			f.add(obj, entry{offset: b, gen: int(c), index: -1})
		case 2:
			f.add(obj, entry{compressed: true, stream: int(b), index: int(c)})
		}
	}
	return sd.Dict, nil
}

// field is a big-endian number of a cross-reference stream row.
func field(b []byte) int64 {
	var v int64
	for _, c := range b {
		v = v<<8 | int64(c)
	}
	return v
}

// checkOffsets makes sure every entry points at its object: a file whose
// offsets are off is one to repair, not to trust.
func (f *File) checkOffsets() error {
	for n, e := range f.entries {
		switch {
		case e.free:
		case e.compressed:
			s, ok := f.entries[e.stream]
			if !ok || s.free || s.compressed {
				return fmt.Errorf("pdf: object %d is in object stream %d, which is not in the file", n, e.stream)
			}
		default:
			if e.offset <= 0 || e.offset >= int64(len(f.data)) {
				return fmt.Errorf("pdf: object %d at %d is not in the file", n, e.offset)
			}
			if m, g, ok := objectHeader(f.data, e.offset); !ok || m != n || g != e.gen {
				return fmt.Errorf("pdf: object %d is not at %d", n, e.offset)
			}
		}
	}
	return nil
}

// objectHeader reads "n g obj" at offset.
func objectHeader(data []byte, offset int64) (n, gen int, ok bool) {
	n, p, ok1 := readInt(data, offset)
	gen, p, ok2 := readInt(data, p)
	p = skipSpace(data, p)
	if !ok1 || !ok2 || !bytes.HasPrefix(data[p:], []byte("obj")) {
		return 0, 0, false
	}
	return n, gen, true
}

// readInt reads an unsigned decimal number after white space.
func readInt(data []byte, pos int64) (int, int64, bool) {
	pos = skipSpace(data, pos)
	start := pos
	for pos < int64(len(data)) && pos-start < 12 && data[pos] >= '0' && data[pos] <= '9' {
		pos++
	}
	if pos == start {
		return 0, pos, false
	}
	n, err := strconv.Atoi(string(data[start:pos]))
	return n, pos, err == nil
}

// skipSpace moves pos past white space and comments.
func skipSpace(data []byte, pos int64) int64 {
	for pos < int64(len(data)) {
		switch data[pos] {
		case ' ', '\t', '\r', '\n', '\f', 0:
			pos++
		case '%':
			for pos < int64(len(data)) && data[pos] != '\r' && data[pos] != '\n' {
				pos++
			}
		default:
			return pos
		}
	}
	return pos
}

// ChangedSince returns the objects that the cross-reference sections of f
// newer than r's chain list: every object f has somewhere else than r
// (rewritten, added or freed since), and perhaps a few it rewrote in
// place. ok is false when r's chain is not the tail of f's (an update
// whose /Prev skips sections, a repaired file): the caller then compares
// the objects one by one. Listing only the newer sections keeps comparing
// many revisions proportional to what their updates wrote.
func (f *File) ChangedSince(r *File) (nums []int, ok bool) {
	if f.repaired || r.repaired || len(r.sections) > len(f.sections) {
		return nil, false
	}
	k := len(f.sections) - len(r.sections)
	if !slices.Equal(f.sections[k:], r.sections) {
		return nil, false
	}
	seen := map[int]bool{}
	for _, off := range f.sections[:k] {
		listed, err := f.sectionNumbers(off)
		if err != nil {
			return nil, false
		}
		for _, n := range listed {
			if !seen[n] {
				seen[n] = true
				nums = append(nums, n)
			}
		}
	}
	return nums, true
}

// section is one cross-reference section read alone: the entries it
// lists (a hybrid table's /XRefStm included), its trailer, and where its
// bytes end.
type section struct {
	entries map[int]entry
	nums    []int
	trailer types.Dict
	end     int64
	marks   []int64 // where it starts, and its /XRefStm
}

// section reads the cross-reference section at offset alone, once.
func (f *File) section(offset int64) (*section, error) {
	if s, ok := f.parsed[offset]; ok {
		return s, nil
	}
	x := &File{data: f.data, ctx: f.ctx, entries: map[int]entry{}, objects: map[int]types.Object{}, streams: map[int][]types.Object{},
		budget: f.budget, marks: []int64{offset}}
	var trailer types.Dict
	var err error
	if bytes.HasPrefix(f.data[skipSpace(f.data, offset):], []byte("xref")) {
		trailer, err = x.table(offset)
	} else {
		trailer, err = x.xrefStream(offset)
	}
	if err != nil {
		return nil, err
	}
	s := &section{entries: x.entries, nums: slices.Sorted(maps.Keys(x.entries)), trailer: trailer, end: x.read, marks: x.marks}
	if f.parsed == nil {
		f.parsed = map[int64]*section{}
	}
	f.parsed[offset] = s
	return s, nil
}

// sectionNumbers lists the objects the cross-reference section at offset
// names (a hybrid table's /XRefStm included), once per section.
func (f *File) sectionNumbers(offset int64) ([]int, error) {
	s, err := f.section(offset)
	if err != nil {
		return nil, err
	}
	return s.nums, nil
}
