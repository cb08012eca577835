package xmldsig_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/xmlsign"
)

// testList is a small trusted-list-like document: default namespace on the
// root, prefixed children, an attribute with a character reference.
const testList = `<?xml version="1.0" encoding="UTF-8"?>
<TrustServiceStatusList xmlns="http://uri.etsi.org/02231/v2#" xmlns:ns3="http://uri.etsi.org/02231/v2/additionaltypes#" Id="TrustServiceStatusList" TSLTag="http://uri.etsi.org/19612/TSLTag">
  <SchemeInformation>
    <TSLVersionIdentifier>5</TSLVersionIdentifier>
    <TSLSequenceNumber>42</TSLSequenceNumber>
    <SchemeName><Name xml:lang="en">Test &amp; scheme&#13;</Name></SchemeName>
    <ns3:MimeType note="a&#9;b">application/vnd.etsi.tsl+xml</ns3:MimeType>
  </SchemeInformation>
</TrustServiceStatusList>
`

var signingTime = time.Date(2026, 11, 21, 10, 30, 0, 0, time.UTC)

type testSigner struct {
	name string
	key  crypto.Signer
	cert *x509.Certificate
}

var (
	testSignersOnce sync.Once
	testSignersList []testSigner
)

// testSigners returns an RSA and an ECDSA key, each with a self-signed
// certificate, generated once per test binary.
func testSigners(tb testing.TB) []testSigner {
	tb.Helper()
	testSignersOnce.Do(func() {
		rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			panic(err)
		}
		for _, s := range []struct {
			name string
			key  crypto.Signer
		}{{"RSA", rsaKey}, {"ECDSA", ecKey}} {
			testSignersList = append(testSignersList, testSigner{s.name, s.key, selfSigned(s.key, "xmldsig test "+s.name)})
		}
	})
	return testSignersList
}

func selfSigned(key crypto.Signer, cn string) *x509.Certificate {
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(4242),
		Subject:      pkix.Name{CommonName: cn, Country: []string{"CH"}},
		NotBefore:    signingTime.Add(-time.Hour),
		NotAfter:     signingTime.Add(365 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		panic(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	return cert
}

func TestSignVerifyRoundTrip(t *testing.T) {
	for _, s := range testSigners(t) {
		for _, tc := range []struct {
			name string
			opts xmlsign.SignOptions
		}{
			{"plain", xmlsign.SignOptions{}},
			{"xades", xmlsign.SignOptions{XAdES: true, SigningTime: signingTime}},
			{"xades-sha512", xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, Hash: crypto.SHA512}},
			{"inclusive-c14n", xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, CanonicalizationMethod: xmldsig.C14N10}},
			{"c14n11", xmlsign.SignOptions{CanonicalizationMethod: xmldsig.C14N11}},
			{"pss", xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, RSAPSS: true}},
		} {
			t.Run(s.name+"/"+tc.name, func(t *testing.T) {
				is := is.New(t)
				signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, tc.opts)
				is.NoErr(err)
				is.True(bytes.HasPrefix(signed, []byte(testList[:strings.Index(testList, "</TrustServiceStatusList>")]))) // original bytes kept

				res, err := xmldsig.Verify(signed)
				is.NoErr(err)
				is.True(res.Signer.Equal(s.cert))
				is.Equal(len(res.Certificates), 1)
				is.Equal(res.SignedProperties, tc.opts.XAdES)
				if tc.opts.XAdES {
					is.True(res.SigningTime.Equal(signingTime))
					is.Equal(len(res.References), 2)
				}
			})
		}
	}
}

