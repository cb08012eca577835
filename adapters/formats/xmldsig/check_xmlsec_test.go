package xmldsig_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// xpathTemplates are signature templates with XPath and XPath Filter 2.0
// transforms that xmlsec1 (libxml2's XPath and canonicalisation of
// node-sets) fills in; CheckSignature must find every reference intact.
// They select node-sets with gaps: elements whose parent is left out
// (namespace and xml:* inheritance), attributes left out, text kept
// without its element.
var xpathTemplates = []struct {
	name, doc string
}{
	{"xpath enveloped", `<?pi before?><!--c--><r xmlns="http://u" xmlns:p="http://v" xml:lang="en"><p:s Id="s" a="1"><t>hi<?pi in?></t></p:s>` +
		sigTemplate(xmldsig.C14N10, ref("", xpathT("not(ancestor-or-self::ds:Signature)"), xmldsig.C14N10)) + `</r><?pi after?>`},
	{"xpath here", `<r xmlns="http://u"><s Id="s">x</s>` +
		sigTemplate(xmldsig.ExcC14N, ref("", xpathT("count(ancestor-or-self::ds:Signature | here()/ancestor::ds:Signature[1]) > count(ancestor-or-self::ds:Signature)"), xmldsig.ExcC14N)) + `</r>`},
	{"xpath gaps inclusive", `<r xmlns="http://u" xmlns:p="http://v" xml:lang="en"><p:s Id="s" p:b="2"><t c="3">hi<v xmlns="">no</v></t><t xml:space="preserve">ho</t></p:s>` +
		sigTemplate(xmldsig.C14N10, ref("", xpathT("ancestor-or-self::u:t", "u", "http://u"), xmldsig.C14N10)) + `</r>`},
	{"xpath gaps exclusive", `<r xmlns="http://u" xmlns:p="http://v" xml:lang="en"><p:s Id="s" p:b="2"><t c="3">hi<v xmlns="">no</v></t><t xml:space="preserve">ho</t></p:s>` +
		sigTemplate(xmldsig.C14N10, ref("", xpathT("ancestor-or-self::u:t", "u", "http://u"), xmldsig.ExcC14N)) + `</r>`},
	{"xpath drops an attribute", `<r xmlns="http://u"><s Id="s" a="1" b="2"><t a="3">x</t></s>` +
		sigTemplate(xmldsig.C14N10, ref("#s", xpathT("not(self::node()[name()='a' and count(../@a) = 1 and count(. | ../@a) = 1])"), xmldsig.C14N10)) + `</r>`},
	{"xpath text only", `<r xmlns="http://u"><s Id="s">one<t>two</t>three</s>` +
		sigTemplate(xmldsig.C14N10, ref("#s", xpathT("self::text()"))) + `</r>`},
	{"filter2 subtract signature", `<r xmlns="http://u"><s Id="s">x</s>` +
		sigTemplate(xmldsig.ExcC14N, ref("", filter2T("subtract", "//ds:Signature"), xmldsig.ExcC14N)) + `</r>`},
	{"filter2 intersect subtract union", `<r xmlns="http://u" xmlns:p="http://v"><p:s Id="s" a="1"><t>in<v>out</v></t><v><w>back</w></v></p:s>` +
		sigTemplate(xmldsig.C14N10, ref("", filter2T("intersect", "//p:s", "subtract", "//u:v", "union", "//u:w"), xmldsig.C14N10)) + `</r>`},
	// Two transforms: the second filters the output of the first.
	{"filter2 in sequence", `<r xmlns="http://u" xmlns:p="http://v"><p:s Id="s" a="1"><t>in<v>out</v></t><v><w>back</w></v></p:s>` +
		sigTemplate(xmldsig.C14N10, ref("", filter2T("intersect", "//p:s"), filter2T("subtract", "//u:v"), xmldsig.C14N10)) + `</r>`},
	{"filter2 on a subtree", `<r xmlns="http://u"><s Id="s" a="1"><t>in</t><v>out</v></s>` +
		sigTemplate(xmldsig.C14N10, ref("#s", filter2T("subtract", "//u:v"))) + `</r>`},
}

// xpathT is an XPath transform; ns are extra prefix, URI pairs declared
// on the XPath element (ds is declared).
func xpathT(expr string, ns ...string) string {
	decls := ` xmlns:ds="http://www.w3.org/2000/09/xmldsig#"`
	for i := 0; i+1 < len(ns); i += 2 {
		decls += ` xmlns:` + ns[i] + `="` + ns[i+1] + `"`
	}
	return `<Transform Algorithm="` + xmldsig.TransformXPath + `"><XPath` + decls + `>` + escapeXML(expr) + `</XPath></Transform>`
}

