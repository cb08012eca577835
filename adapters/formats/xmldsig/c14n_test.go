package xmldsig_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// c14nCases are whole documents for the rules canonical XML is fussy about.
// The expected forms are libxml2's (xmllint --c14n / --exc-c14n / --c14n11);
// TestCanonicalizeCasesMatchXmllint re-checks them against xmllint. C14N 1.0
// and 1.1 agree on all of them (they differ only on document subsets).
var c14nCases = []c14nCase{
	{
		name: "attribute order: namespace declarations by prefix, then attributes by namespace URI and local name",
		in:   `<doc xmlns:b="http://www.ietf.org" xmlns:a="http://www.w3.org" xmlns="http://example.org"><e5 a:attr="out" b:attr="sorted" attr2="all" attr="I&apos;m" xml:lang="en" xmlns:b="http://www.ietf.org" xmlns:a="http://www.w3.org"/></doc>`,
		incl: `<doc xmlns="http://example.org" xmlns:a="http://www.w3.org" xmlns:b="http://www.ietf.org"><e5 attr="I'm" attr2="all" b:attr="sorted" a:attr="out" xml:lang="en"></e5></doc>`,
		exc:  `<doc xmlns="http://example.org"><e5 xmlns:a="http://www.w3.org" xmlns:b="http://www.ietf.org" attr="I'm" attr2="all" b:attr="sorted" a:attr="out" xml:lang="en"></e5></doc>`,
	},
	{
		name: "text escaping: & < > and CR as references, CDATA as text",
		in:   `<doc>&amp; &lt; &gt; " ' &#13; &#x20AC;<![CDATA[<&>]]></doc>`,
		incl: `<doc>&amp; &lt; &gt; " ' &#xD; €&lt;&amp;&gt;</doc>`,
	},
	{
		name: "attribute escaping: & < \" and TAB LF CR as references",
		in:   `<doc a="&amp; &lt; &gt; &quot; '" b="x&#9;y&#10;z&#13;w" c='"'/>`,
		incl: `<doc a="&amp; &lt; > &quot; '" b="x&#x9;y&#xA;z&#xD;w" c="&quot;"></doc>`,
	},
	{
		name: "attribute-value normalisation: literal white space becomes a space, references stay",
		in:   "<doc a=\"tab\tnewline\ncrlf\r\ncr\rref&#13;&#10;end\"/>",
		incl: `<doc a="tab newline crlf cr ref&#xD;&#xA;end"></doc>`,
	},
	{
		name: "line ends: CR LF and CR become LF, a referenced CR stays",
		in:   "<doc>a\r\nb\rc\nd&#13;&#10;e</doc>",
		incl: "<doc>a\nb\nc\nd&#xD;\ne</doc>",
	},
	{
		name:       "PIs and comments outside the root element, XML declaration dropped",
		in:         `<?xml version="1.0"?><?pi-before data  ?><!-- before --><doc><?pi-in?><!--in--></doc><!-- after --><?pi-after x?>`,
		incl:       "<?pi-before data  ?>\n<!-- before -->\n<doc><?pi-in?><!--in--></doc>\n<!-- after -->\n<?pi-after x?>",
		noComments: "<?pi-before data  ?>\n<doc><?pi-in?></doc>\n<?pi-after x?>",
	},
	{
		name: "white space outside the root element dropped, inside kept",
		in:   "\n  <doc>  <a>\t</a>  </doc>  \n",
		incl: "<doc>  <a>\t</a>  </doc>",
	},
	{
		name: "empty elements as start and end tag",
		in:   `<doc><a/><b></b><c x="1"/></doc>`,
		incl: `<doc><a></a><b></b><c x="1"></c></doc>`,
	},
	{
		name: "default namespace undeclaration kept where it undoes a default",
		in:   `<doc xmlns="http://u"><a xmlns=""><b xmlns=""/><c xmlns="http://u"/></a></doc>`,
		incl: `<doc xmlns="http://u"><a xmlns=""><b></b><c xmlns="http://u"></c></a></doc>`,
	},
	{
		name: "superfluous xmlns=\"\" removed",
		in:   `<doc><a xmlns=""><b xmlns=""/></a></doc>`,
		incl: `<doc><a><b></b></a></doc>`,
	},
	{
		name: "superfluous prefix declaration removed, rebinding kept",
		in:   `<doc xmlns:p="http://p"><p:a xmlns:p="http://p"><p:b xmlns:p="http://q"/></p:a></doc>`,
		incl: `<doc xmlns:p="http://p"><p:a><p:b xmlns:p="http://q"></p:b></p:a></doc>`,
		exc:  `<doc><p:a xmlns:p="http://p"><p:b xmlns:p="http://q"></p:b></p:a></doc>`,
	},
	{
		name: "exclusive: declarations move to where they are visibly utilised",
		in:   `<doc xmlns:p="http://p" xmlns:q="http://q"><a q:x="1"><p:b/></a></doc>`,
		incl: `<doc xmlns:p="http://p" xmlns:q="http://q"><a q:x="1"><p:b></p:b></a></doc>`,
		exc:  `<doc><a xmlns:q="http://q" q:x="1"><p:b xmlns:p="http://p"></p:b></a></doc>`,
	},
	{
		name: "DOCTYPE dropped",
		in:   "<!DOCTYPE doc>\n<doc/>",
		incl: `<doc></doc>`,
	},
	{
		name: "UTF-8 byte order mark dropped",
		in:   "\ufeff<doc>\u00e9</doc>",
		incl: "<doc>\u00e9</doc>",
	},
	{
		name: "xml:* attributes sort in the XML namespace and are never declared",
		in:   `<doc xml:lang="en" xmlns:z="http://a"><a xml:space="preserve" z:b="1" b="2" xml:lang="fr"/></doc>`,
		incl: `<doc xmlns:z="http://a" xml:lang="en"><a b="2" z:b="1" xml:lang="fr" xml:space="preserve"></a></doc>`,
		exc:  `<doc xml:lang="en"><a xmlns:z="http://a" b="2" z:b="1" xml:lang="fr" xml:space="preserve"></a></doc>`,
	},
}

