package cms

import (
	"encoding/asn1"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// An Attribute is one attribute of a signed or unsigned attribute set.
type Attribute struct {
	Type asn1.ObjectIdentifier
	// Values are the DER encodings of the attribute values, in input order.
	Values [][]byte
	// Raw is the attribute as found in the input (ignored by fixtures/cmswrite).
	Raw []byte

	// rawValues are the values as found in the input, BER perhaps.
	rawValues [][]byte
}

// Attributes is an attribute set.
type Attributes []Attribute

// Find returns the attributes of type oid.
func (as Attributes) Find(oid asn1.ObjectIdentifier) []Attribute {
	var out []Attribute
	for _, a := range as {
		if a.Type.Equal(oid) {
			out = append(out, a)
		}
	}
	return out
}

// Single returns the value of the attribute of type oid, which must occur
// once with one value (RFC 5652, section 11, for content-type,
// message-digest and signing-time). ok is false when it is absent; an
// error wraps ErrMalformed when it is repeated or multi-valued.
func (as Attributes) Single(oid asn1.ObjectIdentifier) (value []byte, ok bool, err error) {
	found := as.Find(oid)
	switch {
	case len(found) == 0:
		return nil, false, nil
	case len(found) > 1:
		return nil, true, fmt.Errorf("%w: attribute %v occurs %d times", ErrMalformed, oid, len(found))
	case len(found[0].Values) != 1:
		return nil, true, fmt.Errorf("%w: attribute %v has %d values", ErrMalformed, oid, len(found[0].Values))
	}
	return found[0].Values[0], true, nil
}

// parseAttributes reads a SET OF Attribute, under any tag.
func parseAttributes(e element) (Attributes, error) {
	kids, err := e.children(MaxAttributes)
	if err != nil {
		return nil, err
	}
	attrs := make(Attributes, 0, len(kids))
	for _, k := range kids {
		if !k.is(classUniversal, asn1.TagSequence, true) {
			return nil, fmt.Errorf("%w: Attribute is not a SEQUENCE", ErrMalformed)
		}
		fields, err := k.fields(2)
		if err != nil || len(fields) != 2 || !fields[1].is(classUniversal, asn1.TagSet, true) {
			return nil, fmt.Errorf("%w: Attribute fields", ErrMalformed)
		}
		a := Attribute{Raw: k.raw}
		if a.Type, err = fields[0].oid(); err != nil {
			return nil, fmt.Errorf("attrType: %w", err)
		}
		values, err := fields[1].children(MaxAttributeValues)
		if err != nil {
			return nil, fmt.Errorf("attribute %v: %w", a.Type, err)
		}
		for _, v := range values {
			der, err := derOrOriginal(v)
			if err != nil {
				return nil, fmt.Errorf("attribute %v: %w", a.Type, err)
			}
			a.Values = append(a.Values, der)
			a.rawValues = append(a.rawValues, v.raw)
		}
		attrs = append(attrs, a)
	}
	return attrs, nil
}

// der returns the DER encoding of a: its values are DER already; the SET
// OF them is sorted.
func (a Attribute) der() ([]byte, error) {
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1ObjectIdentifier(a.Type)
		b.AddBytes(sortedSetDER(a.Values))
	})
	out, err := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: attribute %v: %v", ErrMalformed, a.Type, err)
	}
	return out, nil
}
