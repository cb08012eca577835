package pdf

import (
	"errors"
	"slices"
)

// Where the objects of a file end (issue 17). An object's bytes end, at
// the latest, where the next object starts, in file order; a stream's
// data too. A scanned file knows where its objects start from the scan
// (heads); a file read through its cross-reference data knows it from its
// entries, and from where its cross-reference sections start. Parsing an
// object, or slicing a stream's data, never goes beyond: reading every
// object of the file reads it about once, and an object that does not
// end there (a literal string that never closes, a /Length that runs into
// the next object) is broken, not read on into the next ones.

// extent is where the bytes of the object at offset end at the latest:
// where the next object starts, or the file's end after the last.
func (f *File) extent(offset int64) int64 {
	starts := f.objectStarts()
	i, found := slices.BinarySearch(starts, offset)
	if found {
		i++
	}
	if i < len(starts) {
		return starts[i]
	}
	return int64(len(f.data))
}

// dataEnd is where the data of a stream starting at at ends at the
// latest: where the next object starts, at at or after it.
func (f *File) dataEnd(at int64) int64 {
	starts := f.objectStarts()
	if i, _ := slices.BinarySearch(starts, at); i < len(starts) {
		return starts[i]
	}
	return int64(len(f.data))
}

// objectStarts is where the objects of the file start, in order: the
// scan's heads, or for a file read through its cross-reference data the
// offsets of its entries and of its sections (a table, a /XRefStm),
// computed the first time they are asked for. Nil while the sections are
// still being read (bounded unset): their entries are not all known.
func (f *File) objectStarts() []int64 {
	if f.heads != nil {
		return f.heads
	}
	if f.starts == nil && f.bounded {
		starts := make([]int64, 0, len(f.entries)+len(f.marks))
		for _, e := range f.entries {
			if !e.free && !e.compressed {
				starts = append(starts, e.offset)
			}
		}
		starts = append(starts, f.marks...)
		slices.Sort(starts)
		f.starts = slices.Compact(starts)
	}
	return f.starts
}

// sectionBudget is how many bytes reading the cross-reference sections of
// a file of n bytes may go over: the sections of a file do not overlap,
// and each is read at most twice (once in the chain, once alone; see
// section). Sections nested in one another (each inside a string of the
// one before) would make reading the chain quadratic in the file.
func sectionBudget(n int) *int64 {
	b := 2*int64(n) + 4096
	return &b
}

// errSectionBudget is the error of cross-reference sections that go over
// more than their budget: they overlap.
var errSectionBudget = errors.New("pdf: the cross-reference sections overlap: reading them goes over more than twice the file")

// spend takes n bytes read of a cross-reference section from the budget.
func (f *File) spend(n int64) error {
	if f.budget == nil {
		return nil
	}
	*f.budget -= max(n, 0)
	if *f.budget < 0 {
		return errSectionBudget
	}
	return nil
}

// sectionLimit is where the reading of a cross-reference section at
// offset stops at the latest: the budget left, from offset.
func (f *File) sectionLimit(offset int64) int64 {
	if f.budget == nil {
		return int64(len(f.data))
	}
	return min(int64(len(f.data)), offset+max(*f.budget, 0))
}
