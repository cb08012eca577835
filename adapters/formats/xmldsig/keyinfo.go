package xmldsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// keyInfoCertificates returns the DER of every X509Data/X509Certificate in
// KeyInfo. Other key material (KeyValue, X509IssuerSerial, RetrievalMethod)
// is ignored: a bare key cannot be matched to a trust anchor, and nothing is
// ever retrieved.
func keyInfoCertificates(keyInfo *etree.Element) ([][]byte, error) {
	var ders [][]byte
	for _, data := range keyInfo.ChildElements() {
		if !isDS(data, "X509Data") {
			continue
		}
		for _, c := range data.ChildElements() {
			if !isDS(c, "X509Certificate") {
				continue
			}
			if len(ders) == MaxCertificates {
				return nil, fmt.Errorf("%w: more than %d certificates in KeyInfo", ErrLimitExceeded, MaxCertificates)
			}
			der, err := decodeBase64(c)
			if err != nil {
				return nil, fmt.Errorf("%w: X509Certificate: %w", ErrMalformedSignature, err)
			}
			ders = append(ders, der)
		}
	}
	return ders, nil
}

// parseCertificates parses what it can. A certificate crypto/x509 cannot
// read (a brainpool key, say) does not stop the others from being tried;
// the joined parse errors are returned for the report.
func parseCertificates(ders [][]byte) ([]*x509.Certificate, error) {
	var (
		certs []*x509.Certificate
		errs  []error
	)
	for i, der := range ders {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			errs = append(errs, fmt.Errorf("KeyInfo certificate %d: %w", i, err))
			continue
		}
		certs = append(certs, c)
	}
	return certs, errors.Join(errs...)
}

// NamespaceDSig11 is the XMLDSig 1.1 namespace (ECKeyValue).
const NamespaceDSig11 = "http://www.w3.org/2009/xmldsig11#"

// maxKeyValueBytes bounds a KeyValue component: an RSA modulus of 16384
// bits, an EC point of the largest curve.
const maxKeyValueBytes = 2048

// keyInfoKeyValue returns the public key of KeyInfo's first KeyValue with
// an RSAKeyValue or a dsig11:ECKeyValue on a named curve, or nil. A bare
// key names no one: CheckSignature tries it after the certificates and
// reports no signer certificate when it is the one that verifies.
func keyInfoKeyValue(keyInfo *etree.Element) crypto.PublicKey {
	for _, kv := range keyInfo.ChildElements() {
		if !isDS(kv, "KeyValue") {
			continue
		}
		for _, k := range kv.ChildElements() {
			switch {
			case isDS(k, "RSAKeyValue"):
				if pub := rsaKeyValue(k); pub != nil {
					return pub
				}
			case k.Tag == "ECKeyValue" && elementNamespace(k) == NamespaceDSig11:
				if pub := ecKeyValue(k); pub != nil {
					return pub
				}
			}
		}
	}
	return nil
}

func rsaKeyValue(k *etree.Element) crypto.PublicKey {
	var n, e []byte
	for _, c := range k.ChildElements() {
		b, err := decodeBase64(c)
		if err != nil || len(b) > maxKeyValueBytes {
			return nil
		}
		switch {
		case isDS(c, "Modulus"):
			n = b
		case isDS(c, "Exponent"):
			e = b
		}
	}
	exp := new(big.Int).SetBytes(e)
	if len(n) == 0 || !exp.IsInt64() || exp.Int64() < 3 || exp.Int64() > 1<<31-1 {
		return nil
	}
	return &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(exp.Int64())}
}

// ecCurveOID returns the curve OID of a NamedCurve URI (urn:oid:...).
func ecCurveOID(uri string) asn1.ObjectIdentifier {
	oidText, ok := strings.CutPrefix(uri, "urn:oid:")
	if !ok {
		return nil
	}
	var oid asn1.ObjectIdentifier
	for _, part := range strings.Split(oidText, ".") {
		v, err := strconv.Atoi(part)
		if err != nil || v < 0 || len(oid) == 16 {
			return nil
		}
		oid = append(oid, v)
	}
	return oid
}

// oidECPublicKey is id-ecPublicKey (RFC 5480).
var oidECPublicKey = asn1.ObjectIdentifier{1, 2, 840, 10045, 2, 1}

// ecKeyValue reads a dsig11:ECKeyValue: a NamedCurve and the point. The key
// is wrapped in a SubjectPublicKeyInfo for cert.ParsePublicKey, which
// reads the NIST curves through crypto/x509 and the brainpool ones itself,
// checking that the point is on the curve.
func ecKeyValue(k *etree.Element) crypto.PublicKey {
	var (
		curve asn1.ObjectIdentifier
		point []byte
	)
	for _, c := range k.ChildElements() {
		if elementNamespace(c) != NamespaceDSig11 {
			continue
		}
		switch c.Tag {
		case "NamedCurve":
			curve = ecCurveOID(attrValue(c, "URI"))
		case "PublicKey":
			b, err := decodeBase64(c)
			if err != nil || len(b) > maxKeyValueBytes {
				return nil
			}
			point = b
		}
	}
	if curve == nil || len(point) == 0 {
		return nil
	}
	type algorithm struct {
		Algorithm asn1.ObjectIdentifier
		Curve     asn1.ObjectIdentifier
	}
	spki, err := asn1.Marshal(struct {
		Algorithm algorithm
		Key       asn1.BitString
	}{algorithm{oidECPublicKey, curve}, asn1.BitString{Bytes: point, BitLength: 8 * len(point)}})
	if err != nil {
		return nil
	}
	pub, _, err := cert.ParsePublicKey(spki)
	if err != nil {
		return nil
	}
	if _, ok := pub.(*ecdsa.PublicKey); !ok {
		return nil
	}
	return pub
}
