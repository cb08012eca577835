package xmldsig

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/fixtures/realworld"
)

// A scannedToken is a token as both tokenizers can report it, with the
// offsets encoding/xml's InputOffset gives before and after it.
type scannedToken struct {
	Kind       string
	Name       xml.Name
	Attr       []xml.Attr
	Text       string
	Start, End int
}

// decoderTokens returns the tokens encoding/xml's RawToken reads from the
// input the parser of data reads, as runDecoder sets it up, and the error
// that ended them (io.EOF at the end of the input).
func decoderTokens(p *parser) ([]scannedToken, error) {
	in := &tokenReader{data: p.data, maxText: p.lim.MaxTextBytes}
	dec := xml.NewDecoder(in)
	dec.Strict = true
	dec.CharsetReader = p.openCharset
	var toks []scannedToken
	for {
		start := int(dec.InputOffset())
		in.startToken(int64(start))
		tok, err := dec.RawToken()
		if err != nil {
			return toks, err
		}
		st := scannedToken{Start: start, End: int(dec.InputOffset())}
		switch t := tok.(type) {
		case xml.StartElement:
			st.Kind, st.Name, st.Attr = "start", t.Name, t.Attr
		case xml.EndElement:
			st.Kind, st.Name = "end", t.Name
		case xml.CharData:
			st.Kind, st.Text = "text", string(t)
		case nil:
			// An empty CDATA section before anything else in the
			// document comes back as no token at all (the decoder's
			// buffer is still nil); the parser skips both alike.
			st.Kind = "text"
		case xml.Comment:
			st.Kind, st.Text = "comment", string(t)
		case xml.ProcInst:
			st.Kind, st.Name.Local, st.Text = "procinst", t.Target, string(t.Inst)
		case xml.Directive:
			st.Kind, st.Text = "directive", string(t)
		}
		toks = append(toks, st)
	}
}

// scannerTokens returns the tokens the scanner reads from the parser's
// input, and io.EOF or errScannerDeclined.
func scannerTokens(p *parser) ([]scannedToken, error) {
	s := scanner{data: p.data, maxText: p.lim.MaxTextBytes, charsetOK: p.charsetOK}
	var toks []scannedToken
	for {
		if err := s.next(); err != nil {
			return toks, err
		}
		t := s.tok
		st := scannedToken{Start: t.start, End: t.end}
		switch t.kind {
		case tokStart:
			st.Kind, st.Name, st.Attr = "start", p.name(t.name), []xml.Attr{}
			for _, a := range t.attrs {
				st.Attr = append(st.Attr, xml.Attr{Name: p.name(a.name), Value: string(a.value)})
			}
		case tokEnd:
			st.Kind, st.Name = "end", p.name(t.name)
		case tokText:
			st.Kind, st.Text = "text", string(t.text)
		case tokComment:
			st.Kind, st.Text = "comment", string(t.text)
		case tokProcInst:
			st.Kind, st.Name.Local, st.Text = "procinst", string(t.name), string(t.text)
		}
		toks = append(toks, st)
	}
}

