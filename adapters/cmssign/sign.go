package cmssign

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cms"
)

// A Signer is the one signer of SignDetached.
type Signer struct {
	Certificate *x509.Certificate
	// Chain are the certificates embedded besides Certificate, its
	// issuers, so that a validator can build the path without fetching.
	Chain []*x509.Certificate
	// Key is Certificate's private key: an RSA or ECDSA key, in memory or
	// in a token.
	Key crypto.Signer
	// Timestamp, when set, returns an RFC 3161 TimeStampToken whose
	// message imprint is digest, the hash h of the signature value: the
	// signature-time-stamp (RFC 3161, appendix A) of level T.
	Timestamp func(ctx context.Context, h crypto.Hash, digest []byte) ([]byte, error)
	// PSS signs an RSA key with RSASSA-PSS (MGF1 on the digest's hash,
	// salt as long as the hash) instead of PKCS #1 v1.5.
	PSS bool
	// SigningTime, when not zero, is added as the signing-time signed
	// attribute: a CAdES baseline signature has one (ETSI EN 319 122-1,
	// 5.2.1), a PAdES one must not (its time is the dictionary's /M).
	SigningTime time.Time
}

// Hash is the digest algorithm SignDetached uses with key: SHA-384 and
// SHA-512 for the P-384 and P-521 curves, which want a digest as strong
// as the curve (RFC 5480, section 4), SHA-512 for Ed25519 (RFC 8419),
// SHA-256 otherwise.
func Hash(key crypto.PublicKey) crypto.Hash {
	switch k := key.(type) {
	case *ecdsa.PublicKey:
		switch k.Curve {
		case elliptic.P384():
			return crypto.SHA384
		case elliptic.P521():
			return crypto.SHA512
		}
	case ed25519.PublicKey:
		return crypto.SHA512
	}
	return crypto.SHA256
}

// SignDetached returns the DER ContentInfo of a detached SignedData by s
// over content: signed attributes content-type (id-data),
// message-digest and signing-certificate-v2 and no signing-time, the
// signer identified by issuer and serial, Certificate and Chain
// embedded; with s.Timestamp, a signature-time-stamp as unsigned
// attribute. This is the CMS of a PAdES baseline signature (ETSI EN 319
// 142-1, 5.3 and 6.3: the signing time is the signature dictionary's /M).
func SignDetached(ctx context.Context, content []byte, s Signer) ([]byte, error) {
	if s.Certificate == nil || s.Key == nil {
		return nil, errors.New("cmssign: a certificate and its key are required")
	}
	h := Hash(s.Key.Public())
	digestAlg, err := DigestAlgorithm(h)
	if err != nil {
		return nil, fmt.Errorf("cmssign: %w", err)
	}
	sigAlg, scheme, err := SignatureAlgorithm(s.Key.Public(), h, s.PSS)
	if err != nil {
		return nil, fmt.Errorf("cmssign: %w", err)
	}
	hh := h.New()
	hh.Write(content)
	ess, err := SigningCertificateV2(s.Certificate)
	if err != nil {
		return nil, fmt.Errorf("cmssign: signing-certificate-v2: %w", err)
	}
	var contentType, messageDigest cryptobyte.Builder
	contentType.AddASN1ObjectIdentifier(cms.OIDData)
	messageDigest.AddASN1OctetString(hh.Sum(nil))
	list := []cms.Attribute{
		{Type: cms.OIDAttrContentType, Values: [][]byte{contentType.BytesOrPanic()}},
		{Type: cms.OIDAttrMessageDigest, Values: [][]byte{messageDigest.BytesOrPanic()}},
		{Type: cms.OIDAttrSigningCertificateV2, Values: [][]byte{ess}},
	}
	if !s.SigningTime.IsZero() {
		at, err := asn1.MarshalWithParams(s.SigningTime.UTC().Truncate(time.Second), "utc")
		if err != nil {
			return nil, fmt.Errorf("cmssign: signing-time: %w", err)
		}
		list = append(list, cms.Attribute{Type: cms.OIDAttrSigningTime, Values: [][]byte{at}})
	}
	var attrs [][]byte
	for _, a := range list {
		der, err := Attribute(a)
		if err != nil {
			return nil, fmt.Errorf("cmssign: %w", err)
		}
		attrs = append(attrs, der)
	}
	signed := SortedSet(attrs)
	sig, err := SignMessage(s.Key, scheme, h, signed, rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("cmssign: signing: %w", err)
	}
	var unsigned []byte
	if s.Timestamp != nil {
		th := crypto.SHA256
		sum := th.New()
		sum.Write(sig)
		token, err := s.Timestamp(ctx, th, sum.Sum(nil))
		if err != nil {
			return nil, fmt.Errorf("cmssign: signature-time-stamp: %w", err)
		}
		der, err := Attribute(cms.Attribute{Type: cms.OIDAttrTimeStampToken, Values: [][]byte{token}})
		if err != nil {
			return nil, fmt.Errorf("cmssign: %w", err)
		}
		unsigned = SortedSet([][]byte{der})
		unsigned[0] = 0xa1 // [1] IMPLICIT SET OF
	}
	signedImplicit := signed
	signedImplicit[0] = 0xa0 // [0] IMPLICIT SET OF; signed was hashed above
	certs := [][]byte{s.Certificate.Raw}
	for _, c := range s.Chain {
		if !c.Equal(s.Certificate) {
			certs = append(certs, c.Raw)
		}
	}
	certSet := SortedSet(certs)
	certSet[0] = 0xa0 // certificates [0] IMPLICIT CertificateSet

	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // ContentInfo
		b.AddASN1ObjectIdentifier(cms.OIDSignedData)
		b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // SignedData
				b.AddASN1Int64(1)
				b.AddBytes(SortedSet([][]byte{digestAlg}))
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // EncapsulatedContentInfo, detached
					b.AddASN1ObjectIdentifier(cms.OIDData)
				})
				b.AddBytes(certSet)
				b.AddASN1(cbasn1.SET, func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // SignerInfo
						b.AddASN1Int64(1)
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // IssuerAndSerialNumber
							b.AddBytes(s.Certificate.RawIssuer)
							b.AddASN1BigInt(s.Certificate.SerialNumber)
						})
						b.AddBytes(digestAlg)
						b.AddBytes(signedImplicit)
						b.AddBytes(sigAlg)
						b.AddASN1OctetString(sig)
						if unsigned != nil {
							b.AddBytes(unsigned)
						}
					})
				})
			})
		})
	})
	out, err := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("cmssign: %w", err)
	}
	return out, nil
}
