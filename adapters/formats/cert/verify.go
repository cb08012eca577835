package cert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert/internal/brainpool"
)

// MinRSABits is the smallest RSA modulus CheckSignature accepts. crypto/rsa
// refuses smaller keys with an error that must not read as a forged
// signature, so they are ErrUnsupported.
const MinRSABits = 1024

// CheckSignature checks that sig is a signature by pub over signed with alg.
// It returns nil, an error wrapping ErrSignatureInvalid when the value does
// not verify, or one wrapping ErrUnsupported or ErrMalformed when it cannot
// be checked (wrong key type for alg, unavailable hash, small RSA key).
func CheckSignature(pub crypto.PublicKey, alg SignatureAlgorithm, signed, sig []byte) error {
	if alg.Scheme == Ed25519 {
		key, ok := pub.(ed25519.PublicKey)
		if !ok {
			return fmt.Errorf("%w: %T key for %v", ErrUnsupported, pub, alg)
		}
		if !ed25519.Verify(key, signed, sig) {
			return ErrSignatureInvalid
		}
		return nil
	}
	if !alg.Hash.Available() {
		return fmt.Errorf("%w: hash %v", ErrUnsupported, alg.Hash)
	}
	h := alg.Hash.New()
	h.Write(signed)
	return CheckDigestSignature(pub, alg, h.Sum(nil), sig)
}

// CheckDigestSignature is CheckSignature for a message already hashed with
// alg.Hash. Ed25519, which signs the message itself, is ErrUnsupported.
func CheckDigestSignature(pub crypto.PublicKey, alg SignatureAlgorithm, digest, sig []byte) error {
	switch alg.Scheme {
	case PKCS1v15, PSS:
		key, ok := pub.(*rsa.PublicKey)
		if !ok {
			return fmt.Errorf("%w: %T key for %v", ErrUnsupported, pub, alg)
		}
		if err := checkRSAKey(key); err != nil {
			return err
		}
		if len(digest) != alg.Hash.Size() {
			return fmt.Errorf("%w: %d-byte digest for %v", ErrMalformed, len(digest), alg.Hash)
		}
		var err error
		if alg.Scheme == PKCS1v15 {
			err = VerifyPKCS1v15(key, alg.Hash, digest, sig)
		} else {
			err = rsa.VerifyPSS(key, alg.Hash, digest, sig, &rsa.PSSOptions{SaltLength: alg.SaltLength, Hash: alg.Hash})
		}
		if err != nil {
			return ErrSignatureInvalid
		}
		return nil
	case ECDSA, ECDSAPlain:
		key, ok := pub.(*ecdsa.PublicKey)
		if !ok {
			return fmt.Errorf("%w: %T key for %v", ErrUnsupported, pub, alg)
		}
		if alg.Scheme == ECDSAPlain {
			var err error
			if sig, err = plainToASN1(key, sig); err != nil {
				return err
			}
		}
		if !verifyECDSAASN1(key, digest, sig) {
			return ErrSignatureInvalid
		}
		return nil
	case Ed25519:
		return fmt.Errorf("%w: Ed25519 over a digest", ErrUnsupported)
	}
	return fmt.Errorf("%w: signature scheme %v", ErrUnsupported, alg.Scheme)
}

// VerifyECDSA is ecdsa.Verify, fast on the brainpool curves too: for a key
// on a curve that ParsePublicKey returns, crypto/ecdsa would verify with
// the curve's generic big.Int arithmetic, some fifty times slower than
// internal/brainpool, which verifies these instead.
func VerifyECDSA(key *ecdsa.PublicKey, digest []byte, r, s *big.Int) bool {
	if c := fastBrainpool(key); c != nil {
		//lint:ignore SA1019 a point of a custom curve (brainpool) has no other form in crypto/ecdsa.
		return c.Verify(key.X, key.Y, digest, r, s)
	}
	return ecdsa.Verify(key, digest, r, s)
}

