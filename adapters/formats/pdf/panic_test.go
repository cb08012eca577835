package pdf

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"

	fixture "github.com/svc-dss/dss/fixtures/pades"
)

// guarded runs fn as Open runs the reading: a panic goes to Recover.
func guarded(fn func()) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = Recover(p)
		}
	}()
	fn()
	return nil
}

// escaped is the panic that got past guarded, nil when none did.
func escaped(fn func()) (p any) {
	defer func() { p = recover() }()
	_ = guarded(fn)
	return nil
}

// TestRecover: a panic that starts in pdfcpu is a broken file, with
// pdfcpu's stack kept for the log; one that starts in our code (directly
// or in the standard library it called) is not caught, so that it
// reaches the validation's recovery as the bug it is.
func TestRecover(t *testing.T) {
	t.Parallel()
	t.Run("pdfcpu's panic is a broken file", func(t *testing.T) {
		t.Parallel()
		// pdfcpu v0.15.0 dereferences a nil generation in its free-list
		// check: if this fails, pdfcpu no longer panics on the fixture,
		// and the tests of the recovery need another input.
		err := guarded(func() { _, _ = pdfcpu.Read(bytes.NewReader(fixture.PdfcpuPanic()), config()) })
		pe, ok := errors.AsType[*PanicError](err)
		if !ok || !errors.Is(err, ErrBroken) {
			t.Fatalf("want a *PanicError wrapping ErrBroken, got %v", err)
		}
		if !strings.Contains(string(pe.Stack), "github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model.(*XRefTable).EnsureValidFreeList") {
			t.Errorf("the stack does not show where pdfcpu panicked:\n%s", pe.Stack)
		}
	})
	t.Run("Open answers pdfcpu's panic with ErrBroken", func(t *testing.T) {
		t.Parallel()
		f, err := Open(fixture.PdfcpuPanic())
		if _, ok := errors.AsType[*PanicError](err); !ok || f != nil || !errors.Is(err, ErrBroken) {
			t.Fatalf("want no file and a *PanicError wrapping ErrBroken, got %v, %v", f, err)
		}
	})
	ours := []struct {
		name string
		fn   func()
		want string // in the panic value that goes on up
	}{
		{"an index out of range", func() {
			var s []int
			i := 3
			_ = s[i]
		}, "index out of range"},
		{"an explicit panic", func() { panic("boom") }, "boom"},
		{"the standard library, called by our code", func() { _ = strings.Repeat("x", -1) }, "negative Repeat count"},
		{"a nil map", func() {
			var m map[int]int
			//lint:ignore SA5000 the panic is the point
			m[1] = 1
		}, "assignment to entry in nil map"},
	}
	for _, tt := range ours {
		t.Run("ours goes on up: "+tt.name, func(t *testing.T) {
			t.Parallel()
			p := escaped(tt.fn)
			if p == nil {
				t.Fatal("the panic was recovered as a broken file")
			}
			if _, ok := p.(*PanicError); ok {
				t.Fatalf("the panic went on up as a *PanicError: %v", p)
			}
			if !strings.Contains(fmt.Sprint(p), tt.want) {
				t.Errorf("not the original panic: %v", p)
			}
		})
	}
}
