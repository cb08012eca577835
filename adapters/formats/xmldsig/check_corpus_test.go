package xmldsig_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/fixtures/realworld"
)

// xadesCase is a corpus XAdES file with its detached parts, by the name
// the signature gives them (MANIFEST.tsv notes "detached-N original name").
type xadesCase struct {
	id       string
	data     []byte
	detached map[string]string // original file name -> corpus path
}

var originalName = regexp.MustCompile(`detached-(\d+) original name: ([^ |]+)`)

// loadXAdESCases reads the corpus XAdES files (files/xades-*.xml), or skips
// tb when the shared corpus is absent.
func loadXAdESCases(tb testing.TB) map[string]xadesCase {
	tb.Helper()
	out := map[string]xadesCase{}
	for _, c := range realworld.Manifest(tb) {
		if !strings.HasPrefix(c.ID, "xades-") {
			continue
		}
		data, err := os.ReadFile(realworld.File(tb, c.ID))
		if err != nil {
			tb.Fatal(err)
		}
		xc := xadesCase{id: c.ID, data: data, detached: map[string]string{}}
		names := map[string]string{}
		for _, m := range originalName.FindAllStringSubmatch(c.Notes, -1) {
			names[m[1]] = m[2]
		}
		for _, p := range c.Detached {
			n := regexp.MustCompile(`detached-(\d+)`).FindStringSubmatch(filepath.Base(p))
			if n != nil && names[n[1]] != "" {
				xc.detached[names[n[1]]] = p
			} else {
				xc.detached[filepath.Base(p)] = p
			}
		}
		out[c.ID] = xc
	}
	if len(out) == 0 {
		tb.Skip("no XAdES files in the corpus")
	}
	return out
}

// resolver matches a reference URI's base name against the case's
// detached parts.
func (xc xadesCase) resolver(tb testing.TB) xmldsig.Resolver {
	return func(uri string) ([]byte, string, int, bool) {
		base := uri[strings.LastIndex(uri, "/")+1:]
		p, ok := xc.detached[base]
		if !ok {
			return nil, "", 0, false
		}
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		return b, base, 1, true
	}
}

func (xc xadesCase) check(tb testing.TB) (*etree.Document, []*xmldsig.Checked, []error) {
	tb.Helper()
	tree, err := xmldsig.ParseDocument(xc.data)
	if err != nil {
		return nil, nil, []error{err}
	}
	sigs, err := xmldsig.Signatures(tree)
	if err != nil {
		tb.Fatalf("%s: %v", xc.id, err)
	}
	var (
		checked []*xmldsig.Checked
		errs    []error
	)
	for _, s := range sigs {
		c, err := xmldsig.CheckSignature(tree, s, xmldsig.CheckOptions{Resolve: xc.resolver(tb)})
		checked = append(checked, c)
		errs = append(errs, err)
	}
	return tree, checked, errs
}

// refState is what a test pins of one ReferenceCheck.
type refState struct {
	uri       string
	manifest  bool
	found     bool
	intact    bool
	unchecked string
}