// verifyECDSAASN1 is ecdsa.VerifyASN1 as VerifyECDSA is ecdsa.Verify.
func verifyECDSAASN1(key *ecdsa.PublicKey, digest, sig []byte) bool {
	if c := fastBrainpool(key); c != nil {
		//lint:ignore SA1019 a point of a custom curve (brainpool) has no other form in crypto/ecdsa.
		return c.VerifyASN1(key.X, key.Y, digest, sig)
	}
	return ecdsa.VerifyASN1(key, digest, sig)
}

// fastBrainpool returns the internal/brainpool curve of a key on one of
// the curves BrainpoolCurve returns (the very values, not a curve of the
// same name), or nil.
func fastBrainpool(key *ecdsa.PublicKey) *brainpool.Curve {
	if key.Curve == nil || BrainpoolCurveOID(key.Curve) == nil {
		return nil
	}
	return brainpool.ByName(key.Curve.Params().Name)
}

// checkRSAKey refuses, as ErrUnsupported, the keys crypto/rsa refuses to
// verify with, whose error would otherwise read as an invalid signature:
// moduli under MinRSABits or even, exponents that are even, below 3 or
// above 2^31-1 (a German CA key of 2000 has 0xC0000001).
func checkRSAKey(key *rsa.PublicKey) error {
	switch {
	case key.N == nil:
		return fmt.Errorf("%w: RSA key without modulus", ErrUnsupported)
	case key.N.BitLen() < MinRSABits:
		return fmt.Errorf("%w: %d-bit RSA key", ErrUnsupported, key.N.BitLen())
	case key.N.Bit(0) == 0:
		return fmt.Errorf("%w: RSA modulus is even", ErrUnsupported)
	case key.E < 3 || key.E > 1<<31-1 || key.E%2 == 0:
		return fmt.Errorf("%w: RSA public exponent %d", ErrUnsupported, key.E)
	}
	return nil
}

// plainToASN1 turns an r||s signature into an Ecdsa-Sig-Value. A value of
// the wrong length cannot verify under key: it is ErrSignatureInvalid.
func plainToASN1(key *ecdsa.PublicKey, sig []byte) ([]byte, error) {
	size := (key.Curve.Params().N.BitLen() + 7) / 8
	if len(sig) != 2*size {
		return nil, ErrSignatureInvalid
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1BigInt(new(big.Int).SetBytes(sig[:size]))
		b.AddASN1BigInt(new(big.Int).SetBytes(sig[size:]))
	})
	return b.Bytes()
}

// CheckCertificateSignature checks the signature of c with issuerKey, the
// public key of its presumed issuer, using the signature algorithm written
// in c (not c.SignatureAlgorithm, which crypto/x509 leaves unknown for the
// algorithms it lacks). It checks cryptography only: whether the issuer may
// issue certificates is the caller's business.
func CheckCertificateSignature(c *x509.Certificate, issuerKey crypto.PublicKey) error {
	sigAlg, sig, err := outerSignature(c.Raw)
	if err != nil {
		return err
	}
	alg, err := ParseSignatureAlgorithm(sigAlg, 0)
	if err != nil {
		return fmt.Errorf("certificate signature algorithm: %w", err)
	}
	if err := CheckSignature(issuerKey, alg, c.RawTBSCertificate, sig); err != nil {
		if errors.Is(err, ErrSignatureInvalid) {
			return fmt.Errorf("certificate %q: %w", c.Subject.String(), err)
		}
		return err
	}
	return nil
}

// outerSignature returns the signatureAlgorithm and signatureValue of a
// signed X.509 structure (certificate, CRL, OCSP basic response share the
// SEQUENCE { tbs, algorithm, BIT STRING } shape).
func outerSignature(der []byte) (alg, sig []byte, err error) {
	in := cryptobyte.String(der)
	var seq, tbs, algSeq cryptobyte.String
	var bits asn1.BitString
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&tbs, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&algSeq, cbasn1.SEQUENCE) ||
		!seq.ReadASN1BitString(&bits) {
		return nil, nil, fmt.Errorf("%w: signed structure", ErrMalformed)
	}
	if bits.BitLength%8 != 0 {
		return nil, nil, fmt.Errorf("%w: signature bit string of %d bits", ErrMalformed, bits.BitLength)
	}
	return algSeq, bits.Bytes, nil
}
