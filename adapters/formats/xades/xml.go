package xades

import (
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
)

// Namespaces and the Reference types XAdES defines.
const (
	nsDS       = xmldsig.NamespaceDSig
	nsXAdES132 = xmldsig.NamespaceXAdES132
	nsXAdES122 = "http://uri.etsi.org/01903/v1.2.2#"
	nsXAdES111 = xmldsig.NamespaceXAdES111
	nsXAdES141 = "http://uri.etsi.org/01903/v1.4.1#"

	// typeSignedProperties is the Type of the reference to SignedProperties
	// (XAdES 1.3.2 6.3.1; EN 319 132-1 4.3.1).
	typeSignedProperties = xmldsig.TypeSignedProperties

	// defaultC14N is the canonicalisation of a time-stamp without
	// ds:CanonicalizationMethod (XAdES 1.3.2 7.1.4.3; EN 319 132-1 5.1.4.3).
	defaultC14N = xmldsig.C14N10
)

// isDS reports whether el is the XMLDSig element local.
func isDS(el *etree.Element, local string) bool {
	return el != nil && el.Tag == local && el.NamespaceURI() == nsDS
}

// isXAdES reports whether el is the XAdES element local in one of the
// namespaces that define it: 1.3.2 (and the older 1.2.2 and 1.1.1), or
// 1.4.1 for what that version added.
func isXAdES(el *etree.Element, local string) bool {
	if el == nil || el.Tag != local {
		return false
	}
	switch el.NamespaceURI() {
	case nsXAdES132, nsXAdES122, nsXAdES111, nsXAdES141:
		return true
	}
	return false
}

// xadesNS reports whether el is in a XAdES namespace, and which.
func xadesNS(el *etree.Element) (string, bool) {
	ns := el.NamespaceURI()
	switch ns {
	case nsXAdES132, nsXAdES122, nsXAdES111, nsXAdES141:
		return ns, true
	}
	return "", false
}

// firstChild returns the first child element of el that match accepts.
func firstChild(el *etree.Element, match func(*etree.Element) bool) *etree.Element {
	if el == nil {
		return nil
	}
	for _, c := range el.ChildElements() {
		if match(c) {
			return c
		}
	}
	return nil
}

// childrenOf returns the child elements of el that match accepts.
func childrenOf(el *etree.Element, match func(*etree.Element) bool) []*etree.Element {
	if el == nil {
		return nil
	}
	var out []*etree.Element
	for _, c := range el.ChildElements() {
		if match(c) {
			out = append(out, c)
		}
	}
	return out
}

func xadesChild(el *etree.Element, local string) *etree.Element {
	return firstChild(el, func(c *etree.Element) bool { return isXAdES(c, local) })
}

func dsChild(el *etree.Element, local string) *etree.Element {
	return firstChild(el, func(c *etree.Element) bool { return isDS(c, local) })
}

// text returns the character data of el, trimmed.
func text(el *etree.Element) string {
	if el == nil {
		return ""
	}
	return strings.TrimSpace(el.Text())
}

// decodeBase64 decodes an xs:base64Binary, which may hold white space
// (line breaks every 76 characters are common).
func decodeBase64(s string) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, s)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("base64: %w", err)
	}
	return b, nil
}

// attr returns the value of el's unprefixed attribute key.
func attr(el *etree.Element, key string) string {
	for _, a := range el.Attr {
		if a.Space == "" && a.Key == key {
			return a.Value
		}
	}
	return ""
}

// algorithm returns the Algorithm attribute of el's child ds:local
// (DigestMethod, CanonicalizationMethod).
func algorithm(el *etree.Element, local string) string {
	if m := dsChild(el, local); m != nil {
		return attr(m, "Algorithm")
	}
	return ""
}

// parseDateTime reads an xs:dateTime; one without a time zone is UTC,
// which XAdES requires signers to write anyway.
func parseDateTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05.999999999", s)
}

// kids returns the child elements of el; none for a nil el (an optional
// element that is absent).
func kids(el *etree.Element) []*etree.Element {
	if el == nil {
		return nil
	}
	return el.ChildElements()
}
