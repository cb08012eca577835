package cmssign

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
	"io"
	"slices"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
)

// SortedSet returns the DER encoding of a SET OF with the given DER
// element encodings, in the ascending order DER wants (X.690, 11.6).
func SortedSet(elems [][]byte) []byte {
	sorted := slices.Clone(elems)
	slices.SortFunc(sorted, bytes.Compare)
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
		for _, e := range sorted {
			b.AddBytes(e)
		}
	})
	return b.BytesOrPanic() // only a content beyond 2^32 bytes fails
}

// Attribute returns the DER encoding of a: its values are DER already;
// the SET OF them is sorted.
func Attribute(a cms.Attribute) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(a.Type)
		b.AddBytes(SortedSet(a.Values))
	})
	out, err := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: attribute %v: %v", cms.ErrMalformed, a.Type, err)
	}
	return out, nil
}

// DigestAlgorithm returns the DigestAlgorithmIdentifier of h.
func DigestAlgorithm(h crypto.Hash) ([]byte, error) {
	oid := cert.OIDFromHash(h)
	if oid == nil {
		return nil, fmt.Errorf("%w: hash %v", cms.ErrUnsupported, h)
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(oid) // parameters absent (RFC 5754, section 2)
	})
	return b.Bytes()
}

// SignatureAlgorithm returns the signatureAlgorithm for a key, hash h
// and, for RSA, PSS or PKCS #1 v1.5, with the scheme it stands for.
func SignatureAlgorithm(pub crypto.PublicKey, h crypto.Hash, pss bool) ([]byte, cert.Scheme, error) {
	var b cryptobyte.Builder
	var scheme cert.Scheme
	switch pub.(type) {
	case *rsa.PublicKey:
		if pss {
			scheme = cert.PSS
			hashAlg, err := DigestAlgorithm(h)
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
		return nil, 0, fmt.Errorf("%w: %T key", cms.ErrUnsupported, pub)
	}
	oid := cert.SignatureAlgorithmOID(scheme, h)
	if oid == nil {
		return nil, 0, fmt.Errorf("%w: %v with %v", cms.ErrUnsupported, scheme, h)
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

// SignMessage signs msg with key under scheme and h: the hash of msg,
// but msg itself for Ed25519.
func SignMessage(key crypto.Signer, scheme cert.Scheme, h crypto.Hash, msg []byte, rnd io.Reader) ([]byte, error) {
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

// SigningCertificateV2 returns the value of an ESS signing-certificate-v2
// attribute (RFC 5035) naming c: its SHA-256 (the default algorithm,
// omitted as DER wants) with its issuer and serial number.
func SigningCertificateV2(c *x509.Certificate) ([]byte, error) {
	sum := sha256.Sum256(c.Raw)
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // SigningCertificateV2
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // certs
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // ESSCertIDv2
				b.AddASN1OctetString(sum[:])
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // IssuerSerial
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // GeneralNames
						b.AddASN1(cbasn1.Tag(4).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
							b.AddBytes(c.RawIssuer)
						})
					})
					b.AddASN1BigInt(c.SerialNumber)
				})
			})
		})
	})
	return b.Bytes()
}
