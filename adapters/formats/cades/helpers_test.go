package cades_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/domain/ades"
	fixture "github.com/svc-dss/dss/fixtures/cades"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

var (
	pkiOnce sync.Once
	testP   *pki.PKI
	pkiErr  error
)

// testPKI builds the fixture PKI once; Sign calls it in process.
func testPKI(t testing.TB) *pki.PKI {
	t.Helper()
	pkiOnce.Do(func() { testP, pkiErr = pki.New("http://127.0.0.1:8080") })
	if pkiErr != nil {
		t.Fatal(pkiErr)
	}
	return testP
}

var (
	content     = []byte("CAdES reader test content\n")
	signingTime = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)
)

// sign builds a fixture signature or fails the test.
func sign(t testing.TB, o fixture.Options) []byte {
	t.Helper()
	o.PKI = testPKI(t)
	if o.Signer == nil {
		o.Signer = o.PKI.SignerRSA
	}
	o.SigningTime = signingTime
	sig, err := fixture.Sign(content, o)
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// read reads data (with the detached parts given) and fails the test on
// an error.
func read(t testing.TB, data []byte, detached ...[]byte) []ades.Signature {
	t.Helper()
	doc := ports.Document{Name: "test.p7s", Data: data}
	for _, d := range detached {
		doc.Detached = append(doc.Detached, ports.Detached{Name: "content", Data: d})
	}
	sigs, err := cades.NewReader().Read(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	return sigs
}

func timestampsOf(s ades.Signature, typ ades.TimestampType) []ades.Timestamp {
	var out []ades.Timestamp
	for _, ts := range s.Timestamps {
		if ts.Type == typ {
			out = append(out, ts)
		}
	}
	return out
}
