package cert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"

	"github.com/ProtonMail/go-crypto/brainpool"
	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// algorithmID encodes an AlgorithmIdentifier with optional parameters.
func algorithmID(tb testing.TB, oid asn1.ObjectIdentifier, params []byte) []byte {
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oid)
			b.AddBytes(params)
		})
	})
}

// pssParams encodes RSASSA-PSS-params; a zero hash leaves a field out.
func pssParams(tb testing.TB, h, mgf crypto.Hash, salt int) []byte {
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			if h != 0 {
				b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddBytes(algorithmID(tb, OIDFromHash(h), nil))
				})
			}
			if mgf != 0 {
				b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddBytes(algorithmID(tb, OIDMGF1, algorithmID(tb, OIDFromHash(mgf), nil)))
				})
			}
			if salt >= 0 {
				b.AddASN1(cbasn1.Tag(2).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddASN1Int64(int64(salt))
				})
			}
		})
	})
}

// TestParseSignatureAlgorithm checks the identifiers CMS and
// certificates use.
func TestParseSignatureAlgorithm(t *testing.T) {
	null := []byte{0x05, 0x00}
	tests := []struct {
		name    string
		der     []byte
		digest  crypto.Hash
		want    SignatureAlgorithm
		wantErr error
	}{
		{"sha256WithRSAEncryption", algorithmID(t, asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}, null), 0,
			SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256}, nil},
		{"sha256WithRSA wins over the digest", algorithmID(t, asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}, null), crypto.SHA3_512,
			SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256}, nil},
		{"rsaEncryption takes the digest", algorithmID(t, OIDRSAEncryption, null), crypto.SHA384,
			SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA384, HashFromDigest: true}, nil},
		{"rsaEncryption without digest", algorithmID(t, OIDRSAEncryption, null), 0, SignatureAlgorithm{}, ErrMalformed},
		{"id-ecPublicKey takes the digest", algorithmID(t, OIDECPublicKey, nil), crypto.SHA256,
			SignatureAlgorithm{Scheme: ECDSA, Hash: crypto.SHA256, HashFromDigest: true}, nil},
		{"ecdsa-with-SHA384", algorithmID(t, asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 3}, nil), 0,
			SignatureAlgorithm{Scheme: ECDSA, Hash: crypto.SHA384}, nil},
		{"ecdsa-with-SHA3-256", algorithmID(t, asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 10}, nil), 0,
			SignatureAlgorithm{Scheme: ECDSA, Hash: crypto.SHA3_256}, nil},
		{"ecdsa-plain-SHA256", algorithmID(t, asn1.ObjectIdentifier{0, 4, 0, 127, 0, 7, 1, 1, 4, 1, 3}, nil), 0,
			SignatureAlgorithm{Scheme: ECDSAPlain, Hash: crypto.SHA256}, nil},
		{"Ed25519", algorithmID(t, OIDEd25519, nil), 0, SignatureAlgorithm{Scheme: Ed25519}, nil},
		{"PSS defaults", algorithmID(t, OIDRSASSAPSS, nil), 0,
			SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA1, SaltLength: 20}, nil},
		{"PSS empty parameters", algorithmID(t, OIDRSASSAPSS, pssParams(t, 0, 0, -1)), 0,
			SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA1, SaltLength: 20}, nil},
		{"PSS SHA-256", algorithmID(t, OIDRSASSAPSS, pssParams(t, crypto.SHA256, crypto.SHA256, 32)), crypto.SHA512,
			SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA256, SaltLength: 32}, nil},
		{"PSS SHA-512 salt 0", algorithmID(t, OIDRSASSAPSS, pssParams(t, crypto.SHA512, crypto.SHA512, 0)), 0,
			SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA512, SaltLength: 0}, nil},
		{"PSS MGF1 hash differs", algorithmID(t, OIDRSASSAPSS, pssParams(t, crypto.SHA256, crypto.SHA1, 32)), 0,
			SignatureAlgorithm{}, ErrUnsupported},
		{"PSS malformed", algorithmID(t, OIDRSASSAPSS, []byte{0x30, 0x01, 0x00}), 0, SignatureAlgorithm{}, ErrMalformed},
		// MD5 is read, for the validation process to refuse it by date.
		{"md5WithRSAEncryption", algorithmID(t, asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 4}, null), 0,
			SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.MD5}, nil},
		{"rsaSignatureWithripemd160", algorithmID(t, asn1.ObjectIdentifier{1, 3, 36, 3, 3, 1, 2}, null), 0,
			SignatureAlgorithm{}, ErrUnsupported},
		{"DSA", algorithmID(t, asn1.ObjectIdentifier{1, 2, 840, 10040, 4, 3}, nil), 0, SignatureAlgorithm{}, ErrUnsupported},
		{"not an AlgorithmIdentifier", []byte{0x05, 0x00}, 0, SignatureAlgorithm{}, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got, err := ParseSignatureAlgorithm(tt.der, tt.digest)
			if tt.wantErr != nil {
				is.True(errors.Is(err, tt.wantErr))
				return
			}
			is.NoErr(err)
			is.Equal(got, tt.want)
		})
	}
}

