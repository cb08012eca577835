package hsm_test

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"errors"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/ports"
)

// TestSigner: a key of the partition signs as a crypto.Signer, without
// an approval, in each scheme the seal uses; the signatures verify with
// the key's public key, ECDSA ones in ASN.1.
func TestSigner(t *testing.T) {
	pt := newPartition(t, "seal")
	h := hsm.New(hsm.Options{})
	digest := sha256.Sum256([]byte("a report's signed attributes"))
	tests := []struct {
		name   string
		key    ports.KeyRef
		opts   crypto.SignerOpts
		verify func(pub crypto.PublicKey, sig []byte) bool
	}{
		{"ECDSA", ecKey, crypto.SHA256, func(pub crypto.PublicKey, sig []byte) bool {
			return ecdsa.VerifyASN1(pub.(*ecdsa.PublicKey), digest[:], sig)
		}},
		{"RSA PKCS #1 v1.5", rsaKey, crypto.SHA256, func(pub crypto.PublicKey, sig []byte) bool {
			return rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), crypto.SHA256, digest[:], sig) == nil
		}},
		{"RSA PSS", rsaKey, &rsa.PSSOptions{Hash: crypto.SHA256, SaltLength: rsa.PSSSaltLengthEqualsHash}, func(pub crypto.PublicKey, sig []byte) bool {
			return rsa.VerifyPSS(pub.(*rsa.PublicKey), crypto.SHA256, digest[:], sig, nil) == nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s, err := h.Signer(context.Background(), pt.p, tt.key)
			is.NoErr(err)
			sig, err := s.Sign(rand.Reader, digest[:], tt.opts)
			is.NoErr(err)
			is.True(tt.verify(s.Public(), sig))
		})
	}
}

// TestSignerRefuses: a missing key is ErrKeyNotFound; a weak hash is
// refused before the token is asked.
func TestSignerRefuses(t *testing.T) {
	is := is.New(t)
	pt := newPartition(t, "seal")
	h := hsm.New(hsm.Options{})
	_, err := h.Signer(context.Background(), pt.p, ports.KeyRef{Label: "no-such-key"})
	is.True(errors.Is(err, ports.ErrKeyNotFound))
	s, err := h.Signer(context.Background(), pt.p, ecKey)
	is.NoErr(err)
	_, err = s.Sign(rand.Reader, make([]byte, 20), crypto.SHA1)
	is.True(errors.Is(err, hsm.ErrInvalidOperation))
}