// checkScanner holds the scanner to encoding/xml on data, under lim:
//
//   - every token it reads before it ends or declines is the token
//     encoding/xml reads there, with the same offsets;
//   - when it reads to the end, encoding/xml reads the same tokens and no
//     error;
//   - ParseDocumentLimits (scanner first) and the decoder alone give the
//     same error, or trees that serialise and canonicalise alike.
//
// It reports whether the scanner read the whole input and the parser took
// it from the scanner.
func checkScanner(t testing.TB, data []byte, lim Limits) (scanned bool) {
	t.Helper()
	if p, err := newParser(data, lim); err == nil {
		want, decErr := decoderTokens(p)
		got, scanErr := scannerTokens(p)
		if len(got) > len(want) {
			t.Fatalf("scanner read %d tokens, encoding/xml %d then %v\nscanner: %+v\nencoding/xml: %+v", len(got), len(want), decErr, got, want)
		}
		for i := range got {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Fatalf("token %d:\nscanner:      %+v\nencoding/xml: %+v", i, got[i], want[i])
			}
		}
		if scanErr == io.EOF && (decErr != io.EOF || len(got) != len(want)) {
			t.Fatalf("scanner read to the end (%d tokens), encoding/xml %d then %v", len(got), len(want), decErr)
		}
		if scanErr != io.EOF && !errors.Is(scanErr, errScannerDeclined) {
			t.Fatalf("scanner ended with %v", scanErr)
		}
	}

	got, gotErr := ParseDocumentLimits(data, lim)
	want, wantErr := parseDecoderOnly(data, lim)
	if gotErr != nil || wantErr != nil {
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("ParseDocument: %v\nencoding/xml alone: %v", gotErr, wantErr)
		}
		return false
	}
	gotS, err := got.WriteToString()
	if err != nil {
		t.Fatal(err)
	}
	wantS, err := want.WriteToString()
	if err != nil {
		t.Fatal(err)
	}
	if gotS != wantS {
		t.Fatalf("trees differ:\nParseDocument:      %q\nencoding/xml alone: %q", gotS, wantS)
	}
	for _, method := range []string{C14N10WithComments, ExcC14N} {
		gotC, gotErr := CanonicalizeDocument(got, method, nil)
		wantC, wantErr := CanonicalizeDocument(want, method, nil)
		if !bytes.Equal(gotC, wantC) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("%s differs:\nParseDocument:      %q %v\nencoding/xml alone: %q %v", method, gotC, gotErr, wantC, wantErr)
		}
	}
	p, err := newParser(data, lim)
	if err != nil {
		t.Fatal(err)
	}
	return p.runScanner() == nil
}

