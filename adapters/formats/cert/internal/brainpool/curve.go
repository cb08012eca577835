package brainpool

import (
	"encoding/hex"
	"math/big"
	"sync"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// Window widths of the NAF recodings. G's table, 1<<(baseWindow-2) affine
// points, is built once per curve and process: wider would save a few
// additions a signature but cost a one-shot command line run more to build
// than it saves. Q's, 1<<(pointWindow-2) Jacobian points, is built for each
// signature, where 5 costs the fewest multiplications in all.
const (
	baseWindow  = 8
	pointWindow = 5
)

// arith is the arithmetic of one field size, generated into p256.go,
// p384.go and p512.go.
type arith interface {
	verify(qx, qy []byte, u1, u2 []int8, xs ...[]byte) bool
	mult(qx, qy []byte, u1, u2 []int8) (x, y []byte, ok bool)
}

// Curve is one brainpool curve.
type Curve struct {
	name   string
	p, n   *big.Int
	gx, gy *big.Int
	size   int // bytes of a field element and of a scalar
	arith  arith
}

// curves are the curves of RFC 5639, section 3, built on first use: their
// parameters are parsed and their Montgomery constants computed when a
// brainpool key is first checked, not at package initialisation, which
// every process start would pay for (docs/decisions/0044). For an r1
// curve z is the isomorphism constant to its t1 twist, whose b is tb; for
// a t1 curve z is 1.
var curves = sync.OnceValue(func() []*Curve {
	return []*Curve{
		newCurve("brainpoolP256r1", 256,
			"A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377",
			"A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7",
			"662C61C430D84EA4FE66A7733D0B76B7BF93EBC4AF2F49256AE58101FEE92B04",
			"3E2D4BD9597B58639AE7AA669CAB9837CF5CF20A2C852D10F655668DFC150EF0",
			"8BD2AEB9CB7E57CB2C4B482FFC81B7AFB9DE27E1E3BD23C23A4453BD9ACE3262",
			"547EF835C3DAC4FD97F8461A14611DC9C27745132DED8E545C1D54C72F046997"),
		newCurve("brainpoolP256t1", 256,
			"A9FB57DBA1EEA9BC3E660A909D838D726E3BF623D52620282013481D1F6E5377",
			"A9FB57DBA1EEA9BC3E660A909D838D718C397AA3B561A6F7901E0E82974856A7",
			"662C61C430D84EA4FE66A7733D0B76B7BF93EBC4AF2F49256AE58101FEE92B04",
			"01",
			"A3E8EB3CC1CFE7B7732213B23A656149AFA142C47AAFBC2B79A191562E1305F4",
			"2D996C823439C56D7F7B22E14644417E69BCB6DE39D027001DABE8F35B25C9BE"),
		newCurve("brainpoolP384r1", 384,
			"8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123ACD3A729901D1A71874700133107EC53",
			"8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7CF3AB6AF6B7FC3103B883202E9046565",
			"7F519EADA7BDA81BD826DBA647910F8C4B9346ED8CCDC64E4B1ABD11756DCE1D2074AA263B88805CED70355A33B471EE",
			"41DFE8DD399331F7166A66076734A89CD0D2BCDB7D068E44E1F378F41ECBAE97D2D63DBC87BCCDDCCC5DA39E8589291C",
			"1D1C64F068CF45FFA2A63A81B7C13F6B8847A3E77EF14FE3DB7FCAFE0CBD10E8E826E03436D646AAEF87B2E247D4AF1E",
			"8ABE1D7520F9C2A45CB1EB8E95CFD55262B70B29FEEC5864E19C054FF99129280E4646217791811142820341263C5315"),
		newCurve("brainpoolP384t1", 384,
			"8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B412B1DA197FB71123ACD3A729901D1A71874700133107EC53",
			"8CB91E82A3386D280F5D6F7E50E641DF152F7109ED5456B31F166E6CAC0425A7CF3AB6AF6B7FC3103B883202E9046565",
			"7F519EADA7BDA81BD826DBA647910F8C4B9346ED8CCDC64E4B1ABD11756DCE1D2074AA263B88805CED70355A33B471EE",
			"01",
			"18DE98B02DB9A306F2AFCD7235F72A819B80AB12EBD653172476FECD462AABFFC4FF191B946A5F54D8D0AA2F418808CC",
			"25AB056962D30651A114AFD2755AD336747F93475B7A1FCA3B88F2B6A208CCFE469408584DC2B2912675BF5B9E582928"),
		newCurve("brainpoolP512r1", 512,
			"AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA703308717D4D9B009BC66842AECDA12AE6A380E62881FF2F2D82C68528AA6056583A48F3",
			"AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330870553E5C414CA92619418661197FAC10471DB1D381085DDADDB58796829CA90069",
			"7CBBBCF9441CFAB76E1890E46884EAE321F70C0BCB4981527897504BEC3E36A62BCDFA2304976540F6450085F2DAE145C22553B465763689180EA2571867423E",
			"12EE58E6764838B69782136F0F2D3BA06E27695716054092E60A80BEDB212B64E585D90BCE13761F85C3F1D2A64E3BE8FEA2220F01EBA5EEB0F35DBD29D922AB",
			"81AEE4BDD82ED9645A21322E9C4C6A9385ED9F70B5D916C1B43B62EEF4D0098EFF3B1F78E2D0D48D50D1687B93B97D5F7C6D5047406A5E688B352209BCB9F822",
			"7DDE385D566332ECC0EABFA9CF7822FDF209F70024A57B1AA000C55B881F8111B2DCDE494A5F485E5BCA4BD88A2763AED1CA2B2FA8F0540678CD1E0F3AD80892"),
		newCurve("brainpoolP512t1", 512,
			"AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA703308717D4D9B009BC66842AECDA12AE6A380E62881FF2F2D82C68528AA6056583A48F3",
			"AADD9DB8DBE9C48B3FD4E6AE33C9FC07CB308DB3B3C9D20ED6639CCA70330870553E5C414CA92619418661197FAC10471DB1D381085DDADDB58796829CA90069",
			"7CBBBCF9441CFAB76E1890E46884EAE321F70C0BCB4981527897504BEC3E36A62BCDFA2304976540F6450085F2DAE145C22553B465763689180EA2571867423E",
			"01",
			"640ECE5C12788717B9C1BA06CBC2A6FEBA85842458C56DDE9DB1758D39C0313D82BA51735CDB3EA499AA77A7D6943A64F7A3F25FE26F06B51BAA2696FA9035DA",
			"5B534BD595F5AF0FA2C892376C84ACE1BB4E3019B71634C01131159CAE03CEE9D9932184BEEF216BD71DF2DADF86A627306ECFF96DBB8BACE198B61E00F8B332"),
	}
})

func newCurve(name string, bits int, p, n, tb, z, gx, gy string) *Curve {
	size := bits / 8
	c := &Curve{name: name, p: hexInt(p), n: hexInt(n), gx: hexInt(gx), gy: hexInt(gy), size: size}
	b, zb, x, y := fixed(hexInt(tb), size), fixed(hexInt(z), size), fixed(c.gx, size), fixed(c.gy, size)
	switch bits {
	case 256:
		c.arith = newCurve256(b, zb, x, y)
	case 384:
		c.arith = newCurve384(b, zb, x, y)
	case 512:
		c.arith = newCurve512(b, zb, x, y)
	}
	return c
}

func hexInt(s string) *big.Int {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic("brainpool: bad constant " + s)
	}
	return new(big.Int).SetBytes(b)
}

