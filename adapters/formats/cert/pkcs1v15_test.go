package cert

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/asn1"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/matryer/is"
)

// pkcs1v15Hashes are the hashes VerifyPKCS1v15 verifies itself.
var pkcs1v15Hashes = []crypto.Hash{
	crypto.MD5, crypto.SHA1, crypto.SHA224, crypto.SHA256, crypto.SHA384, crypto.SHA512,
	crypto.SHA512_224, crypto.SHA512_256, crypto.SHA3_224, crypto.SHA3_256, crypto.SHA3_384, crypto.SHA3_512,
}

// rsaTestKeys are the keys of testdata/rsakeys, by file name without
// ".pem": fixed keys, so that a fuzzing crasher replays with the key it
// was found with, and no test waits for RSA key generation.
var rsaTestKeys = sync.OnceValues(func() (map[string]*rsa.PrivateKey, error) {
	files, err := filepath.Glob("testdata/rsakeys/*.pem")
	if err != nil {
		return nil, err
	}
	keys := make(map[string]*rsa.PrivateKey)
	for _, name := range files {
		raw, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		block, _ := pem.Decode(raw)
		if block == nil {
			return nil, fmt.Errorf("%s: no PEM block", name)
		}
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		keys[filepath.Base(name[:len(name)-len(".pem")])] = key.(*rsa.PrivateKey)
	}
	return keys, nil
})

// rsaTestKey returns the key of testdata/rsakeys/name.pem.
func rsaTestKey(tb testing.TB, name string) *rsa.PrivateKey {
	tb.Helper()
	keys, err := rsaTestKeys()
	if err != nil {
		tb.Fatal(err)
	}
	key, ok := keys[name]
	if !ok {
		tb.Fatalf("no key %s in testdata/rsakeys", name)
	}
	return key
}

// rsaPrivate is RSASP1 (RFC 8017 section 5.2.1) on any block: block as an
// integer, reduced mod n, raised to d, in k bytes. It signs encoded
// messages crypto/rsa would never produce, so that verifiers can be shown
// every kind of wrong encoding.
func rsaPrivate(key *rsa.PrivateKey, block []byte) []byte {
	m := new(big.Int).SetBytes(block)
	m.Mod(m, key.N)
	return m.Exp(m, key.D, key.N).FillBytes(make([]byte, key.Size()))
}

// rsaPublic is RSAVP1 (RFC 8017 section 5.2.2) without the range check:
// what the key's signature sig encodes, in k bytes.
func rsaPublic(pub *rsa.PublicKey, sig []byte) []byte {
	s := new(big.Int).SetBytes(sig)
	return s.Exp(s, big.NewInt(int64(pub.E)), pub.N).FillBytes(make([]byte, pub.Size()))
}

// emsa is EMSA-PKCS1-v1_5 encoding of the DigestInfo t for a k-byte
// modulus: 0x00 0x01 0xff... 0x00 t.
func emsa(k int, t []byte) []byte {
	em := bytes.Repeat([]byte{0xff}, k)
	em[0] = 0x00
	em[1] = 0x01
	em[k-len(t)-1] = 0x00
	copy(em[k-len(t):], t)
	return em
}

// randomDigest returns a random digest of h's size.
func randomDigest(tb testing.TB, h crypto.Hash) []byte {
	d := make([]byte, h.Size())
	if _, err := rand.Read(d); err != nil {
		tb.Fatal(err)
	}
	return d
}

// agree fails unless VerifyPKCS1v15 and crypto/rsa give the same answer
// and that answer is want (nil for a signature that verifies); it returns
// ours.
func agree(tb testing.TB, pub *rsa.PublicKey, h crypto.Hash, digest, sig []byte, want bool) {
	tb.Helper()
	ours := VerifyPKCS1v15(pub, h, digest, sig)
	theirs := rsa.VerifyPKCS1v15(pub, h, digest, sig)
	if (ours == nil) != (theirs == nil) {
		tb.Fatalf("%v, %d-bit key: VerifyPKCS1v15 says %v, crypto/rsa %v", h, pub.N.BitLen(), ours, theirs)
	}
	if (ours == nil) != want {
		tb.Fatalf("%v, %d-bit key: verified is %v, want %v (%v)", h, pub.N.BitLen(), ours == nil, want, ours)
	}
}