// TestCheckSignature signs with each scheme and checks the signature, a
// tampered message, a tampered value and a key of the wrong type.
func TestCheckSignature(t *testing.T) {
	p := testPKI(t)
	rsaKey := p.SignerRSA.Key.(*rsa.PrivateKey)
	ecKey := p.SignerECDSA.Key.(*ecdsa.PrivateKey)
	bp256, err := ecdsa.GenerateKey(brainpool.P256r1(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	bp512, err := ecdsa.GenerateKey(brainpool.P512r1(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("signed bytes")
	digest := func(h crypto.Hash) []byte {
		hh := h.New()
		hh.Write(msg)
		return hh.Sum(nil)
	}
	plain := func(key *ecdsa.PrivateKey, h crypto.Hash) []byte {
		r, s, err := ecdsa.Sign(rand.Reader, key, digest(h))
		if err != nil {
			t.Fatal(err)
		}
		size := (key.Curve.Params().N.BitLen() + 7) / 8
		return append(r.FillBytes(make([]byte, size)), s.FillBytes(make([]byte, size))...)
	}
	sign := func(key crypto.Signer, d []byte, opts crypto.SignerOpts) []byte {
		sig, err := key.Sign(rand.Reader, d, opts)
		if err != nil {
			t.Fatal(err)
		}
		return sig
	}
	tests := []struct {
		name string
		pub  crypto.PublicKey
		alg  SignatureAlgorithm
		sig  []byte
	}{
		{"RSA PKCS#1 v1.5 SHA-256", &rsaKey.PublicKey, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256},
			sign(rsaKey, digest(crypto.SHA256), crypto.SHA256)},
		{"RSA PKCS#1 v1.5 SHA-1", &rsaKey.PublicKey, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA1},
			sign(rsaKey, digest(crypto.SHA1), crypto.SHA1)},
		{"RSA PKCS#1 v1.5 SHA3-512", &rsaKey.PublicKey, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA3_512},
			sign(rsaKey, digest(crypto.SHA3_512), crypto.SHA3_512)},
		{"RSA-PSS SHA-256 salt 32", &rsaKey.PublicKey, SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA256, SaltLength: 32},
			sign(rsaKey, digest(crypto.SHA256), &rsa.PSSOptions{SaltLength: 32, Hash: crypto.SHA256})},
		{"RSA-PSS SHA-512 salt 0", &rsaKey.PublicKey, SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA512, SaltLength: 0},
			sign(rsaKey, digest(crypto.SHA512), &rsa.PSSOptions{SaltLength: 0, Hash: crypto.SHA512})},
		{"ECDSA P-256", &ecKey.PublicKey, SignatureAlgorithm{Scheme: ECDSA, Hash: crypto.SHA256},
			sign(ecKey, digest(crypto.SHA256), crypto.SHA256)},
		{"ECDSA P-256 plain", &ecKey.PublicKey, SignatureAlgorithm{Scheme: ECDSAPlain, Hash: crypto.SHA256},
			plain(ecKey, crypto.SHA256)},
		{"ECDSA brainpoolP256r1", &bp256.PublicKey, SignatureAlgorithm{Scheme: ECDSA, Hash: crypto.SHA256},
			sign(bp256, digest(crypto.SHA256), crypto.SHA256)},
		{"ECDSA brainpoolP512r1 plain", &bp512.PublicKey, SignatureAlgorithm{Scheme: ECDSAPlain, Hash: crypto.SHA512},
			plain(bp512, crypto.SHA512)},
		{"Ed25519", edKey.Public(), SignatureAlgorithm{Scheme: Ed25519}, ed25519.Sign(edKey, msg)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.NoErr(CheckSignature(tt.pub, tt.alg, msg, tt.sig))
			if tt.alg.Scheme != Ed25519 {
				is.NoErr(CheckDigestSignature(tt.pub, tt.alg, digest(tt.alg.Hash), tt.sig))
			}
			is.True(errors.Is(CheckSignature(tt.pub, tt.alg, []byte("other bytes"), tt.sig), ErrSignatureInvalid))
			bad := append([]byte{}, tt.sig...)
			bad[len(bad)/2] ^= 0x10
			is.True(errors.Is(CheckSignature(tt.pub, tt.alg, msg, bad), ErrSignatureInvalid))
			is.True(errors.Is(CheckSignature(tt.pub, tt.alg, msg, tt.sig[:len(tt.sig)-1]), ErrSignatureInvalid))
			var wrong crypto.PublicKey = &rsaKey.PublicKey
			if _, ok := tt.pub.(*rsa.PublicKey); ok {
				wrong = &ecKey.PublicKey
			}
			is.True(errors.Is(CheckSignature(wrong, tt.alg, msg, tt.sig), ErrUnsupported))
		})
	}
}

