package xades

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// signedRefs computes the SignedInfo references of sig the simple way
// the corpus files need ("#id" references with at most one
// canonicalisation or base64 transform), independently of xmldsig.CheckSignature,
// so that the time-stamp inputs are checked on their own.
func signedRefs(t *testing.T, tree *etree.Document, sig *etree.Element) []signedRef {
	t.Helper()
	byID := map[string]*etree.Element{}
	var walk func(*etree.Element)
	walk = func(el *etree.Element) {
		if id := attr(el, "Id"); id != "" {
			byID[id] = el
		}
		for _, c := range el.ChildElements() {
			walk(c)
		}
	}
	walk(tree.Root())
	var out []signedRef
	for _, ref := range childrenOf(dsChild(sig, "SignedInfo"), func(c *etree.Element) bool { return isDS(c, "Reference") }) {
		uri := attr(ref, "URI")
		el := byID[strings.TrimPrefix(uri, "#")]
		if el == nil {
			// Not an #id: the inputs that need it report it not found.
			out = append(out, signedRef{id: attr(ref, "Id")})
			continue
		}
		method := xmldsig.C14N10
		transforms := kids(dsChild(ref, "Transforms"))
		if len(transforms) > 1 {
			t.Fatalf("reference %q: more than one transform", uri)
		}
		if len(transforms) == 1 {
			method = attr(transforms[0], "Algorithm")
		}
		var b []byte
		var err error
		if method == "http://www.w3.org/2000/09/xmldsig#base64" {
			b, err = decodeBase64(el.Text())
		} else {
			b, err = xmldsig.Canonicalize(el, method, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, signedRef{id: attr(ref, "Id"), octets: b, found: true, element: el, bare: len(transforms) == 0,
			signedProperties: attr(ref, "Type") == typeSignedProperties})
	}
	return out
}

// TestTimestampInputs checks the imprint of every time-stamp of corpus
// files against the input this package computes: the signature, content,
// SigAndRefs and archive (1.4.1) time-stamps of DSS's and others' files
// hold, the copied ones (from another signature) do not.
func TestTimestampInputs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want []string
	}{
		{"xades-018-lta-valid-ocsp.xml", []string{"SIGNATURE_TIMESTAMP:ok", "ARCHIVE_TIMESTAMP:ok"}},
		{"xades-037-mra-john-doe-lta.xml", []string{"SIGNATURE_TIMESTAMP:ok", "ARCHIVE_TIMESTAMP:ok"}},
		{"xades-026-lta-copied-atst.xml", []string{"SIGNATURE_TIMESTAMP:ok", "ARCHIVE_TIMESTAMP:" + CodeImprintMismatch}},
		{"xades-022-extended-xl.xml", []string{"SIGNATURE_TIMESTAMP:ok", "VALIDATION_DATA_TIMESTAMP:ok"}},
		{"xades-028-b-copied-cnttst.xml", []string{"CONTENT_TIMESTAMP:ok", "CONTENT_TIMESTAMP:ok"}},
	} {
		data, err := os.ReadFile(filepath.Join(realworld.Dir(), "files", tc.file))
		if err != nil {
			t.Skipf("corpus not found: %v", err)
		}
		tree, err := parse(data)
		if err != nil {
			t.Fatal(err)
		}
		var sig *etree.Element
		for _, el := range tree.Root().FindElements("//Signature") {
			if isDS(el, "Signature") {
				sig = el
				break
			}
		}
		q := findQualifying(sig)
		vd := newValidationData()
		u := readUnsigned(q.unsigned, vd)
		p := readSigned(q.signedCandidate)
		in := &inputs{sig: sig, signedInfo: dsChild(sig, "SignedInfo"), value: dsChild(sig, "SignatureValue"), keyInfo: dsChild(sig, "KeyInfo"),
			props: q.props, unsigned: q.unsigned, refs: signedRefs(t, tree, sig)}
		var items []tsItem
		for _, c := range p.contentTS {
			items = append(items, tsItem{c, kindAllDataObjects})
		}
		items = append(items, u.timestamps...)
		var got []string
		var problems []ades.Problem
		for _, it := range items {
			prop := readTimestamp(it.el, &problems)
			for _, der := range prop.tokens {
				tok, err := tsp.Parse(der)
				if err != nil {
					t.Fatal(err)
				}
				ts := cades.TimestampEvidenceOf(it.kind.timestampType(), tok, vd.Certificates, in.input(it, prop.c14n), imprintCodes)
				r := "ok"
				if !ts.Imprint.Valid {
					r = ts.Imprint.Reason
				}
				got = append(got, ts.Type.String()+":"+r)
			}
		}
		if strings.Join(got, " ") != strings.Join(tc.want, " ") {
			t.Errorf("%s: %v, want %v", tc.file, got, tc.want)
		}
	}
}
