package xmldsig_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// An XPointer id() reference takes its ID in single or double quotes
// (XMLDSig section 4.4.3.3): xmlsec1 signs each form and Verify accepts
// it (mutation testing, docs/testing.md, found double quotes unchecked).
func TestVerifyXPointerQuotes(t *testing.T) {
	xmlsec := requireTool(t, "xmlsec1")
	s := testSigners(t)[0] // RSA, as the template says
	dir := t.TempDir()
	certPath, keyPath := writePEM(t, dir, s)
	for _, uri := range []string{`#xpointer(id('s'))`, `#xpointer(id(&quot;s&quot;))`} {
		t.Run(uri, func(t *testing.T) {
			doc := `<r xmlns="http://u"><!--before--><s Id="s"><!--in-->x</s>` +
				sigTemplate(xmldsig.C14N10WithComments, ref(uri, xmldsig.ExcC14NWithComments)) + `</r>`
			tmpl := filepath.Join(t.TempDir(), "tmpl.xml")
			if err := os.WriteFile(tmpl, []byte(doc), 0o600); err != nil {
				t.Fatal(err)
			}
			signed, stderr, err := run(t, xmlsec, "--sign", "--privkey-pem", keyPath+","+certPath, "--id-attr:Id", "s", tmpl)
			if err != nil {
				t.Fatalf("xmlsec1 --sign: %v\n%s", err, stderr)
			}
			if _, err := xmldsig.Verify(signed); err != nil {
				t.Fatalf("Verify: %v", err)
			}
		})
	}
}
