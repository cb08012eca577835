package xmldsig_test

import (
	"crypto/x509"
	"errors"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/xmlsign"
)

// checkOne parses doc and checks its only signature.
func checkOne(t *testing.T, doc []byte, o xmldsig.CheckOptions) (*xmldsig.Checked, error) {
	t.Helper()
	tree, err := xmldsig.ParseDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	sigs, err := xmldsig.Signatures(tree)
	if err != nil || len(sigs) != 1 {
		t.Fatalf("signatures: %d, %v", len(sigs), err)
	}
	return xmldsig.CheckSignature(tree, sigs[0], o)
}

// TestCheckSignatureAgreesWithVerify: on what Verify accepts,
// CheckSignature finds every reference intact and the value valid, with the
// same signer.
func TestCheckSignatureAgreesWithVerify(t *testing.T) {
	for _, s := range testSigners(t) {
		for _, byID := range []bool{false, true} {
			is := is.New(t)
			signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, ReferenceRootByID: byID})
			is.NoErr(err)
			res, err := xmldsig.Verify(signed)
			is.NoErr(err)
			c, err := checkOne(t, signed, xmldsig.CheckOptions{})
			is.NoErr(err)
			is.True(c.Value.Done && c.Value.Valid)
			is.True(c.Signer.Equal(res.Signer))
			is.Equal(len(c.References), 2)
			for i, r := range c.References {
				is.True(r.Found && r.Intact && r.Unchecked == "")
				is.Equal(r.URI, res.References[i].URI)
				is.True(len(r.Octets) > 0)
			}
			is.True(strings.HasPrefix(c.Algorithm, "RSA-") || strings.HasPrefix(c.Algorithm, "ECDSA-") || strings.HasPrefix(c.Algorithm, "RSASSA-PSS-"))
			if byID {
				is.Equal(c.References[0].Name, "/TrustServiceStatusList")
			} else {
				is.Equal(c.References[0].Name, "/")
			}

			// Tampered content: the reference is found, not intact, and
			// the value still verifies (SignedInfo is untouched).
			c, err = checkOne(t, []byte(strings.Replace(string(signed), "42", "43", 1)), xmldsig.CheckOptions{})
			is.NoErr(err)
			is.True(c.References[0].Found && !c.References[0].Intact)
			is.True(c.Value.Valid)
		}
	}
}

// TestCheckSignatureCandidates: without KeyInfo certificates the value is
// not checked (NO_CERTIFICATE); a candidate from the options verifies it.
func TestCheckSignatureCandidates(t *testing.T) {
	is := is.New(t)
	s := testSigners(t)[0]
	signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime})
	is.NoErr(err)
	doc := string(signed)
	stripped := doc[:strings.Index(doc, "<ds:KeyInfo")] + doc[strings.Index(doc, "</ds:KeyInfo>")+len("</ds:KeyInfo>"):]
	c, err := checkOne(t, []byte(stripped), xmldsig.CheckOptions{})
	is.NoErr(err)
	is.Equal(c.Value, xmldsig.ValueCheck{Reason: xmldsig.ReasonNoCertificate})
	c, err = checkOne(t, []byte(stripped), xmldsig.CheckOptions{Certificates: []*x509.Certificate{testSigners(t)[1].cert, s.cert}})
	is.NoErr(err)
	is.True(c.Value.Valid)
	is.True(c.Signer.Equal(s.cert))
}

