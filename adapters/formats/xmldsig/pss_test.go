package xmldsig

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"testing"

	"github.com/beevik/etree"
	"github.com/matryer/is"
)

// TestVerifyRSAPSSParams checks the RFC 9231 rsa-pss form, whose digest and
// salt length come from pss:RSAPSSParams. Sign does not write it, so the
// test rewrites SignatureMethod and signs SignedInfo again by hand.
func TestVerifyRSAPSSParams(t *testing.T) {
	s := testSigners(t)[0]
	key := s.key.(*rsa.PrivateKey)
	for _, tc := range []struct {
		name   string
		params string
		hash   crypto.Hash
		salt   int
		want   error
	}{
		{"SHA-384, salt 20", `<ds:DigestMethod Algorithm="` + DigestSHA384 + `"/><pss:SaltLength>20</pss:SaltLength>`, crypto.SHA384, 20, nil},
		{"defaults: SHA-256, salt 32", ``, crypto.SHA256, 32, nil},
		{"salt length differs from the signature", `<pss:SaltLength>20</pss:SaltLength>`, crypto.SHA256, 32, ErrSignatureInvalid},
		{"MGF1 digest differs", `<ds:DigestMethod Algorithm="` + DigestSHA384 + `"/><pss:MaskGenerationFunction Algorithm="` + NamespaceDSigMore + `MGF1"><ds:DigestMethod Algorithm="` + DigestSHA256 + `"/></pss:MaskGenerationFunction>`, crypto.SHA384, 48, ErrUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			signed, err := Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, SignOptions{RSAPSS: true})
			is.NoErr(err)
			doc, err := ParseDocument(signed)
			is.NoErr(err)
			si := doc.FindElement("//ds:SignedInfo")
			sm := si.SelectElement("ds:SignatureMethod")
			sm.CreateAttr("Algorithm", SignatureRSAPSS)
			params, err := ParseDocument([]byte(`<pss:RSAPSSParams xmlns:pss="` + NamespaceDSigMore + `" xmlns:ds="` + NamespaceDSig + `">` + tc.params + `</pss:RSAPSSParams>`))
			is.NoErr(err)
			sm.AddChild(params.Root())

			c14n, err := Canonicalize(si, ExcC14N, nil)
			is.NoErr(err)
			h := tc.hash.New()
			h.Write(c14n)
			value, err := rsa.SignPSS(rand.Reader, key, tc.hash, h.Sum(nil), &rsa.PSSOptions{SaltLength: tc.salt})
			is.NoErr(err)
			doc.FindElement("//ds:SignatureValue").SetText(base64.StdEncoding.EncodeToString(value))

			var out bytes.Buffer
			doc.WriteSettings = etree.WriteSettings{CanonicalEndTags: true, CanonicalText: true, CanonicalAttrVal: true}
			_, err = doc.WriteTo(&out)
			is.NoErr(err)
			res, err := Verify(out.Bytes())
			if tc.want == nil {
				is.NoErr(err)
				is.Equal(res.SignatureMethod, SignatureRSAPSS)
				return
			}
			is.True(errors.Is(err, tc.want))
		})
	}
}