// TestCheckSignatureUnsupported checks what cannot be checked.
func TestCheckSignatureUnsupported(t *testing.T) {
	small := &rsa.PublicKey{N: new(big.Int).Lsh(big.NewInt(1), 511), E: 65537}
	n2048 := new(big.Int).Add(new(big.Int).Lsh(big.NewInt(1), 2047), big.NewInt(1))
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	tests := []struct {
		name string
		pub  crypto.PublicKey
		alg  SignatureAlgorithm
		want error
	}{
		{"512-bit RSA", small, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256}, ErrUnsupported},
		{"exponent above 2^31", &rsa.PublicKey{N: n2048, E: 0xC0000001}, SignatureAlgorithm{Scheme: PSS, Hash: crypto.SHA256}, ErrUnsupported},
		{"even exponent", &rsa.PublicKey{N: n2048, E: 65538}, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256}, ErrUnsupported},
		{"even modulus", &rsa.PublicKey{N: new(big.Int).Lsh(big.NewInt(1), 2047), E: 65537}, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256}, ErrUnsupported},
		{"unknown scheme", small, SignatureAlgorithm{Hash: crypto.SHA256}, ErrUnsupported},
		{"unavailable hash", small, SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.MD4}, ErrUnsupported},
		{"Ed25519 over a digest", edKey.Public(), SignatureAlgorithm{Scheme: Ed25519}, ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			err := CheckDigestSignature(tt.pub, tt.alg, make([]byte, 32), make([]byte, 64))
			if tt.alg.Scheme != Ed25519 {
				err = CheckSignature(tt.pub, tt.alg, nil, make([]byte, 64))
			}
			is.True(errors.Is(err, tt.want))
		})
	}
}