// TestCheckSignatureReportsUnsupported: an unknown transform, an XSLT
// transform, an unknown digest or signature method are reported where they
// are, never an error, never a crash.
func TestCheckSignatureReportsUnsupported(t *testing.T) {
	s := testSigners(t)[0]
	signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime})
	if err != nil {
		t.Fatal(err)
	}
	doc := string(signed)
	for _, tc := range []struct {
		name, old, new string
		reason         string // of the first reference
		value          string // Value.Reason
	}{
		{"xslt", xmldsig.TransformEnveloped, xmldsig.TransformXSLT, xmldsig.ReasonXSLTUnsupported, xmldsig.ReasonSignatureInvalid},
		{"unknown transform", xmldsig.TransformEnveloped, "urn:x-unknown", xmldsig.ReasonUnsupportedTransform, xmldsig.ReasonSignatureInvalid},
		{"unknown digest", `DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"`, `DigestMethod Algorithm="urn:x-digest"`, xmldsig.ReasonUnsupportedDigest, xmldsig.ReasonSignatureInvalid},
		{"unknown signature method", `SignatureMethod Algorithm="`, `SignatureMethod Algorithm="urn:x-`, "", xmldsig.ReasonUnsupportedSignatureMethod},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			altered := strings.Replace(doc, tc.old, tc.new, 1)
			is.True(altered != doc)
			c, err := checkOne(t, []byte(altered), xmldsig.CheckOptions{})
			is.NoErr(err)
			is.Equal(c.References[0].Unchecked, tc.reason)
			is.Equal(c.Value.Reason, tc.value)
			if tc.reason != "" {
				is.True(!c.References[0].Intact)
			}
		})
	}
}

// TestCheckSignatureDuplicateID: a reference to an ID two elements carry
// is an error, whichever of them is genuine.
func TestCheckSignatureDuplicateID(t *testing.T) {
	s := testSigners(t)[0]
	signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, ReferenceRootByID: true})
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(signed), "<SchemeInformation>", `<SchemeInformation><x Id="TrustServiceStatusList"/>`, 1)
	if doc == string(signed) {
		t.Fatal("no SchemeInformation in the test list")
	}
	if _, err := checkOne(t, []byte(doc), xmldsig.CheckOptions{}); !errors.Is(err, xmldsig.ErrDuplicateID) {
		t.Fatalf("got %v, want ErrDuplicateID", err)
	}
}

// TestCheckSignatureDetached: a detached reference goes through the
// Resolver with its percent-decoded URI; without one it is not found.
func TestCheckSignatureDetached(t *testing.T) {
	is := is.New(t)
	content := []byte("hello")
	// SHA-256 of "hello".
	const digest = "LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ="
	doc := `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>` +
		`<ds:CanonicalizationMethod Algorithm="` + xmldsig.ExcC14N + `"/>` +
		`<ds:SignatureMethod Algorithm="` + xmldsig.SignatureRSASHA256 + `"/>` +
		`<ds:Reference URI="dir/my%20file.txt"><ds:DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"/>` +
		`<ds:DigestValue>` + digest + `</ds:DigestValue></ds:Reference>` +
		`</ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue></ds:Signature>`
	var asked string
	c, err := checkOne(t, []byte(doc), xmldsig.CheckOptions{Resolve: func(uri string) ([]byte, string, int, bool) {
		asked = uri
		return content, "my file.txt", 2, true
	}})
	is.NoErr(err)
	is.Equal(asked, "dir/my file.txt")
	r := c.References[0]
	is.True(r.Detached && r.Found && r.Intact)
	is.Equal(r.Name, "my file.txt")
	is.Equal(r.Part, 2)
	is.Equal(string(r.Octets), "hello")
	is.Equal(c.Value.Reason, xmldsig.ReasonNoCertificate)

	c, err = checkOne(t, []byte(doc), xmldsig.CheckOptions{})
	is.NoErr(err)
	is.True(c.References[0].Detached && !c.References[0].Found)
}

// manifestDoc is a signature whose SignedInfo references, with Type
// Manifest, the element #m that body holds.
func manifestDoc(body string) string {
	return `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>` +
		`<ds:CanonicalizationMethod Algorithm="` + xmldsig.ExcC14N + `"/>` +
		`<ds:SignatureMethod Algorithm="` + xmldsig.SignatureRSASHA256 + `"/>` +
		`<ds:Reference URI="#m" Type="` + xmldsig.TypeManifest + `"><ds:DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"/>` +
		`<ds:DigestValue>AAAA</ds:DigestValue></ds:Reference></ds:SignedInfo><ds:SignatureValue>AAAA</ds:SignatureValue>` +
		`<ds:Object>` + body + `</ds:Object></ds:Signature>`
}

