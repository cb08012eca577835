package xmldsig_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// TestCanonicalizeCorpusAgainstLibxml2 canonicalises every corpus XML file
// with the three algorithms, with and without comments, and compares the
// bytes to libxml2's (xmllint --c14n, --exc-c14n, --c14n11).
//
// xmllint always keeps comments. The expected form without comments is
// derived from its output by deleting the comment nodes: in canonical XML "<"
// is escaped everywhere except in markup, so "<!--" can only start a comment,
// and comments outside the root element carry exactly one line feed.
func TestCanonicalizeCorpusAgainstLibxml2(t *testing.T) {
	files := corpusXMLFiles(t)
	xmllint := requireTool(t, "xmllint")

	methods := []struct {
		flag                    string
		withComments, noComment string
	}{
		{"--c14n", xmldsig.C14N10WithComments, xmldsig.C14N10},
		{"--exc-c14n", xmldsig.ExcC14NWithComments, xmldsig.ExcC14N},
		{"--c14n11", xmldsig.C14N11WithComments, xmldsig.C14N11},
	}
	var compared, identical, unparsable atomic.Int64
	var mu sync.Mutex
	var mismatches []string

	t.Run("files", func(t *testing.T) {
		for _, rel := range files {
			t.Run(rel, func(t *testing.T) {
				t.Parallel()
				path := filepath.Join(corpusDir, rel)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				doc, perr := xmldsig.ParseDocument(data)
				for _, m := range methods {
					want, stderr, lerr := run(t, xmllint, m.flag, path)
					if lerr != nil {
						// libxml2 refuses the file: so must we.
						if perr == nil {
							t.Errorf("xmllint %s fails (%s) but ParseDocument accepts", m.flag, firstLine(stderr))
						}
						unparsable.Add(1)
						continue
					}
					if perr != nil {
						t.Fatalf("ParseDocument: %v (xmllint accepts)", perr)
					}
					for _, c := range []struct {
						method string
						want   []byte
					}{
						{m.withComments, want},
						{m.noComment, stripComments(want)},
					} {
						got, err := xmldsig.CanonicalizeDocument(doc, c.method, nil)
						if err != nil {
							t.Fatalf("%s: %v", c.method, err)
						}
						compared.Add(1)
						if !bytes.Equal(got, c.want) {
							mu.Lock()
							mismatches = append(mismatches, rel+" "+c.method)
							mu.Unlock()
							t.Errorf("%s differs from xmllint %s %s", c.method, m.flag, firstDiff(got, c.want))
							continue
						}
						identical.Add(1)
					}
				}
			})
		}
	})
	t.Logf("c14n vs libxml2: %d files x 6 methods: %d comparisons, %d byte-identical, %d mismatches; %d (file, flag) pairs not parsable by either",
		len(files), compared.Load(), identical.Load(), len(mismatches), unparsable.Load())
}

// stripComments deletes the comment nodes from a canonical document. Before
// the root element each node is followed by a line feed, after it preceded
// by one. "--" cannot occur inside a comment, so "<!--" never does either.
func stripComments(c14n []byte) []byte {
	var prolog []byte
	for {
		switch {
		case bytes.HasPrefix(c14n, []byte("<?")):
			end := bytes.Index(c14n, []byte("?>\n")) + 3
			prolog, c14n = append(prolog, c14n[:end]...), c14n[end:]
			continue
		case bytes.HasPrefix(c14n, []byte("<!--")):
			c14n = c14n[bytes.Index(c14n, []byte("-->\n"))+4:]
			continue
		}
		break
	}
	var epilog []byte
	for {
		switch {
		case bytes.HasSuffix(c14n, []byte("?>")):
			start := bytes.LastIndex(c14n, []byte("\n<?"))
			epilog, c14n = append(bytes.Clone(c14n[start:]), epilog...), c14n[:start]
			continue
		case bytes.HasSuffix(c14n, []byte("-->")):
			c14n = c14n[:bytes.LastIndex(c14n, []byte("\n<!--"))]
			continue
		}
		break
	}
	body := anyComment.ReplaceAll(c14n, nil)
	return append(append(prolog, body...), epilog...)
}

var anyComment = regexp.MustCompile(`<!--(?s:.*?)-->`)

func TestStripComments(t *testing.T) {
	is := is.New(t)
	in := "<?a?>\n<!--x-->\n<?b c?>\n<!--y-->\n<r><!--z-->t</r>\n<!--w-->\n<?d?>\n<!--v-->"
	is.Equal(string(stripComments([]byte(in))), "<?a?>\n<?b c?>\n<r>t</r>\n<?d?>")
}

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}
