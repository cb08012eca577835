package brainpool

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	_ "crypto/sha512" // SHA-384 and SHA-512 for the Wycheproof vectors
	"encoding/hex"
	"encoding/json"
	"math/big"
	mrand "math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pbrainpool "github.com/ProtonMail/go-crypto/brainpool"
	"github.com/matryer/is"
)

// wycheproofFile is the part of a Wycheproof ECDSA verification file
// (schemas ecdsa_verify_schema_v1 and ecdsa_p1363_verify_schema_v1) the
// test reads.
type wycheproofFile struct {
	Schema     string
	TestGroups []struct {
		PublicKey struct {
			Curve  string
			Wx, Wy string
		}
		Sha   string
		Tests []struct {
			TcID    int
			Comment string
			Msg     string
			Sig     string
			Result  string
			Flags   []string
		}
	}
}

// TestWycheproof runs every ECDSA vector of Wycheproof for brainpoolP256r1,
// P384r1 and P512r1 with their SHA-2 hashes, DER and IEEE P1363 (r||s)
// signatures: a valid vector must verify, an invalid one must not, an
// acceptable one may do either.
func TestWycheproof(t *testing.T) {
	files, err := filepath.Glob("testdata/ecdsa_brainpoolP*_test.json")
	if err != nil || len(files) != 6 {
		t.Fatalf("Wycheproof files: %v %v", files, err)
	}
	hashes := map[string]crypto.Hash{"SHA-256": crypto.SHA256, "SHA-384": crypto.SHA384, "SHA-512": crypto.SHA512}
	for _, name := range files {
		t.Run(filepath.Base(name), func(t *testing.T) {
			raw, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			var f wycheproofFile
			if err := json.Unmarshal(raw, &f); err != nil {
				t.Fatal(err)
			}
			p1363 := strings.Contains(f.Schema, "p1363")
			n := 0
			for _, g := range f.TestGroups {
				c := ByName(g.PublicKey.Curve)
				h, ok := hashes[g.Sha]
				if c == nil || !ok {
					t.Fatalf("curve %q, hash %q", g.PublicKey.Curve, g.Sha)
				}
				x, y := hexInt(g.PublicKey.Wx), hexInt(g.PublicKey.Wy)
				for _, tc := range g.Tests {
					msg, _ := hex.DecodeString(tc.Msg)
					sig, _ := hex.DecodeString(tc.Sig)
					d := h.New()
					d.Write(msg)
					digest := d.Sum(nil)
					var got bool
					if p1363 {
						if len(sig) == 2*c.size {
							r, s := new(big.Int).SetBytes(sig[:c.size]), new(big.Int).SetBytes(sig[c.size:])
							got = c.Verify(x, y, digest, r, s)
						}
					} else {
						got = c.VerifyASN1(x, y, digest, sig)
					}
					if tc.Result != "acceptable" && got != (tc.Result == "valid") {
						t.Errorf("tcId %d (%s, %v): verified %v, want %s", tc.TcID, tc.Comment, tc.Flags, got, tc.Result)
					}
					n++
				}
			}
			t.Logf("%d vectors", n)
		})
	}
}

// coordinates returns the point of a public key.
func coordinates(pub *ecdsa.PublicKey) (x, y *big.Int) {
	//lint:ignore SA1019 a point of a custom curve (brainpool) has no other form in crypto/ecdsa.
	return pub.X, pub.Y
}

// fuzzKey returns the key d on curve, a ProtonMail curve.
func fuzzKey(curve elliptic.Curve, d *big.Int) *ecdsa.PrivateKey {
	key := new(ecdsa.PrivateKey)
	key.Curve = curve
	//lint:ignore SA1019 a key of a custom curve (brainpool) has no other form in crypto/ecdsa.
	key.D = d
	//lint:ignore SA1019 as above, and ProtonMail's curves offer no other arithmetic.
	key.X, key.Y = curve.ScalarBaseMult(d.Bytes())
	return key
}

// protonMail returns ProtonMail's generic implementation of c.
func protonMail(c *Curve) elliptic.Curve {
	return map[*Curve]elliptic.Curve{
		p256r1: pbrainpool.P256r1(), p256t1: pbrainpool.P256t1(),
		p384r1: pbrainpool.P384r1(), p384t1: pbrainpool.P384t1(),
		p512r1: pbrainpool.P512r1(), p512t1: pbrainpool.P512t1(),
	}[c]
}

