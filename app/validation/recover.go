package validation

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"

	"github.com/svc-dss/dss/adapters/formats/pdf"
	"github.com/svc-dss/dss/ports"
)

// A PanicError is a validation that panicked: a bug of this service, not
// a fault of the document nor of the infrastructure. The panic and its
// stack are in the log (PanicLogMessage); the error names the panic
// only. It wraps nothing: whatever the panic value, it is never taken for
// ErrUnreadable or a context error.
type PanicError struct {
	// Value is what the code panicked with.
	Value any
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("app: validation failed on a bug of this service: panic: %v", e.Value)
}

// PanicLogMessage is the message of the ERROR line logged for every
// panic recovered in a validation, with the panic, its stack and the
// document's SHA-256: one line per bug, under a message that does not
// change, for alerts to count.
const PanicLogMessage = "bug: validation panicked"

// recoverValidation is the one recovery point of a validation, deferred
// at the top of every goroutine a validation runs on (ValidateReport's
// and each of its signature workers): a panic there would otherwise end
// the process, since the signature workers run outside the HTTP
// handler's own recovery. It logs the panic with its stack and sets *err
// to a *PanicError. It must be the deferred function itself, for recover
// to see the panic.
func (v *Validator) recoverValidation(ctx context.Context, doc ports.Document, err *error) {
	p := recover()
	if p == nil {
		return
	}
	digest := sha256.Sum256(doc.Data)
	v.logger.ErrorContext(ctx, PanicLogMessage,
		slog.String("panic", fmt.Sprint(p)),
		slog.String("document_sha256", hex.EncodeToString(digest[:])),
		slog.String("stack", string(debug.Stack())))
	*err = &PanicError{Value: p}
}

// logParserPanic logs, with its stack, a panic of a third-party parser
// that a reader turned into err, an unreadable document (pdf.Recover):
// the answer is a 400, but the stack is what pdfcpu's maintainers need.
func (v *Validator) logParserPanic(ctx context.Context, doc ports.Document, err error) {
	p, ok := errors.AsType[*pdf.PanicError](err)
	if !ok {
		return
	}
	digest := sha256.Sum256(doc.Data)
	v.logger.WarnContext(ctx, "pdfcpu panicked: the document is unreadable",
		slog.String("panic", fmt.Sprint(p.Value)),
		slog.String("document_sha256", hex.EncodeToString(digest[:])),
		slog.String("stack", string(p.Stack)))
}
