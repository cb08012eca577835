package cms

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"fmt"
	"io"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// digestAlgorithmDER returns the DigestAlgorithmIdentifier of h.
func digestAlgorithmDER(h crypto.Hash) ([]byte, error) {
	oid := cert.OIDFromHash(h)
	if oid == nil {
		return nil, fmt.Errorf("%w: hash %v", ErrUnsupported, h)
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(oid) // parameters absent (RFC 5754, section 2)
	})
	return b.Bytes()
}

// signatureAlgorithmDER returns the signatureAlgorithm for a key.
func signatureAlgorithmDER(pub crypto.PublicKey, h crypto.Hash, pss bool) ([]byte, cert.Scheme, error) {
	var b cryptobyte.Builder
	var scheme cert.Scheme
	switch pub.(type) {
	case *rsa.PublicKey:
		if pss {
			scheme = cert.PSS
			hashAlg, err := digestAlgorithmDER(h)
			if err != nil {
				return nil, 0, err
			}
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(cert.OIDRSASSAPSS)
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // RSASSA-PSS-params
					b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
						b.AddBytes(hashAlg)
					})
					b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
							b.AddASN1ObjectIdentifier(cert.OIDMGF1)
							b.AddBytes(hashAlg)
						})
					})
					b.AddASN1(cbasn1.Tag(2).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
						b.AddASN1Int64(int64(h.Size()))
					})
				})
			})
			out, err := b.Bytes()
			return out, scheme, err
		}
		scheme = cert.PKCS1v15
	case *ecdsa.PublicKey:
		scheme = cert.ECDSA
	case ed25519.PublicKey:
		scheme = cert.Ed25519
	default:
		return nil, 0, fmt.Errorf("%w: %T key", ErrUnsupported, pub)
	}
	oid := cert.SignatureAlgorithmOID(scheme, h)
	if oid == nil {
		return nil, 0, fmt.Errorf("%w: %v with %v", ErrUnsupported, scheme, h)
	}
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(oid)
		if scheme == cert.PKCS1v15 {
			b.AddASN1NULL() // RFC 4055, section 5
		}
	})
	out, err := b.Bytes()
	return out, scheme, err
}

// signBytes signs msg with key.
func signBytes(key crypto.Signer, scheme cert.Scheme, h crypto.Hash, msg []byte, rnd io.Reader) ([]byte, error) {
	if scheme == cert.Ed25519 {
		return key.Sign(rnd, msg, crypto.Hash(0))
	}
	hh := h.New()
	hh.Write(msg)
	digest := hh.Sum(nil)
	var opts crypto.SignerOpts = h
	if scheme == cert.PSS {
		opts = &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: h}
	}
	return key.Sign(rnd, digest, opts)
}
