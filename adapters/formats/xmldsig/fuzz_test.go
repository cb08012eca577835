package xmldsig_test

import (
	"bytes"
	"crypto/x509"
	"strings"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/xmlsign"
)

// FuzzCanonicalize parses arbitrary bytes and canonicalises them with every
// method: it must never panic, the canonical form must parse again, and
// canonicalising it again must give the same bytes.
func FuzzCanonicalize(f *testing.F) {
	for _, c := range c14nCases {
		f.Add([]byte(c.in))
	}
	for _, c := range xmlsecTemplates {
		f.Add([]byte(c.doc))
	}
	f.Add([]byte(testList))
	f.Add([]byte(subsetDoc))
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := xmldsig.ParseDocument(data)
		if err != nil {
			return
		}
		for _, method := range allMethods {
			once, err := xmldsig.CanonicalizeDocument(doc, method, nil)
			if err != nil {
				t.Fatalf("%s: canonicalising a parsed document: %v", method, err)
			}
			doc2, err := xmldsig.ParseDocument(once)
			if err != nil {
				t.Fatalf("%s: canonical form does not parse: %v\n%q", method, err, once)
			}
			twice, err := xmldsig.CanonicalizeDocument(doc2, method, nil)
			if err != nil {
				t.Fatalf("%s: second canonicalisation: %v", method, err)
			}
			if !bytes.Equal(once, twice) {
				t.Fatalf("%s: not idempotent\nonce:  %q\ntwice: %q", method, once, twice)
			}
		}
		// Subsets: every element as an apex must not panic.
		for _, el := range doc.FindElements("//*") {
			for _, method := range allMethods {
				_, _ = xmldsig.Canonicalize(el, method, []string{"#default", "p"})
			}
		}
	})
}

// FuzzVerify feeds arbitrary bytes, seeded with valid and tampered
// signatures, to Verify: it must never panic.
func FuzzVerify(f *testing.F) {
	for _, s := range testSigners(f) {
		signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(signed)
		f.Add(bytes.Replace(signed, []byte("42"), []byte("43"), 1))
	}
	for _, c := range xmlsecTemplates {
		f.Add([]byte(c.doc))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := xmldsig.Verify(data)
		if err == nil && (res == nil || res.Signer == nil) {
			t.Fatal("Verify succeeded without a signer")
		}
	})
}

// FuzzCheckSignature feeds arbitrary documents, seeded with the
// CheckSignature test documents, to Signatures and CheckSignature with a
// Resolver that always answers: they must never panic, and a reference
// reported intact must have been found and computed.
func FuzzCheckSignature(f *testing.F) {
	for _, s := range testSigners(f) {
		signed, err := xmlsign.Sign([]byte(testList), s.key, []*x509.Certificate{s.cert}, xmlsign.SignOptions{XAdES: true, SigningTime: signingTime})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(signed)
	}
	for _, c := range xpathTemplates {
		f.Add([]byte(c.doc))
	}
	for _, c := range xmlsecTemplates {
		f.Add([]byte(c.doc))
	}
	resolve := func(uri string) ([]byte, string, int, bool) {
		return []byte(`<a xmlns="http://u"><b>` + uri + `</b></a>`), uri, 1, true
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tree, err := xmldsig.ParseDocument(data)
		if err != nil {
			return
		}
		sigs, err := xmldsig.Signatures(tree)
		if err != nil {
			return
		}
		for _, s := range sigs {
			c, err := xmldsig.CheckSignature(tree, s, xmldsig.CheckOptions{Resolve: resolve})
			if err != nil {
				continue
			}
			for _, r := range c.References {
				if r.Intact && (!r.Found || r.Unchecked != "" || r.Octets == nil) {
					t.Fatalf("reference %q intact without being checked: %+v", r.URI, r)
				}
			}
			if c.Value.Valid && !c.Value.Done {
				t.Fatal("value valid but not done")
			}
		}
	})
}

// FuzzXPathFilter puts arbitrary expressions in an XPath transform and in
// an XPath Filter 2.0 transform of a fixed document: evaluating them must
// never panic nor run past the step budget, canonicalise no more than the
// document holds, and give the same octets twice.
func FuzzXPathFilter(f *testing.F) {
	for _, e := range []string{
		"not(ancestor-or-self::ds:Signature)",
		"count(ancestor-or-self::ds:Signature | here()/ancestor::ds:Signature[1]) > count(ancestor-or-self::ds:Signature)",
		"//ds:Signature", "/", "//u:v | //u:w", "self::text()", "@*", "ancestor-or-self::u:t",
		"count(//node()) = count(preceding::node())", "namespace::*", "here()", "id('s')", "string(.) = 'in'",
		"1 = 1 = 1", "'a' < 'b'", "(//*)[last()]", "..//*[position() mod 2 = 0]",
	} {
		f.Add(e, "subtract")
	}
	const body = `<r xmlns="http://u" xmlns:p="http://v" xml:lang="en"><!--c--><p:s Id="s" a="1"><t>in<v>out</v></t><?pi x?><v><w>back</w></v></p:s>`
	f.Fuzz(func(t *testing.T, expr, op string) {
		var b strings.Builder
		for _, r := range expr {
			switch r {
			case '<':
				b.WriteString("&lt;")
			case '&':
				b.WriteString("&amp;")
			default:
				b.WriteRune(r)
			}
		}
		escaped := b.String()
		for _, tr := range []string{
			`<Transform Algorithm="` + xmldsig.TransformXPath + `"><XPath xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:u="http://u">` + escaped + `</XPath></Transform>`,
			`<Transform Algorithm="` + xmldsig.TransformXPathFilter2 + `"><XPath xmlns="` + xmldsig.NamespaceXPathFilter2 + `" Filter="` + strings.ReplaceAll(strings.ReplaceAll(op, "&", ""), `"`, "") +
				`" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" xmlns:u="http://u">` + escaped + `</XPath></Transform>`,
		} {
			doc := body + sigTemplate(xmldsig.C14N10, ref("", tr, xmldsig.ExcC14NWithComments), ref("#s", tr)) + `</r>`
			first, ok := checkXPath(doc)
			if !ok {
				continue
			}
			for _, r := range first {
				// A filter selects nodes of the document: what it
				// canonicalises cannot grow beyond the document with
				// its namespace declarations repeated on every element.
				if len(r.Octets) > 8*len(doc)+4096 {
					t.Fatalf("reference %q: %d octets from a %d-byte document", r.URI, len(r.Octets), len(doc))
				}
			}
			second, _ := checkXPath(doc)
			if len(first) != len(second) {
				t.Fatalf("%d references, then %d", len(first), len(second))
			}
			for i := range first {
				a, b := first[i], second[i]
				if a.Found != b.Found || a.Unchecked != b.Unchecked || !bytes.Equal(a.Octets, b.Octets) {
					t.Fatalf("reference %q checked twice: %v %q %q, then %v %q %q", a.URI, a.Found, a.Unchecked, a.Octets, b.Found, b.Unchecked, b.Octets)
				}
			}
		}
	})
}

// checkXPath checks the one signature of doc and returns its references;
// false when doc does not parse or the signature cannot be read.
func checkXPath(doc string) ([]xmldsig.ReferenceCheck, bool) {
	tree, err := xmldsig.ParseDocument([]byte(doc))
	if err != nil {
		return nil, false
	}
	sigs, err := xmldsig.Signatures(tree)
	if err != nil || len(sigs) != 1 {
		return nil, false
	}
	c, err := xmldsig.CheckSignature(tree, sigs[0], xmldsig.CheckOptions{})
	if err != nil {
		return nil, false
	}
	return c.References, true
}