// TestCheckSignatureCorpus pins what CheckSignature finds in the DSS test
// files, against what the DSS tests assert (MANIFEST.tsv notes).
func TestCheckSignatureCorpus(t *testing.T) {
	cases := loadXAdESCases(t)
	for _, tc := range []struct {
		id    string
		err   error      // CheckSignature's error for the first signature
		value []bool     // Done, Valid of each signature's value
		refs  []refState // the first signature's references, when set
	}{
		// Plain XMLDSig, enveloping, the key in KeyValue: intact and valid.
		{id: "xades-036-xmldsig-only", value: []bool{true, true}, refs: []refState{{uri: "#object", found: true, intact: true}}},
		{id: "xades-001-dss-signed-no-chain", value: []bool{true, true}},
		// The data reference was removed from SignedInfo: the value no
		// longer verifies.
		{id: "xades-002-ref-removed", value: []bool{true, false}},
		// Two elements carry the Id the reference names: signature wrapping.
		{id: "xades-004-xsw-fake-content-same-id", err: xmldsig.ErrDuplicateID},
		// The manifest's detached files are not supplied: not found.
		{id: "xades-006-xsw-fake-manifest", value: []bool{true, true}},
		{id: "xades-008-dss1788-certvalues-nopubkey", value: []bool{false, false}},
		{id: "xades-013-detached-no-content", value: []bool{true, true}, refs: []refState{
			{uri: "sample.xml"}, {uri: "#xades-id-98ecc9e805491a6e5fc46a7535708c97", found: true, intact: true}}},
		{id: "xades-014-detached-with-content", value: []bool{true, true}, refs: []refState{
			{uri: "sample.xml", found: true, intact: true}, {uri: "#xades-id-98ecc9e805491a6e5fc46a7535708c97", found: true, intact: true}}},
		{id: "xades-018-lta-valid-ocsp", value: []bool{true, true}, refs: []refState{
			{uri: "#o-id-2b8c4e0abe228103ebdb763c7937241c-1", found: true, intact: true}, {uri: "#xades-id-2b8c4e0abe228103ebdb763c7937241c", found: true, intact: true}}},
		// Altered DigestValues (one no longer base64): neither reference
		// is intact, and the value does not verify over the altered
		// SignedInfo.
		{id: "xades-031-tampered-reference", value: []bool{true, false}, refs: []refState{
			{uri: "#o-id-1", found: true}, {uri: "#xades-id-93ef2bbbf61754c3735a8f0d34aff556", found: true}}},
		// The manifest was altered after signing (its reference fails),
		// and in it sample.png's digest; the two other parts are intact.
		{id: "xades-032-tampered-manifest", value: []bool{true, true}, refs: []refState{
			{uri: "#manifest", found: true}, {uri: "#xades-id-0060e645e58b78bc6a82309e1ced6830", found: true, intact: true},
			{uri: "sample.png", manifest: true, found: true}, {uri: "sample.txt", manifest: true, found: true, intact: true},
			{uri: "sample.xml", manifest: true, found: true, intact: true}}},
		// ISO-8859-2, transcoded before parsing; the detached file it
		// signs is not in the corpus.
		{id: "xades-029-b-with-certvalues", value: []bool{true, true}, refs: []refState{
			{uri: "../../Data/ts_101903v010302p.txt"}, {uri: "#XS8aa4c85c-f351-433a-892a-3f6930a12397", found: true, intact: true}}},
		{id: "xades-034-unknown-digest-algo", value: []bool{true, false}, refs: []refState{
			{uri: "sample.xml", found: true, unchecked: xmldsig.ReasonUnsupportedDigest}, {uri: "#xades-id-b77fb3dd1db603d08222e0ba76b19b3c", found: true, intact: true}}},
		// The counter-signature is intact and valid as XMLDSig; what makes
		// it an attack is what it counter-signs (the reader's business).
		{id: "xades-035-injected-countersig", value: []bool{true, true, true, true}},
		{id: "xades-037-mra-john-doe-lta", value: []bool{true, true}},
		// No URI: the application supplies the data; none here.
		{id: "xades-039-sig-bundle-detached-digest", value: []bool{true, true}, refs: []refState{
			{uri: ""}, {uri: "#Signature_1394719008400_SignedProperties", found: true, intact: true}}},
	} {
		t.Run(tc.id, func(t *testing.T) {
			xc, ok := cases[tc.id]
			if !ok {
				t.Fatalf("%s is not in the corpus", tc.id)
			}
			_, checked, errs := xc.check(t)
			if tc.err != nil {
				if !errors.Is(errs[0], tc.err) {
					t.Fatalf("error %v, want %v", errs[0], tc.err)
				}
				return
			}
			var got []bool
			for i, c := range checked {
				if errs[i] != nil {
					t.Fatalf("signature %d: %v", i, errs[i])
				}
				got = append(got, c.Value.Done, c.Value.Valid)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.value) {
				t.Errorf("values (done, valid per signature) %v, want %v", got, tc.value)
			}
			if tc.refs == nil {
				for _, r := range checked[0].References {
					if r.Detached {
						continue
					}
					if !r.Found || !r.Intact || r.Unchecked != "" {
						t.Errorf("reference %q: found %v intact %v unchecked %q", r.URI, r.Found, r.Intact, r.Unchecked)
					}
				}
				return
			}
			var states []refState
			for _, r := range checked[0].References {
				states = append(states, refState{r.URI, r.Manifest != nil, r.Found, r.Intact, r.Unchecked})
			}
			if fmt.Sprint(states) != fmt.Sprint(tc.refs) {
				t.Errorf("references\n got %v\nwant %v", states, tc.refs)
			}
		})
	}
}

