package xmldsig_test

import (
	"strings"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// referenceOctets checks the only signature of doc and returns its first
// reference's check.
func firstReference(t *testing.T, doc string) xmldsig.ReferenceCheck {
	t.Helper()
	c, err := checkOne(t, []byte(doc), xmldsig.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c.References[0]
}

// TestXPathTransforms pins the digest input of XPath and XPath Filter 2.0
// transforms where xmlsec1 cannot be the reference, and the stable
// reasons of what cannot be evaluated.
func TestXPathTransforms(t *testing.T) {
	const body = `<r xmlns="http://u" xmlns:p="http://v"><p:s Id="s" a="1"><t>in<v>out</v></t><v><w>back</w></v></p:s>`
	for _, tc := range []struct {
		name, doc string
		octets    string
		reason    string
	}{
		// XPath Filter 2.0 section 3.4: a transform's output is its input
		// intersected with its filter, so a union in a later transform
		// cannot bring back what an earlier one removed (xmlsec1 chains
		// the transforms and would bring w back; Santuario, as here, does
		// not).
		{"filter2 union after an earlier subtract", body + sigTemplate(xmldsig.C14N10, ref("", filter2T("intersect", "//p:s"), filter2T("subtract", "//u:v"), filter2T("union", "//u:w"), xmldsig.C14N10)) + `</r>`,
			`<p:s xmlns="http://u" xmlns:p="http://v" Id="s" a="1"><t>in</t></p:s>`, ""},
		// Inside one transform the filters combine in order.
		{"filter2 union in the same transform", body + sigTemplate(xmldsig.C14N10, ref("", filter2T("intersect", "//p:s", "subtract", "//u:v", "union", "//u:w"), xmldsig.C14N10)) + `</r>`,
			`<p:s xmlns="http://u" xmlns:p="http://v" Id="s" a="1"><t>in</t><w>back</w></p:s>`, ""},
		{"xpath attribute axis", body + sigTemplate(xmldsig.C14N10, ref("#s", xpathT("not(self::node()[name()='a'])"))) + `</r>`,
			`<p:s xmlns="http://u" xmlns:p="http://v" Id="s"><t>in<v>out</v></t><v><w>back</w></v></p:s>`, ""},
		// here() is the ds:XPath element; the comparison is evaluated
		// operand by operand (see compiledXPath).
		{"xpath here", body + sigTemplate(xmldsig.C14N10, ref("", xpathT("count(ancestor-or-self::ds:Signature | here()/ancestor::ds:Signature[1]) > count(ancestor-or-self::ds:Signature)"))) + `</r>`,
			`<r xmlns="http://u" xmlns:p="http://v"><p:s Id="s" a="1"><t>in<v>out</v></t><v><w>back</w></v></p:s></r>`, ""},
		{"xpath syntax", body + sigTemplate(xmldsig.C14N10, ref("", xpathT("count("))) + `</r>`, "", xmldsig.ReasonXPathInvalid},
		{"xpath unknown function", body + sigTemplate(xmldsig.C14N10, ref("", xpathT("document('http://example.com/')"))) + `</r>`, "", xmldsig.ReasonXPathInvalid},
		{"xpath unbound prefix", body + sigTemplate(xmldsig.C14N10, ref("", xpathT("ancestor::zz:x"))) + `</r>`, "", xmldsig.ReasonXPathInvalid},
		{"xpath missing", body + sigTemplate(xmldsig.C14N10, ref("", `<Transform Algorithm="`+xmldsig.TransformXPath+`"/>`)) + `</r>`, "", xmldsig.ReasonXPathInvalid},
		{"filter2 bad filter", body + sigTemplate(xmldsig.C14N10, ref("", filter2T("exclude", "//p:s"))) + `</r>`, "", xmldsig.ReasonXPathInvalid},
		{"filter2 not a node-set", body + sigTemplate(xmldsig.C14N10, ref("", filter2T("subtract", "1 + 1"))) + `</r>`, "", xmldsig.ReasonXPathInvalid},
		{"xslt", body + sigTemplate(xmldsig.C14N10, ref("", `<Transform Algorithm="`+xmldsig.TransformXSLT+`"><xsl:stylesheet xmlns:xsl="http://www.w3.org/1999/XSL/Transform" version="1.0"/></Transform>`)) + `</r>`,
			"", xmldsig.ReasonXSLTUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := firstReference(t, tc.doc)
			if r.Unchecked != tc.reason {
				t.Fatalf("unchecked %q, want %q", r.Unchecked, tc.reason)
			}
			if string(r.Octets) != tc.octets {
				t.Errorf("octets\n got %q\nwant %q", r.Octets, tc.octets)
			}
		})
	}
}

// TestXPathLimit: an expression quadratic in the document stops at
// MaxXPathSteps, reported, quickly.
func TestXPathLimit(t *testing.T) {
	doc := `<r xmlns="http://u">` + strings.Repeat("<a><b/></a>", 5000) +
		sigTemplate(xmldsig.C14N10, ref("", xpathT("count(//node()) = count(preceding::node())"))) + `</r>`
	start := time.Now()
	r := firstReference(t, doc)
	if r.Unchecked != xmldsig.ReasonXPathLimit {
		t.Fatalf("unchecked %q, want %q", r.Unchecked, xmldsig.ReasonXPathLimit)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
	t.Logf("refused after %v", time.Since(start))
}
