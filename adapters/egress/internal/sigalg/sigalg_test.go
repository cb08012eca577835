package sigalg_test

import (
	"crypto"
	"crypto/x509"
	"errors"
	"testing"

	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/egress/internal/sigalg"
	"github.com/svc-dss/dss/fixtures/pki"
)

var (
	rsaPSS = []int{1, 2, 840, 113549, 1, 1, 10}
	mgf1   = []int{1, 2, 840, 113549, 1, 1, 8}
	sha256 = []int{2, 16, 840, 1, 101, 3, 4, 2, 1}
	sha384 = []int{2, 16, 840, 1, 101, 3, 4, 2, 2}
)

func oid(b *cryptobyte.Builder, arcs []int) {
	b.AddASN1(cbasn1.OBJECT_IDENTIFIER, func(b *cryptobyte.Builder) {
		b.AddBytes(encodeOID(arcs))
	})
}

func encodeOID(arcs []int) []byte {
	out := []byte{byte(arcs[0]*40 + arcs[1])}
	for _, a := range arcs[2:] {
		var tmp []byte
		for tmp = []byte{byte(a & 0x7f)}; a > 0x7f; {
			a >>= 7
			tmp = append([]byte{byte(a&0x7f) | 0x80}, tmp...)
		}
		out = append(out, tmp...)
	}
	return out
}

// pss encodes an RSASSA-PSS AlgorithmIdentifier; nil hashes are omitted
// (defaults), a negative salt is omitted.
func pss(hash, mgfHash []int, salt int) []byte {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		oid(b, rsaPSS)
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			if hash != nil {
				b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { oid(b, hash) })
				})
			}
			if mgfHash != nil {
				b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						oid(b, mgf1)
						b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { oid(b, mgfHash) })
					})
				})
			}
			if salt >= 0 {
				b.AddASN1(cbasn1.Tag(2).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) { b.AddASN1Int64(int64(salt)) })
			}
		})
	})
	return b.BytesOrPanic()
}

func TestParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []byte
		want x509.SignatureAlgorithm
		err  error // nil: parses
	}{
		{"sha256WithRSA, NULL", []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05, 0x00}, x509.SHA256WithRSA, nil},
		{"sha256WithRSA, absent", []byte{0x30, 0x0b, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b}, x509.SHA256WithRSA, nil},
		{"sha1WithRSA, OIW", []byte{0x30, 0x07, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1d}, x509.SHA1WithRSA, nil},
		{"ecdsa-with-SHA384", []byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x03}, x509.ECDSAWithSHA384, nil},
		{"Ed25519", []byte{0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70}, x509.PureEd25519, nil},
		{"PSS SHA-256", pss(sha256, sha256, 32), x509.SHA256WithRSAPSS, nil},
		{"PSS SHA-384, other salt", pss(sha384, sha384, 20), x509.SHA384WithRSAPSS, nil},
		{"PSS SHA-256, default salt", pss(sha256, sha256, -1), x509.SHA256WithRSAPSS, nil},
		{"PSS all defaults is SHA-1", pss(nil, nil, -1), 0, sigalg.ErrUnsupported},
		{"PSS MGF1 hash differs", pss(sha256, sha384, 32), 0, sigalg.ErrUnsupported},
		{"md5WithRSA", []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x04, 0x05, 0x00}, 0, sigalg.ErrUnsupported},
		{"garbage", []byte{0x30, 0x01, 0x00}, 0, errors.New("malformed")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			a, err := sigalg.Parse(tt.in)
			if tt.err != nil {
				is.True(err != nil)
				if errors.Is(tt.err, sigalg.ErrUnsupported) {
					is.True(errors.Is(err, sigalg.ErrUnsupported))
				}
				return
			}
			is.NoErr(err)
			is.Equal(a.X509, tt.want)
		})
	}
}

func TestVerify(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://sigalg.test")
	is.NoErr(err)
	is.NoErr(sigalg.CheckCertificate(p.SignerRSA.Certificate, p.Intermediate.Certificate))
	is.NoErr(sigalg.CheckCertificate(p.SignerECDSA.Certificate, p.Intermediate.Certificate)) // RSA-signed ECDSA key
	is.True(errors.Is(sigalg.CheckCertificate(p.SignerRSA.Certificate, p.Root.Certificate), sigalg.ErrInvalid))
	is.True(errors.Is(sigalg.CheckCertificate(p.SignerRSA.Certificate, p.SignerECDSA.Certificate), sigalg.ErrInvalid)) // wrong key type

	a, err := sigalg.Parse([]byte{0x30, 0x0a, 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x04, 0x03, 0x02})
	is.NoErr(err)
	is.Equal(a.Hash, crypto.SHA256)
	is.True(errors.Is(a.Verify(p.SignerRSA.Certificate.PublicKey, []byte("x"), []byte("sig")), sigalg.ErrInvalid))
}
