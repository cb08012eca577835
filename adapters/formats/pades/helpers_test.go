package pades_test

import (
	"testing"
	"time"

	fixture "github.com/svc-dss/dss/fixtures/pades"
	"github.com/svc-dss/dss/fixtures/pki"
)

// signedAt is when the fixture documents are signed.
var signedAt = time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)

// testPKI is the fixture PKI, its services at an address nothing answers.
func testPKI(tb testing.TB) *pki.PKI {
	tb.Helper()
	p, err := pki.New("http://pki.test")
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// ltDocument is a PDF of about size bytes with n PAdES-T signatures a
// minute apart, then a document security store an hour later (LT).
func ltDocument(tb testing.TB, p *pki.PKI, size, n int) *fixture.Document {
	tb.Helper()
	d, err := fixture.LT(p, size, n, signedAt)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
