package validation_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/jades"
	"github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/realworld"
)

var benchSizes = []struct {
	name string
	n    int
}{
	{"1KB", 1 << 10},
	{"1MB", 1 << 20},
	{"10MB", 10 << 20},
}

// benchValidator is a validator without trusted lists, trusting
// anchors, at at; offline fetches nothing, online reaches the fixture
// PKI on 127.0.0.1.
func benchValidator(b *testing.B, at time.Time, offline bool, anchors ...*x509.Certificate) *validation.Validator {
	b.Helper()
	// The clock too: the revocation cache keeps a response until its
	// nextUpdate by the clock, and the fixture answers as of at.
	opts := []validation.Option{validation.WithTime(at), validation.WithClock(func() time.Time { return at }),
		validation.WithEgress(validation.Egress{AllowPrivateNetworks: true})}
	if len(anchors) > 0 {
		opts = append(opts, validation.WithPrivateAnchors(anchors...))
	}
	if offline {
		opts = append(opts, validation.Offline())
	}
	v, err := validation.New(context.Background(), opts...)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

// BenchmarkValidateCAdES validates a detached CAdES signature over
// payloads of several sizes in process. LT is offline: everything it
// needs is embedded. B needs the signer's revocation status online: the
// PKI server runs outside the timed loop, and after the first iteration
// the validator's revocation cache answers.
func BenchmarkValidateCAdES(b *testing.B) {
	srv := pki.Start(b)
	at := pki.ReferenceTime
	srv.SetClock(func() time.Time { return at })
	anchors := []*x509.Certificate{srv.Root.Certificate}
	for _, level := range []cades.Level{cades.B, cades.LT} {
		v := benchValidator(b, at, level == cades.LT, anchors...)
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%v/%s", level, size.name), func(b *testing.B) {
				content := make([]byte, size.n)
				rand.Read(content)
				sig, err := cades.Sign(content, cades.Options{
					PKI: srv.PKI, Signer: srv.SignerRSA, Level: level, Detached: true,
					SigningTime: at.Add(-12 * time.Hour),
				})
				if err != nil {
					b.Fatal(err)
				}
				doc := document(sig, content, true)
				// One run outside the timer checks the fixture passes, so
				// the figures are those of a successful validation.
				res, err := v.Validate(context.Background(), doc)
				if err != nil || !res.Summary.Valid {
					b.Fatalf("fixture does not validate: %v %+v", err, res)
				}
				b.SetBytes(int64(size.n))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.Validate(context.Background(), doc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkValidateJAdES is BenchmarkValidateCAdES for a JAdES signature
// whose sigD (ObjectIdByURIHash) names the detached payload: the reader
// hashes the payload's base64url encoding as it encodes it, a chunk at a
// time, never holding the encoding whole.
func BenchmarkValidateJAdES(b *testing.B) {
	srv := pki.Start(b)
	at := pki.ReferenceTime
	srv.SetClock(func() time.Time { return at })
	anchors := []*x509.Certificate{srv.Root.Certificate}
	for _, level := range []jades.Level{jades.B, jades.LT} {
		v := benchValidator(b, at, level == jades.LT, anchors...)
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%v/%s", level, size.name), func(b *testing.B) {
				content := make([]byte, size.n)
				rand.Read(content)
				sig, detached, err := jades.Sign(content, jades.Options{
					PKI: srv.PKI, Signer: srv.SignerRSA, Level: level, Packaging: jades.SigD,
					SigningTime: at.Add(-12 * time.Hour),
				})
				if err != nil {
					b.Fatal(err)
				}
				doc := validation.Document{Name: "signature.json", Data: sig, Detached: []validation.Part{{Name: jades.DefaultDocumentName, Data: detached}}}
				res, err := v.Validate(context.Background(), doc)
				if err != nil || !res.Summary.Valid {
					b.Fatalf("fixture does not validate: %v %+v", err, res)
				}
				b.SetBytes(int64(size.n))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := v.Validate(context.Background(), doc); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkSHA256 is the baseline: hashing 10 MB once. The goal is a 10 MB
// CAdES-LT validation within twice this.
func BenchmarkSHA256(b *testing.B) {
	data := make([]byte, 10<<20)
	rand.Read(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		sha256.Sum256(data)
	}
}

// BenchmarkValidateWithEUSnapshot validates a small CAdES-LT signature
// with the real 2023 EU snapshot of the corpus loaded (thousands of
// anchors): what a validation costs in production besides hashing.
// Building and indexing the anchors once per snapshot, not once per
// validation, is what this measures; the first validation after a
// snapshot swap pays for it, outside the loop here.
func BenchmarkValidateWithEUSnapshot(b *testing.B) {
	dir := b.TempDir()
	cache, err := tlcache.Open(dir, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	fillCorpusCache(b, cache)
	srv := pki.Start(b)
	at := pki.ReferenceTime
	cfg, err := config.LoadValidator(nil, []string{
		"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + dir,
		"SVC_DSS_VALIDATOR_LOTL_URL=" + lotlURL,
		"SVC_DSS_VALIDATOR_OJ_KEYSTORE=" + filepath.Join(realworld.Trust(b), corpusOJKeystore),
		"SVC_DSS_VALIDATOR_OJ_KEYSTORE_PASSWORD=" + corpusOJPassword,
		"SVC_DSS_VALIDATOR_SWISS_ENABLED=false",
	}, io.Discard)
	if err != nil {
		b.Fatal(err)
	}
	cfg.Offline = true
	v := serviceValidator(b, cfg, slog.New(slog.DiscardHandler), func() time.Time { return at }, validation.WithPrivateAnchors(srv.Root.Certificate))
	content := []byte("contract")
	sig, err := cades.Sign(content, cades.Options{PKI: srv.PKI, Signer: srv.SignerRSA, Level: cades.LT, Detached: true, SigningTime: at.Add(-12 * time.Hour)})
	if err != nil {
		b.Fatal(err)
	}
	doc := document(sig, content, true)
	res, err := v.Validate(context.Background(), doc)
	if err != nil || !res.Summary.Valid {
		b.Fatalf("fixture does not validate: %v %+v", err, res)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := v.Validate(context.Background(), doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidatePAdES validates PAdES-LT documents (T signatures, one
// store) of 100 KB, 1 MB, 10 MB and 40 MB with 1 and 5 signatures in
// process, offline: reading, the ETSI process and the report. alloc/file
// is the memory allocated in a validation over the file's size: an upper
// bound of the heap a validation adds (the goal for 40 MB is under 2).
func BenchmarkValidatePAdES(b *testing.B) {
	p, err := pki.New("http://127.0.0.1:9") // never asked: the documents carry their data
	if err != nil {
		b.Fatal(err)
	}
	at := pki.ReferenceTime
	v := benchValidator(b, at, true, p.Root.Certificate)
	for _, size := range []struct {
		name string
		n    int
	}{{"100KB", 100 << 10}, {"1MB", 1 << 20}, {"10MB", 10 << 20}, {"40MB", 40 << 20}} {
		for _, sigs := range []int{1, 5} {
			d, err := pades.LT(p, size.n, sigs, at.Add(-12*time.Hour))
			if err != nil {
				b.Fatal(err)
			}
			doc := validation.Document{Name: "doc.pdf", Data: d.Bytes()}
			b.Run(fmt.Sprintf("%s/%dsig", size.name, sigs), func(b *testing.B) {
				res, err := v.Validate(context.Background(), doc)
				if err != nil || !res.Summary.Valid || len(res.Summary.Signatures) != sigs {
					b.Fatalf("fixture does not validate: %v %+v", err, res)
				}
				b.SetBytes(int64(len(doc.Data)))
				b.ReportAllocs()
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				for b.Loop() {
					if _, err := v.Validate(context.Background(), doc); err != nil {
						b.Fatal(err)
					}
				}
				runtime.ReadMemStats(&after)
				perOp := float64(after.TotalAlloc-before.TotalAlloc) / float64(b.N)
				b.ReportMetric(perOp/float64(len(doc.Data)), "alloc/file")
			})
		}
	}
}
