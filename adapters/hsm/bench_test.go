package hsm_test

import (
	"crypto"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/fixtures/softhsm"
	"github.com/svc-dss/dss/ports"
)

// BenchmarkSign compares signing through the adapter with raw C_Sign on a
// session opened and logged in beforehand, with two goroutines signing in
// parallel, and reports signatures per second:
//
//   - raw: C_SignInit and C_Sign only, one session per goroutine;
//   - adapter: Approve (a P-256 C_Sign with the authorization key) and
//     Sign (approval check with a cached public key, then C_Sign), the
//     cost of one approved signature;
//   - adapter, pre-approved: Sign alone, with approvals made before the
//     timer starts, the overhead of the pool and of the approval check.
func BenchmarkSign(b *testing.B) {
	pt := newPartition(b, "bench")
	cases := []struct {
		name string
		key  ports.KeyRef
		pair softhsm.KeyPair
		mech ports.Mechanism
		ckm  uint
	}{
		{"RSA-2048 PKCS#1", rsaKey, pt.rsa, ports.MechanismRSAPKCS1, pkcs11.CKM_RSA_PKCS},
		{"P-256 ECDSA", ecKey, pt.ec, ports.MechanismECDSA, pkcs11.CKM_ECDSA},
	}
	for _, c := range cases {
		op, _ := operation(c.key, c.mech, crypto.SHA256, "benchmark")

		b.Run(c.name+"/raw", func(b *testing.B) {
			ctx := pt.tok.Ctx()
			parallel2(b, func(pb *testing.PB) {
				// The fixture's login covers every session of the token.
				s, err := ctx.OpenSession(pt.tok.Slot(), pkcs11.CKF_SERIAL_SESSION)
				if err != nil {
					b.Error(err)
					return
				}
				defer ctx.CloseSession(s)
				m := []*pkcs11.Mechanism{pkcs11.NewMechanism(c.ckm, nil)}
				for pb.Next() {
					if err := ctx.SignInit(s, m, c.pair.Private); err != nil {
						b.Error(err)
						return
					}
					if _, err := ctx.Sign(s, op.Data[0]); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})

		b.Run(c.name+"/adapter", func(b *testing.B) {
			h := hsm.New(hsm.Options{MaxSessions: 2, NonceCapacity: 1 << 22})
			warm(b, h, pt.p, op)
			b.ResetTimer()
			parallel2(b, func(pb *testing.PB) {
				for pb.Next() {
					a, err := h.Approve(b.Context(), pt.p, authKey, op)
					if err != nil {
						b.Error(err)
						return
					}
					op := op
					op.Approval = a
					if _, err := h.Sign(b.Context(), pt.p, op); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})

		b.Run(c.name+"/adapter, pre-approved", func(b *testing.B) {
			h := hsm.New(hsm.Options{MaxSessions: 2, ApprovalWindow: time.Hour, NonceCapacity: 1 << 22})
			warm(b, h, pt.p, op)
			ops := make(chan ports.SignOperation, b.N)
			for range b.N {
				ops <- approved(b, h, pt.p, op)
			}
			b.ResetTimer()
			parallel2(b, func(pb *testing.PB) {
				for pb.Next() {
					if _, err := h.Sign(b.Context(), pt.p, <-ops); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// warm opens the adapter's sessions and caches its handles and keys.
func warm(b *testing.B, h *hsm.HSM, p ports.Partition, op ports.SignOperation) {
	b.Helper()
	if _, err := h.Sign(b.Context(), p, approved(b, h, p, op)); err != nil {
		b.Fatal(err)
	}
}

// parallel2 runs body in exactly two goroutines (RunParallel starts
// GOMAXPROCS × parallelism of them) and reports signatures per second
// of wall time, and the process's user+system time per signature with
// the signatures per second of one core derived from it: SoftHSM2 signs
// in the calling thread, so on a loaded machine the CPU figures are the
// ones to size from.
func parallel2(b *testing.B, body func(*testing.PB)) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	b.SetParallelism(1)
	before := cpuTime(b)
	b.RunParallel(body)
	cpu := cpuTime(b) - before
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "sigs/s")
	perOp := float64(cpu.Nanoseconds()) / float64(b.N)
	b.ReportMetric(perOp, "cpu-ns/op")
	b.ReportMetric(1e9/perOp, "sigs/core-s")
}

// cpuTime is the process's user+system time so far.
func cpuTime(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