// filter2T is an XPath Filter 2.0 transform with the expressions of
// opExprs, pairs of Filter and expression; prefixes ds, u (http://u) and p
// (http://v) are declared.
func filter2T(opExprs ...string) string {
	t := `<Transform Algorithm="` + xmldsig.TransformXPathFilter2 + `">`
	for i := 0; i+1 < len(opExprs); i += 2 {
		t += `<XPath xmlns="` + xmldsig.NamespaceXPathFilter2 + `" Filter="` + opExprs[i] +
			`" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:u="http://u" xmlns:p="http://v">` + escapeXML(opExprs[i+1]) + `</XPath>`
	}
	return t + `</Transform>`
}

func escapeXML(s string) string {
	out := ""
	for _, r := range s {
		switch r {
		case '<':
			out += "&lt;"
		case '>':
			out += "&gt;"
		case '&':
			out += "&amp;"
		default:
			out += string(r)
		}
	}
	return out
}

// TestCheckSignatureAgreesWithXmlsec1 checks what xmlsec1 signs from the
// templates: every reference intact, the value valid.
func TestCheckSignatureAgreesWithXmlsec1(t *testing.T) {
	xmlsec := requireTool(t, "xmlsec1")
	s := testSigners(t)[0]
	dir := t.TempDir()
	certPath, keyPath := writePEM(t, dir, s)
	// The templates of TestVerifyAcceptsXmlsec1Signatures too: subsets,
	// XPointer references, comments.
	for _, tc := range append(append(xpathTemplates[:0:0], xpathTemplates...), xmlsecTemplates...) {
		t.Run(tc.name, func(t *testing.T) {
			tmpl := filepath.Join(t.TempDir(), "tmpl.xml")
			if err := os.WriteFile(tmpl, []byte(tc.doc), 0o600); err != nil {
				t.Fatal(err)
			}
			signed, stderr, err := run(t, xmlsec, "--sign", "--privkey-pem", keyPath+","+certPath, "--id-attr:Id", "s", tmpl)
			if err != nil {
				t.Fatalf("xmlsec1 --sign: %v\n%s", err, stderr)
			}
			c, err := checkOne(t, signed, xmldsig.CheckOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !c.Value.Valid {
				t.Errorf("value: %+v", c.Value)
			}
			for _, r := range c.References {
				if !r.Found || !r.Intact || r.Unchecked != "" {
					signedPath := filepath.Join(t.TempDir(), "signed.xml")
					_ = os.WriteFile(signedPath, signed, 0o600)
					debug, _, _ := run(t, xmlsec, "--verify", "--store-references", "--pubkey-cert-pem", certPath, "--id-attr:Id", "s", signedPath)
					t.Errorf("reference %q: found %v intact %v unchecked %q\nours:   %q\nxmlsec1: %s", r.URI, r.Found, r.Intact, r.Unchecked, r.Octets, debug)
				}
			}
		})
	}
}

// TestCheckSignatureEnvelopedRemovesItsOwnSignature: of two enveloped
// signatures over the whole document, the one signed second covers the
// first and leaves out only itself. xmlsec1 signs them in turn; the second
// is intact, the first no longer is (the second was added after it).
func TestCheckSignatureEnvelopedRemovesItsOwnSignature(t *testing.T) {
	xmlsec := requireTool(t, "xmlsec1")
	s := testSigners(t)[0]
	dir := t.TempDir()
	certPath, keyPath := writePEM(t, dir, s)
	sig := func(id string) string {
		return strings.Replace(sigTemplate(xmldsig.ExcC14N, ref("", xmldsig.TransformEnveloped, xmldsig.ExcC14N)), "<Signature ", `<Signature Id="`+id+`" `, 1)
	}
	doc := []byte(`<r xmlns="http://u"><s>content</s>` + sig("first") + sig("second") + `</r>`)
	for _, id := range []string{"first", "second"} {
		path := filepath.Join(dir, id+".xml")
		if err := os.WriteFile(path, doc, 0o600); err != nil {
			t.Fatal(err)
		}
		signed, stderr, err := run(t, xmlsec, "--sign", "--privkey-pem", keyPath+","+certPath, "--node-id", id, "--id-attr:Id", "Signature", path)
		if err != nil {
			t.Fatalf("xmlsec1 --sign --node-id %s: %v\n%s", id, err, stderr)
		}
		doc = signed
	}
	tree, err := xmldsig.ParseDocument(doc)
	if err != nil {
		t.Fatal(err)
	}
	sigs, err := xmldsig.Signatures(tree)
	if err != nil || len(sigs) != 2 {
		t.Fatalf("%d signatures, %v", len(sigs), err)
	}
	for i, want := range []bool{false, true} {
		c, err := xmldsig.CheckSignature(tree, sigs[i], xmldsig.CheckOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !c.Value.Valid || c.References[0].Intact != want {
			t.Errorf("signature %s: value %+v, reference intact %v, want %v", c.ID, c.Value, c.References[0].Intact, want)
		}
	}
}
