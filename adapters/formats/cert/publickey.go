package cert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"math/big"
	"strconv"

	"github.com/ProtonMail/go-crypto/brainpool"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Named curve OIDs of the brainpool curves (RFC 5639, section 4.1).
var (
	OIDBrainpoolP256r1 = asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 7}
	OIDBrainpoolP256t1 = asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 8}
	OIDBrainpoolP384r1 = asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 11}
	OIDBrainpoolP384t1 = asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 12}
	OIDBrainpoolP512r1 = asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 13}
	OIDBrainpoolP512t1 = asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 14}
)

// BrainpoolCurve returns the brainpool curve a named-curve OID identifies,
// or nil. The curves implement elliptic.Curve, so crypto/ecdsa verifies
// with them (through its generic, variable-time code: fine for public
// keys, which is all this package uses them for).
func BrainpoolCurve(oid asn1.ObjectIdentifier) elliptic.Curve {
	switch {
	case oid.Equal(OIDBrainpoolP256r1):
		return brainpool.P256r1()
	case oid.Equal(OIDBrainpoolP256t1):
		return brainpool.P256t1()
	case oid.Equal(OIDBrainpoolP384r1):
		return brainpool.P384r1()
	case oid.Equal(OIDBrainpoolP384t1):
		return brainpool.P384t1()
	case oid.Equal(OIDBrainpoolP512r1):
		return brainpool.P512r1()
	case oid.Equal(OIDBrainpoolP512t1):
		return brainpool.P512t1()
	}
	return nil
}

// BrainpoolCurveOID returns the named-curve OID of a curve BrainpoolCurve
// returns, or nil.
func BrainpoolCurveOID(c elliptic.Curve) asn1.ObjectIdentifier {
	for _, oid := range []asn1.ObjectIdentifier{
		OIDBrainpoolP256r1, OIDBrainpoolP256t1, OIDBrainpoolP384r1,
		OIDBrainpoolP384t1, OIDBrainpoolP512r1, OIDBrainpoolP512t1,
	} {
		if BrainpoolCurve(oid) == c {
			return oid
		}
	}
	return nil
}

// ParsePublicKey reads a DER SubjectPublicKeyInfo. It returns what
// x509.ParsePKIXPublicKey returns for the keys that function reads, an
// *ecdsa.PublicKey on a brainpool curve for id-ecPublicKey keys with a
// brainpool named curve, and an *rsa.PublicKey for id-RSASSA-PSS keys
// (RFC 4055: an RSA key restricted to PSS; the restriction is not kept)
// and for rsaEncryption keys crypto/x509 refuses (see parseRSAPublicKey).
func ParsePublicKey(spki []byte) (crypto.PublicKey, x509.PublicKeyAlgorithm, error) {
	if pub, err := x509.ParsePKIXPublicKey(spki); err == nil {
		return pub, publicKeyAlgorithm(pub), nil
	}
	in := cryptobyte.String(spki)
	var seq, algSeq cryptobyte.String
	var oid asn1.ObjectIdentifier
	var bits asn1.BitString
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() ||
		!seq.ReadASN1Element(&algSeq, cbasn1.SEQUENCE) ||
		!seq.ReadASN1BitString(&bits) || !seq.Empty() {
		return nil, x509.UnknownPublicKeyAlgorithm, fmt.Errorf("%w: SubjectPublicKeyInfo", ErrMalformed)
	}
	oid, params, err := readAlgorithmIdentifier(algSeq)
	if err != nil {
		return nil, x509.UnknownPublicKeyAlgorithm, fmt.Errorf("public key algorithm: %w", err)
	}
	if bits.BitLength%8 != 0 {
		return nil, x509.UnknownPublicKeyAlgorithm, fmt.Errorf("%w: public key bit string of %d bits", ErrMalformed, bits.BitLength)
	}
	switch {
	case oid.Equal(OIDECPublicKey):
		var curveOID asn1.ObjectIdentifier
		p := cryptobyte.String(params)
		if !p.ReadASN1ObjectIdentifier(&curveOID) || !p.Empty() {
			return nil, x509.ECDSA, fmt.Errorf("%w: EC key with explicit or absent curve parameters", ErrUnsupported)
		}
		curve := BrainpoolCurve(curveOID)
		if curve == nil {
			return nil, x509.ECDSA, fmt.Errorf("%w: elliptic curve %v", ErrUnsupported, curveOID)
		}
		if len(bits.Bytes) == 0 || bits.Bytes[0] != 4 {
			return nil, x509.ECDSA, fmt.Errorf("%w: EC point not in uncompressed form", ErrUnsupported)
		}
		//lint:ignore SA1019 elliptic.Unmarshal is the way to read a point of a custom curve.
		x, y := elliptic.Unmarshal(curve, bits.Bytes)
		if x == nil {
			return nil, x509.ECDSA, fmt.Errorf("%w: EC point not on %s", ErrMalformed, curve.Params().Name)
		}
		//lint:ignore SA1019 a point of a custom curve (brainpool) has no other form in crypto/ecdsa.
		return &ecdsa.PublicKey{Curve: curve, X: x, Y: y}, x509.ECDSA, nil
	case oid.Equal(OIDRSASSAPSS), oid.Equal(OIDRSAEncryption):
		// rsaEncryption reaches here when crypto/x509 refused the key: for
		// its parameters, which RFC 3279 wants NULL and old Austrian,
		// French and Romanian CA certificates leave out, or for the
		// integer encodings parseRSAPublicKey accepts.
		key, err := parseRSAPublicKey(bits.Bytes)
		if err != nil {
			return nil, x509.RSA, err
		}
		return key, x509.RSA, nil
	}
	return nil, x509.UnknownPublicKeyAlgorithm, fmt.Errorf("%w: public key algorithm %v", ErrUnsupported, oid)
}

// parseRSAPublicKey reads RSAPublicKey (RFC 8017, appendix A.1.1). Both
// integers are read as unsigned and non-minimal encodings are accepted:
// German CA certificates encode the modulus without its leading zero
// (which makes it negative as DER), Austrian ones pad the exponent. The
// values are positive by definition, so nothing is guessed.
func parseRSAPublicKey(der []byte) (*rsa.PublicKey, error) {
	in := cryptobyte.String(der)
	var seq, n, e cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() ||
		!seq.ReadASN1(&n, cbasn1.INTEGER) || !seq.ReadASN1(&e, cbasn1.INTEGER) || !seq.Empty() {
		return nil, fmt.Errorf("%w: RSA public key", ErrMalformed)
	}
	modulus, exponent := new(big.Int).SetBytes(n), new(big.Int).SetBytes(e)
	if modulus.Sign() == 0 || exponent.Sign() == 0 {
		return nil, fmt.Errorf("%w: RSA public key values", ErrMalformed)
	}
	if exponent.BitLen() >= strconv.IntSize {
		return nil, fmt.Errorf("%w: RSA public exponent of %d bits", ErrUnsupported, exponent.BitLen())
	}
	return &rsa.PublicKey{N: modulus, E: int(exponent.Int64())}, nil
}

// publicKeyAlgorithm returns the x509 algorithm of a parsed key.
func publicKeyAlgorithm(pub crypto.PublicKey) x509.PublicKeyAlgorithm {
	switch pub.(type) {
	case *rsa.PublicKey:
		return x509.RSA
	case *ecdsa.PublicKey:
		return x509.ECDSA
	case ed25519.PublicKey:
		return x509.Ed25519
	}
	return x509.UnknownPublicKeyAlgorithm
}