var allCurves = []*Curve{p256r1, p256t1, p384r1, p384t1, p512r1, p512t1}

// TestDifferential compares Verify with crypto/ecdsa over ProtonMail's
// curves on random keys and digests: genuine signatures, and signatures
// with the digest, r, s or the key changed.
func TestDifferential(t *testing.T) {
	for _, c := range allCurves {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			curve := protonMail(c)
			for i := range 8 {
				key, err := ecdsa.GenerateKey(curve, rand.Reader)
				is.NoErr(err)
				other, err := ecdsa.GenerateKey(curve, rand.Reader)
				is.NoErr(err)
				digest := make([]byte, 16+i*8) // shorter and longer than the order
				rand.Read(digest)
				sig, err := ecdsa.SignASN1(rand.Reader, key, digest)
				is.NoErr(err)
				x, y := coordinates(&key.PublicKey)
				is.True(c.VerifyASN1(x, y, digest, sig))

				bad := append([]byte(nil), digest...)
				bad[0] ^= 1
				tampered := append([]byte(nil), sig...)
				tampered[len(tampered)-1] ^= 1
				cases := []struct {
					key         *ecdsa.PublicKey
					digest, sig []byte
				}{
					{&key.PublicKey, bad, sig},
					{&key.PublicKey, digest, tampered},
					{&other.PublicKey, digest, sig},
				}
				for _, tc := range cases {
					x, y := coordinates(tc.key)
					is.Equal(c.VerifyASN1(x, y, tc.digest, tc.sig), ecdsa.VerifyASN1(tc.key, tc.digest, tc.sig))
				}
			}
		})
	}
}

// checkMult compares u1·G + u2·Q, Q = k·G, with ProtonMail's arithmetic.
func checkMult(t *testing.T, c *Curve, u1, u2, k *big.Int) {
	t.Helper()
	curve := protonMail(c)
	u1, u2, k = new(big.Int).Mod(u1, c.n), new(big.Int).Mod(u2, c.n), new(big.Int).Mod(k, c.n)
	if k.Sign() == 0 {
		k.SetInt64(1)
	}
	//lint:ignore SA1019 ProtonMail's curves offer no other arithmetic to compare with.
	qx, qy := curve.ScalarBaseMult(k.Bytes())
	//lint:ignore SA1019 as above
	ax, ay := curve.ScalarBaseMult(u1.Bytes())
	//lint:ignore SA1019 as above
	bx, by := curve.ScalarMult(qx, qy, u2.Bytes())
	//lint:ignore SA1019 as above
	wx, wy := curve.Add(ax, ay, bx, by)
	x, y, ok := c.mult(u1, u2, qx, qy)
	if wx.Sign() == 0 && wy.Sign() == 0 {
		if ok {
			t.Errorf("%s: %x·G + %x·Q = (%x, %x), want the point at infinity", c.name, u1, u2, x, y)
		}
		return
	}
	if !ok || x.Cmp(wx) != 0 || y.Cmp(wy) != 0 {
		t.Errorf("%s: %x·G + %x·Q = (%x, %x) %v, want (%x, %x)", c.name, u1, u2, x, y, ok, wx, wy)
	}
}

// TestMultEdges compares u1·G + u2·Q with ProtonMail's arithmetic where the
// interleaved sum meets its special cases: Q = ±G, sums at infinity, zero
// and extreme scalars.
func TestMultEdges(t *testing.T) {
	for _, c := range allCurves {
		one, nm1 := big.NewInt(1), new(big.Int).Sub(c.n, big.NewInt(1))
		rng := mrand.New(mrand.NewSource(3))
		rnd := new(big.Int).Rand(rng, c.n)
		for _, tc := range [][3]*big.Int{
			{one, one, one}, {one, nm1, one}, {nm1, one, one}, {big.NewInt(0), one, nm1},
			{rnd, new(big.Int).Sub(c.n, rnd), one},        // u1·G = -u2·G: infinity
			{rnd, rnd, nm1},                               // Q = -G
			{big.NewInt(2), big.NewInt(1), big.NewInt(2)}, // doubling inside an addition
			{nm1, nm1, nm1}, {rnd, big.NewInt(0), rnd},
		} {
			checkMult(t, c, tc[0], tc[1], tc[2])
		}
	}
}