// TestDigestInfoPrefixes checks the table against DigestInfo encoded with
// encoding/asn1 from the OIDs of algorithms.go, and that the smallest key
// checkRSAKey accepts has room for every encoding (RFC 8017 section 9.2
// step 3: k >= tLen + 11), which verifyPKCS1v15 does not check again.
func TestDigestInfoPrefixes(t *testing.T) {
	is := is.New(t)
	is.Equal(len(digestInfoPrefix), len(pkcs1v15Hashes))
	type algorithmIdentifier struct {
		Algorithm  asn1.ObjectIdentifier
		Parameters asn1.RawValue
	}
	type digestInfo struct {
		Algorithm algorithmIdentifier
		Digest    []byte
	}
	for _, h := range pkcs1v15Hashes {
		digest := make([]byte, h.Size())
		der, err := asn1.Marshal(digestInfo{algorithmIdentifier{OIDFromHash(h), asn1.NullRawValue}, digest})
		is.NoErr(err)
		is.Equal(digestInfoPrefix[h], der[:len(der)-len(digest)]) // the prefix of this hash
		is.True(MinRSABits/8 >= len(der)+11)                      // room for this hash's encoding
	}
}

// TestUsesMathBig checks which calls VerifyPKCS1v15 keeps and which it
// leaves to crypto/rsa.
func TestUsesMathBig(t *testing.T) {
	key := &rsaTestKey(t, "rsa-2048").PublicKey
	withE := func(e int) *rsa.PublicKey { return &rsa.PublicKey{N: key.N, E: e} }
	small := &rsaTestKey(t, "rsa-1024").PublicKey
	tests := []struct {
		name   string
		pub    *rsa.PublicKey
		hash   crypto.Hash
		digest int
		want   bool
	}{
		{"SHA-256", key, crypto.SHA256, 32, true},
		{"1024-bit key", small, crypto.SHA512, 64, true},
		{"odd-sized key", &rsaTestKey(t, "rsa-1036").PublicKey, crypto.SHA256, 32, true},
		{"exponent 3", &rsaTestKey(t, "rsa-2048-e3").PublicKey, crypto.SHA256, 32, true},
		{"short digest", key, crypto.SHA256, 31, false},
		{"long digest", key, crypto.SHA256, 33, false},
		{"no hash (raw)", key, 0, 32, false},
		{"MD5+SHA1", key, crypto.MD5SHA1, 36, false},
		{"RIPEMD-160", key, crypto.RIPEMD160, 20, false},
		{"BLAKE2b-256", key, crypto.BLAKE2b_256, 32, false},
		{"even exponent", withE(65536), crypto.SHA256, 32, false},
		{"exponent 1", withE(1), crypto.SHA256, 32, false},
		{"exponent 2^31+1", withE(1<<31 + 1), crypto.SHA256, 32, false},
		{"even modulus", &rsa.PublicKey{N: new(big.Int).Add(key.N, big.NewInt(1)), E: 65537}, crypto.SHA256, 32, false},
		{"1023-bit modulus", &rsa.PublicKey{N: new(big.Int).SetBit(new(big.Int).Rsh(small.N, 1), 0, 1), E: 65537}, crypto.SHA256, 32, false},
	}
	for _, h := range pkcs1v15Hashes {
		tests = append(tests, struct {
			name   string
			pub    *rsa.PublicKey
			hash   crypto.Hash
			digest int
			want   bool
		}{h.String(), key, h, h.Size(), true})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			is.Equal(usesMathBig(tt.pub, tt.hash, make([]byte, tt.digest)), tt.want)
		})
	}
}

