package pdf

import (
	"errors"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// FuzzOpen: any input opens or fails with ErrBroken, and every object,
// stream, page and revision of what opens reads or fails; never a panic.
func FuzzOpen(f *testing.F) {
	f.Add(handmade(f, threePages, nil))
	f.Add(handmade(f, threePages, map[int]bool{}))
	f.Add(handmade(f, threePages, map[int]bool{1: true, 2: true, 4: true}))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Open(data)
		if err != nil {
			if !errors.Is(err, ErrBroken) {
				t.Fatalf("error not ErrBroken: %v", err)
			}
			return
		}
		defer func() {
			if p := recover(); p != nil && !file.Repaired() {
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
