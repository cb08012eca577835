package jades_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"testing"

	"github.com/matryer/is"

	fixture "github.com/svc-dss/dss/fixtures/jades"
)

// TestSignatureDigests: the evidence names the signature as a Signature
// Validation Token does: the SHA-256 of the signature value and, for an
// attached payload, of the JWS signing input.
func TestSignatureDigests(t *testing.T) {
	is := is.New(t)
	sig, parts := signFixture(t, fixture.Options{Level: fixture.B, Serialization: fixture.Compact, Packaging: fixture.Attached})
	is.Equal(len(parts), 0)
	dots := bytes.Split(sig, []byte("."))
	is.Equal(len(dots), 3)
	value, err := base64.RawURLEncoding.DecodeString(string(dots[2]))
	is.NoErr(err)
	got := read(t, sig)
	is.Equal(len(got), 1)
	wantInput := sha256.Sum256(bytes.Join(dots[:2], []byte(".")))
	is.Equal(got[0].SignatureValue, value)
	is.Equal(got[0].SignedBytesSHA256, wantInput[:])
}
