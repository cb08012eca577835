package cms

import (
	"bytes"
	"crypto"
	"crypto/sha1"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// A SignerInfo is one signer of a SignedData (RFC 5652, section 5.3), or a
// counter-signature (section 11.4).
type SignerInfo struct {
	// Raw is the SignerInfo as found in the input.
	Raw []byte

	Version int
	SID     SignerIdentifier

	// DigestAlgorithm and SignatureAlgorithm are AlgorithmIdentifiers, DER.
	DigestAlgorithm    []byte
	SignatureAlgorithm []byte

	// SignedAttrs are the signed attributes in input order, nil when the
	// signature covers the content directly.
	SignedAttrs Attributes

	// RawSignedAttrs is the [0] IMPLICIT signedAttrs element as found in
	// the input. SignedAttrsDER is what the signature covers (RFC 5652,
	// section 5.4): the DER encoding of the SET OF attributes, with the
	// SET tag 0x31. When the input is DER it is RawSignedAttrs with its
	// first byte replaced; otherwise (indefinite lengths, segmented
	// strings, an unsorted SET) it is the re-encoding and SignedAttrsBER
	// is true. A signature its signer computed over non-DER bytes does not
	// verify, as RFC 5652 requires and BouncyCastle (hence DSS) does,
	// while OpenSSL verifies over the bytes as found.
	RawSignedAttrs []byte
	SignedAttrsDER []byte
	SignedAttrsBER bool

	// Signature is the signature value.
	Signature []byte

	// UnsignedAttrs are the unsigned attributes in input order.
	UnsignedAttrs Attributes

	// CounterSignatures are the SignerInfos of the countersignature
	// unsigned attributes (RFC 5652, section 11.4), in order; each may
	// have counter-signatures of its own, to MaxCounterSignatureDepth.
	CounterSignatures []*SignerInfo
}

// A SignerIdentifier identifies the signer certificate: by issuer and
// serial number, or (SubjectKeyID not nil) by subject key identifier.
type SignerIdentifier struct {
	Issuer       []byte // DER Name
	SerialNumber *big.Int
	SubjectKeyID []byte
}

func (id SignerIdentifier) String() string {
	if id.SubjectKeyID != nil {
		return fmt.Sprintf("subject key identifier %x", id.SubjectKeyID)
	}
	name, err := cert.ParseName(id.Issuer)
	if err != nil {
		return fmt.Sprintf("serial %v of an unreadable issuer", id.SerialNumber)
	}
	return fmt.Sprintf("serial %v issued by %q", id.SerialNumber, name.String())
}

// Matches reports whether c is the certificate id names. A subject key
// identifier matches the certificate's extension or, for a certificate
// without one, the SHA-1 of its public key (RFC 5280, section 4.2.1.2,
// method 1). Issuer names are compared with cert.EqualNames.
func (id SignerIdentifier) Matches(c *x509.Certificate) bool {
	if id.SubjectKeyID != nil {
		if len(c.SubjectKeyId) > 0 {
			return bytes.Equal(c.SubjectKeyId, id.SubjectKeyID)
		}
		return bytes.Equal(publicKeySHA1(c), id.SubjectKeyID)
	}
	return id.SerialNumber != nil && c.SerialNumber != nil &&
		id.SerialNumber.Cmp(c.SerialNumber) == 0 && cert.EqualNames(c.RawIssuer, id.Issuer)
}

// publicKeySHA1 is the SHA-1 of the subjectPublicKey bits of c.
func publicKeySHA1(c *x509.Certificate) []byte {
	in := cryptobyte.String(c.RawSubjectPublicKeyInfo)
	var spki, alg cryptobyte.String
	var bits asn1.BitString
	if !in.ReadASN1(&spki, cbasn1.SEQUENCE) || !spki.ReadASN1(&alg, cbasn1.SEQUENCE) ||
		!spki.ReadASN1BitString(&bits) {
		return nil
	}
	sum := sha1.Sum(bits.Bytes)
	return sum[:]
}

// Hash returns the digest algorithm of si.
func (si *SignerInfo) Hash() (crypto.Hash, error) {
	h, err := cert.HashFromAlgorithmIdentifier(si.DigestAlgorithm)
	if err != nil {
		return 0, wrapCertError(err)
	}
	return h, nil
}

// Algorithm returns the signature algorithm of si. The hash is the one the
// signatureAlgorithm names (sha256WithRSAEncryption, RSASSA-PSS
// parameters) or else the digest algorithm (rsaEncryption,
// id-ecPublicKey). A signer whose two algorithms name different hashes,
// which RFC 8933 forbids, is checked with the signature algorithm's hash,
// as BouncyCastle does.
func (si *SignerInfo) Algorithm() (cert.SignatureAlgorithm, error) {
	h, err := si.Hash()
	if err != nil {
		h = 0 // the signature algorithm may name its own hash
	}
	alg, err := cert.ParseSignatureAlgorithm(si.SignatureAlgorithm, h)
	if err != nil {
		return alg, wrapCertError(err)
	}
	return alg, nil
}

// MessageDigest returns the value of the message-digest attribute.
func (si *SignerInfo) MessageDigest() ([]byte, error) {
	v, ok, err := si.SignedAttrs.Single(OIDAttrMessageDigest)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: no message-digest attribute", ErrMalformed)
	}
	s := cryptobyte.String(v)
	var digest cryptobyte.String
	if !s.ReadASN1(&digest, cbasn1.OCTET_STRING) || !s.Empty() {
		return nil, fmt.Errorf("%w: message-digest attribute value", ErrMalformed)
	}
	return digest, nil
}

