package cms

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// A Signer is one signer for Sign.
type Signer struct {
	Certificate *x509.Certificate
	Key         crypto.Signer // *rsa.PrivateKey, *ecdsa.PrivateKey, ed25519.PrivateKey or a signer for one

	// Hash is the digest algorithm, SHA-256 when 0. Ed25519 always uses
	// SHA-512 (RFC 8419).
	Hash crypto.Hash

	// PSS makes an RSA key sign with RSASSA-PSS (salt as long as the
	// hash) instead of PKCS #1 v1.5.
	PSS bool

	// SubjectKeyID identifies the signer by the certificate's subject key
	// identifier (SignerInfo version 3) instead of issuer and serial.
	SubjectKeyID bool

	// SigningTime is the signing-time attribute, time.Now() when zero.
	SigningTime time.Time
	// OmitSigningTime leaves the signing-time attribute out, as PAdES
	// baseline signatures must (ETSI EN 319 142-1, 5.3: the time is the
	// signature dictionary's /M).
	OmitSigningTime bool

	// NoSignedAttributes makes the signature cover the content itself,
	// with no signed attributes (and so no signing time, no ESS
	// signing-certificate). It is for tests: CAdES requires attributes.
	NoSignedAttributes bool

	// ESSCertificate is the certificate the signing-certificate-v2
	// attribute names, Certificate when nil. Naming another one makes a
	// negative test vector (a signature whose ESS reference is wrong).
	ESSCertificate *x509.Certificate

	// ContentTypeAttribute is the value of the content-type attribute,
	// the eContentType when nil; OmitContentType leaves the attribute
	// out. Both are for tests: RFC 5652 makes the attribute required and
	// equal to the eContentType, and a validator must fail a signature
	// that breaks that.
	ContentTypeAttribute asn1.ObjectIdentifier
	OmitContentType      bool

	// SignedAttributes are added to content-type, message-digest,
	// signing-time and signing-certificate-v2.
	SignedAttributes []Attribute

	// UnsignedAttributes, if not nil, returns unsigned attributes for the
	// signature value, such as a signature time-stamp (RFC 3161,
	// appendix A) over it.
	UnsignedAttributes func(signature []byte) ([]Attribute, error)

	// CounterSigners counter-sign this signer's signature value (RFC 5652,
	// section 11.4); their certificates are embedded too.
	CounterSigners []Signer
}

// SignOptions are the options of Sign.
type SignOptions struct {
	// Detached leaves the content out of the SignedData.
	Detached bool

	// ContentType is the eContentType, id-data when nil.
	ContentType asn1.ObjectIdentifier

	// Certificates are embedded besides the signers' (which always are):
	// issuing CAs, typically.
	Certificates []*x509.Certificate

	// CRLs (DER CertificateLists) and OtherRevocationInfo (OCSP responses,
	// say) go into the crls field, as CAdES-LT may carry them.
	CRLs                [][]byte
	OtherRevocationInfo []OtherRevocationInfo

	// OmitSignerCertificates leaves the signers' and counter-signers'
	// certificates out, as producers that send no "key info" do; a
	// validator must then know the signer's certificate from elsewhere.
	OmitSignerCertificates bool

	// Rand is the randomness for ECDSA and PSS, crypto/rand when nil.
	Rand io.Reader
}

