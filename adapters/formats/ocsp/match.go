package ocsp

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"slices"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

// supported are the CertID hash algorithms this package computes. Their
// OIDs are cert's.
var supported = []crypto.Hash{crypto.SHA1, crypto.SHA256, crypto.SHA384, crypto.SHA512}

// hashFor returns the supported hash oid names, or 0.
func hashFor(oid asn1.ObjectIdentifier) crypto.Hash {
	h, err := cert.HashFromOID(oid)
	if err != nil || !slices.Contains(supported, h) {
		return 0
	}
	return h
}

// oidFor returns the OID of h, or nil if h is not supported.
func oidFor(h crypto.Hash) asn1.ObjectIdentifier {
	if !slices.Contains(supported, h) {
		return nil
	}
	return cert.OIDFromHash(h)
}

// Matches reports whether id names cert, issued by issuer: same serial
// number, and the hashes of cert's issuer name and of issuer's public key,
// computed with id's hash algorithm, equal id's. The name hash is over
// cert's issuer field as encoded in cert (RFC 6960, section 4.1.1). An
// error means the hash algorithm is not supported.
func (id CertID) Matches(cert, issuer *x509.Certificate) (bool, error) {
	h := hashFor(id.HashAlgorithm)
	if h == 0 {
		return false, fmt.Errorf("%w: CertID hash algorithm %v", ErrUnsupported, id.HashAlgorithm)
	}
	if id.SerialNumber == nil || id.SerialNumber.Cmp(cert.SerialNumber) != 0 {
		return false, nil
	}
	nameHash, keyHash, err := certIDHashes(h, cert, issuer)
	if err != nil {
		return false, err
	}
	return bytes.Equal(id.IssuerNameHash, nameHash) && bytes.Equal(id.IssuerKeyHash, keyHash), nil
}

// certIDHashes returns issuerNameHash and issuerKeyHash for cert.
func certIDHashes(h crypto.Hash, cert, issuer *x509.Certificate) (nameHash, keyHash []byte, err error) {
	bits, ok := der.SubjectPublicKeyBits(issuer.RawSubjectPublicKeyInfo)
	if !ok {
		return nil, nil, errors.New("ocsp: issuer public key unreadable")
	}
	hn := h.New()
	hn.Write(cert.RawIssuer)
	hk := h.New()
	hk.Write(bits)
	return hn.Sum(nil), hk.Sum(nil), nil
}

// Find returns the first SingleResponse about cert, issued by issuer. It
// wraps [ErrNoMatchingResponse] when there is none; CertIDs with hash
// algorithms this package does not support are skipped.
func (b *BasicResponse) Find(cert, issuer *x509.Certificate) (SingleResponse, error) {
	for _, sr := range b.Responses {
		if ok, err := sr.CertID.Matches(cert, issuer); err == nil && ok {
			return sr, nil
		}
	}
	return SingleResponse{}, fmt.Errorf("%w: serial %x of %q among %d responses",
		ErrNoMatchingResponse, cert.SerialNumber, cert.Issuer, len(b.Responses))
}

// MatchesName reports whether id names cert by its serial number and the
// hash of its issuer name alone, the issuer's key hash not compared: for
// a reader that recognises which certificate a response is about
// without the issuer's certificate at hand. It identifies; it does not
// show the response is about cert's issuer's key, which [CertID.Matches]
// and [BasicResponse.Verify] do. An error means the hash algorithm is not
// supported.
func (id CertID) MatchesName(cert *x509.Certificate) (bool, error) {
	h := hashFor(id.HashAlgorithm)
	if h == 0 {
		return false, fmt.Errorf("%w: CertID hash algorithm %v", ErrUnsupported, id.HashAlgorithm)
	}
	if id.SerialNumber == nil || id.SerialNumber.Cmp(cert.SerialNumber) != 0 {
		return false, nil
	}
	hn := h.New()
	hn.Write(cert.RawIssuer)
	return bytes.Equal(id.IssuerNameHash, hn.Sum(nil)), nil
}
