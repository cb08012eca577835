package asic

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/svc-dss/dss/ports"
)

// Zip record signatures (APPNOTE.TXT 4.3).
const (
	sigLocal     = 0x04034b50
	sigCentral   = 0x02014b50
	sigEnd       = 0x06054b50
	sigEnd64     = 0x06064b50
	sigLocator64 = 0x07064b50

	localLen   = 30
	centralLen = 46
	endLen     = 22

	flagEncrypted  = 0x1
	flagDescriptor = 0x8
)

// errZip is wrapped, with ports.ErrUnreadable, by every refusal of the
// zip layer.
var errZip = errors.New("asic: zip")

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %w: %s", ports.ErrUnreadable, errZip, fmt.Sprintf(format, args...))
}

// A header is one central directory record, as the reader checked it.
type header struct {
	name         string
	flags        uint16
	method       uint16
	crc          uint32
	csize, usize uint64
	offset       uint64 // of the local header
}

// directory is the central directory of a zip as scanned: its records
// in order, and the archive comment.
type directory struct {
	headers []header
	comment string
}

// scan reads the end of central directory record and walks the central
// directory, without allocating more than the records it finds, at most
// MaxEntries of them: a directory of more is refused before archive/zip
// allocates anything for it. It returns what it read before an error.
func scan(data []byte) (directory, error) {
	var d directory
	end := bytes.LastIndex(data[max(0, len(data)-endLen-0xffff):], []byte{'P', 'K', 5, 6})
	if end < 0 {
		return d, refuse("no end of central directory")
	}
	end += max(0, len(data)-endLen-0xffff)
	if len(data)-end < endLen {
		return d, refuse("truncated end of central directory")
	}
	e := data[end:]
	count := uint64(binary.LittleEndian.Uint16(e[10:]))
	size := uint64(binary.LittleEndian.Uint32(e[12:]))
	offset := uint64(binary.LittleEndian.Uint32(e[16:]))
	if n := int(binary.LittleEndian.Uint16(e[20:])); endLen+n <= len(e) {
		d.comment = string(e[endLen : endLen+n])
	}
	if count == 0xffff || size == 0xffffffff || offset == 0xffffffff {
		// Zip64: the locator sits just before the end record.
		if end < 20 || binary.LittleEndian.Uint32(data[end-20:]) != sigLocator64 {
			return d, refuse("zip64 end of central directory locator missing")
		}
		at := binary.LittleEndian.Uint64(data[end-20+8:])
		if at > uint64(len(data)) || uint64(len(data))-at < 56 || binary.LittleEndian.Uint32(data[at:]) != sigEnd64 {
			return d, refuse("zip64 end of central directory missing")
		}
		e64 := data[at:]
		count = binary.LittleEndian.Uint64(e64[32:])
		size = binary.LittleEndian.Uint64(e64[40:])
		offset = binary.LittleEndian.Uint64(e64[48:])
	}
	if count > MaxEntries {
		return d, refuse("%d entries: more than %d", count, MaxEntries)
	}
	if offset > uint64(len(data)) || size > uint64(len(data))-offset {
		return d, refuse("central directory out of the file")
	}
	cd := data[offset : offset+size]
	for len(cd) > 0 {
		if len(d.headers) == MaxEntries {
			return d, refuse("more than %d entries", MaxEntries)
		}
		if len(cd) < centralLen || binary.LittleEndian.Uint32(cd) != sigCentral {
			return d, refuse("malformed central directory record %d", len(d.headers)+1)
		}
		n := int(binary.LittleEndian.Uint16(cd[28:]))
		m := int(binary.LittleEndian.Uint16(cd[30:]))
		k := int(binary.LittleEndian.Uint16(cd[32:]))
		if len(cd) < centralLen+n+m+k {
			return d, refuse("truncated central directory record %d", len(d.headers)+1)
		}
		h := header{
			name:   string(cd[centralLen : centralLen+n]),
			flags:  binary.LittleEndian.Uint16(cd[8:]),
			method: binary.LittleEndian.Uint16(cd[10:]),
			crc:    binary.LittleEndian.Uint32(cd[16:]),
			csize:  uint64(binary.LittleEndian.Uint32(cd[20:])),
			usize:  uint64(binary.LittleEndian.Uint32(cd[24:])),
			offset: uint64(binary.LittleEndian.Uint32(cd[42:])),
		}
		zip64(&h, cd[centralLen+n:centralLen+n+m])
		d.headers = append(d.headers, h)
		cd = cd[centralLen+n+m+k:]
	}
	if uint64(len(d.headers)) != count {
		return d, refuse("the central directory holds %d entries, its end record says %d", len(d.headers), count)
	}
	return d, nil
}

