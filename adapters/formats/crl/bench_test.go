package crl_test

import (
	"math/big"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/crl"
)

// BenchmarkParse parses a CRL of 100 000 minimal entries and looks one up.
func BenchmarkParse(b *testing.B) {
	der := manyEntries(b, fixture(b), 100_000)
	b.SetBytes(int64(len(der)))
	b.ReportAllocs()
	for b.Loop() {
		l, err := crl.Parse(der)
		if err != nil {
			b.Fatal(err)
		}
		if revoked, _, _ := l.Status(big.NewInt(0x1007)); !revoked {
			b.Fatal("not revoked")
		}
	}
}
