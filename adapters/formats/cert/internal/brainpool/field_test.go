package brainpool

import (
	"bytes"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// element is what the generated field types have in common; the tests
// reach them through it, the code does not.
type element[F any] interface {
	*F
	mul(x, y *F) *F
	sqr(x *F) *F
	add(x, y *F) *F
	sub(x, y *F) *F
	neg(x *F) *F
	invert(x *F) *F
	setBytes(b []byte) bool
	bytes() []byte
}

// TestField checks each field's arithmetic against math/big on random
// values and on the edges 0, 1, 2, p-2 and p-1.
func TestField(t *testing.T) {
	t.Run("256", testField[fe256, *fe256](p256r1.p))
	t.Run("384", testField[fe384, *fe384](p384r1.p))
	t.Run("512", testField[fe512, *fe512](p512r1.p))
}

func testField[F any, PF element[F]](p *big.Int) func(*testing.T) {
	return func(t *testing.T) {
		is := is.New(t)
		size := (p.BitLen() + 7) / 8
		rng := rand.New(rand.NewPCG(1, 2))
		random := func() *big.Int {
			b := make([]byte, size)
			for i := range b {
				b[i] = byte(rng.Uint32())
			}
			return new(big.Int).Mod(new(big.Int).SetBytes(b), p)
		}
		values := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2),
			new(big.Int).Sub(p, big.NewInt(2)), new(big.Int).Sub(p, big.NewInt(1))}
		for range 200 {
			values = append(values, random())
		}
		elem := func(v *big.Int) PF {
			e := PF(new(F))
			is.True(e.setBytes(fixed(v, size)))
			is.Equal(hx(new(big.Int).SetBytes(e.bytes())), hx(v)) // round trip
			return e
		}
		mod := func(v *big.Int) *big.Int { return v.Mod(v, p) }
		for i, a := range values {
			b := values[(i*7+3)%len(values)]
			ea, eb := elem(a), elem(b)
			got := func(e PF) *big.Int { return new(big.Int).SetBytes(e.bytes()) }
			is.Equal(hx(got(PF(new(F)).mul(ea, eb))), hx(mod(new(big.Int).Mul(a, b))))
			is.Equal(hx(got(PF(new(F)).sqr(ea))), hx(mod(new(big.Int).Mul(a, a))))
			is.Equal(hx(got(PF(new(F)).add(ea, eb))), hx(mod(new(big.Int).Add(a, b))))
			is.Equal(hx(got(PF(new(F)).sub(ea, eb))), hx(mod(new(big.Int).Sub(a, b))))
			is.Equal(hx(got(PF(new(F)).neg(ea))), hx(mod(new(big.Int).Neg(a))))
			if a.Sign() != 0 && i%10 == 0 { // inversion is slow
				is.Equal(hx(got(PF(new(F)).invert(ea))), hx(new(big.Int).ModInverse(a, p)))
			}
			// Results written over an operand.
			c := *ea
			PF(&c).mul(&c, eb)
			is.Equal(hx(got(&c)), hx(mod(new(big.Int).Mul(a, b))))
		}
		// setBytes refuses p and above and lengths other than the size.
		is.True(!PF(new(F)).setBytes(fixed(p, size)))
		ones := make([]byte, size)
		for i := range ones {
			ones[i] = 0xff
		}
		is.True(!PF(new(F)).setBytes(ones))
		is.True(!PF(new(F)).setBytes(make([]byte, size-1)))
	}
}

// hx writes v in hexadecimal, for comparisons whose failures read.
func hx(v *big.Int) string { return v.Text(16) }

// BenchmarkMul measures field multiplication, nearly all of the time of a
// verification.
func BenchmarkMul(b *testing.B) {
	b.Run("256", benchmarkMul[fe256, *fe256](p256r1.p))
	b.Run("384", benchmarkMul[fe384, *fe384](p384r1.p))
	b.Run("512", benchmarkMul[fe512, *fe512](p512r1.p))
}

func benchmarkMul[F any, PF element[F]](p *big.Int) func(*testing.B) {
	return func(b *testing.B) {
		x := PF(new(F))
		x.setBytes(fixed(new(big.Int).Rsh(p, 1), (p.BitLen()+7)/8))
		b.Run("mul", func(b *testing.B) {
			for b.Loop() {
				x.mul(x, x)
			}
		})
		b.Run("sqr", func(b *testing.B) {
			for b.Loop() {
				x.sqr(x)
			}
		})
	}
}

// TestGenerated checks that p256.go, p384.go and p512.go are what gen.go
// writes today.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "gen.go", "-out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, out)
	}
	for _, name := range []string{"p256.go", "p384.go", "p512.go"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from what gen.go writes: run go generate", name)
		}
	}
}