// parseDecoderOnly is ParseDocumentLimits with encoding/xml alone: the
// parser as it was before the scanner.
func parseDecoderOnly(data []byte, lim Limits) (*etree.Document, error) {
	p, err := newParser(data, lim)
	if err != nil {
		return nil, err
	}
	if err := p.runDecoder(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// scannerCases are documents at the edges of what the scanner takes.
// scanned says whether the parser should take the document from the
// scanner (false: encoding/xml parses it, or refuses it).
var scannerCases = []struct {
	name    string
	doc     string
	scanned bool
}{
	{"minimal", `<a/>`, true},
	{"empty element pair", `<a></a>`, true},
	{"self-closing with space", `<a />`, true},
	{"self-closing in content", "<r>x<a/>y<b  c='1'/></r>", true},
	{"predefined entities", `<a>&lt;&gt;&amp;&apos;&quot;</a>`, true},
	{"entities in attributes", `<a b="&lt;&gt;&amp;&apos;&quot;"/>`, true},
	{"decimal char refs", `<a b="&#65;&#0009;">&#65;&#10;&#13;&#x10FFFF;</a>`, true},
	{"hex char refs", `<a>&#x41;&#xe9;&#XE9;</a>`, false},
	{"hex char ref upper digits", `<a>&#x4A;&#x00e9;</a>`, true},
	{"leading zeros", `<a>&#0000000065;&#x0000000041;</a>`, true},
	{"char ref to NUL", `<a>&#0;</a>`, false},
	{"char ref to a control", `<a>&#1;</a>`, false},
	{"char ref to a surrogate", `<a>&#xD800;</a>`, false},
	{"char ref to FFFE", `<a>&#xFFFE;</a>`, false},
	{"char ref beyond Unicode", `<a>&#x110000;</a>`, false},
	{"huge char ref", `<a>&#99999999999999999999999;</a>`, false},
	{"empty char ref", `<a>&#;</a>`, false},
	{"empty hex char ref", `<a>&#x;</a>`, false},
	{"char ref without semicolon", `<a>&#65</a>`, false},
	{"unknown entity", `<a>&nbsp;</a>`, false},
	{"entity without semicolon", `<a>&amp</a>`, false},
	{"bare ampersand", `<a>a & b</a>`, false},
	{"empty entity", `<a>&;</a>`, false},
	{"entity name run on", `<a>&amp.x;</a>`, false},
	{"CRLF in text", "<a>x\r\ny\rz\r\r\nw\n\r</a>", true},
	{"CRLF in attribute", "<a b=\"x\r\ny\rz\tw\nv\"/>", true},
	{"CR by reference in attribute", "<a b=\"x&#13;&#10;y&#9;\r\n\"/>", true},
	{"CR reference before LF", "<a>x&#13;\ny</a>", true},
	{"CRLF in comment", "<a><!-- x\r\ny --></a>", true},
	{"CRLF in PI", "<a><?p x\r\ny?></a>", true},
	{"CRLF in CDATA", "<a><![CDATA[x\r\ny\r]]></a>", true},
	{"CRLF between attributes", "<a\r\nb='1'\r\n\tc='2'\r\n/>", true},
	{"CDATA", `<a><![CDATA[<b>&amp;</b>]]></a>`, true},
	{"CDATA with brackets", `<a><![CDATA[]]]]><![CDATA[>]] ]>]]]></a>`, true},
	{"empty CDATA", `<a><![CDATA[]]></a>`, true},
	{"empty CDATA first", `<![CDATA[]]><a/>`, true},
	{"CDATA outside root", `<a/><![CDATA[ ]]>`, true},
	{"unterminated CDATA", `<a><![CDATA[x</a>`, false},
	{"]]> in text", `<a>x]]>y</a>`, false},
	{"]] > in text", `<a>x]] >y]]</a>`, true},
	{"]]> by reference", `<a>]]&gt;]&#93;></a>`, true},
	{"]]> in attribute", `<a b="]]>"/>`, true},
	{"> in text and attribute", `<a b=">">></a>`, true},
	{"< in attribute", `<a b="<"/>`, false},
	{"comment", `<a><!-- x - y --></a>`, true},
	{"empty comment", `<a><!----></a>`, true},
	{"comment with --", `<a><!-- x -- y --></a>`, false},
	{"comment ending --->", `<a><!-- x ---></a>`, false},
	{"comment <!-->", `<a><!-->--></a>`, true},
	{"comment <!--->", `<a><!--->--></a>`, true},
	{"unterminated comment", `<a><!-- x</a>`, false},
	{"<!- alone", `<a><!-x--></a>`, false},
	{"comment outside root", "<!--c-->\n<a/>\n<!--d-->", true},
	{"comment with invalid UTF-8", "<a><!--\xff\x00--></a>", true},
	{"PI", `<a><?target some data ?></a>`, true},
	{"PI no data", `<a><?t?><?u ?></a>`, true},
	{"PI question marks", `<a><?t ??><?u a?b>?></a>`, true},
	{"PI target with colons", `<a><?a:b:c d?></a>`, true},
	{"PI target run on", `<a><?t%x?></a>`, true},
	{"PI target missing", `<a><? t?></a>`, false},
	{"PI target xml-stylesheet", `<?xml-stylesheet href="a"?><a/>`, true},
	{"PI target XmL in content", `<a><?XmL x?></a>`, false},
	{"PI target xml in content", `<a><?xml version="1.0"?></a>`, false},
	{"unterminated PI", `<a><?t x</a>`, false},
	{"declaration", `<?xml version="1.0"?><a/>`, true},
	{"declaration UTF-8", `<?xml version="1.0" encoding="UTF-8"?>` + "\n<a/>", true},
	{"declaration utf-8 single quotes", `<?xml version='1.0' encoding='utf-8' standalone='yes'?><a/>`, true},
	{"declaration Utf-8", `<?xml version="1.0" encoding="Utf-8"?><a/>`, true},
	{"declaration utf8", `<?xml version="1.0" encoding="utf8"?><a/>`, true},
	{"declaration US-ASCII", `<?xml version="1.0" encoding="US-ASCII"?><a/>`, true},
	{"declaration ascii", `<?xml version="1.0" encoding="ascii"?><a/>`, true},
	{"declaration ISO-8859-1", `<?xml version="1.0" encoding="ISO-8859-1"?><a>` + "\xe9" + `</a>`, true},
	{"declaration windows-1252", `<?xml version="1.0" encoding="windows-1252"?><a>` + "\x80" + `</a>`, true},
	{"declaration UTF-16", `<?xml version="1.0" encoding="UTF-16"?><a/>`, false},
	{"declaration Shift_JIS", `<?xml version="1.0" encoding="Shift_JIS"?><a/>`, false},
	{"declaration version 1.1", `<?xml version="1.1"?><a/>`, false},
	{"declaration version spaced", `<?xml version = "1.1"?><a/>`, true},
	{"declaration version unquoted then quoted", `<?xml version=1.1 version="1.0"?><a/>`, true},
	{"declaration version=version=", `<?xml version=version="1.1"?><a/>`, true},
	{"declaration encoding unterminated", `<?xml version="1.0" encoding="UTF-16?><a/>`, true},
	{"declaration without version", `<?xml encoding="UTF-8"?><a/>`, true},
	{"declaration not first", ` <?xml version="1.0"?><a/>`, false},
	{"declaration upper case", `<?XML version="1.0"?><a/>`, true},
	{"declaration no space", `<?xml?><a/>`, true},
	{"BOM", "\xef\xbb\xbf<a/>", true},
	{"BOM and declaration", "\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"UTF-8\"?><a/>", true},
	{"two BOMs", "\xef\xbb\xbf\xef\xbb\xbf<a/>", false},
	{"UTF-16 BOM", "\xff\xfe<\x00a\x00/\x00>\x00", false},
	{"DOCTYPE", `<!DOCTYPE a><a/>`, false},
	{"billion laughs", `<!DOCTYPE a [<!ENTITY l "ha"><!ENTITY l2 "&l;&l;">]><a>&l2;</a>`, false},
	{"prefixed names", `<p:a xmlns:p="u" p:b="1"><p:c/></p:a>`, true},
	{"xml prefix", `<a xml:lang="en" xml:space="preserve"/>`, true},
	{"colon first", `<:a/>`, false},
	{"colon last", `<a:/>`, false},
	{"colon alone", `<a :="1"/>`, false},
	{"two colons", `<a:b:c/>`, false},
	{"two colons in attribute", `<a b:c:d="1"/>`, false},
	{"unbound prefix", `<p:a/>`, false},
	{"mismatched end tag", `<a></b>`, false},
	{"end tag with space", "<a></a \r\n\t>", true},
	{"end tag space before name", `<a></ a>`, false},
	{"names with digits, dots, dashes", `<a-1.b_2 c.d-3="1"/>`, true},
	{"name starting with digit", `<1a/>`, false},
	{"name starting with dash", `<a><-b/></a>`, false},
	{"non-ASCII element name", `<é/>`, false},
	{"non-ASCII name after ASCII", `<aé b="1"/>`, false},
	{"non-ASCII attribute name", `<a bé="1"/>`, false},
	{"non-ASCII text", `<a b="é€😀">é€😀</a>`, true},
	{"U+FFFD literally", "<a>\xef\xbf\xbd</a>", true},
	{"U+FFFE literally", "<a>\xef\xbf\xbe</a>", false},
	{"encoded surrogate", "<a>\xed\xa0\x80</a>", false},
	{"invalid UTF-8 in text", "<a>\xff</a>", false},
	{"invalid UTF-8 in attribute", "<a b=\"\xc3\"/>", false},
	{"truncated UTF-8 before reference", "<a>\xc3&#xa9;</a>", false},
	{"control character", "<a>\x01</a>", false},
	{"NUL", "<a>\x00</a>", false},
	{"DEL", "<a>\x7f</a>", true},
	{"whitespace around =", "<a b \t\r\n= \n'1' c\n=\"2\"/>", true},
	{"no space between attributes", `<a b="1"c='2'/>`, true},
	{"quotes inside values", `<a b="it's" c='say "x"'/>`, true},
	{"unquoted value", `<a b=1/>`, false},
	{"attribute without value", `<a b/>`, false},
	{"repeated attribute", `<a b="1" b="2"/>`, false},
	{"repeated expanded name", `<a xmlns:p="u" xmlns:q="u" p:b="1" q:b="2"/>`, false},
	{"/ not before >", `<a / >`, false},
	{"text outside root", `<a/>x`, false},
	{"two roots", `<a/><b/>`, false},
	{"no root", ` `, false},
	{"empty", ``, false},
	{"unclosed", `<a>`, false},
	{"< at the end", `<a/><`, false},
	{"trailing white space", "<a/>\r\n \t", true},
	{"text to the end", "<a>x</a>\n\n", true},
	{"namespace declarations", `<a xmlns="u" xmlns:p="v"><p:b xmlns=""/></a>`, true},
	{"xmlns prefix declared", `<a xmlns:xmlns="u"/>`, false},
	{"prefix undeclared", `<a xmlns:p=""/>`, false},
}

func TestScannerEdgeCases(t *testing.T) {
	t.Parallel()
	for _, tt := range scannerCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := checkScanner(t, []byte(tt.doc), Limits{}); got != tt.scanned {
				t.Errorf("scanned = %v, want %v", got, tt.scanned)
			}
		})
	}
}

