package validation

import (
	"time"

	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// An Observer learns what a validator did, for an operator's metrics:
// each document validated, each online refresh of the trusted lists,
// each revocation fetch and cache hit. The validation service reports to
// Prometheus through one (app/validator, adapters/metrics). Its methods
// run on the validation's path: they must be quick, and safe for
// concurrent use.
type Observer interface {
	ports.RevocationObserver
	// Validated reports a document validated: its summary, the bytes
	// uploaded (the document and its detached data) and the time taken.
	// A document that could not be validated (unreadable, a failure of
	// the validator) is not reported.
	Validated(s *verdict.ValidationSummary, size int64, took time.Duration)
	// TrustRefreshed reports an online refresh pass (Refresh): the
	// snapshot it produced and the time taken.
	TrustRefreshed(snap *trust.Snapshot, took time.Duration)
}

// WithObserver reports to o what the validator does. Without it nothing
// is reported.
func WithObserver(o Observer) Option {
	return option("WithObserver", func(s *settings) error {
		if o == nil {
			return errNilObserver
		}
		s.observer = o
		return nil
	})
}

// nopObserver observes nothing.
type nopObserver struct{ ports.NopRevocationObserver }

func (nopObserver) Validated(*verdict.ValidationSummary, int64, time.Duration) {}
func (nopObserver) TrustRefreshed(*trust.Snapshot, time.Duration)              {}

// size is what was uploaded for doc.
func (doc Document) size() int64 {
	n := int64(len(doc.Data))
	for _, p := range doc.Detached {
		n += int64(len(p.Data))
	}
	return n
}