// Sign returns the DER encoding of a ContentInfo holding a SignedData that
// signs content with each signer. Each signer gets the signed attributes
// content-type, message-digest, signing-time and an ESS
// signing-certificate-v2 for its certificate (SHA-256, with issuer and
// serial), plus Signer.SignedAttributes, encoded as a sorted DER SET, so
// the same input gives the same attributes. The certificates field holds
// the signer, counter-signer and SignOptions certificates without
// duplicates; it and the SignerInfos are sorted as DER wants, so the order
// of SignerInfos need not be the order of signers.
//
// Sign exists for fixtures and tests: it does no policy checks (key usage,
// validity) on the certificates it is given.
func Sign(content []byte, signers []Signer, opts SignOptions) ([]byte, error) {
	if len(signers) == 0 {
		return nil, errors.New("cms: no signer")
	}
	contentType := opts.ContentType
	if contentType == nil {
		contentType = OIDData
	}
	rnd := opts.Rand
	if rnd == nil {
		rnd = rand.Reader
	}
	var infos, digestAlgs [][]byte
	var certs []*x509.Certificate
	version := 1
	if !contentType.Equal(OIDData) {
		version = 3
	}
	for i, s := range signers {
		si, used, err := signerInfo(s, content, contentType, false, rnd)
		if err != nil {
			return nil, fmt.Errorf("cms: signer %d: %w", i, err)
		}
		infos = append(infos, si)
		alg, err := digestAlgorithmDER(s.hash())
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(digestAlgs, func(b []byte) bool { return bytes.Equal(b, alg) }) {
			digestAlgs = append(digestAlgs, alg)
		}
		if s.SubjectKeyID {
			version = 3
		}
		if !opts.OmitSignerCertificates {
			certs = appendCerts(certs, used...)
		}
	}
	certs = appendCerts(certs, opts.Certificates...)
	revocation := slices.Clone(opts.CRLs)
	for _, o := range opts.OtherRevocationInfo {
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(o.Format)
			b.AddBytes(o.Info)
		})
		other, err := b.Bytes()
		if err != nil {
			return nil, fmt.Errorf("cms: other revocation information: %w", err)
		}
		revocation = append(revocation, other)
		version = 5 // RFC 5652, section 5.1
	}
	rawCerts := make([][]byte, len(certs))
	for i, c := range certs {
		rawCerts[i] = c.Raw
	}

	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // ContentInfo
		b.AddASN1ObjectIdentifier(OIDSignedData)
		b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // SignedData
				b.AddASN1Int64(int64(version))
				b.AddBytes(sortedSetDER(digestAlgs))
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // EncapsulatedContentInfo
					b.AddASN1ObjectIdentifier(contentType)
					if !opts.Detached {
						b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
							b.AddASN1OctetString(content)
						})
					}
				})
				// certificates [0] IMPLICIT CertificateSet: the SET OF
				// with its tag replaced.
				if len(rawCerts) > 0 {
					set := sortedSetDER(rawCerts)
					set[0] = 0xa0
					b.AddBytes(set)
				}
				if len(revocation) > 0 { // crls [1] IMPLICIT RevocationInfoChoices
					set := sortedSetDER(revocation)
					set[0] = 0xa1
					b.AddBytes(set)
				}
				b.AddBytes(sortedSetDER(infos))
			})
		})
	})
	return b.Bytes()
}

func (s Signer) hash() crypto.Hash {
	if _, ok := s.Key.Public().(ed25519.PublicKey); ok {
		return crypto.SHA512
	}
	if s.Hash == 0 {
		return crypto.SHA256
	}
	return s.Hash
}

// signerInfo encodes the SignerInfo of s over content and returns it with
// the certificates it uses (its own and its counter-signers').
func signerInfo(s Signer, content []byte, contentType asn1.ObjectIdentifier, counter bool, rnd io.Reader) ([]byte, []*x509.Certificate, error) {
	if s.Certificate == nil || s.Key == nil {
		return nil, nil, errors.New("certificate or key missing")
	}
	if s.SubjectKeyID && len(s.Certificate.SubjectKeyId) == 0 {
		return nil, nil, errors.New("certificate has no subject key identifier")
	}
	h := s.hash()
	if !h.Available() {
		return nil, nil, fmt.Errorf("%w: hash %v", ErrUnsupported, h)
	}
	digestAlg, err := digestAlgorithmDER(h)
	if err != nil {
		return nil, nil, err
	}
	sigAlg, scheme, err := signatureAlgorithmDER(s.Key.Public(), h, s.PSS)
	if err != nil {
		return nil, nil, err
	}
	hh := h.New()
	hh.Write(content)
	contentDigest := hh.Sum(nil)

	var attrSet []byte
	signed := content
	if !s.NoSignedAttributes {
		attrs, err := s.signedAttributes(contentDigest, contentType, counter)
		if err != nil {
			return nil, nil, err
		}
		encodings := make([][]byte, len(attrs))
		for i, a := range attrs {
			if encodings[i], err = a.der(); err != nil {
				return nil, nil, err
			}
		}
		attrSet = sortedSetDER(encodings)
		signed = attrSet
	}
	sig, err := signBytes(s.Key, scheme, h, signed, rnd)
	if err != nil {
		return nil, nil, err
	}

	used := []*x509.Certificate{s.Certificate}
	var unsigned [][]byte
	if s.UnsignedAttributes != nil {
		attrs, err := s.UnsignedAttributes(sig)
		if err != nil {
			return nil, nil, fmt.Errorf("unsigned attributes: %w", err)
		}
		for _, a := range attrs {
			der, err := a.der()
			if err != nil {
				return nil, nil, err
			}
			unsigned = append(unsigned, der)
		}
	}
	if len(s.CounterSigners) > 0 {
		var values [][]byte
		for i, cs := range s.CounterSigners {
			v, csCerts, err := signerInfo(cs, sig, nil, true, rnd)
			if err != nil {
				return nil, nil, fmt.Errorf("counter-signer %d: %w", i, err)
			}
			values = append(values, v)
			used = append(used, csCerts...)
		}
		der, err := Attribute{Type: OIDAttrCounterSignature, Values: values}.der()
		if err != nil {
			return nil, nil, err
		}
		unsigned = append(unsigned, der)
	}

	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		if s.SubjectKeyID {
			b.AddASN1Int64(3)
			b.AddASN1(cbasn1.Tag(0).ContextSpecific(), func(b *cryptobyte.Builder) {
				b.AddBytes(s.Certificate.SubjectKeyId)
			})
		} else {
			b.AddASN1Int64(1)
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddBytes(s.Certificate.RawIssuer)
				b.AddASN1BigInt(s.Certificate.SerialNumber)
			})
		}
		b.AddBytes(digestAlg)
		if attrSet != nil {
			implicit := slices.Clone(attrSet)
			implicit[0] = 0xa0 // [0] IMPLICIT SET OF
			b.AddBytes(implicit)
		}
		b.AddBytes(sigAlg)
		b.AddASN1OctetString(sig)
		if len(unsigned) > 0 {
			set := sortedSetDER(unsigned)
			set[0] = 0xa1 // [1] IMPLICIT SET OF
			b.AddBytes(set)
		}
	})
	out, err := b.Bytes()
	return out, used, err
}

