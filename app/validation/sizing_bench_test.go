package validation_test

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/fixtures/asic"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/xades"
)

// BenchmarkSizing is the table docs/operations.md sizes a deployment
// from: one signature of each format (CAdES detached, PAdES, XAdES
// detached, JAdES with sigD, ASiC-E with one XAdES), at levels B and
// LT, over 1 KB, 1 MB and 10 MB of content, validated through the front
// door. B asks the fixture PKI on 127.0.0.1 for the signer's revocation
// status once; the validator's cache answers afterwards, as it does in
// production within a response's validity. LT is offline.
//
// Besides ns/op (wall time, which a loaded machine inflates) it reports
// cpu-ns/op, the process's user+system time per validation (the
// collector's included), and docs/core-s, validations per second per core
// derived from it; B/op is the memory a validation allocates and
// peak-heap-B the most heap one validation held at once (sampled). These
// are measures: nothing here asserts a time.
func BenchmarkSizing(b *testing.B) {
	srv := pki.Start(b)
	at := pki.ReferenceTime
	srv.SetClock(func() time.Time { return at })
	p := srv.PKI
	signedAt := at.Add(-12 * time.Hour)
	anchors := []*x509.Certificate{p.Root.Certificate}
	type level struct {
		name string
		lt   bool
	}
	levels := []level{{"B", false}, {"LT", true}}
	formats := []struct {
		name string
		make func(content []byte, lt bool) (validation.Document, error)
	}{
		{"CAdES", func(content []byte, lt bool) (validation.Document, error) {
			l := cades.B
			if lt {
				l = cades.LT
			}
			sig, err := cades.Sign(content, cades.Options{PKI: p, Signer: p.SignerRSA, Level: l, Detached: true, SigningTime: signedAt})
			return document(sig, content, true), err
		}},
		{"PAdES", func(content []byte, lt bool) (validation.Document, error) {
			d := pades.NewSized(1, len(content))
			if !lt {
				err := d.Sign(pades.Options{PKI: p, Signer: p.SignerRSA, Level: cades.B, SigningTime: signedAt})
				return validation.Document{Name: "doc.pdf", Data: d.Bytes()}, err
			}
			d, err := pades.LT(p, len(content), 1, signedAt)
			if err != nil {
				return validation.Document{}, err
			}
			return validation.Document{Name: "doc.pdf", Data: d.Bytes()}, nil
		}},
		{"XAdES", func(content []byte, lt bool) (validation.Document, error) {
			l := xades.B
			if lt {
				l = xades.LT
			}
			sig, err := xades.Sign(content, xades.Options{PKI: p, Signer: p.SignerRSA, Level: l, Packaging: xades.Detached, SigningTime: signedAt})
			return validation.Document{Name: "signature.xml", Data: sig, Detached: []validation.Part{{Name: xades.DefaultDocumentName, Data: content}}}, err
		}},
		{"JAdES", func(content []byte, lt bool) (validation.Document, error) {
			l := jades.B
			if lt {
				l = jades.LT
			}
			sig, detached, err := jades.Sign(content, jades.Options{PKI: p, Signer: p.SignerRSA, Level: l, Packaging: jades.SigD, SigningTime: signedAt})
			return validation.Document{Name: "signature.json", Data: sig, Detached: []validation.Part{{Name: jades.DefaultDocumentName, Data: detached}}}, err
		}},
		{"ASiC-E", func(content []byte, lt bool) (validation.Document, error) {
			l := asic.B
			if lt {
				l = asic.LT
			}
			c, err := asic.Build([]asic.File{{Name: "file.bin", Data: content}}, asic.Options{PKI: p, Signer: p.SignerRSA,
				Container: asic.ASiCE, Inner: asic.XAdES, Level: l, SigningTime: signedAt, OneXAdES: true})
			return validation.Document{Name: "bench.asice", Data: c}, err
		}},
	}
	validators := map[bool]*validation.Validator{}
	for _, l := range levels {
		validators[l.lt] = benchValidator(b, at, l.lt, anchors...)
	}
	for _, f := range formats {
		for _, l := range levels {
			for _, size := range benchSizes {
				b.Run(fmt.Sprintf("%s/%s/%s", f.name, l.name, size.name), func(b *testing.B) {
					content := make([]byte, size.n)
					rand.Read(content)
					doc, err := f.make(content, l.lt)
					if err != nil {
						b.Fatal(err)
					}
					v := validators[l.lt]
					// One run outside the timer checks the fixture passes
					// and warms the revocation cache.
					res, err := v.Validate(context.Background(), doc)
					if err != nil || !res.Summary.Valid {
						b.Fatalf("fixture does not validate: %v %+v", err, res.Summary)
					}
					peak := peakHeap(func() {
						if _, err := v.Validate(context.Background(), doc); err != nil {
							b.Fatal(err)
						}
					})
					b.SetBytes(int64(size.n))
					b.ReportAllocs()
					before := cpuTime(b)
					for b.Loop() {
						if _, err := v.Validate(context.Background(), doc); err != nil {
							b.Fatal(err)
						}
					}
					cpu := cpuTime(b) - before
					perOp := float64(cpu.Nanoseconds()) / float64(b.N)
					b.ReportMetric(perOp, "cpu-ns/op")
					b.ReportMetric(1e9/perOp, "docs/core-s")
					b.ReportMetric(float64(peak), "peak-heap-B")
					runtime.KeepAlive(doc)
				})
			}
		}
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