// TestVerifyDetectsTampering alters a signed document in the ways an
// attacker would and checks each lands in the right error class.
func TestVerifyDetectsTampering(t *testing.T) {
	for _, s := range testSigners(t) {
		signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime})
		if err != nil {
			t.Fatal(err)
		}
		doc := string(signed)
		sigValue := between(doc, `-value">`, "</ds:SignatureValue>")
		propsID := between(doc, `<xades:SignedProperties Id="`, `"`)

		for _, tc := range []struct {
			name   string
			tamper func(string) string
			check  func(*is.I, error)
		}{
			{
				name: "text node",
				tamper: func(d string) string {
					return strings.Replace(d, "<TSLSequenceNumber>42<", "<TSLSequenceNumber>43<", 1)
				},
				check: func(is *is.I, err error) {
					var de *xmldsig.DigestError
					is.True(errors.As(err, &de))
					is.Equal(de.URI, "")
					is.True(xmldsig.IsTampered(err))
				},
			},
			{
				name:   "signing time",
				tamper: func(d string) string { return strings.Replace(d, "2026-11-21T10:30:00Z", "2026-11-21T10:31:00Z", 1) },
				check: func(is *is.I, err error) {
					var de *xmldsig.DigestError
					is.True(errors.As(err, &de))
					is.Equal(de.URI, "#"+propsID)
					is.Equal(de.Type, xmldsig.TypeSignedProperties)
				},
			},
			{
				name:   "signature value",
				tamper: func(d string) string { return strings.Replace(d, sigValue, flipBase64(sigValue), 1) },
				check: func(is *is.I, err error) {
					is.True(errors.Is(err, xmldsig.ErrSignatureInvalid))
					is.True(xmldsig.IsTampered(err))
				},
			},
			{
				name: "signed info",
				tamper: func(d string) string {
					return strings.Replace(d, `<ds:Reference Type=`, `<ds:Reference Id="extra" Type=`, 1)
				},
				check: func(is *is.I, err error) { is.True(errors.Is(err, xmldsig.ErrSignatureInvalid)) },
			},
			{
				name: "duplicate Id (wrapping)",
				tamper: func(d string) string {
					// A second SignedProperties with the same Id, inside the
					// signature (so the document digest still matches) and
					// first, so that a naive resolver would pick it.
					return strings.Replace(d, "<ds:Object>", `<ds:Object><xades:SignedProperties xmlns:xades="`+xmldsig.NamespaceXAdES132+`" Id="`+propsID+`"/></ds:Object><ds:Object>`, 1)
				},
				check: func(is *is.I, err error) {
					is.True(errors.Is(err, xmldsig.ErrDuplicateID))
					is.True(!xmldsig.IsTampered(err))
				},
			},
			{
				name: "second signature",
				tamper: func(d string) string {
					return strings.Replace(d, "<SchemeInformation>", "<SchemeInformation>"+between(d, "</SchemeInformation>", "</TrustServiceStatusList>"), 1)
				},
				check: func(is *is.I, err error) { is.True(errors.Is(err, xmldsig.ErrMultipleSignatures)) },
			},
			{
				name:   "signature removed",
				tamper: func(d string) string { return d[:strings.Index(d, "<ds:Signature")] + "</TrustServiceStatusList>\n" },
				check:  func(is *is.I, err error) { is.True(errors.Is(err, xmldsig.ErrNoSignature)) },
			},
			{
				name:   "external reference",
				tamper: func(d string) string { return strings.Replace(d, `URI=""`, `URI="http://example.org/list.xml"`, 1) },
				check:  func(is *is.I, err error) { is.True(errors.Is(err, xmldsig.ErrUnsupported)) },
			},
			{
				name: "certificate removed",
				tamper: func(d string) string {
					return d[:strings.Index(d, "<ds:KeyInfo>")] + d[strings.Index(d, "</ds:KeyInfo>")+len("</ds:KeyInfo>"):]
				},
				check: func(is *is.I, err error) { is.True(errors.Is(err, xmldsig.ErrNoCertificate)) },
			},
		} {
			t.Run(s.name+"/"+tc.name, func(t *testing.T) {
				is := is.New(t)
				tampered := tc.tamper(doc)
				is.True(tampered != doc) // the tamper function found its target
				_, err := xmldsig.Verify([]byte(tampered))
				is.True(err != nil)
				tc.check(is, err)
			})
		}
	}
}

func TestVerifyWithCertificatesOption(t *testing.T) {
	is := is.New(t)
	s := testSigners(t)[0]
	signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{})
	is.NoErr(err)
	d := string(signed)
	noCert := d[:strings.Index(d, "<ds:KeyInfo>")] + d[strings.Index(d, "</ds:KeyInfo>")+len("</ds:KeyInfo>"):]
	res, err := xmldsig.Verify([]byte(noCert), xmldsig.WithCertificates(testSigners(t)[1].cert, s.cert))
	is.NoErr(err)
	is.True(res.Signer.Equal(s.cert))
}

func between(s, from, to string) string {
	i := strings.Index(s, from)
	if i < 0 {
		return ""
	}
	s = s[i+len(from):]
	j := strings.Index(s, to)
	if j < 0 {
		return ""
	}
	return s[:j]
}

// flipBase64 changes one character in the middle of a base64 value.
func flipBase64(v string) string {
	b := []byte(v)
	i := len(b) / 2
	if b[i] == 'A' {
		b[i] = 'B'
	} else {
		b[i] = 'A'
	}
	return string(b)
}
