package xmldsig

import (
	"fmt"
	"strings"
	"time"

	"github.com/beevik/etree"
)

// readXAdES records the XAdES SignedProperties reference and the signing
// time inside it. Only the SignedProperties that a verified Reference points
// to is read: a SigningTime elsewhere is not signed and means nothing.
func readXAdES(res *Result, sig *parsedSignature, targets []*etree.Element) error {
	var props *etree.Element
	for i, ref := range sig.references {
		if ref.typ != TypeSignedProperties {
			continue
		}
		if props != nil {
			return fmt.Errorf("%w: more than one SignedProperties reference", ErrMalformedSignature)
		}
		props = targets[i]
		if props == nil || !isXAdES(props, "SignedProperties") {
			return fmt.Errorf("%w: reference %q of type SignedProperties does not point to xades:SignedProperties", ErrMalformedSignature, ref.uri)
		}
		if !isInside(props, sig.el) {
			return fmt.Errorf("%w: xades:SignedProperties %q is outside the signature", ErrMalformedSignature, ref.uri)
		}
	}
	if props == nil {
		return nil
	}
	res.SignedProperties = true
	for _, ssp := range props.ChildElements() {
		if !isXAdES(ssp, "SignedSignatureProperties") {
			continue
		}
		for _, st := range ssp.ChildElements() {
			if !isXAdES(st, "SigningTime") {
				continue
			}
			t, err := parseDateTime(st.Text())
			if err != nil {
				return fmt.Errorf("%w: xades:SigningTime: %w", ErrMalformedSignature, err)
			}
			res.SigningTime = t
		}
	}
	return nil
}

func isXAdES(el *etree.Element, local string) bool {
	if el.Tag != local {
		return false
	}
	ns := elementNamespace(el)
	return ns == NamespaceXAdES132 || ns == NamespaceXAdES111
}

func isInside(el, ancestor *etree.Element) bool {
	for p := el; p != nil; p = p.Parent() {
		if p == ancestor {
			return true
		}
	}
	return false
}

// parseDateTime reads an xs:dateTime. One without a time zone is taken as
// UTC, which is what XAdES profiles require signers to write anyway.
func parseDateTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05.999999999", s)
}
