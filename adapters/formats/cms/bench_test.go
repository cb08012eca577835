package cms_test

import (
	"bytes"
	"crypto/rand"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
)

// benchmarkVerifyDetached measures what validating a detached CAdES costs:
// parsing the SignedData, hashing the content (SHA-256) and checking the
// message digest and the RSA signature. SetBytes makes the result MB/s of
// content.
func benchmarkVerifyDetached(b *testing.B, size int) {
	p := testPKI(b)
	content := make([]byte, size)
	if _, err := rand.Read(content); err != nil {
		b.Fatal(err)
	}
	der := mustSign(b, content, []cmswrite.Signer{signerFor(p.SignerRSA)}, cmswrite.SignOptions{Detached: true})
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		sd, err := cms.Parse(der)
		if err != nil {
			b.Fatal(err)
		}
		results, err := sd.Verify(cms.VerifyOptions{Detached: bytes.NewReader(content)})
		if err != nil || results[0].Err() != nil {
			b.Fatal(err, results[0].Err())
		}
	}
}

func BenchmarkVerifyDetached1MB(b *testing.B)  { benchmarkVerifyDetached(b, 1<<20) }
func BenchmarkVerifyDetached10MB(b *testing.B) { benchmarkVerifyDetached(b, 10<<20) }