// ContentTypeAttr returns the value of the content-type attribute; ok is
// false when it is absent.
func (si *SignerInfo) ContentTypeAttr() (oid asn1.ObjectIdentifier, ok bool, err error) {
	v, ok, err := si.SignedAttrs.Single(OIDAttrContentType)
	if err != nil || !ok {
		return nil, ok, err
	}
	s := cryptobyte.String(v)
	if !s.ReadASN1ObjectIdentifier(&oid) || !s.Empty() {
		return nil, true, fmt.Errorf("%w: content-type attribute value", ErrMalformed)
	}
	return oid, true, nil
}

// SigningTime returns the value of the signing-time attribute; ok is false
// when it is absent.
func (si *SignerInfo) SigningTime() (t time.Time, ok bool, err error) {
	v, ok, err := si.SignedAttrs.Single(OIDAttrSigningTime)
	if err != nil || !ok {
		return t, ok, err
	}
	s := cryptobyte.String(v)
	var content cryptobyte.String
	var tag cbasn1.Tag
	if !s.ReadAnyASN1(&content, &tag) || !s.Empty() ||
		(tag != cbasn1.UTCTime && tag != cbasn1.GeneralizedTime) {
		return t, true, fmt.Errorf("%w: signing-time attribute value", ErrMalformed)
	}
	t, err = cert.ParseTime(tag == cbasn1.GeneralizedTime, string(content))
	if err != nil {
		return t, true, fmt.Errorf("%w: signing-time: %v", ErrMalformed, err)
	}
	return t, true, nil
}

func parseSignerInfo(e element, depth int) (*SignerInfo, error) {
	if !e.is(classUniversal, asn1.TagSequence, true) {
		return nil, fmt.Errorf("%w: SignerInfo is not a SEQUENCE", ErrMalformed)
	}
	kids, err := e.fields(7)
	if err != nil {
		return nil, err
	}
	if len(kids) < 5 {
		return nil, fmt.Errorf("%w: SignerInfo has %d fields", ErrMalformed, len(kids))
	}
	si := &SignerInfo{Raw: e.raw}
	if si.Version, err = kids[0].smallInt(5); err != nil {
		return nil, fmt.Errorf("version: %w", err)
	}
	if si.SID, err = parseSignerIdentifier(kids[1]); err != nil {
		return nil, err
	}
	if si.DigestAlgorithm, err = algorithmDER(kids[2]); err != nil {
		return nil, fmt.Errorf("digestAlgorithm: %w", err)
	}
	i := 3
	if kids[i].is(classContext, 0, true) {
		if err := si.parseSignedAttrs(kids[i]); err != nil {
			return nil, err
		}
		i++
	}
	if i+1 >= len(kids) {
		return nil, fmt.Errorf("%w: SignerInfo fields", ErrMalformed)
	}
	if si.SignatureAlgorithm, err = algorithmDER(kids[i]); err != nil {
		return nil, fmt.Errorf("signatureAlgorithm: %w", err)
	}
	if !kids[i+1].isUniversal(asn1.TagOctetString) {
		return nil, fmt.Errorf("%w: signature is not an OCTET STRING", ErrMalformed)
	}
	if si.Signature, err = kids[i+1].octets(); err != nil {
		return nil, fmt.Errorf("signature: %w", err)
	}
	i += 2
	if i < len(kids) && kids[i].is(classContext, 1, true) {
		if si.UnsignedAttrs, err = parseAttributes(kids[i]); err != nil {
			return nil, fmt.Errorf("unsignedAttrs: %w", err)
		}
		i++
	}
	if i != len(kids) {
		return nil, fmt.Errorf("%w: trailing fields in SignerInfo", ErrMalformed)
	}
	return si, si.parseCounterSignatures(depth)
}