// zip64 replaces the saturated fields of h by those of its zip64
// extended information extra field (APPNOTE.TXT 4.5.3), in its order.
func zip64(h *header, extra []byte) {
	for len(extra) >= 4 {
		id := binary.LittleEndian.Uint16(extra)
		n := int(binary.LittleEndian.Uint16(extra[2:]))
		if len(extra) < 4+n {
			return
		}
		field := extra[4 : 4+n]
		extra = extra[4+n:]
		if id != 1 {
			continue
		}
		for _, p := range []*uint64{&h.usize, &h.csize, &h.offset} {
			if *p != 0xffffffff {
				continue
			}
			if len(field) < 8 {
				return
			}
			*p = binary.LittleEndian.Uint64(field)
			field = field[8:]
		}
		return
	}
}

// checkName refuses an entry name that is not a plain relative path:
// empty, absolute (a leading slash or a drive letter), with a backslash,
// a control character, invalid UTF-8, or an empty, "." or ".." segment.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("an entry without a name")
	case strings.HasPrefix(name, "/"):
		return fmt.Errorf("entry %q: absolute path", name)
	case len(name) >= 2 && name[1] == ':':
		return fmt.Errorf("entry %q: absolute path (drive letter)", name)
	case strings.Contains(name, "\\"):
		return fmt.Errorf("entry %q: backslash in the name", name)
	case !utf8.ValidString(name):
		return fmt.Errorf("entry %q: name not UTF-8", name)
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return fmt.Errorf("entry %q: control character in the name", name)
		}
	}
	segs := strings.Split(strings.TrimSuffix(name, "/"), "/")
	for _, s := range segs {
		switch s {
		case "..":
			return fmt.Errorf("entry %q: \"..\" in the path", name)
		case ".", "":
			return fmt.Errorf("entry %q: empty or \".\" path segment", name)
		}
	}
	return nil
}

// check applies the container rules to the scanned directory: names,
// duplicates, encryption, sizes, ratios, local headers agreeing with
// the central ones, and entries that overlap.
func (d directory) check(data []byte) error {
	seen := make(map[string]bool, len(d.headers))
	var total uint64
	type span struct{ from, to uint64 }
	spans := make([]span, 0, len(d.headers))
	for _, h := range d.headers {
		if err := checkName(h.name); err != nil {
			return refuse("%v", err)
		}
		if seen[h.name] {
			return refuse("entry %q appears twice", h.name)
		}
		seen[h.name] = true
		if h.flags&flagEncrypted != 0 {
			return refuse("entry %q is encrypted", h.name)
		}
		if h.method != zip.Store && h.method != zip.Deflate {
			return refuse("entry %q: compression method %d not supported", h.name, h.method)
		}
		if strings.HasSuffix(h.name, "/") && h.usize != 0 {
			return refuse("folder entry %q has content", h.name)
		}
		if h.usize > MaxTotalSize-total {
			return refuse("more than %d bytes uncompressed", MaxTotalSize)
		}
		total += h.usize
		if h.usize > RatioThreshold && h.usize/max(h.csize, 1) > MaxRatio {
			return refuse("entry %q: compression ratio over %d (%d bytes from %d)", h.name, MaxRatio, h.usize, h.csize)
		}
		if h.method == zip.Store && h.usize != h.csize {
			return refuse("entry %q: stored with different compressed and uncompressed sizes", h.name)
		}
		end, err := d.local(data, h)
		if err != nil {
			return err
		}
		spans = append(spans, span{h.offset, end})
	}
	slices.SortFunc(spans, func(a, b span) int {
		switch {
		case a.from < b.from:
			return -1
		case a.from > b.from:
			return 1
		}
		return 0
	})
	for i := 1; i < len(spans); i++ {
		if spans[i].from < spans[i-1].to {
			return refuse("entries overlap")
		}
	}
	return nil
}

