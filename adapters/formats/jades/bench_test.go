package jades_test

import (
	"context"
	"crypto/sha256"
	mrand "math/rand/v2"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/jades"
	fixture "github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/ports"
)

// tenMB is 10 MiB of deterministic noise.
func tenMB() []byte {
	data := make([]byte, 10<<20)
	r := mrand.NewChaCha8([32]byte{})
	_, _ = r.Read(data)
	return data
}

// BenchmarkReadDetachedLT reads a JAdES-LT whose sigD names a 10 MiB
// detached file: the reader's work is the SHA-256 of the file's
// base64url encoding (a third longer), encoded a chunk at a time, or of the
// file itself under b64 false. Compare with BenchmarkSHA256; the goal
// is within twice it.
func BenchmarkReadDetachedLT(b *testing.B) {
	p := testPKI(b)
	data := tenMB()
	for _, unencoded := range []bool{false, true} {
		name := "b64"
		if unencoded {
			name = "b64false"
		}
		b.Run(name, func(b *testing.B) {
			sig, det, err := fixture.Sign(data, fixture.Options{PKI: p, Signer: p.SignerRSA, Level: fixture.LT, Packaging: fixture.SigD, Unencoded: unencoded, SigningTime: signedAt})
			if err != nil {
				b.Fatal(err)
			}
			doc := ports.Document{Data: sig, Detached: []ports.Detached{{Name: fixture.DefaultDocumentName, Data: det}}}
			r := jades.NewReader()
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				sigs, err := r.Read(context.Background(), doc)
				if err != nil || !sigs[0].DataObjects[0].Intact {
					b.Fatal("not read intact", err)
				}
			}
		})
	}
}

// BenchmarkSHA256 is the baseline: one SHA-256 pass over 10 MiB.
func BenchmarkSHA256(b *testing.B) {
	data := tenMB()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		sha256.Sum256(data)
	}
}
