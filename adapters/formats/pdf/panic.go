package pdf

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// A PanicError is a panic of pdfcpu's, recovered: pdfcpu panics on some
// malformed input, which makes the file unreadable, not the reader
// broken. It wraps ErrBroken. Its message names the panic, not the
// stack, which Stack keeps for the log.
type PanicError struct {
	// Value is what pdfcpu panicked with.
	Value any
	// Stack is the stack of the goroutine when it panicked.
	Stack []byte
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("%v: pdfcpu panicked: %v", ErrBroken, e.Value)
}

func (e *PanicError) Unwrap() error { return ErrBroken }

// Recover is the one judge of a panic in reading a PDF. Given p, the
// value of recover in a deferred function, it returns a *PanicError when
// the panic started in pdfcpu's code (or in a library pdfcpu called),
// and panics again with p when it started in ours: a panic of this
// service's own code is a bug, for the validation's own recovery to log
// and report (a 500), never an unreadable document. Call it directly in
// the deferred function:
//
//	defer func() {
//		if p := recover(); p != nil {
//			f, err = nil, pdf.Recover(p)
//		}
//	}()
func Recover(p any) *PanicError {
	stack := debug.Stack()
	if !startedInPdfcpu() {
		panic(p)
	}
	return &PanicError{Value: p, Stack: stack}
}

const (
	ourCode    = "github.com/svc-dss/dss/"
	pdfcpuCode = "github.com/pdfcpu/pdfcpu/"
)

// startedInPdfcpu reports whether the panic being recovered started in
// pdfcpu: below the latest runtime.gopanic on the stack, the first frame
// of either pdfcpu or this module decides. The runtime (index errors, nil
// dereferences), the standard library and pdfcpu's own dependencies
// (golang.org/x/image) belong to whoever called them.
func startedInPdfcpu() bool {
	pcs := make([]uintptr, 128)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(1, pcs)])
	panicking := false
	for {
		f, more := frames.Next()
		switch {
		case !panicking:
			panicking = f.Function == "runtime.gopanic"
		case strings.HasPrefix(f.Function, ourCode):
			return false
		case strings.HasPrefix(f.Function, pdfcpuCode):
			return true
		}
		if !more {
			return false
		}
	}
}
