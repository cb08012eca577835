package brainpool

import (
	"crypto/elliptic"
	"math/big"
	"testing"

	pbrainpool "github.com/ProtonMail/go-crypto/brainpool"
	"github.com/matryer/is"
)

// rfc5639 are the domain parameters of RFC 5639, section 3, that the
// package does not hold itself (a and b of the r1 curves), with the curves
// they belong to.
var rfc5639 = []struct {
	r1, t1 *Curve
	a, b   string
}{
	{p256r1, p256t1,
		"7D5A0975FC2C3057EEF67530417AFFE7FB8055C126DC5C6CE94A4B44F330B5D9",
		"26DC5C6CE94A4B44F330B5D9BBD77CBF958416295CF7E1CE6BCCDC18FF8C07B6"},
	{p384r1, p384t1,
		"7BC382C63D8C150C3C72080ACE05AFA0C2BEA28E4FB22787139165EFBA91F90F8AA5814A503AD4EB04A8C7DD22CE2826",
		"04A8C7DD22CE28268B39B55416F0447C2FB77DE107DCD2A62E880EA53EEB62D57CB4390295DBC9943AB78696FA504C11"},
	{p512r1, p512t1,
		"7830A3318B603B89E2327145AC234CC594CBDD8D3DF91610A83441CAEA9863BC2DED5D5AA8253AA10A2EF1C98B9AC8B57F1117A72BF2C7B9E7C1AC4D77FC94CA",
		"3DF91610A83441CAEA9863BC2DED5D5AA8253AA10A2EF1C98B9AC8B57F1117A72BF2C7B9E7C1AC4D77FC94CADC083E67984050B75EBAE5DD2809BD638016F723"},
}

// zOf returns the isomorphism constant z of an r1 curve, which newCurve
// received but only keeps as Montgomery-form powers.
var zOf = map[*Curve]string{
	p256r1: "3E2D4BD9597B58639AE7AA669CAB9837CF5CF20A2C852D10F655668DFC150EF0",
	p384r1: "41DFE8DD399331F7166A66076734A89CD0D2BCDB7D068E44E1F378F41ECBAE97D2D63DBC87BCCDDCCC5DA39E8589291C",
	p512r1: "12EE58E6764838B69782136F0F2D3BA06E27695716054092E60A80BEDB212B64E585D90BCE13761F85C3F1D2A64E3BE8FEA2220F01EBA5EEB0F35DBD29D922AB",
}

// TestDomainParameters checks the RFC 5639 parameters: p and n prime, the
// base points on their curves, the twist isomorphism (a·z⁴ = -3, b·z⁶ =
// b_t, G_t1 the image of G_r1), n·G = O, and that they are the parameters
// of ProtonMail's curves, which cert parses keys with.
func TestDomainParameters(t *testing.T) {
	pm := map[*Curve]elliptic.Curve{
		p256r1: pbrainpool.P256r1(), p256t1: pbrainpool.P256t1(),
		p384r1: pbrainpool.P384r1(), p384t1: pbrainpool.P384t1(),
		p512r1: pbrainpool.P512r1(), p512t1: pbrainpool.P512t1(),
	}
	for _, tc := range rfc5639 {
		t.Run(tc.r1.name, func(t *testing.T) {
			is := is.New(t)
			p := tc.r1.p
			is.True(p.ProbablyPrime(32))
			is.True(tc.r1.n.ProbablyPrime(32))
			is.Equal(hx(tc.t1.p), hx(p))
			is.Equal(hx(tc.t1.n), hx(tc.r1.n))
			a, b, tb := hexInt(tc.a), hexInt(tc.b), pm[tc.t1].Params().B
			onCurve := func(a, b, x, y *big.Int) bool {
				lhs := new(big.Int).Mul(y, y)
				rhs := new(big.Int).Exp(x, big.NewInt(3), nil)
				rhs.Add(rhs, new(big.Int).Mul(a, x)).Add(rhs, b)
				return lhs.Sub(lhs, rhs).Mod(lhs, p).Sign() == 0
			}
			minus3 := new(big.Int).Sub(p, big.NewInt(3))
			is.True(onCurve(a, b, tc.r1.gx, tc.r1.gy))
			is.True(onCurve(minus3, tb, tc.t1.gx, tc.t1.gy))

			z := hexInt(zOf[tc.r1])
			pow := func(e int64) *big.Int { return new(big.Int).Exp(z, big.NewInt(e), p) }
			mulMod := func(x, y *big.Int) *big.Int { return new(big.Int).Mod(new(big.Int).Mul(x, y), p) }
			is.Equal(hx(mulMod(a, pow(4))), hx(minus3))
			is.Equal(hx(mulMod(b, pow(6))), hx(tb))
			is.Equal(hx(mulMod(tc.r1.gx, pow(2))), hx(tc.t1.gx))
			is.Equal(hx(mulMod(tc.r1.gy, pow(3))), hx(tc.t1.gy))

			for _, c := range []*Curve{tc.r1, tc.t1} {
				params := pm[c].Params()
				is.Equal(params.Name, c.name)
				is.Equal(hx(params.P), hx(c.p))
				is.Equal(hx(params.N), hx(c.n))
				is.Equal(hx(params.Gx), hx(c.gx))
				is.Equal(hx(params.Gy), hx(c.gy))
				is.Equal(ByName(c.name), c)
				// (n-1)·G = -G, and n·G = (n-1)·G + G is the point at infinity.
				nm1 := new(big.Int).Sub(c.n, big.NewInt(1))
				x, y, ok := c.mult(nm1, big.NewInt(0), c.gx, c.gy)
				is.True(ok)
				is.Equal(hx(x), hx(c.gx))
				is.Equal(hx(y), hx(new(big.Int).Sub(p, c.gy)))
				_, _, ok = c.mult(nm1, big.NewInt(1), c.gx, c.gy)
				is.True(!ok)
			}
		})
	}
	if ByName("brainpoolP224r1") != nil {
		t.Error("ByName found a curve the package lacks")
	}
}

