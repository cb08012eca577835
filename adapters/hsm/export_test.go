package hsm

import (
	"context"

	"github.com/svc-dss/dss/ports"
)

// SignCalls returns how many times h called C_Sign with a signing key
// (approvals not counted).
func SignCalls(h *HSM) uint64 { return h.signs.Load() }

// SetBeforeSign makes h call f just before it uses a signing key; an error
// from f stands for an error of the device. Call it before h is used.
func SetBeforeSign(h *HSM, f func() error) { h.beforeSign = f }

// HoldSession takes a session of p's pool, as an operation does, and
// keeps it until release is called.
func HoldSession(ctx context.Context, h *HSM, p ports.Partition) (release func(), err error) {
	pl, err := h.pool(p)
	if err != nil {
		return nil, err
	}
	s, err := pl.acquire(ctx)
	if err != nil {
		return nil, err
	}
	return func() { pl.release(s, nil) }, nil
}

// Sessions returns how many sessions p's pool has open, and how many of
// them are idle.
func Sessions(h *HSM, p ports.Partition) (open, idle int) {
	pl := h.existingPool(p)
	if pl == nil {
		return 0, 0
	}
	return len(pl.sem), len(pl.idle)
}

// Resets returns how many times p's pool recovered from a lost session or
// login.
func Resets(h *HSM, p ports.Partition) uint64 {
	pl := h.existingPool(p)
	if pl == nil {
		return 0
	}
	return pl.resets.Load()
}