// TestVerifyPKCS1v15Differential signs random digests with crypto/rsa
// under keys of 1024 to 4096 bits (one of an odd size, one with exponent
// 3) and every hash, and checks that VerifyPKCS1v15 verifies them with
// math/big and gives crypto/rsa's answer on each way of spoiling them,
// which must be a refusal.
func TestVerifyPKCS1v15Differential(t *testing.T) {
	for _, name := range []string{"rsa-1024", "rsa-1036", "rsa-2048", "rsa-2048-e3", "rsa-3072", "rsa-4096"} {
		key := rsaTestKey(t, name)
		pub := &key.PublicKey
		k := pub.Size()
		for i, h := range pkcs1v15Hashes {
			t.Run(name+"/"+h.String(), func(t *testing.T) {
				digest := randomDigest(t, h)
				sig, err := rsa.SignPKCS1v15(nil, key, h, digest)
				if err != nil {
					t.Fatal(err)
				}
				if !usesMathBig(pub, h, digest) {
					t.Fatal("left to crypto/rsa")
				}
				agree(t, pub, h, digest, sig, true)

				flip := func(b []byte, bit int) []byte {
					c := bytes.Clone(b)
					c[bit/8] ^= 0x80 >> (bit % 8)
					return c
				}
				for _, bit := range []int{0, 7, 8, 4*k - 3, 8*k - 9, 8*k - 1} {
					agree(t, pub, h, digest, flip(sig, bit), false)
				}
				for _, bit := range []int{0, 7, 4*len(digest) + 1, 8*len(digest) - 1} {
					agree(t, pub, h, flip(digest, bit), sig, false)
				}
				agree(t, pub, h, digest, sig[1:], false)
				agree(t, pub, h, digest, sig[:k-1], false)
				agree(t, pub, h, digest, append([]byte{0}, sig...), false)
				agree(t, pub, h, digest, append(bytes.Clone(sig), 0), false)
				n := pub.N
				for _, s := range []*big.Int{n, new(big.Int).Add(n, big.NewInt(1)), big.NewInt(0), big.NewInt(1), new(big.Int).Sub(n, big.NewInt(1))} {
					agree(t, pub, h, digest, s.FillBytes(make([]byte, k)), false)
				}
				// n + s is s modulo n: only the range check refuses it.
				if ns := new(big.Int).Add(n, new(big.Int).SetBytes(sig)); ns.BitLen() <= 8*k {
					agree(t, pub, h, digest, ns.FillBytes(make([]byte, k)), false)
				}

				// The same digest bytes signed under another hash of their
				// size when there is one, else another digest under another hash.
				other := pkcs1v15Hashes[(i+1)%len(pkcs1v15Hashes)]
				for _, o := range pkcs1v15Hashes {
					if o != h && o.Size() == h.Size() {
						other = o
					}
				}
				otherDigest := digest
				if other.Size() != h.Size() {
					otherDigest = randomDigest(t, other)
				}
				otherSig, err := rsa.SignPKCS1v15(nil, key, other, otherDigest)
				if err != nil {
					t.Fatal(err)
				}
				agree(t, pub, other, otherDigest, otherSig, true)
				agree(t, pub, h, digest, otherSig, false)
			})
		}
	}
}

// TestVerifyPKCS1v15Encodings signs encoded messages that are nearly
// EMSA-PKCS1-v1_5 with the raw private key: each must be refused, as
// crypto/rsa refuses it, and the genuine encoding accepted.
func TestVerifyPKCS1v15Encodings(t *testing.T) {
	key := rsaTestKey(t, "rsa-2048")
	pub := &key.PublicKey
	k := pub.Size()
	h := crypto.SHA256
	digest := randomDigest(t, h)
	prefix := digestInfoPrefix[h]
	t0 := append(bytes.Clone(prefix), digest...)
	// DigestInfo without the NULL parameters: the lengths shrink by 2.
	noNull := append([]byte{0x30, 0x2f, 0x30, 0x0b}, prefix[4:15]...)
	noNull = append(append(noNull, 0x04, 0x20), digest...)
	// The outer SEQUENCE length in long form: BER, not DER.
	ber := append([]byte{0x30, 0x81, 0x31}, t0[2:]...)
	tests := []struct {
		name string
		em   []byte
		want bool
	}{
		{"genuine", emsa(k, t0), true},
		{"DigestInfo without NULL", emsa(k, noNull), false},
		{"BER length", emsa(k, ber), false},
		{"block type 2", func() []byte { em := emsa(k, t0); em[1] = 0x02; return em }(), false},
		{"first byte not 0", func() []byte { em := emsa(k, t0); em[0] = 0x01; return em }(), false},
		{"padding byte not 0xff", func() []byte { em := emsa(k, t0); em[10] = 0xfe; return em }(), false},
		{"no zero separator", func() []byte { em := emsa(k, t0); em[k-len(t0)-1] = 0xff; return em }(), false},
		{"short padding, trailing garbage", append(emsa(k-4, t0), 1, 2, 3, 4), false},
		{"digest moved left, garbage after", append(emsa(k-1, t0), 0), false},
		{"wrong OID", func() []byte { em := emsa(k, t0); em[k-len(t0)+14] = 0x02; return em }(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			sig := rsaPrivate(key, tt.em)
			is.Equal(rsaPublic(pub, sig), tt.em) // the signature encodes the block
			agree(t, pub, h, digest, sig, tt.want)
			is.Equal(verifyPKCS1v15(pub, h, digest, sig) == nil, tt.want)
		})
	}
}

