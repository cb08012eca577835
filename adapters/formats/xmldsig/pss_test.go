package xmldsig_test

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

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/xmlsign"
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
		{"SHA-384, salt 20", `<ds:DigestMethod Algorithm="` + xmldsig.DigestSHA384 + `"/><pss:SaltLength>20</pss:SaltLength>`, crypto.SHA384, 20, nil},
		{"defaults: SHA-256, salt 32", ``, crypto.SHA256, 32, nil},
		{"salt length differs from the signature", `<pss:SaltLength>20</pss:SaltLength>`, crypto.SHA256, 32, xmldsig.ErrSignatureInvalid},
		{"MGF1 digest differs", `<ds:DigestMethod Algorithm="` + xmldsig.DigestSHA384 + `"/><pss:MaskGenerationFunction Algorithm="` + xmldsig.NamespaceDSigMore + `MGF1"><ds:DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"/></pss:MaskGenerationFunction>`, crypto.SHA384, 48, xmldsig.ErrUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{RSAPSS: true})
			is.NoErr(err)
			doc, err := xmldsig.ParseDocument(signed)
			is.NoErr(err)
			si := doc.FindElement("//ds:SignedInfo")
			sm := si.SelectElement("ds:SignatureMethod")
			sm.CreateAttr("Algorithm", xmldsig.SignatureRSAPSS)
			params, err := xmldsig.ParseDocument([]byte(`<pss:RSAPSSParams xmlns:pss="` + xmldsig.NamespaceDSigMore + `" xmlns:ds="` + xmldsig.NamespaceDSig + `">` + tc.params + `</pss:RSAPSSParams>`))
			is.NoErr(err)
			sm.AddChild(params.Root())

			c14n, err := xmldsig.Canonicalize(si, xmldsig.ExcC14N, nil)
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
			res, err := xmldsig.Verify(out.Bytes())
			if tc.want == nil {
				is.NoErr(err)
				is.Equal(res.SignatureMethod, xmldsig.SignatureRSAPSS)
				return
			}
			is.True(errors.Is(err, tc.want))
		})
	}
}