// TestRFC7027 checks scalar multiplication with the ECDH test vectors of
// RFC 7027, appendix A: dA·G = QA, dB·G = QB and dA·QB = dB·QA = Z, each
// product computed through both halves of u1·G + u2·Q.
func TestRFC7027(t *testing.T) {
	tests := []struct {
		curve                          *Curve
		dA, xA, yA, dB, xB, yB, xZ, yZ string
	}{
		{p256r1,
			"81DB1EE100150FF2EA338D708271BE38300CB54241D79950F77B063039804F1D",
			"44106E913F92BC02A1705D9953A8414DB95E1AAA49E81D9E85F929A8E3100BE5",
			"8AB4846F11CACCB73CE49CBDD120F5A900A69FD32C272223F789EF10EB089BDC",
			"55E40BC41E37E3E2AD25C3C6654511FFA8474A91A0032087593852D3E7D76BD3",
			"8D2D688C6CF93E1160AD04CC4429117DC2C41825E1E9FCA0ADDD34E6F1B39F7B",
			"990C57520812BE512641E47034832106BC7D3E8DD0E4C7F1136D7006547CEC6A",
			"89AFC39D41D3B327814B80940B042590F96556EC91E6AE7939BCE31F3A18BF2B",
			"49C27868F4ECA2179BFD7D59B1E3BF34C1DBDE61AE12931648F43E59632504DE"},
		{p384r1,
			"1E20F5E048A5886F1F157C74E91BDE2B98C8B52D58E5003D57053FC4B0BD65D6F15EB5D1EE1610DF870795143627D042",
			"68B665DD91C195800650CDD363C625F4E742E8134667B767B1B476793588F885AB698C852D4A6E77A252D6380FCAF068",
			"55BC91A39C9EC01DEE36017B7D673A931236D2F1F5C83942D049E3FA20607493E0D038FF2FD30C2AB67D15C85F7FAA59",
			"032640BC6003C59260F7250C3DB58CE647F98E1260ACCE4ACDA3DD869F74E01F8BA5E0324309DB6A9831497ABAC96670",
			"4D44326F269A597A5B58BBA565DA5556ED7FD9A8A9EB76C25F46DB69D19DC8CE6AD18E404B15738B2086DF37E71D1EB4",
			"62D692136DE56CBE93BF5FA3188EF58BC8A3A0EC6C1E151A21038A42E9185329B5B275903D192F8D4E1F32FE9CC78C48",
			"0BD9D3A7EA0B3D519D09D8E48D0785FB744A6B355E6304BC51C229FBBCE239BBADF6403715C35D4FB2A5444F575D4F42",
			"0DF213417EBE4D8E40A5F76F66C56470C489A3478D146DECF6DF0D94BAE9E598157290F8756066975F1DB34B2324B7BD"},
		{p512r1,
			"16302FF0DBBB5A8D733DAB7141C1B45ACBC8715939677F6A56850A38BD87BD59B09E80279609FF333EB9D4C061231FB26F92EEB04982A5F1D1764CAD57665422",
			"0A420517E406AAC0ACDCE90FCD71487718D3B953EFD7FBEC5F7F27E28C6149999397E91E029E06457DB2D3E640668B392C2A7E737A7F0BF04436D11640FD09FD",
			"72E6882E8DB28AAD36237CD25D580DB23783961C8DC52DFA2EC138AD472A0FCEF3887CF62B623B2A87DE5C588301EA3E5FC269B373B60724F5E82A6AD147FDE7",
			"230E18E1BCC88A362FA54E4EA3902009292F7F8033624FD471B5D8ACE49D12CFABBC19963DAB8E2F1EBA00BFFB29E4D72D13F2224562F405CB80503666B25429",
			"9D45F66DE5D67E2E6DB6E93A59CE0BB48106097FF78A081DE781CDB31FCE8CCBAAEA8DD4320C4119F1E9CD437A2EAB3731FA9668AB268D871DEDA55A5473199F",
			"2FDC313095BCDD5FB3A91636F07A959C8E86B5636A1E930E8396049CB481961D365CC11453A06C719835475B12CB52FC3C383BCE35E27EF194512B71876285FA",
			"A7927098655F1F9976FA50A9D566865DC530331846381C87256BAF3226244B76D36403C024D7BBF0AA0803EAFF405D3D24F11A9B5C0BEF679FE1454B21C4CD1F",
			"7DB71C3DEF63212841C463E881BDCF055523BD368240E6C3143BD8DEF8B3B3223B95E0F53082FF5E412F4222537A43DF1C6D25729DDB51620A832BE6A26680A2"},
	}
	for _, tc := range tests {
		t.Run(tc.curve.name, func(t *testing.T) {
			is := is.New(t)
			c, zero := tc.curve, big.NewInt(0)
			dA, dB := hexInt(tc.dA), hexInt(tc.dB)
			qA := [2]*big.Int{hexInt(tc.xA), hexInt(tc.yA)}
			qB := [2]*big.Int{hexInt(tc.xB), hexInt(tc.yB)}
			z := [2]*big.Int{hexInt(tc.xZ), hexInt(tc.yZ)}
			check := func(want [2]*big.Int, u1, u2, x, y *big.Int) {
				t.Helper()
				gx, gy, ok := c.mult(u1, u2, x, y)
				is.True(ok)
				is.Equal(hx(gx), hx(want[0]))
				is.Equal(hx(gy), hx(want[1]))
			}
			check(qA, dA, zero, c.gx, c.gy) // through G's table
			check(qA, zero, dA, c.gx, c.gy) // through a per-call table
			check(qB, dB, zero, c.gx, c.gy)
			check(z, zero, dA, qB[0], qB[1])
			check(z, zero, dB, qA[0], qA[1])
		})
	}
}

// TestWNAF checks the recoding: the digits sum back to the scalar and have
// the width-w NAF shape.
func TestWNAF(t *testing.T) {
	is := is.New(t)
	for _, k := range []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(127), big.NewInt(128),
		new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)), p256r1.n, p512r1.n} {
		for _, w := range []int{2, pointWindow, baseWindow} {
			bits := 8 * ((k.BitLen() + 7) / 8)
			d := wnaf(k, max(bits, 8), w)
			sum := new(big.Int)
			for i := len(d) - 1; i >= 0; i-- {
				sum.Lsh(sum, 1).Add(sum, big.NewInt(int64(d[i])))
				if d[i] != 0 {
					is.True(d[i]%2 != 0)
					is.True(int(d[i]) < 1<<(w-1) && int(d[i]) > -(1<<(w-1)))
					for j := i - 1; j >= 0 && j > i-w; j-- {
						is.Equal(d[j], int8(0))
					}
				}
			}
			is.Equal(hx(sum), hx(k))
		}
	}
}
