package cryptosuite

import (
	"fmt"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// nsDSSC is the namespace of RFC 5698's XML form, which TS 119 322 keeps.
const nsDSSC = "urn:ietf:params:xml:ns:dssc"

// xmlLimits bound the tree of a suite document, far above TS 119 312's
// (some 700 elements) and far below a signed document's.
var xmlLimits = xmldsig.Limits{MaxElements: 50_000, MaxDepth: 32, MaxAttributes: 50_000, MaxTextBytes: MaxSize}

// readXML reads the XML form. The document is parsed by the project's
// bounded XML parser (adapters/formats/xmldsig), which keeps a DOCTYPE
// without processing it: it is refused here, so no entity is expanded.
func readXML(data []byte) (document, error) {
	tree, err := xmldsig.ParseDocumentLimits(data, xmlLimits)
	if err != nil {
		return document{}, &Error{Problem: "not well-formed XML: " + err.Error(), Err: err}
	}
	for _, tok := range tree.Child {
		if _, ok := tok.(*etree.Directive); ok {
			return document{}, problem("", "a document with a DOCTYPE is refused (no DTD or entity is processed)")
		}
	}
	root := tree.Root()
	if root == nil || root.Tag != "SecuritySuitabilityPolicy" || root.NamespaceURI() != nsDSSC {
		name := ""
		if root != nil {
			name = "{" + root.NamespaceURI() + "}" + root.Tag
		}
		return document{}, problem("/"+name, "the root element is not a SecuritySuitabilityPolicy of namespace %s", nsDSSC)
	}
	doc := document{path: "/SecuritySuitabilityPolicy"}
	if pn := child(root, "PolicyName"); pn != nil {
		doc.name = text(child(pn, "Name"))
		doc.version = text(child(pn, "ObjectIdentifier"))
	}
	doc.issued = text(child(root, "PolicyIssueDate"))
	for i, a := range children(root, "Algorithm") {
		e := entry{path: fmt.Sprintf("%s/Algorithm[%d]", doc.path, i+1)}
		id := child(a, "AlgorithmIdentifier")
		if id == nil {
			return document{}, problem(e.path, "an Algorithm without its AlgorithmIdentifier")
		}
		e.name = text(child(id, "Name"))
		for _, o := range children(id, "ObjectIdentifier") {
			if s := text(o); s != "" {
				e.oids = append(e.oids, s)
			}
		}
		for _, u := range children(id, "URI") {
			if s := text(u); s != "" {
				e.uris = append(e.uris, s)
			}
		}
		for j, ev := range children(a, "Evaluation") {
			x := evaluation{path: fmt.Sprintf("%s/Evaluation[%d]", e.path, j+1)}
			for k, p := range children(ev, "Parameter") {
				pp := parameter{path: fmt.Sprintf("%s/Parameter[%d]", x.path, k+1), name: p.SelectAttrValue("name", "")}
				pp.min, pp.minPath = text(child(p, "Min")), pp.path+"/Min"
				pp.max, pp.maxPath = text(child(p, "Max")), pp.path+"/Max"
				x.parameters = append(x.parameters, pp)
			}
			if v := child(ev, "Validity"); v != nil {
				x.start, x.startPath = text(child(v, "Start")), x.path+"/Validity/Start"
				x.end, x.endPath = text(child(v, "End")), x.path+"/Validity/End"
			}
			e.evaluations = append(e.evaluations, x)
		}
		doc.algorithms = append(doc.algorithms, e)
	}
	return doc, nil
}

// children are el's child elements of the DSSC namespace named local.
func children(el *etree.Element, local string) []*etree.Element {
	var out []*etree.Element
	for _, c := range el.ChildElements() {
		if c.Tag == local && c.NamespaceURI() == nsDSSC {
			out = append(out, c)
		}
	}
	return out
}

// child is el's first child element of the DSSC namespace named local.
func child(el *etree.Element, local string) *etree.Element {
	for _, c := range el.ChildElements() {
		if c.Tag == local && c.NamespaceURI() == nsDSSC {
			return c
		}
	}
	return nil
}

// text is el's text without surrounding white space; "" for no element.
func text(el *etree.Element) string {
	if el == nil {
		return ""
	}
	return trimSpace(el.Text())
}
