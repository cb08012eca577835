//go:build ignore

// gen.go writes p256.go, p384.go and p512.go (into the directory -out
// names): Montgomery field arithmetic over the brainpool primes, unrolled
// for their limb counts, and the point arithmetic that uses it. Run it with
// go generate; TestGenerated checks that the files are up to date.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// fields are the brainpool primes (RFC 5639, sections 3.4, 3.6 and 3.7).
var fields = []struct {
	Bits int
	P    string
}{
	{256, "A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377"},
	{384, "8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123ACD3A729901D1A71874700133107EC53"},
	{512, "AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA703308717D4D9B009BC66842AECDA12AE6A380E62881FF2F2D82C68528AA6056583A48F3"},
}

// out is the directory the files go to; TestGenerated writes them
// elsewhere to compare.
var out = flag.String("out", ".", "directory to write p256.go, p384.go and p512.go to")

func main() {
	flag.Parse()
	for _, f := range fields {
		p, ok := new(big.Int).SetString(f.P, 16)
		if !ok || p.BitLen() != f.Bits {
			log.Fatalf("bad prime for %d bits", f.Bits)
		}
		src := generate(f.Bits, p)
		src, err := format.Source(src)
		if err != nil {
			log.Fatalf("p%d: %v", f.Bits, err)
		}
		if err := os.WriteFile(filepath.Join(*out, fmt.Sprintf("p%d.go", f.Bits)), src, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

type params struct {
	Bits, Limbs, Bytes int
	Fe, Point, Affine  string
	Cached             string
	P, R, R2, PMinus2  string // limb literals, least significant first
	PInv               string
	Mul, Sqr, Add, Sub string // unrolled bodies
	LastLimb           int
}

func generate(bits int, p *big.Int) []byte {
	n := bits / 64
	word := new(big.Int).Lsh(big.NewInt(1), 64)
	r := new(big.Int).Lsh(big.NewInt(1), uint(64*n))
	// pinv = -p^-1 mod 2^64, the Montgomery constant of CIOS.
	pinv := new(big.Int).ModInverse(new(big.Int).Mod(p, word), word)
	pinv.Sub(word, pinv)
	prm := params{
		Bits: bits, Limbs: n, Bytes: bits / 8, LastLimb: n - 1,
		Fe:      fmt.Sprintf("fe%d", bits),
		Point:   fmt.Sprintf("point%d", bits),
		Affine:  fmt.Sprintf("affine%d", bits),
		Cached:  fmt.Sprintf("cached%d", bits),
		P:       limbs(p, n),
		R:       limbs(new(big.Int).Mod(r, p), n),
		R2:      limbs(new(big.Int).Mod(new(big.Int).Mul(r, r), p), n),
		PMinus2: limbs(new(big.Int).Sub(p, big.NewInt(2)), n),
		PInv:    fmt.Sprintf("%#016x", pinv),
		Mul:     mulBody(n, p),
		Sqr:     sqrBody(n, p),
		Add:     addBody(n, p),
		Sub:     subBody(n, p),
	}
	var b bytes.Buffer
	if err := tmpl.Execute(&b, prm); err != nil {
		log.Fatal(err)
	}
	return inlineFieldOps(b.Bytes(), prm, n, p)
}

// fieldOp is a call of fe.add or fe.sub in the point formulas.
var fieldOp = regexp.MustCompile(`(?m)^\t(\w+)\.(add|sub)\(&([\w.]+), &([\w.]+)\)( //.*)?$`)

// inlineFieldOps writes the additions and subtractions of the point
// formulas out in place: the compiler does not inline them, and the
// calls cost about as much as the arithmetic.
func inlineFieldOps(src []byte, prm params, n int, p *big.Int) []byte {
	out := string(src)
	for _, fn := range []string{"double", "add", "addAffine", "addCached"} {
		head := fmt.Sprintf("func (p *%s) %s(", prm.Point, fn)
		start := strings.Index(out, head)
		end := start + strings.Index(out[start:], "\n}\n")
		body := fieldOp.ReplaceAllStringFunc(out[start:end], func(call string) string {
			m := fieldOp.FindStringSubmatch(call)
			code := addBody(n, p)
			if m[2] == "sub" {
				code = subBody(n, p)
			}
			code = strings.NewReplacer("x[", m[3]+"[", "y[", m[4]+"[", "z[", m[1]+"[").Replace(code)
			return fmt.Sprintf("\t{ // %s = %s %s %s%s\n%s}", m[1], m[3], map[string]string{"add": "+", "sub": "-"}[m[2]], m[4], strings.Replace(m[5], " //", ":", 1), code)
		})
		out = out[:start] + body + out[end:]
	}
	return []byte(out)
}

// limbs writes v as n 64-bit limbs, least significant first.
func limbs(v *big.Int, n int) string {
	mask := new(big.Int).SetUint64(^uint64(0))
	var parts []string
	for i := 0; i < n; i++ {
		w := new(big.Int).Rsh(v, uint(64*i))
		parts = append(parts, fmt.Sprintf("%#016x", w.And(w, mask)))
	}
	return strings.Join(parts, ", ")
}

func limb(p *big.Int, i int) string {
	w := new(big.Int).Rsh(p, uint(64*i))
	return fmt.Sprintf("%#016x", w.And(w, new(big.Int).SetUint64(^uint64(0))).Uint64())
}

// mulBody is the coarsely integrated operand scanning (CIOS) Montgomery
// multiplication of Koç, Acar and Kaliski: for each word of y, add x·y_i
// to t, then the multiple m·p of p that clears t's low word, and shift t
// down a word. The products of a row are summed first and then added to t
// in one carry chain (the compiler turns chained bits.Add64 into ADC); the
// loop over y is kept, which stops the compiler from hoisting the products
// of every row at once and spilling them. The primes use their top bit, so
// t needs n+2 words; the result is below 2p and one subtraction makes it
// canonical.
func mulBody(n int, p *big.Int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	var ts, hs, ls []string
	for j := 0; j <= n+1; j++ {
		ts = append(ts, fmt.Sprintf("t%d", j))
	}
	for j := 0; j < n; j++ {
		hs = append(hs, fmt.Sprintf("h%d", j))
		ls = append(ls, fmt.Sprintf("l%d", j))
	}
	w("var %s uint64", strings.Join(ts, ", "))
	w("for _, yi := range y {")
	w("var %s, %s uint64", strings.Join(hs, ", "), strings.Join(ls, ", "))
	w("var c uint64")
	addRow := func(reduction bool) {
		for j := 1; j < n; j++ {
			if j == 1 {
				w("l%d, c = bits.Add64(l%d, h%d, 0)", j, j, j-1)
			} else {
				w("l%d, c = bits.Add64(l%d, h%d, c)", j, j, j-1)
			}
		}
		w("h%d += c", n-1)
		for j := 0; j < n; j++ {
			if j == 0 && reduction {
				w("_, c = bits.Add64(t0, l0, 0) // t0 becomes 0")
			} else if j == 0 {
				w("t0, c = bits.Add64(t0, l0, 0)")
			} else {
				w("t%d, c = bits.Add64(t%d, l%d, c)", j, j, j)
			}
		}
		w("t%d, c = bits.Add64(t%d, h%d, c)", n, n, n-1)
		w("t%d += c", n+1)
	}
	for j := 0; j < n; j++ {
		w("h%d, l%d = bits.Mul64(x[%d], yi)", j, j, j)
	}
	addRow(false)
	w("m := t0 * pinv%d", n*64)
	for j := 0; j < n; j++ {
		w("h%d, l%d = bits.Mul64(m, %s)", j, j, limb(p, j))
	}
	addRow(true)
	for j := 0; j <= n; j++ {
		w("t%d = t%d", j, j+1)
	}
	w("t%d = 0", n+1)
	w("}")
	reduce(w, n, p, fmt.Sprintf("t%d", n))
	return b.String()
}

// sqrBody squares by separated operand scanning: the product x·x first,
// with each cross product x_i·x_j (i < j) computed once and doubled, then
// the Montgomery reduction of the 2n-word result, n rows of m·p.
func sqrBody(n int, p *big.Int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for j := 0; j < n; j++ {
		w("x%d := x[%d]", j, j)
	}
	var rs, hs, ls []string
	for k := 0; k < 2*n; k++ {
		rs = append(rs, fmt.Sprintf("r%d", k))
	}
	for j := 0; j < n; j++ {
		hs = append(hs, fmt.Sprintf("h%d", j))
		ls = append(ls, fmt.Sprintf("l%d", j))
	}
	w("var %s uint64", strings.Join(rs, ", "))
	w("var %s, %s uint64", strings.Join(hs, ", "), strings.Join(ls, ", "))
	w("var c, top uint64")
	// Cross products, row i: x_i·x_j for j > i, at words i+j and i+j+1.
	for i := 0; i < n-1; i++ {
		w("// Cross products of x%d.", i)
		for j := i + 1; j < n; j++ {
			w("h%d, l%d = bits.Mul64(x%d, x%d)", j, j, i, j)
		}
		// Sum the row: l_{i+1}, l_{i+2}+h_{i+1}, …, h_{n-1}.
		for j := i + 2; j < n; j++ {
			if j == i+2 {
				w("l%d, c = bits.Add64(l%d, h%d, 0)", j, j, j-1)
			} else {
				w("l%d, c = bits.Add64(l%d, h%d, c)", j, j, j-1)
			}
		}
		if i+2 < n {
			w("h%d += c", n-1)
		}
		// Add it at word 2i+1.
		for j := i + 1; j < n; j++ {
			k := i + j
			if j == i+1 {
				w("r%d, c = bits.Add64(r%d, l%d, 0)", k, k, j)
			} else {
				w("r%d, c = bits.Add64(r%d, l%d, c)", k, k, j)
			}
		}
		w("r%d, c = bits.Add64(r%d, h%d, c)", i+n, i+n, n-1)
		if i+n+1 < 2*n {
			w("r%d += c", i+n+1)
		}
	}
	// Double them.
	for k := 2*n - 1; k > 0; k-- {
		w("r%d = r%d<<1 | r%d>>63", k, k, k-1)
	}
	w("r0 <<= 1")
	// Add the squares x_i² at words 2i and 2i+1.
	for i := 0; i < n; i++ {
		w("h%d, l%d = bits.Mul64(x%d, x%d)", i, i, i, i)
	}
	for i := 0; i < n; i++ {
		if i == 0 {
			w("r0, c = bits.Add64(r0, l0, 0)")
		} else {
			w("r%d, c = bits.Add64(r%d, l%d, c)", 2*i, 2*i, i)
		}
		if i < n-1 {
			w("r%d, c = bits.Add64(r%d, h%d, c)", 2*i+1, 2*i+1, i)
		} else {
			w("r%d, _ = bits.Add64(r%d, h%d, c) // x² < 2^%d: no carry", 2*i+1, 2*i+1, i, 128*n)
		}
	}
	montReduce(w, n, p)
	return b.String()
}

// montReduce writes the Montgomery reduction of r0..r{2n-1}, word by
// word, into z.
func montReduce(w func(string, ...any), n int, p *big.Int) {
	// Montgomery reduction, word by word.
	for i := 0; i < n; i++ {
		w("// Reduce word %d.", i)
		w("m%d := r%d * pinv%d", i, i, n*64)
		for j := 0; j < n; j++ {
			w("h%d, l%d = bits.Mul64(m%d, %s)", j, j, i, limb(p, j))
		}
		for j := 1; j < n; j++ {
			if j == 1 {
				w("l%d, c = bits.Add64(l%d, h%d, 0)", j, j, j-1)
			} else {
				w("l%d, c = bits.Add64(l%d, h%d, c)", j, j, j-1)
			}
		}
		w("h%d += c", n-1)
		for j := 0; j < n; j++ {
			if j == 0 {
				w("_, c = bits.Add64(r%d, l0, 0)", i)
			} else {
				w("r%d, c = bits.Add64(r%d, l%d, c)", i+j, i+j, j)
			}
		}
		w("r%d, c = bits.Add64(r%d, h%d, c)", i+n, i+n, n-1)
		for k := i + n + 1; k < 2*n; k++ {
			w("r%d, c = bits.Add64(r%d, 0, c)", k, k)
		}
		w("top += c")
	}
	for j := 0; j < n; j++ {
		w("t%d := r%d", j, j+n)
	}
	reduce(w, n, p, "top")
}

// reduce writes z = t - p if that does not borrow, else z = t, for t in
// t0..t{n-1} with a top word top (0 or 1).
func reduce(w func(string, ...any), n int, p *big.Int, top string) {
	w("var b uint64")
	for j := 0; j < n; j++ {
		w("w%d, b := bits.Sub64(t%d, %s, b)", j, j, limb(p, j))
	}
	w("_, b = bits.Sub64(%s, 0, b)", top)
	w("mask := b - 1 // all ones when t >= p")
	for j := 0; j < n; j++ {
		w("z[%d] = w%d&mask | t%d&^mask", j, j, j)
	}
}

func addBody(n int, p *big.Int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("var c uint64")
	for j := 0; j < n; j++ {
		w("t%d, c := bits.Add64(x[%d], y[%d], c)", j, j, j)
	}
	reduce(w, n, p, "c")
	return b.String()
}

func subBody(n int, p *big.Int) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("var b uint64")
	for j := 0; j < n; j++ {
		w("t%d, b := bits.Sub64(x[%d], y[%d], b)", j, j, j)
	}
	w("mask := -b // all ones when x < y: add p back")
	w("var c uint64")
	for j := 0; j < n; j++ {
		w("z[%d], c = bits.Add64(t%d, %s&mask, c)", j, j, limb(p, j))
	}
	w("_ = c")
	return b.String()
}

var tmpl = template.Must(template.New("").Parse(`// Code generated by gen.go; DO NOT EDIT.

package brainpool

import (
	"encoding/binary"
	"math/bits"
	"sync"
)

// {{.Fe}} is an element of the {{.Bits}}-bit brainpool prime field in
// Montgomery form (x·R mod p, R = 2^{{.Bits}}), least significant limb first,
// always below p.
type {{.Fe}} [{{.Limbs}}]uint64

const pinv{{.Bits}} = {{.PInv}}

var (
	p{{.Bits}}       = {{.Fe}}{ {{.P}} }
	r2{{.Bits}}      = {{.Fe}}{ {{.R2}} }
	one{{.Bits}}     = {{.Fe}}{ {{.R}} } // 1 in Montgomery form
	pMinus2{{.Bits}} = {{.Fe}}{ {{.PMinus2}} }
)

// mul sets z = x·y.
func (z *{{.Fe}}) mul(x, y *{{.Fe}}) *{{.Fe}} {
	{{.Mul}}
	return z
}

// sqr sets z = x².
func (z *{{.Fe}}) sqr(x *{{.Fe}}) *{{.Fe}} {
	{{.Sqr}}
	return z
}

// add sets z = x + y.
func (z *{{.Fe}}) add(x, y *{{.Fe}}) *{{.Fe}} {
	{{.Add}}
	return z
}

// sub sets z = x - y.
func (z *{{.Fe}}) sub(x, y *{{.Fe}}) *{{.Fe}} {
	{{.Sub}}
	return z
}

// neg sets z = -x.
func (z *{{.Fe}}) neg(x *{{.Fe}}) *{{.Fe}} { return z.sub(&{{.Fe}}{}, x) }

func (z *{{.Fe}}) isZero() bool { return *z == {{.Fe}}{} }

// setBytes sets z to the big-endian value b of {{.Bytes}} bytes and reports
// whether it is below p; z is unchanged when it is not.
func (z *{{.Fe}}) setBytes(b []byte) bool {
	if len(b) != {{.Bytes}} {
		return false
	}
	var t {{.Fe}}
	for i := range t {
		t[i] = binary.BigEndian.Uint64(b[{{.Bytes}}-8*(i+1):])
	}
	var borrow uint64
	for i := range t {
		_, borrow = bits.Sub64(t[i], p{{.Bits}}[i], borrow)
	}
	if borrow == 0 {
		return false
	}
	z.mul(&t, &r2{{.Bits}})
	return true
}

// bytes returns z as {{.Bytes}} big-endian bytes.
func (z *{{.Fe}}) bytes() []byte {
	var t {{.Fe}}
	t.mul(z, &{{.Fe}}{1}) // out of Montgomery form
	b := make([]byte, {{.Bytes}})
	for i := range t {
		binary.BigEndian.PutUint64(b[{{.Bytes}}-8*(i+1):], t[i])
	}
	return b
}

// invert sets z = 1/x (0 for 0) as x^(p-2). It is slow and variable-time;
// only the table of G (once) and mult (for the tests) use it.
func (z *{{.Fe}}) invert(x *{{.Fe}}) *{{.Fe}} {
	r := one{{.Bits}}
	b := *x
	for i := {{.LastLimb}}; i >= 0; i-- {
		for j := 63; j >= 0; j-- {
			r.sqr(&r)
			if pMinus2{{.Bits}}[i]>>j&1 == 1 {
				r.mul(&r, &b)
			}
		}
	}
	*z = r
	return z
}

// {{.Point}} is a point in Jacobian coordinates (X/Z², Y/Z³) on the twisted
// curve y² = x³ - 3x + b; Z = 0 is the point at infinity.
type {{.Point}} struct{ x, y, z {{.Fe}} }

// {{.Affine}} is a point in affine coordinates, never the point at infinity.
type {{.Affine}} struct{ x, y {{.Fe}} }

// double sets p = 2q with dbl-2001-b (a = -3), 3M + 5S. The point at
// infinity stays there: Z3 works out to 0.
func (p *{{.Point}}) double(q *{{.Point}}) *{{.Point}} {
	var delta, gamma, beta, alpha, t, u {{.Fe}}
	delta.sqr(&q.z)
	gamma.sqr(&q.y)
	beta.mul(&q.x, &gamma)
	t.sub(&q.x, &delta)
	u.add(&q.x, &delta)
	alpha.mul(&t, &u)
	t.add(&alpha, &alpha)
	alpha.add(&t, &alpha) // 3(X-δ)(X+δ)
	var x3, y3, z3 {{.Fe}}
	z3.add(&q.y, &q.z)
	z3.sqr(&z3)
	z3.sub(&z3, &gamma)
	z3.sub(&z3, &delta) // (Y+Z)² - Y² - Z² = 2YZ, a squaring cheaper than a multiplication
	beta.add(&beta, &beta)
	beta.add(&beta, &beta) // 4β
	x3.sqr(&alpha)
	t.add(&beta, &beta)
	x3.sub(&x3, &t) // α² - 8β
	t.sub(&beta, &x3)
	y3.mul(&alpha, &t)
	gamma.sqr(&gamma)
	gamma.add(&gamma, &gamma)
	gamma.add(&gamma, &gamma)
	gamma.add(&gamma, &gamma) // 8γ²
	y3.sub(&y3, &gamma)
	p.x, p.y, p.z = x3, y3, z3
	return p
}

// add sets p = q + r with add-2007-bl, 11M + 5S, falling back to double
// when q = r.
func (p *{{.Point}}) add(q, r *{{.Point}}) *{{.Point}} {
	if q.z.isZero() {
		*p = *r
		return p
	}
	if r.z.isZero() {
		*p = *q
		return p
	}
	var z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v {{.Fe}}
	z1z1.sqr(&q.z)
	z2z2.sqr(&r.z)
	u1.mul(&q.x, &z2z2)
	u2.mul(&r.x, &z1z1)
	s1.mul(&q.y, &r.z)
	s1.mul(&s1, &z2z2)
	s2.mul(&r.y, &q.z)
	s2.mul(&s2, &z1z1)
	h.sub(&u2, &u1)
	rr.sub(&s2, &s1)
	if h.isZero() {
		if rr.isZero() {
			return p.double(q)
		}
		*p = {{.Point}}{}
		return p
	}
	rr.add(&rr, &rr)
	i.add(&h, &h)
	i.sqr(&i)
	j.mul(&h, &i)
	v.mul(&u1, &i)
	var x3, y3, z3 {{.Fe}}
	x3.sqr(&rr)
	x3.sub(&x3, &j)
	x3.sub(&x3, &v)
	x3.sub(&x3, &v)
	y3.sub(&v, &x3)
	y3.mul(&y3, &rr)
	s1.mul(&s1, &j)
	s1.add(&s1, &s1)
	y3.sub(&y3, &s1)
	z3.add(&q.z, &r.z)
	z3.sqr(&z3)
	z3.sub(&z3, &z1z1)
	z3.sub(&z3, &z2z2)
	z3.mul(&z3, &h)
	p.x, p.y, p.z = x3, y3, z3
	return p
}

// addAffine sets p = q + r with madd-2007-bl, 7M + 4S, falling back to
// double when q = r.
func (p *{{.Point}}) addAffine(q *{{.Point}}, r *{{.Affine}}) *{{.Point}} {
	if q.z.isZero() {
		p.x, p.y, p.z = r.x, r.y, one{{.Bits}}
		return p
	}
	var z1z1, u2, s2, h, hh, i, j, rr, v {{.Fe}}
	z1z1.sqr(&q.z)
	u2.mul(&r.x, &z1z1)
	s2.mul(&r.y, &q.z)
	s2.mul(&s2, &z1z1)
	h.sub(&u2, &q.x)
	rr.sub(&s2, &q.y)
	if h.isZero() {
		if rr.isZero() {
			return p.double(q)
		}
		*p = {{.Point}}{}
		return p
	}
	rr.add(&rr, &rr)
	hh.sqr(&h)
	i.add(&hh, &hh)
	i.add(&i, &i)
	j.mul(&h, &i)
	v.mul(&q.x, &i)
	var x3, y3, z3 {{.Fe}}
	x3.sqr(&rr)
	x3.sub(&x3, &j)
	x3.sub(&x3, &v)
	x3.sub(&x3, &v)
	y3.sub(&v, &x3)
	y3.mul(&y3, &rr)
	s2.mul(&q.y, &j)
	s2.add(&s2, &s2)
	y3.sub(&y3, &s2)
	z3.add(&q.z, &h)
	z3.sqr(&z3)
	z3.sub(&z3, &z1z1)
	z3.sub(&z3, &hh)
	p.x, p.y, p.z = x3, y3, z3
	return p
}

// affine returns p in affine coordinates; p must not be the point at
// infinity.
func (p *{{.Point}}) affine() {{.Affine}} {
	var zinv {{.Fe}}
	zinv.invert(&p.z)
	return p.scaled(&zinv)
}

// scaled returns p in affine coordinates given zinv = 1/Z.
func (p *{{.Point}}) scaled(zinv *{{.Fe}}) {{.Affine}} {
	var zinv2 {{.Fe}}
	zinv2.sqr(zinv)
	var a {{.Affine}}
	a.x.mul(&p.x, &zinv2)
	a.y.mul(&p.y, &zinv2)
	a.y.mul(&a.y, zinv)
	return a
}

// {{.Cached}} is a point in Jacobian coordinates with Z² and Z³ kept, for
// the table of a point added many times.
type {{.Cached}} struct{ x, y, z, zz, zzz {{.Fe}} }

func (c *{{.Cached}}) set(p *{{.Point}}) {
	c.x, c.y, c.z = p.x, p.y, p.z
	c.zz.sqr(&p.z)
	c.zzz.mul(&c.zz, &p.z)
}

// addCached sets p = q + r as add does, with r's Z² and Z³ at hand: 10M +
// 4S rather than 11M + 5S.
func (p *{{.Point}}) addCached(q *{{.Point}}, r *{{.Cached}}) *{{.Point}} {
	if q.z.isZero() {
		p.x, p.y, p.z = r.x, r.y, r.z
		return p
	}
	var z1z1, u1, u2, s1, s2, h, i, j, rr, v {{.Fe}}
	z1z1.sqr(&q.z)
	u1.mul(&q.x, &r.zz)
	u2.mul(&r.x, &z1z1)
	s1.mul(&q.y, &r.zzz)
	s2.mul(&r.y, &q.z)
	s2.mul(&s2, &z1z1)
	h.sub(&u2, &u1)
	rr.sub(&s2, &s1)
	if h.isZero() {
		if rr.isZero() {
			return p.double(q)
		}
		*p = {{.Point}}{}
		return p
	}
	rr.add(&rr, &rr)
	i.add(&h, &h)
	i.sqr(&i)
	j.mul(&h, &i)
	v.mul(&u1, &i)
	var x3, y3, z3 {{.Fe}}
	x3.sqr(&rr)
	x3.sub(&x3, &j)
	x3.sub(&x3, &v)
	x3.sub(&x3, &v)
	y3.sub(&v, &x3)
	y3.mul(&y3, &rr)
	s1.mul(&s1, &j)
	s1.add(&s1, &s1)
	y3.sub(&y3, &s1)
	z3.add(&q.z, &r.z)
	z3.sqr(&z3)
	z3.sub(&z3, &z1z1)
	z3.sub(&z3, &r.zz)
	z3.mul(&z3, &h)
	p.x, p.y, p.z = x3, y3, z3
	return p
}

// curve{{.Bits}} is a {{.Bits}}-bit brainpool curve worked on through its
// a = -3 twist: a point (x, y) of the curve maps to (x·z², y·z³) on
// y² = x³ - 3x + b (RFC 5639, section 3: z = 1 for the twist itself).
type curve{{.Bits}} struct {
	b, z2, z3 {{.Fe}}
	g         {{.Affine}} // the base point, on the twist

	once   sync.Once
	gTable *[1 << (baseWindow - 2)]{{.Affine}} // G, 3G, 5G, …
}

func newCurve{{.Bits}}(b, z, gx, gy []byte) *curve{{.Bits}} {
	c := new(curve{{.Bits}})
	var zz {{.Fe}}
	if !c.b.setBytes(b) || !zz.setBytes(z) || !c.g.x.setBytes(gx) || !c.g.y.setBytes(gy) {
		panic("brainpool: bad curve constant")
	}
	c.z2.sqr(&zz)
	c.z3.mul(&c.z2, &zz)
	c.g.x.mul(&c.g.x, &c.z2)
	c.g.y.mul(&c.g.y, &c.z3)
	return c
}

// table returns the odd multiples of G, built on first use and brought to
// affine coordinates with one inversion (Montgomery's trick).
func (c *curve{{.Bits}}) table() *[1 << (baseWindow - 2)]{{.Affine}} {
	c.once.Do(func() {
		var jac [1 << (baseWindow - 2)]{{.Point}}
		var g2 {{.Point}}
		jac[0].x, jac[0].y, jac[0].z = c.g.x, c.g.y, one{{.Bits}}
		g2.double(&jac[0])
		for i := 1; i < len(jac); i++ {
			jac[i].add(&jac[i-1], &g2)
		}
		// prefix[i] = Z_0·…·Z_i; then walk back with the inverse of the
		// whole product.
		var prefix [len(jac)]{{.Fe}}
		prefix[0] = jac[0].z
		for i := 1; i < len(jac); i++ {
			prefix[i].mul(&prefix[i-1], &jac[i].z)
		}
		var inv, zinv {{.Fe}}
		inv.invert(&prefix[len(jac)-1])
		t := new([1 << (baseWindow - 2)]{{.Affine}})
		for i := len(jac) - 1; i > 0; i-- {
			zinv.mul(&inv, &prefix[i-1])
			inv.mul(&inv, &jac[i].z)
			t[i] = jac[i].scaled(&zinv)
		}
		t[0] = jac[0].scaled(&inv)
		c.gTable = t
	})
	return c.gTable
}

// onTwist reports whether a lies on y² = x³ - 3x + b.
func (c *curve{{.Bits}}) onTwist(a *{{.Affine}}) bool {
	var lhs, rhs, t {{.Fe}}
	lhs.sqr(&a.y)
	rhs.sqr(&a.x)
	rhs.mul(&rhs, &a.x)
	t.add(&a.x, &a.x)
	t.add(&t, &a.x)
	rhs.sub(&rhs, &t)
	rhs.add(&rhs, &c.b)
	return lhs == rhs
}

// point reads the curve point (x, y), big-endian, and maps it to the twist.
func (c *curve{{.Bits}}) point(x, y []byte) ({{.Affine}}, bool) {
	var a {{.Affine}}
	if !a.x.setBytes(x) || !a.y.setBytes(y) {
		return a, false
	}
	a.x.mul(&a.x, &c.z2)
	a.y.mul(&a.y, &c.z3)
	return a, c.onTwist(&a)
}

// combined returns u1·G + u2·Q for the width-w NAF digits of u1 (w =
// baseWindow) and u2 (w = pointWindow), least significant first, by
// interleaving (Shamir's trick): one doubling per digit position.
func (c *curve{{.Bits}}) combined(u1, u2 []int8, q *{{.Affine}}) {{.Point}} {
	var qt [1 << (pointWindow - 2)]{{.Cached}}
	var q1, q2, acc {{.Point}}
	q1.x, q1.y, q1.z = q.x, q.y, one{{.Bits}}
	q2.double(&q1)
	qt[0].set(&q1)
	for i := 1; i < len(qt); i++ {
		q1.add(&q1, &q2)
		qt[i].set(&q1)
	}
	g := c.table()
	var na {{.Affine}}
	var nc {{.Cached}}
	for i := max(len(u1), len(u2)) - 1; i >= 0; i-- {
		if !acc.z.isZero() {
			acc.double(&acc)
		}
		if i < len(u1) {
			if d := u1[i]; d > 0 {
				acc.addAffine(&acc, &g[d>>1])
			} else if d < 0 {
				na.x = g[(-d)>>1].x
				na.y.neg(&g[(-d)>>1].y)
				acc.addAffine(&acc, &na)
			}
		}
		if i < len(u2) {
			if d := u2[i]; d > 0 {
				acc.addCached(&acc, &qt[d>>1])
			} else if d < 0 {
				nc = qt[(-d)>>1]
				nc.y.neg(&nc.y)
				acc.addCached(&acc, &nc)
			}
		}
	}
	return acc
}

// verify reports whether u1·G + u2·Q, Q = (qx, qy) a point of the curve, is
// a finite point whose x-coordinate on the curve is one of xs (big-endian,
// below p). It compares X = x·Z²·z² in Montgomery form: no inversion.
func (c *curve{{.Bits}}) verify(qx, qy []byte, u1, u2 []int8, xs ...[]byte) bool {
	q, ok := c.point(qx, qy)
	if !ok {
		return false
	}
	r := c.combined(u1, u2, &q)
	if r.z.isZero() {
		return false
	}
	var zz, t, x {{.Fe}}
	zz.sqr(&r.z)
	zz.mul(&zz, &c.z2)
	for _, b := range xs {
		if !x.setBytes(b) {
			continue
		}
		if *t.mul(&x, &zz) == r.x {
			return true
		}
	}
	return false
}

// mult returns u1·G + u2·Q as big-endian curve coordinates, or ok = false
// for an input off the curve or a result at infinity.
func (c *curve{{.Bits}}) mult(qx, qy []byte, u1, u2 []int8) (x, y []byte, ok bool) {
	q, ok := c.point(qx, qy)
	if !ok {
		return nil, nil, false
	}
	r := c.combined(u1, u2, &q)
	if r.z.isZero() {
		return nil, nil, false
	}
	a := r.affine()
	var zinv {{.Fe}}
	zinv.invert(&c.z2)
	a.x.mul(&a.x, &zinv)
	zinv.invert(&c.z3)
	a.y.mul(&a.y, &zinv)
	return a.x.bytes(), a.y.bytes(), true
}
`))
