package xmldsig_test

import (
	"bytes"
	"crypto/x509"
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
