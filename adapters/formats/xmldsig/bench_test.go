package xmldsig_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// largestVerifiableList returns the largest TRUST.tsv list that xmlsec1
// verifies, or skips when the corpus is absent.
func largestVerifiableList(b *testing.B) (string, []byte) {
	b.Helper()
	var best string
	var bestSize int64
	for _, row := range readTrustTSV(b) {
		if row.expected() != "ok" {
			continue
		}
		if fi, err := os.Stat(filepath.Join(corpusDir, row.path)); err == nil && fi.Size() > bestSize {
			best, bestSize = row.path, fi.Size()
		}
	}
	if best == "" {
		b.Skip("no verifiable list in the shared corpus")
	}
	data, err := os.ReadFile(filepath.Join(corpusDir, best))
	if err != nil {
		b.Fatal(err)
	}
	return best, data
}

func BenchmarkVerifyLOTL(b *testing.B) {
	name, data := largestVerifiableList(b)
	b.Logf("%s, %d bytes", name, len(data))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := xmldsig.Verify(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCanonicalizeLOTL(b *testing.B) {
	_, data := largestVerifiableList(b)
	doc, err := xmldsig.ParseDocument(data)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := xmldsig.CanonicalizeDocument(doc, xmldsig.ExcC14N, nil); err != nil {
			b.Fatal(err)
		}
	}
}