func manifestRef(uri string) string {
	return `<ds:Reference URI="` + uri + `"><ds:DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"/><ds:DigestValue>AAAA</ds:DigestValue></ds:Reference>`
}

// TestCheckSignatureManifests: a Manifest's references follow SignedInfo's,
// marked with their Manifest; a Type Manifest reference to anything else
// adds none; a malformed or oversized Manifest is an error.
func TestCheckSignatureManifests(t *testing.T) {
	is := is.New(t)
	c, err := checkOne(t, []byte(manifestDoc(`<ds:Manifest Id="m">`+manifestRef("a.txt")+manifestRef("#m")+`</ds:Manifest>`)), xmldsig.CheckOptions{})
	is.NoErr(err)
	is.Equal(len(c.References), 3)
	is.True(c.References[0].Manifest == nil && c.References[0].Found)
	is.True(c.References[1].Manifest != nil && c.References[1].URI == "a.txt" && c.References[1].Detached && !c.References[1].Found)
	is.True(c.References[2].Manifest == c.References[1].Manifest && c.References[2].Found)

	c, err = checkOne(t, []byte(manifestDoc(`<x Id="m">`+manifestRef("a.txt")+`</x>`)), xmldsig.CheckOptions{})
	is.NoErr(err)
	is.Equal(len(c.References), 1)

	// A reference to an ID nothing carries: not found, named by its URI.
	c, err = checkOne(t, []byte(manifestDoc(`<x Id="other"/>`)), xmldsig.CheckOptions{})
	is.NoErr(err)
	is.True(!c.References[0].Found && !c.References[0].Detached)
	is.Equal(c.References[0].Name, "#m")

	_, err = checkOne(t, []byte(manifestDoc(`<ds:Manifest Id="m"><ds:Object/></ds:Manifest>`)), xmldsig.CheckOptions{})
	is.True(errors.Is(err, xmldsig.ErrMalformedSignature))

	_, err = checkOne(t, []byte(manifestDoc(`<ds:Manifest Id="m">`+strings.Repeat(manifestRef("a.txt"), xmldsig.MaxManifestReferences+1)+`</ds:Manifest>`)), xmldsig.CheckOptions{})
	is.True(errors.Is(err, xmldsig.ErrLimitExceeded))
}

// TestSignaturesLimit: Signatures lists counter-signatures with the others,
// in document order, and refuses more than MaxSignatures.
func TestSignaturesLimit(t *testing.T) {
	is := is.New(t)
	sig := `<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"/>`
	tree, err := xmldsig.ParseDocument([]byte(`<r>` + strings.Replace(sig, "/>", ">"+sig+"</ds:Signature>", 1) + sig + `</r>`))
	is.NoErr(err)
	sigs, err := xmldsig.Signatures(tree)
	is.NoErr(err)
	is.Equal(len(sigs), 3)
	is.True(sigs[1].Parent() == sigs[0])

	// An empty ds:Signature cannot be read; one of another document is
	// not this document's: errors, not crashes.
	_, err = xmldsig.CheckSignature(tree, sigs[0], xmldsig.CheckOptions{})
	is.True(errors.Is(err, xmldsig.ErrMalformedSignature))

	other, err := xmldsig.ParseDocument([]byte(`<r>` + strings.Repeat(sig, xmldsig.MaxSignatures+1) + `</r>`))
	is.NoErr(err)
	_, err = xmldsig.Signatures(other)
	is.True(errors.Is(err, xmldsig.ErrLimitExceeded))
	_, err = xmldsig.CheckSignature(other, sigs[0], xmldsig.CheckOptions{})
	is.True(errors.Is(err, xmldsig.ErrMalformedSignature))
}