// The scanner leaves a token at or over a limit to encoding/xml, which
// accepts or refuses it as before; the whole parse stays fast.
func TestScannerLimits(t *testing.T) {
	t.Parallel()
	lim := Limits{MaxTextBytes: 10}
	tests := []struct {
		name string
		doc  string
	}{
		{"text at the limit", `<a>1234567890</a>`},
		{"text over the limit", `<a>12345678901</a>`},
		{"text just under", `<a>123456789</a>`},
		{"comment over the limit", `<a><!--1234--></a>`},
		{"comment under", `<a><!--12--></a>`},
		{"CDATA over the limit", `<a><![CDATA[1]]></a>`},
		{"PI over the limit", `<a><?p 12345?></a>`},
		{"trailing text", "<a/>          "},
		{"trailing text over", "<a/>           "},
		{"tag at MaxTagBytes", `<a` + strings.Repeat(" ", MaxTagBytes-4) + `/>`},
		{"tag at MaxTagBytes+1", `<a` + strings.Repeat(" ", MaxTagBytes-3) + `/>`},
		{"tag at MaxTagBytes+2", `<a` + strings.Repeat(" ", MaxTagBytes-2) + `/>`},
		{"end tag at MaxTagBytes+1", `<a></a` + strings.Repeat(" ", MaxTagBytes-3) + `>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			checkScanner(t, []byte(tt.doc), lim)
		})
	}
	// A limit so high that tokenReader's bound overflows.
	for _, n := range []int{math.MaxInt, math.MaxInt - 3, math.MaxInt - 4} {
		checkScanner(t, []byte(`<a>x<!--c--><?p?><![CDATA[d]]></a>`), Limits{MaxTextBytes: n})
	}
}

// scannerSeeds returns the documents the fuzz target starts from: the edge
// cases, the inputs the package's other fuzz targets keep in testdata, and
// the small XML files of testdata and the corpus.
func scannerSeeds(tb testing.TB) [][]byte {
	var seeds [][]byte
	for _, c := range scannerCases {
		seeds = append(seeds, []byte(c.doc))
	}
	kept, err := filepath.Glob(filepath.Join("testdata", "fuzz", "*", "*"))
	if err != nil {
		tb.Fatal(err)
	}
	for _, path := range kept {
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		// A kept input is "go test fuzz v1" and a line per argument;
		// the byte-slice ones are documents.
		for _, line := range strings.Split(string(data), "\n") {
			lit, ok := strings.CutPrefix(line, "[]byte(")
			if !ok || !strings.HasSuffix(lit, ")") {
				continue
			}
			if doc, err := strconv.Unquote(strings.TrimSuffix(lit, ")")); err == nil {
				seeds = append(seeds, []byte(doc))
			}
		}
	}
	for _, path := range corpusXML(tb) {
		if fi, err := os.Stat(path); err != nil || fi.Size() > 64<<10 {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	return seeds
}

// corpusXML returns the XML files of the package's testdata and of the
// shared corpus, when it is there.
func corpusXML(tb testing.TB) []string {
	tb.Helper()
	var paths []string
	for _, root := range []string{"testdata", realworld.Dir()} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(strings.ToLower(path), ".xml") {
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			tb.Fatal(err)
		}
	}
	return paths
}

// Every XML file of the corpus parses alike with and without the scanner,
// and the scanner takes the signed documents whole.
func TestScannerCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("parses the whole corpus twice")
	}
	t.Parallel()
	paths := corpusXML(t)
	if len(paths) == 0 {
		t.Skip("no corpus")
	}
	declined := 0
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !checkScanner(t, data, Limits{}) {
			declined++
			t.Logf("%s: left to encoding/xml", path)
		}
	}
	t.Logf("%d of %d files left to encoding/xml", declined, len(paths))
}

// FuzzTokenizer holds the scanner to encoding/xml on arbitrary input: the
// tokens it reads are encoding/xml's, with the same offsets, and the parser
// builds the same tree or gives the same error with or without it.
func FuzzTokenizer(f *testing.F) {
	for _, s := range scannerSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScanner(t, data, Limits{})
		checkScanner(t, data, Limits{MaxTextBytes: 16})
	})
}