// fixed returns v as size big-endian bytes; v must fit.
func fixed(v *big.Int, size int) []byte { return v.FillBytes(make([]byte, size)) }

// ByName returns the curve of that name as crypto/elliptic and RFC 5639
// spell it ("brainpoolP256r1"), or nil.
func ByName(name string) *Curve {
	for _, c := range curves() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// VerifyASN1 reports whether sig, a DER Ecdsa-Sig-Value, is a valid
// signature of digest by the public key (x, y). It reads sig the way
// crypto/ecdsa.VerifyASN1 does (strict DER, unsigned minimal integers).
func (c *Curve) VerifyASN1(x, y *big.Int, digest, sig []byte) bool {
	var inner cryptobyte.String
	var rb, sb []byte
	in := cryptobyte.String(sig)
	if !in.ReadASN1(&inner, cbasn1.SEQUENCE) || !in.Empty() ||
		!inner.ReadASN1Integer(&rb) || !inner.ReadASN1Integer(&sb) || !inner.Empty() {
		return false
	}
	return c.Verify(x, y, digest, new(big.Int).SetBytes(rb), new(big.Int).SetBytes(sb))
}

// Verify reports whether (r, s) is a valid ECDSA signature of digest by the
// public key (x, y) (SEC 1 version 2.0, section 4.1.4). A digest longer
// than the order is cut to its leftmost bits, as crypto/ecdsa does.
func (c *Curve) Verify(x, y *big.Int, digest []byte, r, s *big.Int) bool {
	if x == nil || y == nil || r == nil || s == nil ||
		r.Sign() <= 0 || s.Sign() <= 0 || r.Cmp(c.n) >= 0 || s.Cmp(c.n) >= 0 ||
		x.Sign() < 0 || y.Sign() < 0 || x.Cmp(c.p) >= 0 || y.Cmp(c.p) >= 0 {
		return false
	}
	e := c.hashToInt(digest)
	w := new(big.Int).ModInverse(s, c.n)
	if w == nil {
		return false
	}
	u1 := e.Mul(e, w)
	u1.Mod(u1, c.n)
	u2 := w.Mul(r, w)
	u2.Mod(u2, c.n)
	// The x-coordinate of R is below p; reduced mod n it is r when it is
	// r or, if that is below p, r+n.
	xs := [][]byte{fixed(r, c.size)}
	if rn := new(big.Int).Add(r, c.n); rn.Cmp(c.p) < 0 {
		xs = append(xs, fixed(rn, c.size))
	}
	return c.arith.verify(fixed(x, c.size), fixed(y, c.size),
		wnaf(u1, c.size*8, baseWindow), wnaf(u2, c.size*8, pointWindow), xs...)
}

// hashToInt is SEC 1's step 5 of section 4.1.3: the leftmost bits of the
// digest, as many as the order has.
func (c *Curve) hashToInt(digest []byte) *big.Int {
	bits := c.n.BitLen()
	if size := (bits + 7) / 8; len(digest) > size {
		digest = digest[:size]
	}
	e := new(big.Int).SetBytes(digest)
	if excess := len(digest)*8 - bits; excess > 0 {
		e.Rsh(e, uint(excess))
	}
	return e
}

// mult returns u1·G + u2·(x, y), or ok = false when (x, y) is not on the
// curve or the result is the point at infinity. Scalars are below n.
func (c *Curve) mult(u1, u2, x, y *big.Int) (rx, ry *big.Int, ok bool) {
	bx, by, ok := c.arith.mult(fixed(x, c.size), fixed(y, c.size),
		wnaf(u1, c.size*8, baseWindow), wnaf(u2, c.size*8, pointWindow))
	if !ok {
		return nil, nil, false
	}
	return new(big.Int).SetBytes(bx), new(big.Int).SetBytes(by), true
}

// wnaf returns the width-w non-adjacent form of k < 2^bits, least
// significant digit first: bits+1 digits, each 0 or odd with absolute
// value below 2^(w-1), and any nonzero digit followed by w-1 zeros.
func wnaf(k *big.Int, bits, w int) []int8 {
	var words [(512 + 64) / 64]uint64
	b := k.FillBytes(make([]byte, len(words)*8))
	for i := range words {
		for j := 0; j < 8; j++ {
			words[i] |= uint64(b[len(b)-1-8*i-j]) << (8 * j)
		}
	}
	bit := func(i int) uint64 { return words[i/64] >> (i % 64) & 1 }
	out := make([]int8, bits+1)
	var carry uint64
	for i := 0; i < bits; {
		if bit(i) == carry {
			i++
			continue
		}
		now := min(w, bits-i)
		var word uint64
		for j := now - 1; j >= 0; j-- {
			word = word<<1 | bit(i+j)
		}
		word += carry
		carry = word >> (w - 1) & 1
		out[i] = int8(int64(word) - int64(carry<<w))
		i += now
	}
	out[bits] = int8(carry)
	return out
}
