package signer

import (
	"context"
	"crypto"
	"errors"
	"fmt"
	"time"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/adapters/metrics"
	"github.com/svc-dss/dss/ports"
)

// Metrics returns the server's metrics, which the server serves on
// GET /actuator/prometheus and counts its error answers on.
func (s *Signer) Metrics() *metrics.Signer { return s.metrics }

// sessionsOf reads the sessions of h's partitions for the metrics.
func sessionsOf(h *hsm.HSM) func() []metrics.Sessions {
	return func() []metrics.Sessions {
		var out []metrics.Sessions
		for _, p := range h.Sessions() {
			out = append(out, metrics.Sessions{Partition: p.Partition, InUse: p.InUse})
		}
		return out
	}
}

// observe reports one sign-ska call that ended with res and err.
func (s *Signer) observe(res SignResult, err error) {
	reason := ""
	if r, ok := errors.AsType[*RefusalError](err); ok {
		reason = r.Reason
	}
	s.observer.SignCalled(outcome(err), reason)
	if err == nil {
		s.observer.Signed(res.SignatureAlgorithm, len(res.Signatures))
	}
}

// observedHSM times each operation of an HSM, waiting for a session
// included: what a caller of sign-ska waits for.
type observedHSM struct {
	ports.HSM
	o ports.SignObserver
}

func (h observedHSM) PublicKey(ctx context.Context, p ports.Partition, key ports.KeyRef) (crypto.PublicKey, error) {
	began := time.Now()
	pub, err := h.HSM.PublicKey(ctx, p, key)
	h.o.HSMOperation("public-key", hsmOutcome(err), time.Since(began))
	return pub, err
}

func (h observedHSM) Approve(ctx context.Context, p ports.Partition, authKey ports.KeyRef, op ports.SignOperation) (ports.Approval, error) {
	began := time.Now()
	a, err := h.HSM.Approve(ctx, p, authKey, op)
	h.o.HSMOperation("approve", hsmOutcome(err), time.Since(began))
	return a, err
}

func (h observedHSM) Sign(ctx context.Context, p ports.Partition, op ports.SignOperation) ([][]byte, error) {
	began := time.Now()
	sigs, err := h.HSM.Sign(ctx, p, op)
	h.o.HSMOperation("sign", hsmOutcome(err), time.Since(began))
	return sigs, err
}

// hsmOutcome names the outcome of an HSM operation: ok, timeout, or
// error (the device failed, or refused: a key not found is the
// request's fault, but the HSM was asked all the same).
func hsmOutcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, ports.ErrHSMTimeout):
		return "timeout"
	}
	return "error"
}

// observedReplay counts the token IDs a replay store refuses as used
// before, and marks its failures as ErrReplayUnavailable.
type observedReplay struct {
	ports.ReplayStore
	o ports.SignObserver
}

func (r observedReplay) Use(ctx context.Context, id string, until time.Time) (bool, error) {
	fresh, err := r.ReplayStore.Use(ctx, id, until)
	switch {
	case err != nil:
		return false, fmt.Errorf("%w: %w", ErrReplayUnavailable, err)
	case !fresh:
		r.o.ReplayRefused()
	}
	return fresh, nil
}
