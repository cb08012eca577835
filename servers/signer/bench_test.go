package main

import (
	"bytes"
	"crypto"
	"encoding/asn1"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/miekg/pkcs11"
)

// BenchmarkSignSKA measures sign-ska end to end, over HTTP with warm
// caches (sessions logged in, key handles and public keys cached, the
// database's pool open), side by side with raw C_Sign on the same SoftHSM2
// key in the same run. Each HTTP call carries a fresh proxy JWT made
// before the timer starts (the proxy's cost, not the server's). Reported:
// signatures per second and, for HTTP, the p50 and p99 latency of a call.
//
//   - raw: C_SignInit and C_Sign on a logged-in session of the token, one
//     session per goroutine, over the same bytes the server hands to it;
//   - http ×N: one call signs N digests (the batch of the request body).
//
// Everything runs with GOMAXPROCS 2 and two concurrent clients, unless
// the name says otherwise: the server, PostgreSQL and SoftHSM share the
// machine, as raw C_Sign shares it with nothing.
func BenchmarkSignSKA(b *testing.B) {
	w := newSignWorld(b)
	cases := []struct {
		name, label, alg string
		ckm              uint
		batches          []int
		clients          []int
	}{
		{"RSA-2048 PKCS#1 SHA-256", "sign-rsa", "RSA_PKCS1_V1_5", pkcs11.CKM_RSA_PKCS, []int{1, 16}, []int{2}},
		{"P-256 ECDSA SHA-256", "sign-p256", "ECDSA", pkcs11.CKM_ECDSA, []int{1, 16}, []int{2, 8}},
	}
	d := digest(crypto.SHA256, "benchmark")
	for _, c := range cases {
		data := d
		if c.ckm == pkcs11.CKM_RSA_PKCS {
			data = digestInfoSHA256(b, d)
		}
		b.Run(c.name+"/raw", func(b *testing.B) {
			key := w.pairs[c.label].Private
			clients(b, 2, func(int) func() error {
				ctx := w.tokA.Ctx()
				s, err := ctx.OpenSession(w.tokA.Slot(), pkcs11.CKF_SERIAL_SESSION)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { ctx.CloseSession(s) })
				m := []*pkcs11.Mechanism{pkcs11.NewMechanism(c.ckm, nil)}
				return func() error {
					if err := ctx.SignInit(s, m, key); err != nil {
						return err
					}
					_, err := ctx.Sign(s, data)
					return err
				}
			}, 1, false)
		})
		for _, batch := range c.batches {
			for _, n := range c.clients {
				name := c.name + "/http ×" + strconv.Itoa(batch)
				if n != 2 {
					name += "/" + strconv.Itoa(n) + " clients"
				}
				b.Run(name, func(b *testing.B) {
					digests := make([][]byte, batch)
					for i := range digests {
						digests[i] = d
					}
					req := body(w.a, c.label, "SHA-256", c.alg, "", digests...)
					client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
					call := func(auth string) error {
						r, err := http.NewRequest(http.MethodPost, w.url+signPath, bytes.NewReader(req))
						if err != nil {
							return err
						}
						r.Header.Set("Content-Type", "application/json")
						r.Header.Set("Authorization", auth)
						res, err := client.Do(r)
						if err != nil {
							return err
						}
						defer res.Body.Close()
						raw, _ := io.ReadAll(res.Body)
						if res.StatusCode != http.StatusOK {
							return &statusError{res.StatusCode, string(raw)}
						}
						return nil
					}
					// Warm: the first call opens the partition's sessions
					// and fills the caches.
					for range 4 {
						if err := call("Bearer " + w.a.token(b, req, nil)); err != nil {
							b.Fatal(err)
						}
					}
					tokens := make(chan string, b.N)
					for range b.N {
						tokens <- "Bearer " + w.a.token(b, req, nil)
					}
					b.ResetTimer()
					clients(b, n, func(int) func() error {
						return func() error { return call(<-tokens) }
					}, batch, true)
				})
			}
		}
	}
}

type statusError struct {
	status int
	body   string
}

func (e *statusError) Error() string { return "status " + strconv.Itoa(e.status) + ": " + e.body }

// digestInfoSHA256 is the DER DigestInfo of a SHA-256 digest: what the
// server hands to CKM_RSA_PKCS.
func digestInfoSHA256(b *testing.B, d []byte) []byte {
	type algorithm struct {
		OID    asn1.ObjectIdentifier
		Params asn1.RawValue
	}
	der, err := asn1.Marshal(struct {
		Algorithm algorithm
		Digest    []byte
	}{algorithm{asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1}, asn1.NullRawValue}, d})
	if err != nil {
		b.Fatal(err)
	}
	return der
}

// clients runs b.N operations in n goroutines under GOMAXPROCS 2, each
// goroutine's operation made by newOp, and reports signatures per second
// (perOp signatures an operation) and, when latency is set, the p50 and
// p99 of an operation.
func clients(b *testing.B, n int, newOp func(i int) func() error, perOp int, latency bool) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	ops := make([]func() error, n)
	for i := range ops {
		ops[i] = newOp(i)
	}
	var (
		mu    sync.Mutex
		times []time.Duration
		next  = make(chan struct{}, b.N)
		wg    sync.WaitGroup
	)
	for range b.N {
		next <- struct{}{}
	}
	close(next)
	b.ResetTimer()
	cpuBefore := cpuTime(b)
	began := time.Now()
	for _, op := range ops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []time.Duration
			for range next {
				t := time.Now()
				if err := op(); err != nil {
					b.Error(err)
					return
				}
				mine = append(mine, time.Since(t))
			}
			mu.Lock()
			times = append(times, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(began)
	cpu := cpuTime(b) - cpuBefore
	b.StopTimer()
	b.ReportMetric(float64(b.N*perOp)/elapsed.Seconds(), "sigs/s")
	// The process's CPU time: the server, its HTTP clients and SoftHSM2,
	// not PostgreSQL (another process). On a loaded machine the figure
	// to size from.
	b.ReportMetric(float64(b.N*perOp)/cpu.Seconds(), "sigs/core-s")
	if latency && len(times) > 0 {
		slices.Sort(times)
		at := func(q float64) float64 {
			return float64(times[int(q*float64(len(times)-1))].Microseconds())
		}
		b.ReportMetric(at(0.50), "p50-µs")
		b.ReportMetric(at(0.99), "p99-µs")
	}
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