func parseSignerIdentifier(e element) (SignerIdentifier, error) {
	var id SignerIdentifier
	switch {
	case e.is(classUniversal, asn1.TagSequence, true):
		kids, err := e.fields(2)
		if err != nil || len(kids) != 2 || !kids[0].is(classUniversal, asn1.TagSequence, true) {
			return id, fmt.Errorf("%w: issuerAndSerialNumber", ErrMalformed)
		}
		if id.Issuer, err = derOrOriginal(kids[0]); err != nil {
			return id, fmt.Errorf("issuer: %w", err)
		}
		if id.SerialNumber, err = kids[1].integer(); err != nil {
			return id, fmt.Errorf("serialNumber: %w", err)
		}
	case e.isContext(0):
		ski, err := e.octets()
		if err != nil {
			return id, fmt.Errorf("subjectKeyIdentifier: %w", err)
		}
		id.SubjectKeyID = append([]byte{}, ski...)
	default:
		return id, fmt.Errorf("%w: SignerIdentifier %v", ErrMalformed, e)
	}
	return id, nil
}

// parseSignedAttrs reads the [0] IMPLICIT SET OF Attribute and works out
// the DER encoding the signature covers.
func (si *SignerInfo) parseSignedAttrs(e element) error {
	attrs, err := parseAttributes(e)
	if err != nil {
		return fmt.Errorf("signedAttrs: %w", err)
	}
	if len(attrs) == 0 {
		// RFC 5652: SignedAttributes ::= SET SIZE (1..MAX) OF Attribute.
		return fmt.Errorf("%w: empty signedAttrs", ErrMalformed)
	}
	si.SignedAttrs = attrs
	si.RawSignedAttrs = e.raw
	encodings := make([][]byte, len(attrs))
	for i, a := range attrs {
		if encodings[i], err = a.der(); err != nil {
			return fmt.Errorf("signedAttrs: %w", err)
		}
	}
	si.SignedAttrsDER = sortedSetDER(encodings)
	asFound := append([]byte{0x31}, e.raw[1:]...)
	if bytes.Equal(asFound, si.SignedAttrsDER) {
		si.SignedAttrsDER = asFound
	} else {
		si.SignedAttrsBER = true
	}
	return nil
}

func (si *SignerInfo) parseCounterSignatures(depth int) error {
	for _, a := range si.UnsignedAttrs.Find(OIDAttrCounterSignature) {
		values := a.rawValues // as found: a BER counter-signature stays visible as such
		if values == nil {
			values = a.Values
		}
		for _, v := range values {
			if depth+1 > MaxCounterSignatureDepth {
				return fmt.Errorf("%w: counter-signatures nested deeper than %d", ErrLimitExceeded, MaxCounterSignatureDepth)
			}
			if len(si.CounterSignatures) == MaxSignerInfos {
				return fmt.Errorf("%w: more than %d counter-signatures", ErrLimitExceeded, MaxSignerInfos)
			}
			e, _, err := readElement(v, 0)
			if err != nil {
				return fmt.Errorf("counter-signature: %w", err)
			}
			cs, err := parseSignerInfo(e, depth+1)
			if err != nil {
				return fmt.Errorf("counter-signature: %w", err)
			}
			si.CounterSignatures = append(si.CounterSignatures, cs)
		}
	}
	return nil
}

// wrapCertError turns an error of package cert into one of this package,
// keeping both in the chain.
func wrapCertError(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, cert.ErrSignatureInvalid):
		return fmt.Errorf("%w: %w", ErrSignatureInvalid, err)
	case errors.Is(err, cert.ErrUnsupported):
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	case errors.Is(err, cert.ErrLimitExceeded):
		return fmt.Errorf("%w: %w", ErrLimitExceeded, err)
	}
	return fmt.Errorf("%w: %w", ErrMalformed, err)
}