type c14nCase struct {
	name string
	in   string
	incl string // C14N10WithComments and C14N11WithComments
	exc  string // ExcC14NWithComments, when it differs from incl
	// noComments is the form without comments, for inclusive and exclusive
	// alike, when the document has comments.
	noComments string
}

func (c c14nCase) want(method string) string {
	comments := strings.HasSuffix(method, "WithComments")
	exclusive := method == xmldsig.ExcC14N || method == xmldsig.ExcC14NWithComments
	switch {
	case !comments && c.noComments != "":
		return c.noComments
	case exclusive && c.exc != "":
		return c.exc
	}
	return c.incl
}

var allMethods = []string{xmldsig.C14N10, xmldsig.C14N10WithComments, xmldsig.C14N11, xmldsig.C14N11WithComments, xmldsig.ExcC14N, xmldsig.ExcC14NWithComments}

func TestCanonicalizeCases(t *testing.T) {
	for _, c := range c14nCases {
		for _, method := range allMethods {
			t.Run(c.name+"/"+method, func(t *testing.T) {
				is := is.New(t)
				doc, err := xmldsig.ParseDocument([]byte(c.in))
				is.NoErr(err)
				got, err := xmldsig.CanonicalizeDocument(doc, method, nil)
				is.NoErr(err)
				is.Equal(string(got), c.want(method))
			})
		}
	}
}

// TestCanonicalizeCasesMatchXmllint keeps the expectations above honest.
func TestCanonicalizeCasesMatchXmllint(t *testing.T) {
	xmllint := requireTool(t, "xmllint")
	dir := t.TempDir()
	for i, c := range c14nCases {
		path := filepath.Join(dir, "case"+strings.Repeat("x", i)+".xml")
		if err := os.WriteFile(path, []byte(c.in), 0o600); err != nil {
			t.Fatal(err)
		}
		for flag, method := range map[string]string{"--c14n": xmldsig.C14N10WithComments, "--exc-c14n": xmldsig.ExcC14NWithComments, "--c14n11": xmldsig.C14N11WithComments} {
			out, stderr, err := run(t, xmllint, flag, path)
			if err != nil {
				t.Errorf("%s: xmllint %s: %v %s", c.name, flag, err, stderr)
				continue
			}
			if string(out) != c.want(method) {
				t.Errorf("%s: xmllint %s gives %q, the case expects %q", c.name, flag, out, c.want(method))
			}
		}
	}
}

