package asic

import (
	"bytes"
	"crypto"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"

	"github.com/antchfx/xmlquery"
)

// Namespaces of the container XML.
const (
	nsASiC    = "http://uri.etsi.org/02918/v1.2.1#"
	nsDS      = "http://www.w3.org/2000/09/xmldsig#"
	nsODFMani = "urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"
)

// errXML reports container XML that is not read: over a limit, with a
// DTD, malformed, or not the element expected.
var errXML = errors.New("asic: container XML")

// parseXML parses container XML nobody canonicalises with xmlquery: a
// DTD (DOCTYPE or ENTITY declaration) is refused before parsing, as are
// documents over MaxXMLSize, MaxXMLElements or MaxXMLDepth.
func parseXML(data []byte) (*xmlquery.Node, error) {
	if len(data) > MaxXMLSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", errXML, MaxXMLSize)
	}
	if bytes.Contains(data, []byte("<!DOCTYPE")) || bytes.Contains(data, []byte("<!ENTITY")) {
		return nil, fmt.Errorf("%w: a DTD is not allowed", errXML)
	}
	doc, err := xmlquery.Parse(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%w: %w", errXML, err)
	}
	elements := 0
	var walk func(n *xmlquery.Node, depth int) error
	walk = func(n *xmlquery.Node, depth int) error {
		if depth > MaxXMLDepth {
			return fmt.Errorf("%w: nested deeper than %d", errXML, MaxXMLDepth)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != xmlquery.ElementNode {
				continue
			}
			if elements++; elements > MaxXMLElements {
				return fmt.Errorf("%w: more than %d elements", errXML, MaxXMLElements)
			}
			if err := walk(c, depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(doc, 0); err != nil {
		return nil, err
	}
	return doc, nil
}

// root returns the document element of doc.
func root(doc *xmlquery.Node) *xmlquery.Node {
	for c := doc.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == xmlquery.ElementNode {
			return c
		}
	}
	return nil
}

func is(n *xmlquery.Node, ns, local string) bool {
	return n != nil && n.Type == xmlquery.ElementNode && n.NamespaceURI == ns && n.Data == local
}

func children(n *xmlquery.Node, ns, local string) []*xmlquery.Node {
	var out []*xmlquery.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if is(c, ns, local) {
			out = append(out, c)
		}
	}
	return out
}

func attr(n *xmlquery.Node, local string) string {
	for _, a := range n.Attr {
		if a.Name.Local == local && (a.NamespaceURI == "" || a.NamespaceURI == n.NamespaceURI) {
			return a.Value
		}
	}
	return ""
}

// A manifest is an ASiCManifest or ASiCArchiveManifest (EN 319 162-1,
// A.4 and A.5): the signature or time-stamp it is the signed data of,
// and the container files it names with their digests.
type manifest struct {
	name    string // the manifest's entry name
	data    []byte // its bytes, what the signature or time-stamp covers
	sigRef  string // SigReference URI
	entries []manifestEntry
}

// A manifestEntry is one DataObjectReference.
type manifestEntry struct {
	uri       string
	algorithm string // the DigestMethod URI
	digest    []byte
}

// parseManifest reads an ASiCManifest or ASiCArchiveManifest.
func parseManifest(name string, data []byte) (*manifest, error) {
	doc, err := parseXML(data)
	if err != nil {
		return nil, err
	}
	want := "ASiCManifest"
	r := root(doc)
	if !is(r, nsASiC, want) {
		return nil, fmt.Errorf("%w: the root element is not asic:%s", errXML, want)
	}
	m := &manifest{name: name, data: data}
	refs := children(r, nsASiC, "SigReference")
	if len(refs) != 1 {
		return nil, fmt.Errorf("%w: %d SigReference elements, not one", errXML, len(refs))
	}
	m.sigRef = attr(refs[0], "URI")
	for _, dor := range children(r, nsASiC, "DataObjectReference") {
		e := manifestEntry{uri: attr(dor, "URI")}
		if dm := children(dor, nsDS, "DigestMethod"); len(dm) == 1 {
			e.algorithm = attr(dm[0], "Algorithm")
		}
		if dv := children(dor, nsDS, "DigestValue"); len(dv) == 1 {
			v, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(dv[0].InnerText()), ""))
			if err != nil {
				return nil, fmt.Errorf("%w: DataObjectReference %q: digest value not base64", errXML, e.uri)
			}
			e.digest = v
		}
		if e.uri == "" || e.algorithm == "" || e.digest == nil {
			return nil, fmt.Errorf("%w: DataObjectReference %q without a URI, a DigestMethod or a DigestValue", errXML, e.uri)
		}
		m.entries = append(m.entries, e)
	}
	return m, nil
}

// parseODFManifest reads META-INF/manifest.xml (OpenDocument 1.2 part 3,
// 4, as ASiC-E uses it): the full paths of its file entries, the root
// entry "/" excluded.
func parseODFManifest(data []byte) ([]string, error) {
	doc, err := parseXML(data)
	if err != nil {
		return nil, err
	}
	r := root(doc)
	if !is(r, nsODFMani, "manifest") {
		return nil, fmt.Errorf("%w: the root element is not manifest:manifest", errXML)
	}
	var out []string
	for _, fe := range children(r, nsODFMani, "file-entry") {
		if p := attr(fe, "full-path"); p != "" && p != "/" {
			out = append(out, p)
		}
	}
	return out, nil
}

// digestHash maps an XML digest algorithm URI to its hash; 0 when
// unknown.
func digestHash(uri string) crypto.Hash {
	switch uri {
	case "http://www.w3.org/2000/09/xmldsig#sha1":
		return crypto.SHA1
	case "http://www.w3.org/2001/04/xmldsig-more#sha224":
		return crypto.SHA224
	case "http://www.w3.org/2001/04/xmlenc#sha256":
		return crypto.SHA256
	case "http://www.w3.org/2001/04/xmldsig-more#sha384":
		return crypto.SHA384
	case "http://www.w3.org/2001/04/xmlenc#sha512":
		return crypto.SHA512
	case "http://www.w3.org/2007/05/xmldsig-more#sha3-224":
		return crypto.SHA3_224
	case "http://www.w3.org/2007/05/xmldsig-more#sha3-256":
		return crypto.SHA3_256
	case "http://www.w3.org/2007/05/xmldsig-more#sha3-384":
		return crypto.SHA3_384
	case "http://www.w3.org/2007/05/xmldsig-more#sha3-512":
		return crypto.SHA3_512
	}
	return 0
}