// TestVerifyPKCS1v15Fallback checks the calls VerifyPKCS1v15 leaves to
// crypto/rsa: answered as crypto/rsa answers them, although the math/big
// path, given the same input, would answer otherwise.
func TestVerifyPKCS1v15Fallback(t *testing.T) {
	is := is.New(t)
	key := rsaTestKey(t, "rsa-2048")
	pub := &key.PublicKey
	data := []byte("signed as is, without a DigestInfo")
	raw, err := rsa.SignPKCS1v15(nil, key, 0, data)
	is.NoErr(err)
	agree(t, pub, 0, data, raw, true)
	is.True(verifyPKCS1v15(pub, 0, data, raw) != nil) // no prefix for hash 0

	// A DigestInfo for SHA-256 holding 31 bytes: its encoding verifies
	// bytewise, but crypto/rsa refuses a digest of the wrong size.
	short := randomDigest(t, crypto.SHA256)[:31]
	sig, err := rsa.SignPKCS1v15(nil, key, 0, append(bytes.Clone(digestInfoPrefix[crypto.SHA256]), short...))
	is.NoErr(err)
	is.NoErr(verifyPKCS1v15(pub, crypto.SHA256, short, sig))
	agree(t, pub, crypto.SHA256, short, sig, false)
}

// TestVerifyPKCS1v15Length checks the length rule of RFC 8017 section
// 8.2.2 step 1 on a signature whose first byte is 0: without it, k-1 bytes
// (the leading 0 dropped) and k+1 bytes (another 0 put before) would be
// the same integer and verify.
func TestVerifyPKCS1v15Length(t *testing.T) {
	for _, name := range []string{"rsa-1024", "rsa-2048"} {
		t.Run(name, func(t *testing.T) {
			is := is.New(t)
			key := rsaTestKey(t, name)
			pub := &key.PublicKey
			var digest, sig []byte
			for i := 0; i < 10000 && (sig == nil || sig[0] != 0); i++ {
				digest = randomDigest(t, crypto.SHA256)
				var err error
				sig, err = rsa.SignPKCS1v15(nil, key, crypto.SHA256, digest)
				is.NoErr(err)
			}
			is.Equal(sig[0], byte(0)) // a signature with a leading 0
			agree(t, pub, crypto.SHA256, digest, sig, true)
			agree(t, pub, crypto.SHA256, digest, sig[1:], false)
			agree(t, pub, crypto.SHA256, digest, append([]byte{0}, sig...), false)
		})
	}
}

// wycheproofRSAFile is the part of a Wycheproof RSASSA-PKCS1-v1_5 file
// (rsassa_pkcs1_verify_schema_v1.json) the test reads.
type wycheproofRSAFile struct {
	Algorithm  string
	Schema     string
	TestGroups []struct {
		Type         string
		Sha          string
		PublicKeyDer string
		KeySize      int
		Tests        []wycheproofRSATest
	}
}

type wycheproofRSATest struct {
	TcID    int
	Comment string
	Flags   []string
	Msg     string
	Sig     string
	Result  string
}

