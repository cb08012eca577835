package xmldsig_test

import (
	"crypto"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/xmlsign"
)

// writePEM writes a certificate and, if key is not nil, its PKCS #8 key.
func writePEM(tb testing.TB, dir string, s testSigner) (certPath, keyPath string) {
	tb.Helper()
	certPath = filepath.Join(dir, "cert.pem")
	keyPath = filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certPath, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: s.cert.Raw}), 0o600); err != nil {
		tb.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(s.key)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		tb.Fatal(err)
	}
	return certPath, keyPath
}

// TestSignVerifiesWithXmlsec1 checks that what Sign produces is a signature
// libxml2/xmlsec1 accepts, not just one this package agrees with itself on.
func TestSignVerifiesWithXmlsec1(t *testing.T) {
	xmlsec := requireTool(t, "xmlsec1")
	for _, s := range testSigners(t) {
		for _, tc := range []struct {
			name string
			opts xmlsign.SignOptions
		}{
			{"plain", xmlsign.SignOptions{}},
			{"xades", xmlsign.SignOptions{XAdES: true, SigningTime: signingTime}},
			{"xades-inclusive-sha384", xmlsign.SignOptions{XAdES: true, SigningTime: signingTime, CanonicalizationMethod: xmldsig.C14N10, Hash: crypto.SHA384}},
		} {
			t.Run(s.name+"/"+tc.name, func(t *testing.T) {
				is := is.New(t)
				dir := t.TempDir()
				certPath, _ := writePEM(t, dir, s)
				signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, tc.opts)
				is.NoErr(err)
				docPath := filepath.Join(dir, "signed.xml")
				is.NoErr(os.WriteFile(docPath, signed, 0o600))

				out, stderr, err := run(t, xmlsec, "--verify", "--pubkey-cert-pem", certPath,
					"--id-attr:Id", xmldsig.NamespaceXAdES132+":SignedProperties", docPath)
				if err != nil {
					t.Fatalf("xmlsec1 --verify: %v\n%s%s\n%s", err, out, stderr, signed)
				}
			})
		}
	}
}

// xmlsecTemplates are signature templates that xmlsec1 fills in; Verify must
// then accept the result. They exercise document subsets, which xmllint
// cannot canonicalise: namespace and xml:* inheritance into "#id" subsets,
// InclusiveNamespaces, comments under bare-name and XPointer references, and
// a commented SignedInfo.
var xmlsecTemplates = []struct {
	name, doc string
}{
	{"inclusive subset", `<r xmlns="http://u" xmlns:p="http://v" xml:lang="en" xml:space="preserve" xml:id="x" xml:base="http://b/"><p:s Id="s" xmlns:q="http://w"><t a="1">hi<!--c--></t></p:s>` +
		sigTemplate(xmldsig.C14N10, ref("#s", xmldsig.C14N10WithComments)) + `</r>`},
	{"c14n11 subset", `<r xmlns="http://u" xmlns:p="http://v" xml:lang="en" xml:id="x"><p:s Id="s"><t xml:lang="de">hi</t><u xmlns=""/></p:s>` +
		sigTemplate(xmldsig.C14N11, ref("#s", xmldsig.C14N11), ref("", xmldsig.TransformEnveloped, xmldsig.C14N11WithComments)) + `</r>`},
	{"exclusive with prefix list", `<r xmlns="http://u" xmlns:p="http://v" xmlns:q="http://w"><p:s Id="s" q:a="1"><t/><x:y xmlns:x="http://x" b="2"/></p:s>` +
		sigTemplate(xmldsig.ExcC14N, ref("#s", `<Transform Algorithm="`+xmldsig.ExcC14N+`"><InclusiveNamespaces xmlns="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="#default p"/></Transform>`), ref("#s", xmldsig.ExcC14NWithComments)) + `</r>`},
	{"xpointer keeps comments", `<r xmlns="http://u"><!--before--><s Id="s"><!--in-->x</s>` +
		sigTemplate(xmldsig.C14N10WithComments, ref("#xpointer(id('s'))", xmldsig.ExcC14NWithComments), ref("#xpointer(/)", xmldsig.TransformEnveloped, xmldsig.C14N10WithComments)) + `</r>`},
	{"default namespace undeclared", `<r xmlns="http://u"><s Id="s" xmlns=""><t xmlns="http://u"><v xmlns=""/></t></s>` +
		sigTemplate(xmldsig.ExcC14N, ref("#s", xmldsig.C14N10), ref("#s", xmldsig.ExcC14N)) + `</r>`},
	{"commented signed info", `<r xmlns:ds="http://www.w3.org/2000/09/xmldsig#" attr="a&#9;b&#10;c"><s Id="s">&#13;text &amp; &lt;&gt;"'</s>` +
		strings.Replace(sigTemplate(xmldsig.C14N10WithComments, ref("", xmldsig.TransformEnveloped)), "<SignatureMethod", "<!-- kept --><SignatureMethod", 1) + `</r>`},
}

func sigTemplate(c14n string, refs ...string) string {
	return `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="` + c14n + `"/>` +
		`<SignatureMethod Algorithm="` + xmldsig.SignatureRSASHA256 + `"/>` + strings.Join(refs, "") +
		`</SignedInfo><SignatureValue/><KeyInfo><X509Data/></KeyInfo></Signature>`
}

func ref(uri string, transforms ...string) string {
	var b strings.Builder
	b.WriteString(`<Reference URI="` + uri + `"><Transforms>`)
	for _, t := range transforms {
		if strings.HasPrefix(t, "<") {
			b.WriteString(t) // a Transform element with parameters
			continue
		}
		b.WriteString(`<Transform Algorithm="` + t + `"/>`)
	}
	b.WriteString(`</Transforms><DigestMethod Algorithm="` + xmldsig.DigestSHA256 + `"/><DigestValue/></Reference>`)
	return b.String()
}

func TestVerifyAcceptsXmlsec1Signatures(t *testing.T) {
	xmlsec := requireTool(t, "xmlsec1")
	s := testSigners(t)[0] // RSA, as the templates say
	dir := t.TempDir()
	certPath, keyPath := writePEM(t, dir, s)
	for _, tc := range xmlsecTemplates {
		t.Run(tc.name, func(t *testing.T) {
			tmpl := filepath.Join(t.TempDir(), "tmpl.xml")
			if err := os.WriteFile(tmpl, []byte(tc.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			signed, stderr, err := run(t, xmlsec, "--sign", "--privkey-pem", keyPath+","+certPath, "--id-attr:Id", "s", tmpl)
			if err != nil {
				t.Fatalf("xmlsec1 --sign: %v\n%s", err, stderr)
			}
			if _, err := xmldsig.Verify(signed); err != nil {
				signedPath := filepath.Join(t.TempDir(), "signed.xml")
				_ = os.WriteFile(signedPath, signed, 0o600)
				debug, _, _ := run(t, xmlsec, "--verify", "--store-references", "--pubkey-cert-pem", certPath, "--id-attr:Id", "s", signedPath)
				t.Fatalf("Verify: %v\nxmlsec1 pre-digest data:\n%s", err, debug)
			}
		})
	}
}