// local checks h's local header against h and returns the offset where
// the entry's compressed data ends.
func (d directory) local(data []byte, h header) (uint64, error) {
	if h.offset > uint64(len(data)) || uint64(len(data))-h.offset < localLen {
		return 0, refuse("entry %q: local header out of the file", h.name)
	}
	l := data[h.offset:]
	if binary.LittleEndian.Uint32(l) != sigLocal {
		return 0, refuse("entry %q: no local header where the central directory says", h.name)
	}
	n := uint64(binary.LittleEndian.Uint16(l[26:]))
	m := uint64(binary.LittleEndian.Uint16(l[28:]))
	if uint64(len(l)) < localLen+n+m || string(l[localLen:localLen+n]) != h.name {
		return 0, refuse("entry %q: local and central headers disagree on the name", h.name)
	}
	flags := binary.LittleEndian.Uint16(l[6:])
	if flags&flagEncrypted != 0 {
		return 0, refuse("entry %q is encrypted", h.name)
	}
	if binary.LittleEndian.Uint16(l[8:]) != h.method {
		return 0, refuse("entry %q: local and central headers disagree on the compression method", h.name)
	}
	if flags&flagDescriptor == 0 {
		crc := binary.LittleEndian.Uint32(l[14:])
		cs := uint64(binary.LittleEndian.Uint32(l[18:]))
		us := uint64(binary.LittleEndian.Uint32(l[22:]))
		if crc != h.crc || (cs != 0xffffffff && cs != h.csize) || (us != 0xffffffff && us != h.usize) {
			return 0, refuse("entry %q: local and central headers disagree on the checksum or sizes", h.name)
		}
	}
	start := h.offset + localLen + n + m
	if h.csize > uint64(len(data))-start {
		return 0, refuse("entry %q: data out of the file", h.name)
	}
	return start + h.csize, nil
}

// A file is one entry of a container: a file with its content, or a
// folder.
type file struct {
	name   string
	data   []byte
	method uint16
	folder bool
}

// archive is a container read.
type archive struct {
	files   []file // in central directory order
	comment string
}

// open reads the zip in data, hardened: the directory is scanned and
// checked first (limits, names, headers), then archive/zip reads each
// entry, stopping at its declared size. A zip inside is a file like any
// other: never opened.
func open(data []byte) (*archive, error) {
	if len(data) > MaxContainerSize {
		return nil, refuse("larger than %d bytes", MaxContainerSize)
	}
	d, err := scan(data)
	if err != nil {
		return nil, err
	}
	if err := d.check(data); err != nil {
		return nil, err
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, refuse("%v", err)
	}
	if len(zr.File) != len(d.headers) {
		return nil, refuse("the central directory reads differently")
	}
	a := &archive{files: make([]file, 0, len(zr.File)), comment: d.comment}
	for i, f := range zr.File {
		h := d.headers[i]
		if f.Name != h.name || f.UncompressedSize64 != h.usize {
			return nil, refuse("the central directory reads differently")
		}
		if strings.HasSuffix(h.name, "/") {
			a.files = append(a.files, file{name: h.name, folder: true})
			continue
		}
		content, err := readEntry(f, h.usize)
		if err != nil {
			return nil, err
		}
		a.files = append(a.files, file{name: h.name, data: content, method: h.method})
	}
	return a, nil
}

// readEntry reads f, which declares size bytes, through an
// io.LimitReader that stops one byte past it: more data, or less, or a
// wrong checksum, refuses the container.
func readEntry(f *zip.File, size uint64) ([]byte, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, refuse("entry %q: %v", f.Name, err)
	}
	defer rc.Close()
	buf := make([]byte, size)
	lr := io.LimitReader(rc, int64(size)+1)
	if _, err := io.ReadFull(lr, buf); err != nil {
		return nil, refuse("entry %q: shorter than its declared %d bytes: %v", f.Name, size, err)
	}
	var one [1]byte
	n, err := lr.Read(one[:])
	if n > 0 {
		return nil, refuse("entry %q: longer than its declared %d bytes", f.Name, size)
	}
	if err != io.EOF {
		return nil, refuse("entry %q: %v", f.Name, err)
	}
	return buf, nil
}
