package ocsp_test

import (
	"bytes"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestFull: a whole OCSPResponse is kept as it is; a bare
// BasicOCSPResponse, as documents embed it, becomes the successful
// response that carries it, byte for byte; anything else is left for
// ParseResponse to refuse.
func TestFull(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	whole := build(t, spec{responder: p.Intermediate.Certificate, signer: p.Intermediate.Key, producedAt: pki.ReferenceTime,
		singles: []single{{cert: p.SignerRSA.Certificate, issuer: p.Intermediate.Certificate, reason: -1, thisUpdate: pki.ReferenceTime}}})
	resp, err := ocsp.ParseResponse(whole)
	is.NoErr(err)
	basic := resp.Basic.Raw

	is.True(bytes.Equal(ocsp.Full(whole), whole)) // a whole response: unchanged
	wrapped := ocsp.Full(basic)
	again, err := ocsp.ParseResponse(wrapped)
	is.NoErr(err)
	is.Equal(again.Status, ocsp.Successful)
	is.True(bytes.Equal(again.Basic.Raw, basic)) // the bytes given, carried
	is.True(bytes.Equal(wrapped, whole))         // what the responder sent

	garbage := []byte("not DER")
	is.True(bytes.Equal(ocsp.Full(garbage), garbage))
	_, err = ocsp.ParseResponse(ocsp.Full(garbage))
	is.True(err != nil)
}
