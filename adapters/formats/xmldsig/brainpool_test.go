package xmldsig_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/ProtonMail/go-crypto/brainpool"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// signWithKeyValue signs the template doc, whose SignedInfo has one
// reference to #s (exclusive c14n, digest D) and whose SignatureValue is V,
// with key under method hashed by h; the public key goes in P.
func signWithKeyValue(t *testing.T, doc string, key *ecdsa.PrivateKey, h crypto.Hash) string {
	t.Helper()
	tree, err := xmldsig.ParseDocument([]byte(strings.NewReplacer("D<", "<", "V<", "<").Replace(doc)))
	if err != nil {
		t.Fatal(err)
	}
	s := tree.FindElement("//*[@Id='s']")
	c14n, err := xmldsig.Canonicalize(s, xmldsig.ExcC14N, nil)
	if err != nil {
		t.Fatal(err)
	}
	d := crypto.SHA256.New()
	d.Write(c14n)
	doc = strings.Replace(doc, "D<", base64.StdEncoding.EncodeToString(d.Sum(nil))+"<", 1)

	size := (key.Curve.Params().BitSize + 7) / 8
	x, y := key.X, key.Y
	point := append([]byte{4}, append(x.FillBytes(make([]byte, size)), y.FillBytes(make([]byte, size))...)...)
	doc = strings.Replace(doc, "P<", base64.StdEncoding.EncodeToString(point)+"<", 1)

	tree, err = xmldsig.ParseDocument([]byte(strings.Replace(doc, "V<", "<", 1)))
	if err != nil {
		t.Fatal(err)
	}
	signed, err := xmldsig.Canonicalize(tree.FindElement("//SignedInfo"), xmldsig.ExcC14N, nil)
	if err != nil {
		t.Fatal(err)
	}
	hh := h.New()
	hh.Write(signed)
	r, ss, err := ecdsa.Sign(rand.Reader, key, hh.Sum(nil))
	if err != nil {
		t.Fatal(err)
	}
	value := append(r.FillBytes(make([]byte, size)), ss.FillBytes(make([]byte, size))...)
	return strings.Replace(doc, "V<", base64.StdEncoding.EncodeToString(value)+"<", 1)
}

// TestCheckSignatureBrainpoolKeyValue: ECDSA on brainpoolP256r1, P384r1
// and P512r1 with the key in a dsig11:ECKeyValue; an altered value fails.
func TestCheckSignatureBrainpoolKeyValue(t *testing.T) {
	for _, tc := range []struct {
		curve  elliptic.Curve
		oid    string
		method string
		hash   crypto.Hash
	}{
		{brainpool.P256r1(), "1.3.36.3.3.2.8.1.1.7", xmldsig.SignatureECDSASHA256, crypto.SHA256},
		{brainpool.P384r1(), "1.3.36.3.3.2.8.1.1.11", xmldsig.SignatureECDSASHA384, crypto.SHA384},
		{brainpool.P512r1(), "1.3.36.3.3.2.8.1.1.13", xmldsig.SignatureECDSASHA512, crypto.SHA512},
		{elliptic.P256(), "1.2.840.10045.3.1.7", xmldsig.SignatureECDSASHA256, crypto.SHA256},
	} {
		t.Run(tc.curve.Params().Name, func(t *testing.T) {
			key, err := ecdsa.GenerateKey(tc.curve, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			doc := `<r xmlns="http://u"><s Id="s">x</s><Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo>` +
				`<CanonicalizationMethod Algorithm="` + xmldsig.ExcC14N + `"/><SignatureMethod Algorithm="` + tc.method + `"/>` +
				`<Reference URI="#s"><Transforms><Transform Algorithm="` + xmldsig.ExcC14N + `"/></Transforms>` +
				`<DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"/><DigestValue>D</DigestValue></Reference></SignedInfo>` +
				`<SignatureValue>V</SignatureValue><KeyInfo><KeyValue><ECKeyValue xmlns="http://www.w3.org/2009/xmldsig11#">` +
				`<NamedCurve URI="urn:oid:` + tc.oid + `"/><PublicKey>P</PublicKey></ECKeyValue></KeyValue></KeyInfo></Signature></r>`
			signed := signWithKeyValue(t, doc, key, tc.hash)
			c, err := checkOne(t, []byte(signed), xmldsig.CheckOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.Value.Valid || c.Signer != nil || c.KeyValue == nil || !c.References[0].Intact {
				t.Fatalf("value %+v, signer %v, key value %T, reference intact %v", c.Value, c.Signer, c.KeyValue, c.References[0].Intact)
			}
			// Another key does not verify it.
			other, err := ecdsa.GenerateKey(tc.curve, rand.Reader)
			if err != nil {
				t.Fatal(err)
			}
			forged := signWithKeyValue(t, doc, other, tc.hash)
			otherValue := forged[strings.Index(forged, "<SignatureValue>"):strings.Index(forged, "</SignatureValue>")]
			swapped := signed[:strings.Index(signed, "<SignatureValue>")] + otherValue + signed[strings.Index(signed, "</SignatureValue>"):]
			c, err = checkOne(t, []byte(swapped), xmldsig.CheckOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.Value != (xmldsig.ValueCheck{Done: true, Reason: xmldsig.ReasonSignatureInvalid}) {
				t.Fatalf("value %+v", c.Value)
			}
		})
	}
}