// TestWycheproofPKCS1v15 runs Wycheproof's RSASSA-PKCS1-v1_5 verification
// vectors (testdata/wycheproof, see its README) through VerifyPKCS1v15
// and CheckSignature: a valid vector must verify, an invalid one must not,
// and an acceptable one (a DigestInfo without NULL) must get crypto/rsa's
// answer. Every vector must be one VerifyPKCS1v15 verifies itself.
func TestWycheproofPKCS1v15(t *testing.T) {
	hashes := map[string]crypto.Hash{
		"SHA-256": crypto.SHA256, "SHA-384": crypto.SHA384, "SHA-512": crypto.SHA512,
		"SHA-512/224": crypto.SHA512_224, "SHA3-256": crypto.SHA3_256,
	}
	// Vectors per file: valid, invalid, acceptable. A file that reads as
	// fewer would test less than it seems to.
	counts := map[string][3]int{
		"rsa_signature_2048_sha256_test.json":     {9, 249, 1},
		"rsa_signature_2048_sha512_224_test.json": {7, 250, 1},
		"rsa_signature_2048_sha3_256_test.json":   {7, 249, 1},
		"rsa_signature_3072_sha384_test.json":     {7, 251, 1},
		"rsa_signature_3072_sha512_test.json":     {8, 251, 1},
		"rsa_signature_4096_sha256_test.json":     {7, 250, 1},
		"rsa_signature_4096_sha512_test.json":     {7, 251, 1},
	}
	files, err := filepath.Glob("testdata/wycheproof/rsa_signature_*_test.json")
	if err != nil || len(files) != len(counts) {
		t.Fatalf("Wycheproof files: %v %v", files, err)
	}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			is := is.New(t)
			raw, err := os.ReadFile(name)
			is.NoErr(err)
			var f wycheproofRSAFile
			is.NoErr(json.Unmarshal(raw, &f))
			is.Equal(f.Algorithm, "RSASSA-PKCS1-v1_5")
			is.Equal(f.Schema, "rsassa_pkcs1_verify_schema_v1.json")
			var got [3]int
			for _, g := range f.TestGroups {
				is.Equal(g.Type, "RsassaPkcs1Verify")
				h, ok := hashes[g.Sha]
				if !ok {
					t.Fatalf("hash %q", g.Sha)
				}
				der, err := hex.DecodeString(g.PublicKeyDer)
				is.NoErr(err)
				key, err := x509.ParsePKIXPublicKey(der)
				is.NoErr(err)
				pub := key.(*rsa.PublicKey)
				is.Equal(pub.N.BitLen(), g.KeySize)
				alg := SignatureAlgorithm{Scheme: PKCS1v15, Hash: h}
				for _, tc := range g.Tests {
					msg, err := hex.DecodeString(tc.Msg)
					is.NoErr(err)
					sig, err := hex.DecodeString(tc.Sig)
					is.NoErr(err)
					d := h.New()
					d.Write(msg)
					digest := d.Sum(nil)
					is.True(usesMathBig(pub, h, digest)) // verified with math/big
					ours := VerifyPKCS1v15(pub, h, digest, sig)
					theirs := rsa.VerifyPKCS1v15(pub, h, digest, sig)
					checked := CheckSignature(pub, alg, msg, sig)
					var want bool
					switch tc.Result {
					case "valid":
						want = true
						got[0]++
					case "invalid":
						got[1]++
					case "acceptable":
						want = theirs == nil
						got[2]++
					default:
						t.Fatalf("tcId %d: result %q", tc.TcID, tc.Result)
					}
					if (ours == nil) != want || (checked == nil) != want || (theirs == nil) != want {
						t.Errorf("tcId %d (%s, %v): VerifyPKCS1v15 %v, CheckSignature %v, crypto/rsa %v; want %s",
							tc.TcID, tc.Comment, tc.Flags, ours, checked, theirs, tc.Result)
					}
				}
			}
			is.Equal(got, counts[filepath.Base(name)]) // valid, invalid, acceptable vectors
		})
	}
}

