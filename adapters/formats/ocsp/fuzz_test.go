package ocsp_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/fixtures/pki"
)

// FuzzParseOCSPResponse: ParseResponse never panics, fails only with
// ErrMalformed or ErrUnsupported, and what it accepts can be matched and
// verified without panicking; a verified response stays verified only if
// its signed bytes are what was signed.
func FuzzParseOCSPResponse(f *testing.F) {
	p, err := pki.New("http://ocsp.test")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(fixtureResponse(f, p, p.SignerRSA, pki.ReferenceTime))
	f.Add(fixtureResponse(f, p, p.Revoked, pki.ReferenceTime))
	f.Add(fixtureResponse(f, p, p.Intermediate, pki.ReferenceTime))
	f.Add(build(f, spec{responder: p.Intermediate.Certificate, byKey: true, signer: p.Intermediate.Key, producedAt: pki.ReferenceTime,
		singles: []single{{cert: p.SignerRSA.Certificate, issuer: p.Intermediate.Certificate, status: ocsp.Revoked,
			revokedAt: pki.RevocationTime, reason: 1, thisUpdate: pki.ReferenceTime, nextUpdate: pki.ReferenceTime.Add(time.Hour)}}}))
	f.Add([]byte{0x30, 0x03, 0x0a, 0x01, 0x03})
	f.Add([]byte{})

	f.Fuzz(func(t *testing.T, data []byte) {
		resp, err := ocsp.ParseResponse(data)
		if err != nil {
			if !errors.Is(err, ocsp.ErrMalformed) && !errors.Is(err, ocsp.ErrUnsupported) {
				t.Fatalf("unexpected error class: %v", err)
			}
			if resp != nil {
				t.Fatal("error with a response")
			}
			return
		}
		if (resp.Status == ocsp.Successful) != (resp.Basic != nil) {
			t.Fatalf("status %v with basic %v", resp.Status, resp.Basic != nil)
		}
		if resp.Basic == nil {
			return
		}
		b := resp.Basic
		if !bytes.Contains(data, b.RawResponseData) {
			t.Fatal("RawResponseData is not part of the input")
		}
		for _, sr := range b.Responses {
			if sr.CertID.SerialNumber == nil {
				t.Fatal("nil serial number")
			}
		}
		for _, id := range []*pki.Identity{p.SignerRSA, p.Revoked, p.Intermediate} {
			_, _ = b.Find(id.Certificate, id.Issuer.Certificate)
			if _, err := b.Verify(id.Issuer.Certificate); err == nil && !bytes.Contains(data, b.Signature) {
				t.Fatal("verified without its signature")
			}
		}
	})
}