// FuzzMult compares u1·G + u2·Q with ProtonMail's arithmetic on scalars
// the fuzzer picks.
func FuzzMult(f *testing.F) {
	f.Add(uint8(0), []byte{1}, []byte{2}, []byte{3})
	f.Add(uint8(1), []byte{0xff, 0xff}, []byte{0}, []byte{7})
	f.Add(uint8(4), p512r1.n.Bytes(), p512r1.n.Bytes(), []byte{1})
	f.Fuzz(func(t *testing.T, which uint8, u1, u2, k []byte) {
		c := allCurves[int(which)%len(allCurves)]
		checkMult(t, c, new(big.Int).SetBytes(u1), new(big.Int).SetBytes(u2), new(big.Int).SetBytes(k))
	})
}

// FuzzVerify compares Verify with crypto/ecdsa over ProtonMail's curves on
// signatures the fuzzer picks, with r and s derived from genuine ones so
// that both verdicts occur.
func FuzzVerify(f *testing.F) {
	f.Add(uint8(0), []byte("message"), []byte{1}, []byte{2}, false)
	f.Add(uint8(3), []byte("message"), []byte{9}, []byte{0}, true)
	f.Fuzz(func(t *testing.T, which uint8, msg, k, delta []byte, genuine bool) {
		c := allCurves[int(which)%len(allCurves)]
		curve := protonMail(c)
		d := new(big.Int).Mod(new(big.Int).SetBytes(k), c.n)
		if d.Sign() == 0 {
			d.SetInt64(1)
		}
		key := fuzzKey(curve, d)
		digest := sha256.Sum256(msg)
		r, s, err := ecdsa.Sign(rand.Reader, key, digest[:])
		if err != nil {
			t.Fatal(err)
		}
		if !genuine {
			r.Add(r, new(big.Int).SetBytes(delta))
			s.Xor(s, new(big.Int).SetBytes(delta))
		}
		want := ecdsa.Verify(&key.PublicKey, digest[:], r, s)
		x, y := coordinates(&key.PublicKey)
		if got := c.Verify(x, y, digest[:], r, s); got != want {
			t.Errorf("%s: Verify = %v, crypto/ecdsa %v", c.name, got, want)
		}
	})
}

// BenchmarkVerify compares ECDSA verification on the brainpool curves
// (this package) with crypto/ecdsa on the NIST curves of the same sizes
// (assembly on P-256 for amd64 and arm64, fiat-crypto otherwise), and
// with crypto/ecdsa over ProtonMail's generic brainpool curves. Besides
// sec/op it reports cpu-ns/op, the process's CPU time a verification,
// which a machine shared with other work disturbs less than the wall
// clock.
func BenchmarkVerify(b *testing.B) {
	nist := []elliptic.Curve{elliptic.P256(), elliptic.P384(), elliptic.P521()}
	for i, c := range []*Curve{p256r1, p384r1, p512r1} {
		hash := []crypto.Hash{crypto.SHA256, crypto.SHA384, crypto.SHA512}[i]
		h := hash.New()
		h.Write([]byte("benchmark"))
		digest := h.Sum(nil)
		sign := func(b *testing.B, curve elliptic.Curve) (*ecdsa.PublicKey, []byte) {
			key, err := ecdsa.GenerateKey(curve, rand.Reader)
			if err != nil {
				b.Fatal(err)
			}
			sig, err := ecdsa.SignASN1(rand.Reader, key, digest)
			if err != nil {
				b.Fatal(err)
			}
			return &key.PublicKey, sig
		}
		b.Run(nist[i].Params().Name, func(b *testing.B) {
			pub, sig := sign(b, nist[i])
			start := processCPU(b)
			for b.Loop() {
				if !ecdsa.VerifyASN1(pub, digest, sig) {
					b.Fatal("does not verify")
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name, func(b *testing.B) {
			pub, sig := sign(b, protonMail(c))
			x, y := coordinates(pub)
			c.VerifyASN1(x, y, digest, sig) // G's table
			start := processCPU(b)
			for b.Loop() {
				if !c.VerifyASN1(x, y, digest, sig) {
					b.Fatal("does not verify")
				}
			}
			reportCPU(b, start)
		})
		b.Run(c.name+"-generic", func(b *testing.B) {
			pub, sig := sign(b, protonMail(c))
			start := processCPU(b)
			for b.Loop() {
				if !ecdsa.VerifyASN1(pub, digest, sig) {
					b.Fatal("does not verify")
				}
			}
			reportCPU(b, start)
		})
	}
}

// reportCPU reports the CPU time a b.Loop iteration took since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU(b)-start)/float64(b.N), "cpu-ns/op")
}
