package hsm

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/asn1"
	"encoding/binary"
	"fmt"
	"math/big"

	"github.com/miekg/pkcs11"

	"github.com/svc-dss/dss/ports"
)

// Named-curve OIDs, as CKA_EC_PARAMS carries them (RFC 5480, section 2.1.1.1).
var (
	oidP256 = asn1.ObjectIdentifier{1, 2, 840, 10045, 3, 1, 7}
	oidP384 = asn1.ObjectIdentifier{1, 3, 132, 0, 34}
	oidP521 = asn1.ObjectIdentifier{1, 3, 132, 0, 35}
)

// ReadPublicKey reads the public key object h over session sh: an
// *rsa.PublicKey, or an *ecdsa.PublicKey on P-256, P-384 or P-521. The
// adapter reads its keys with it; fixtures/softhsm reads the keys it
// generates the same way.
func ReadPublicKey(ctx *pkcs11.Ctx, sh pkcs11.SessionHandle, h pkcs11.ObjectHandle) (crypto.PublicKey, error) {
	attrs, err := ctx.GetAttributeValue(sh, h, []*pkcs11.Attribute{pkcs11.NewAttribute(pkcs11.CKA_KEY_TYPE, nil)})
	if err != nil {
		return nil, fmt.Errorf("%w: read key type: %w", ports.ErrHSMUnavailable, err)
	}
	keyType, err := ulong(attrs[0].Value)
	if err != nil {
		return nil, fmt.Errorf("%w: read key type: %w", ports.ErrHSMUnavailable, err)
	}
	return readPublicKey(ctx, sh, object{h: h, keyType: keyType})
}

// readPublicKey reads the public key object o: CKA_MODULUS and
// CKA_PUBLIC_EXPONENT of an RSA key, CKA_EC_PARAMS and CKA_EC_POINT of an
// EC key.
func readPublicKey(ctx *pkcs11.Ctx, sh pkcs11.SessionHandle, o object) (crypto.PublicKey, error) {
	switch o.keyType {
	case pkcs11.CKK_RSA:
		attrs, err := ctx.GetAttributeValue(sh, o.h, []*pkcs11.Attribute{
			pkcs11.NewAttribute(pkcs11.CKA_MODULUS, nil),
			pkcs11.NewAttribute(pkcs11.CKA_PUBLIC_EXPONENT, nil),
		})
		if err != nil {
			return nil, fmt.Errorf("%w: read RSA modulus and exponent: %w", ports.ErrHSMUnavailable, err)
		}
		return parseRSAPublicKey(attrs[0].Value, attrs[1].Value)
	case pkcs11.CKK_EC:
		attrs, err := ctx.GetAttributeValue(sh, o.h, []*pkcs11.Attribute{
			pkcs11.NewAttribute(pkcs11.CKA_EC_PARAMS, nil),
			pkcs11.NewAttribute(pkcs11.CKA_EC_POINT, nil),
		})
		if err != nil {
			return nil, fmt.Errorf("%w: read EC parameters and point: %w", ports.ErrHSMUnavailable, err)
		}
		return parseECPublicKey(attrs[0].Value, attrs[1].Value)
	default:
		return nil, fmt.Errorf("%w: key type %#x is neither RSA nor EC", ErrInvalidOperation, o.keyType)
	}
}

func parseRSAPublicKey(modulus, exponent []byte) (*rsa.PublicKey, error) {
	n := new(big.Int).SetBytes(modulus)
	if n.Sign() == 0 {
		return nil, fmt.Errorf("%w: empty RSA modulus", ports.ErrHSMUnavailable)
	}
	e := new(big.Int).SetBytes(exponent)
	// crypto/rsa takes an int exponent and rejects anything below 2.
	if !e.IsInt64() || e.Int64() < 2 || e.Int64() > 1<<31-1 {
		return nil, fmt.Errorf("%w: RSA public exponent %v out of range", ports.ErrHSMUnavailable, e)
	}
	return &rsa.PublicKey{N: n, E: int(e.Int64())}, nil
}

// parseECPublicKey decodes CKA_EC_PARAMS, which must be a named curve, and
// CKA_EC_POINT: a DER OCTET STRING holding the uncompressed point
// (PKCS#11 v2.40, section 2.3.3), or the bare point, which some modules
// return.
func parseECPublicKey(params, point []byte) (*ecdsa.PublicKey, error) {
	var oid asn1.ObjectIdentifier
	if rest, err := asn1.Unmarshal(params, &oid); err != nil || len(rest) != 0 {
		return nil, fmt.Errorf("%w: EC parameters are not a named curve: %x", ports.ErrHSMUnavailable, params)
	}
	var curve elliptic.Curve
	switch {
	case oid.Equal(oidP256):
		curve = elliptic.P256()
	case oid.Equal(oidP384):
		curve = elliptic.P384()
	case oid.Equal(oidP521):
		curve = elliptic.P521()
	default:
		return nil, fmt.Errorf("%w: unsupported curve %v", ErrInvalidOperation, oid)
	}
	raw := point
	var inner []byte
	if rest, err := asn1.Unmarshal(point, &inner); err == nil && len(rest) == 0 {
		raw = inner
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(curve, raw)
	if err != nil {
		return nil, fmt.Errorf("%w: EC point: %w", ports.ErrHSMUnavailable, err)
	}
	return pub, nil
}

// ulong decodes a CK_ULONG attribute value, which modules return in the
// platform's byte order and size.
func ulong(b []byte) (uint, error) {
	switch len(b) {
	case 8:
		return uint(binary.NativeEndian.Uint64(b)), nil
	case 4:
		return uint(binary.NativeEndian.Uint32(b)), nil
	default:
		return 0, fmt.Errorf("not a CK_ULONG: %d bytes", len(b))
	}
}