// signedAttributes returns the signed attributes of s. Counter-signatures
// carry no content-type (RFC 5652, section 11.1).
func (s Signer) signedAttributes(digest []byte, contentType asn1.ObjectIdentifier, counter bool) ([]Attribute, error) {
	at := s.SigningTime
	if at.IsZero() {
		at = time.Now()
	}
	var attrs []Attribute
	add := func(oid asn1.ObjectIdentifier, build func(b *cryptobyte.Builder)) error {
		var b cryptobyte.Builder
		build(&b)
		v, err := b.Bytes()
		if err != nil {
			return fmt.Errorf("attribute %v: %w", oid, err)
		}
		attrs = append(attrs, Attribute{Type: oid, Values: [][]byte{v}})
		return nil
	}
	if s.ContentTypeAttribute != nil {
		contentType = s.ContentTypeAttribute
	}
	if !counter && !s.OmitContentType {
		if err := add(OIDAttrContentType, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(contentType) }); err != nil {
			return nil, err
		}
	}
	if err := add(OIDAttrMessageDigest, func(b *cryptobyte.Builder) { b.AddASN1OctetString(digest) }); err != nil {
		return nil, err
	}
	if !s.OmitSigningTime {
		if err := add(OIDAttrSigningTime, func(b *cryptobyte.Builder) { addTime(b, at) }); err != nil {
			return nil, err
		}
	}
	ess := s.Certificate
	if s.ESSCertificate != nil {
		ess = s.ESSCertificate
	}
	certHash := sha256Sum(ess.Raw)
	if err := add(OIDAttrSigningCertificateV2, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // SigningCertificateV2
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // certs
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // ESSCertIDv2
					// hashAlgorithm DEFAULT sha256: omitted, as DER wants.
					b.AddASN1OctetString(certHash)
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // IssuerSerial
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { // GeneralNames
							b.AddASN1(cbasn1.Tag(4).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
								b.AddBytes(ess.RawIssuer)
							})
						})
						b.AddASN1BigInt(ess.SerialNumber)
					})
				})
			})
		})
	}); err != nil {
		return nil, err
	}
	return append(attrs, s.SignedAttributes...), nil
}

// addTime adds a signing-time value: UTCTime for 1950-2049, else
// GeneralizedTime (RFC 5652, section 11.3).
func addTime(b *cryptobyte.Builder, t time.Time) {
	t = t.UTC().Truncate(time.Second)
	if t.Year() >= 1950 && t.Year() < 2050 {
		b.AddASN1UTCTime(t)
		return
	}
	b.AddASN1GeneralizedTime(t)
}

func sha256Sum(b []byte) []byte {
	h := crypto.SHA256.New()
	h.Write(b)
	return h.Sum(nil)
}

// appendCerts appends the certificates of add not yet in certs.
func appendCerts(certs []*x509.Certificate, add ...*x509.Certificate) []*x509.Certificate {
	for _, c := range add {
		if c != nil && !slices.ContainsFunc(certs, c.Equal) {
			certs = append(certs, c)
		}
	}
	return certs
}
