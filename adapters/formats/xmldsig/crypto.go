package xmldsig

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"errors"
	"fmt"
	"math/big"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// minRSABits is the smallest RSA modulus accepted. crypto/rsa refuses
// smaller keys with an error that must not read as a forged signature.
const minRSABits = 1024

// errKeyMismatch marks a candidate certificate whose key cannot be used with
// the signature method (an EC key for rsa-sha256, say).
var errKeyMismatch = errors.New("key type does not match the signature method")

// checkSignatureValue verifies SignatureValue over the canonical SignedInfo
// with each candidate's public key and returns the first that verifies.
func (v *verifier) checkSignatureValue(candidates []*x509.Certificate) (*x509.Certificate, error) {
	signed, err := Canonicalize(v.sig.signedInfo, v.sig.c14nURI, v.sig.c14nPrefixes)
	if err != nil {
		return nil, fmt.Errorf("canonicalising SignedInfo: %w", err)
	}
	usable := 0
	for _, cert := range candidates {
		err := verifyWithKey(v.sig, cert.PublicKey, signed)
		switch {
		case err == nil:
			return cert, nil
		case errors.Is(err, errKeyMismatch):
			continue
		case errors.Is(err, ErrSignatureInvalid):
			usable++
		default:
			return nil, err
		}
	}
	if usable == 0 {
		return nil, fmt.Errorf("%w: no candidate certificate has a key for %s", ErrNoCertificate, v.sig.method)
	}
	return nil, ErrSignatureInvalid
}

// verifyWithKey returns nil, ErrSignatureInvalid, errKeyMismatch, or an
// error saying why the key cannot be used at all.
func verifyWithKey(sig *parsedSignature, pub crypto.PublicKey, signed []byte) error {
	family, hash := familyRSAPSS, crypto.Hash(0)
	if m, ok := signatureMethods[sig.method]; ok {
		family, hash = m.family, m.hash
	} else if sig.pss != nil {
		hash = sig.pss.hash
	} else {
		return fmt.Errorf("%w: signature method %q", ErrUnsupported, sig.method)
	}
	if !hash.Available() {
		return fmt.Errorf("%w: hash %v", ErrUnsupported, hash)
	}
	h := hash.New()
	h.Write(signed)
	digest := h.Sum(nil)

	switch family {
	case familyRSA, familyRSAPSS:
		key, ok := pub.(*rsa.PublicKey)
		if !ok {
			return errKeyMismatch
		}
		if key.N.BitLen() < minRSABits {
			return fmt.Errorf("%w: %d-bit RSA key", ErrUnsupported, key.N.BitLen())
		}
		var err error
		if family == familyRSA {
			err = cert.VerifyPKCS1v15(key, hash, digest, sig.value)
		} else {
			salt := rsa.PSSSaltLengthEqualsHash
			if sig.pss != nil {
				salt = sig.pss.saltLength
			}
			err = rsa.VerifyPSS(key, hash, digest, sig.value, &rsa.PSSOptions{SaltLength: salt, Hash: hash})
		}
		if err != nil {
			return ErrSignatureInvalid
		}
		return nil
	case familyECDSA:
		key, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return errKeyMismatch
		}
		r, s, err := splitECDSA(sig.value, key)
		if err != nil {
			return err
		}
		if !cert.VerifyECDSA(key, digest, r, s) {
			return ErrSignatureInvalid
		}
		return nil
	}
	return fmt.Errorf("%w: signature method %q", ErrUnsupported, sig.method)
}

// splitECDSA decodes an XML ECDSA signature value: r and s as big-endian
// integers of equal length, concatenated (XMLDSig 1.1 section 6.4.3), where
// crypto/ecdsa takes the integers.
func splitECDSA(value []byte, key *ecdsa.PublicKey) (r, s *big.Int, err error) {
	size := (key.Curve.Params().N.BitLen() + 7) / 8
	if len(value) == 0 || len(value)%2 != 0 || len(value)/2 > size {
		// A wrong length is an altered or foreign value, not an unreadable
		// signature: it cannot verify under this key.
		return nil, nil, ErrSignatureInvalid
	}
	half := len(value) / 2
	return new(big.Int).SetBytes(value[:half]), new(big.Int).SetBytes(value[half:]), nil
}