// TestCheckSignatureCorpusSummary logs every signature of every corpus
// XAdES file, for the reader: a file that cannot be checked at all fails.
func TestCheckSignatureCorpusSummary(t *testing.T) {
	cases := loadXAdESCases(t)
	for id, xc := range cases {
		_, checked, errs := xc.check(t)
		if checked == nil {
			t.Logf("%s: %v", id, errs)
		}
		for i, c := range checked {
			if errs[i] != nil {
				t.Logf("%s sig %d: error %v", id, i, errs[i])
				continue
			}
			t.Logf("%s sig %d: %s value %+v keyinfo %d", id, i, c.Algorithm, c.Value, len(c.KeyInfoCertificates))
			for _, r := range c.References {
				t.Logf("    ref %q type %q manifest %v detached %v name %q found %v intact %v unchecked %q", r.URI, r.Type, r.Manifest != nil, r.Detached, r.Name, r.Found, r.Intact, r.Unchecked)
			}
		}
	}
}

// TestCheckSignatureBrainpool: the DSS trusted list signed with ECDSA on
// brainpoolP256r1, which Verify cannot check (crypto/x509 does not read
// the key), verifies with CheckSignature, whose certificates are read by
// cert.Parse.
func TestCheckSignatureBrainpool(t *testing.T) {
	data := realworld.ReadTrust(t, "dss/tl/tl-ecdsa-brainpool.xml")
	tree, err := xmldsig.ParseDocument(data)
	if err != nil {
		t.Fatal(err)
	}
	sigs, err := xmldsig.Signatures(tree)
	if err != nil || len(sigs) != 1 {
		t.Fatalf("signatures: %d, %v", len(sigs), err)
	}
	c, err := xmldsig.CheckSignature(tree, sigs[0], xmldsig.CheckOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !c.Value.Valid || c.Signer == nil {
		t.Fatalf("value %+v, signer %v", c.Value, c.Signer != nil)
	}
	for _, r := range c.References {
		if !r.Found || !r.Intact {
			t.Errorf("reference %q: found %v intact %v unchecked %q", r.URI, r.Found, r.Intact, r.Unchecked)
		}
	}
	t.Logf("%s by %s (%T)", c.Algorithm, c.Signer.Subject.CommonName, c.Signer.PublicKey)
}

// TestXPathEquivalentsOfEnveloped: on real lists, the XPath forms of the
// enveloped-signature transform (XMLDSig 6.6.3's not(ancestor-or-self),
// its here() form, and an XPath Filter 2.0 subtract) digest what the
// enveloped-signature transform digests, so the signed reference stays
// intact when its transform is swapped for them. It also shows the step
// budget suffices for the largest list.
func TestXPathEquivalentsOfEnveloped(t *testing.T) {
	const enveloped = `<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>`
	for _, f := range []string{"dss/lotl/eu-lotl.xml", largestList(t)} {
		data := string(realworld.ReadTrust(t, f))
		if !strings.Contains(data, enveloped) {
			t.Fatalf("%s: no enveloped-signature transform written as expected", f)
		}
		for _, tr := range []string{
			`<ds:Transform Algorithm="` + xmldsig.TransformXPath + `"><ds:XPath>not(ancestor-or-self::ds:Signature)</ds:XPath></ds:Transform>`,
			`<ds:Transform Algorithm="` + xmldsig.TransformXPath + `"><ds:XPath>count(ancestor-or-self::ds:Signature | here()/ancestor::ds:Signature[1]) &gt; count(ancestor-or-self::ds:Signature)</ds:XPath></ds:Transform>`,
			`<ds:Transform Algorithm="` + xmldsig.TransformXPathFilter2 + `"><f:XPath xmlns:f="` + xmldsig.NamespaceXPathFilter2 + `" Filter="subtract">here()/ancestor::ds:Signature[1]</f:XPath></ds:Transform>`,
		} {
			doc := strings.Replace(data, enveloped, tr, 1)
			tree, err := xmldsig.ParseDocument([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			sigs, err := xmldsig.Signatures(tree)
			if err != nil || len(sigs) != 1 {
				t.Fatalf("%s: %d signatures, %v", f, len(sigs), err)
			}
			start := time.Now()
			c, err := xmldsig.CheckSignature(tree, sigs[0], xmldsig.CheckOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r := c.References[0]
			if !r.Intact || r.Unchecked != "" {
				t.Errorf("%s with %s: intact %v unchecked %q", f, tr, r.Intact, r.Unchecked)
			}
			t.Logf("%s (%d bytes), %.40s...: %v", f, len(doc), tr[len(`<ds:Transform Algorithm="`):], time.Since(start))
		}
	}
}

// largestList returns the largest list of the trust corpus's list cache.
func largestList(t *testing.T) string {
	dir := filepath.Join(realworld.Trust(t), "dss", "tl", "lotlCache")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	best, size := "", int64(0)
	for _, e := range entries {
		if info, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".xml") && info.Size() > size {
			best, size = e.Name(), info.Size()
		}
	}
	return filepath.ToSlash(filepath.Join("dss", "tl", "lotlCache", best))
}

// TestDiscardOctetsCorpus: with CheckOptions.DiscardOctets, each
// reference's canonical form is hashed as it is written instead of held;
// every reference of every corpus signature comes out the same, and
// without octets.
func TestDiscardOctetsCorpus(t *testing.T) {
	for _, xc := range loadXAdESCases(t) {
		tree, checked, errs := xc.check(t)
		if tree == nil {
			continue
		}
		sigs, err := xmldsig.Signatures(tree)
		if err != nil {
			t.Fatalf("%s: %v", xc.id, err)
		}
		for i, s := range sigs {
			c, err := xmldsig.CheckSignature(tree, s, xmldsig.CheckOptions{Resolve: xc.resolver(t), DiscardOctets: true})
			if (err == nil) != (errs[i] == nil) {
				t.Fatalf("%s signature %d: error %v, with octets kept %v", xc.id, i, err, errs[i])
			}
			if err != nil {
				continue
			}
			if len(c.References) != len(checked[i].References) || c.Value != checked[i].Value {
				t.Fatalf("%s signature %d: %d references, value %+v; with octets kept %d, %+v", xc.id, i, len(c.References), c.Value, len(checked[i].References), checked[i].Value)
			}
			for j, r := range c.References {
				k := checked[i].References[j]
				if r.Found != k.Found || r.Intact != k.Intact || r.Unchecked != k.Unchecked || r.Octets != nil {
					t.Errorf("%s signature %d reference %q: found %v intact %v unchecked %q octets %d; with octets kept %v %v %q",
						xc.id, i, r.URI, r.Found, r.Intact, r.Unchecked, len(r.Octets), k.Found, k.Intact, k.Unchecked)
				}
			}
		}
	}
}