// FuzzVerifyPKCS1v15 checks that VerifyPKCS1v15 answers as crypto/rsa on
// the keys of testdata/rsakeys, for every hash (those it leaves to
// crypto/rsa too) and any digest. With raw set, block is the signature;
// otherwise the signature is block signed with the raw private key, so
// that the fuzzer varies the encoded message that the verifiers recover:
// the padding, the DigestInfo, the digest.
func FuzzVerifyPKCS1v15(f *testing.F) {
	names := []string{"rsa-1024", "rsa-1036", "rsa-2048", "rsa-2048-e3"}
	keys := make([]*rsa.PrivateKey, len(names))
	for i, name := range names {
		keys[i] = rsaTestKey(f, name)
	}
	hashes := append([]crypto.Hash{0, crypto.MD5SHA1, crypto.RIPEMD160}, pkcs1v15Hashes...)
	for ki, key := range keys {
		k := key.Size()
		for hi, h := range hashes {
			if h == 0 || h == crypto.MD5SHA1 || h == crypto.RIPEMD160 {
				continue
			}
			digest := randomDigest(f, h)
			sig, err := rsa.SignPKCS1v15(nil, key, h, digest)
			if err != nil {
				f.Fatal(err)
			}
			em := rsaPublic(&key.PublicKey, sig)
			f.Add(uint8(ki), uint8(hi), digest, em, false)
			f.Add(uint8(ki), uint8(hi), digest, sig, true)
			f.Add(uint8(ki), uint8(hi), digest, append([]byte{0}, sig...), true)
			f.Add(uint8(ki), uint8(hi), digest, sig[1:], true)
			f.Add(uint8(ki), uint8(hi), digest, key.N.Bytes(), true)
			f.Add(uint8(ki), uint8(hi), digest, make([]byte, k), true)
			f.Add(uint8(ki), uint8(hi), digest[1:], em, false)
			f.Add(uint8(ki), uint8((hi+1)%len(hashes)), digest, em, false)
			bad := bytes.Clone(em)
			bad[2] = 0xfe
			f.Add(uint8(ki), uint8(hi), digest, bad, false)
		}
		f.Add(uint8(ki), uint8(0), []byte("raw"), emsa(k, []byte("raw")), false)
	}
	f.Fuzz(func(t *testing.T, ki, hi uint8, digest, block []byte, raw bool) {
		key := keys[int(ki)%len(keys)]
		h := hashes[int(hi)%len(hashes)]
		sig := block
		if !raw {
			sig = rsaPrivate(key, block)
		}
		ours := VerifyPKCS1v15(&key.PublicKey, h, digest, sig)
		theirs := rsa.VerifyPKCS1v15(&key.PublicKey, h, digest, sig)
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("%v, %d-bit key, %d-byte digest, %d-byte signature: VerifyPKCS1v15 %v, crypto/rsa %v",
				h, key.N.BitLen(), len(digest), len(sig), ours, theirs)
		}
	})
}

// BenchmarkCheckDigestSignature compares crypto/rsa's PKCS #1 v1.5
// verification with CheckDigestSignature's (math/big) on a valid
// SHA-256 signature; the names are for benchstat -col /impl.
func BenchmarkCheckDigestSignature(b *testing.B) {
	for _, bits := range []int{2048, 4096} {
		key := rsaTestKey(b, fmt.Sprintf("rsa-%d", bits))
		digest := randomDigest(b, crypto.SHA256)
		sig, err := rsa.SignPKCS1v15(nil, key, crypto.SHA256, digest)
		if err != nil {
			b.Fatal(err)
		}
		alg := SignatureAlgorithm{Scheme: PKCS1v15, Hash: crypto.SHA256}
		b.Run(fmt.Sprintf("bits=%d/impl=crypto-rsa", bits), func(b *testing.B) {
			for b.Loop() {
				if err := rsa.VerifyPKCS1v15(&key.PublicKey, crypto.SHA256, digest, sig); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("bits=%d/impl=math-big", bits), func(b *testing.B) {
			for b.Loop() {
				if err := CheckDigestSignature(&key.PublicKey, alg, digest, sig); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
