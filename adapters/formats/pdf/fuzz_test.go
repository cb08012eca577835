package pdf

import (
	"bytes"
	"errors"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// FuzzOpen: any input opens or fails with ErrBroken, and every object,
// stream, page and revision of what opens reads or fails; never a panic
// (but of pdfcpu's full reader, which reads encrypted files).
func FuzzOpen(f *testing.F) {
	f.Add(handmade(f, threePages, nil))
	f.Add(handmade(f, threePages, map[int]bool{}))
	f.Add(handmade(f, threePages, map[int]bool{1: true, 2: true, 4: true}))
	f.Add(manyFields(3, true)) // no cross-reference table: scanned
	f.Add(bytes.Replace(handmade(f, threePages, nil), []byte("%PDF-1.7\n"), []byte("%PDF-1.7\n\n"), 1))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Open(data)
		if err != nil {
			if !errors.Is(err, ErrBroken) {
				t.Fatalf("error not ErrBroken: %v", err)
			}
			return
		}
		defer func() {
			if p := recover(); p != nil && !file.full {
				t.Fatalf("panic reading objects: %v", p)
			}
		}()
		_, _ = file.Pages(1000)
		_ = file.Revisions()
		for _, n := range file.Numbers() {
			o, err := file.Resolve(*types.NewIndirectRef(n, 0))
			if _, ok := o.(types.StreamDict); ok && err == nil {
				_, _ = file.Stream(*types.NewIndirectRef(n, 0), 1<<20)
			}
		}
	})
}