// TestBrainpoolIssuer checks a certificate issued by a brainpool CA: the
// certificate signature verifies with the CA's key as cert.Parse reads it.
func TestBrainpoolIssuer(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	caKey, err := ecdsa.GenerateKey(brainpool.P256r1(), rand.Reader)
	is.NoErr(err)
	caDER := forge(t, p.Intermediate.DER, func(parts *tbsParts) { parts.spki = brainpoolSPKI(t, &caKey.PublicKey) }, p.Root.Key)
	ca, rep, err := ParseDetailed(caDER)
	is.NoErr(err)
	is.Equal(rep.Method, Repaired)
	child, err := Parse(forge(t, p.SignerRSA.DER, func(*tbsParts) {}, caKey))
	is.NoErr(err)
	is.Equal(child.SignatureAlgorithm.String(), "ECDSA-SHA256")
	is.NoErr(CheckCertificateSignature(child, ca.PublicKey))
	is.NoErr(child.CheckSignatureFrom(ca)) // crypto/x509 verifies with the brainpool key too
	is.True(errors.Is(CheckCertificateSignature(child, p.Intermediate.Certificate.PublicKey), ErrUnsupported))
	other, err := ecdsa.GenerateKey(brainpool.P256r1(), rand.Reader)
	is.NoErr(err)
	is.True(errors.Is(CheckCertificateSignature(child, &other.PublicKey), ErrSignatureInvalid))
}

// TestParsePublicKey checks keys crypto/x509 does not read.
func TestParsePublicKey(t *testing.T) {
	is := is.New(t)
	for _, curve := range []asn1.ObjectIdentifier{OIDBrainpoolP256r1, OIDBrainpoolP384t1, OIDBrainpoolP512r1} {
		key, err := ecdsa.GenerateKey(BrainpoolCurve(curve), rand.Reader)
		is.NoErr(err)
		pub, alg, err := ParsePublicKey(brainpoolSPKI(t, &key.PublicKey))
		is.NoErr(err)
		is.Equal(alg.String(), "ECDSA")
		is.True(key.PublicKey.Equal(pub))
	}
	point := make([]byte, 65)
	point[0], point[32], point[64] = 4, 1, 2 // (1, 2) is not on the curve
	offCurve := build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(OIDECPublicKey)
				b.AddASN1ObjectIdentifier(OIDBrainpoolP256r1)
			})
			b.AddASN1BitString(point)
		})
	})
	_, _, err := ParsePublicKey(offCurve)
	is.True(errors.Is(err, ErrMalformed))
	unknownCurve := build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(OIDECPublicKey)
				b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{1, 3, 36, 3, 3, 2, 8, 1, 1, 5}) // brainpoolP224r1
			})
			b.AddASN1BitString([]byte{4, 1, 2})
		})
	})
	_, _, err = ParsePublicKey(unknownCurve)
	is.True(errors.Is(err, ErrUnsupported))
}

// TestVerifyECDSABrainpool checks that VerifyECDSA, which takes the
// brainpool curves to internal/brainpool, agrees with crypto/ecdsa on every
// curve BrainpoolCurve returns, and that a curve which only has a brainpool
// name keeps crypto/ecdsa.
func TestVerifyECDSABrainpool(t *testing.T) {
	for _, oid := range []asn1.ObjectIdentifier{
		OIDBrainpoolP256r1, OIDBrainpoolP256t1, OIDBrainpoolP384r1,
		OIDBrainpoolP384t1, OIDBrainpoolP512r1, OIDBrainpoolP512t1,
	} {
		curve := BrainpoolCurve(oid)
		t.Run(curve.Params().Name, func(t *testing.T) {
			is := is.New(t)
			key, err := ecdsa.GenerateKey(curve, rand.Reader)
			is.NoErr(err)
			is.True(fastBrainpool(&key.PublicKey) != nil)
			digest := make([]byte, 32)
			rand.Read(digest)
			r, s, err := ecdsa.Sign(rand.Reader, key, digest)
			is.NoErr(err)
			is.True(VerifyECDSA(&key.PublicKey, digest, r, s))
			is.True(!VerifyECDSA(&key.PublicKey, digest, s, r))
			digest[0] ^= 1
			is.True(!VerifyECDSA(&key.PublicKey, digest, r, s))
		})
	}
	lookalike := *brainpool.P256t1().Params() // same name, another value
	key := &ecdsa.PublicKey{Curve: &lookalike}
	if fastBrainpool(key) != nil {
		t.Error("a curve named brainpoolP256t1 that BrainpoolCurve did not return took the brainpool path")
	}
}