// subsetDoc has everything a document subset inherits: a default and a
// prefixed namespace, an unused namespace, xml:* attributes on the omitted
// root, a comment inside the subset.
const subsetDoc = `<r xmlns="http://u" xmlns:p="http://v" xml:lang="en" xml:space="preserve" xml:id="x">` +
	`<p:s Id="s" xmlns:q="http://w"><t>hi<!--c--></t></p:s><a xmlns=""><b/></a></r>`

// TestCanonicalizeSubset checks the apex of a document subset. The expected
// forms for p:s are xmlsec1's pre-digest data for references to "#s"
// (see TestVerifyAcceptsXmlsec1Signatures for the same rules checked live).
func TestCanonicalizeSubset(t *testing.T) {
	for _, tc := range []struct {
		name     string
		apex     string
		method   string
		prefixes []string
		want     string
	}{
		{"C14N 1.0 inherits namespaces and all xml:* attributes", "s", xmldsig.C14N10, nil,
			`<p:s xmlns="http://u" xmlns:p="http://v" xmlns:q="http://w" Id="s" xml:id="x" xml:lang="en" xml:space="preserve"><t>hi</t></p:s>`},
		{"with comments", "s", xmldsig.C14N10WithComments, nil,
			`<p:s xmlns="http://u" xmlns:p="http://v" xmlns:q="http://w" Id="s" xml:id="x" xml:lang="en" xml:space="preserve"><t>hi<!--c--></t></p:s>`},
		{"C14N 1.1 inherits xml:lang and xml:space, not xml:id", "s", xmldsig.C14N11, nil,
			`<p:s xmlns="http://u" xmlns:p="http://v" xmlns:q="http://w" Id="s" xml:lang="en" xml:space="preserve"><t>hi</t></p:s>`},
		{"exclusive renders only what is used, where it is used", "s", xmldsig.ExcC14N, nil,
			`<p:s xmlns:p="http://v" Id="s"><t xmlns="http://u">hi</t></p:s>`},
		{"exclusive with an InclusiveNamespaces PrefixList", "s", xmldsig.ExcC14N, []string{"q", "#default"},
			`<p:s xmlns="http://u" xmlns:p="http://v" xmlns:q="http://w" Id="s"><t>hi</t></p:s>`},
		{"exclusive ignores list prefixes not in scope", "s", xmldsig.ExcC14N, []string{"zz"},
			`<p:s xmlns:p="http://v" Id="s"><t xmlns="http://u">hi</t></p:s>`},
		{"inclusive apex: in-scope prefixes, but no xmlns=\"\" without output ancestors", "a", xmldsig.C14N10, nil,
			`<a xmlns:p="http://v" xml:id="x" xml:lang="en" xml:space="preserve"><b></b></a>`},
		{"no xmlns=\"\" on an apex without output ancestors (exclusive)", "a", xmldsig.ExcC14N, nil,
			`<a><b></b></a>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			doc, err := xmldsig.ParseDocument([]byte(subsetDoc))
			is.NoErr(err)
			var apex = doc.FindElement("//*[@Id='" + tc.apex + "']")
			if tc.apex == "a" {
				apex = doc.Root().SelectElement("a")
			}
			is.True(apex != nil)
			got, err := xmldsig.Canonicalize(apex, tc.method, tc.prefixes)
			is.NoErr(err)
			is.Equal(string(got), tc.want)
		})
	}
}

func TestCanonicalizeRefuses(t *testing.T) {
	is := is.New(t)
	doc, err := xmldsig.ParseDocument([]byte(`<r xml:base="http://example.org/dir/"><s/></r>`))
	is.NoErr(err)
	_, err = xmldsig.Canonicalize(doc.Root().SelectElement("s"), xmldsig.C14N11, nil)
	is.True(errors.Is(err, xmldsig.ErrUnsupported)) // xml:base fix-up not implemented
	_, err = xmldsig.Canonicalize(doc.Root().SelectElement("s"), xmldsig.C14N10, nil)
	is.NoErr(err) // 1.0 simply inherits xml:base
	_, err = xmldsig.CanonicalizeDocument(doc, "http://www.w3.org/TR/1999/REC-xslt-19991116", nil)
	is.True(errors.Is(err, xmldsig.ErrUnsupported))
}

func TestParseDocumentRefuses(t *testing.T) {
	deep := strings.Repeat("<a>", xmldsig.MaxDepth+1) + strings.Repeat("</a>", xmldsig.MaxDepth+1)
	for _, tc := range []struct {
		name, in string
		want     error
	}{
		{"empty", "", xmldsig.ErrMalformedXML},
		{"unclosed", "<a>", xmldsig.ErrMalformedXML},
		{"mismatched", "<a></b>", xmldsig.ErrMalformedXML},
		{"two roots", "<a/><b/>", xmldsig.ErrMalformedXML},
		{"text after root", "<a/>text", xmldsig.ErrMalformedXML},
		{"unbound element prefix", "<p:a/>", xmldsig.ErrMalformedXML},
		{"unbound attribute prefix", `<a p:x="1"/>`, xmldsig.ErrMalformedXML},
		{"attribute name not a QName", `<a :="0"/>`, xmldsig.ErrMalformedXML},
		{"element name not a QName", `<a:/>`, xmldsig.ErrMalformedXML},
		{"repeated attribute", `<a x="1" x="2"/>`, xmldsig.ErrMalformedXML},
		{"repeated expanded attribute", `<a xmlns:p="http://p" xmlns:q="http://p" p:x="1" q:x="2"/>`, xmldsig.ErrMalformedXML},
		{"prefix undeclaration", `<a xmlns:p=""/>`, xmldsig.ErrMalformedXML},
		{"xml prefix rebound", `<a xmlns:xml="http://x"/>`, xmldsig.ErrMalformedXML},
		{"undefined entity", `<a>&nbsp;</a>`, xmldsig.ErrMalformedXML},
		{"EBCDIC", `<?xml version="1.0" encoding="IBM037"?><a/>`, xmldsig.ErrUnsupported},
		{"UTF-16", "\xff\xfe<\x00a\x00/\x00>\x00", xmldsig.ErrUnsupported},
		{"too deep", deep, xmldsig.ErrLimitExceeded},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			_, err := xmldsig.ParseDocument([]byte(tc.in))
			is.True(errors.Is(err, tc.want))
		})
	}
}

// TestCanonicalizeSingleByteEncodings: a document declared ISO-8859-x or
// windows-125x is read in that encoding and canonicalised in UTF-8, as
// libxml2 does (attribute normalisation included).
func TestCanonicalizeSingleByteEncodings(t *testing.T) {
	xmllint := requireTool(t, "xmllint")
	for _, doc := range []string{
		"<?xml version=\"1.0\" encoding=\"ISO-8859-2\"?>\n<a b=\"\xb1\xe9\tx\">\xb1\xe9 &#xE9;</a>",
		"<?xml version='1.0' encoding='iso-8859-1' standalone='yes'?><a>caf\xe9<b c='\xff'/></a>",
		"<?xml version=\"1.0\" encoding=\"windows-1252\"?><a>\x80 \x93q\x94</a>",
	} {
		path := filepath.Join(t.TempDir(), "doc.xml")
		if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		want, stderr, err := run(t, xmllint, "--c14n", path)
		if err != nil {
			t.Fatalf("xmllint: %v\n%s", err, stderr)
		}
		tree, err := xmldsig.ParseDocument([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		got, err := xmldsig.CanonicalizeDocument(tree, xmldsig.C14N10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%q\n got %q\nwant %q", doc, got, want)
		}
	}
}
