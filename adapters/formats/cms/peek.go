package cms

import "encoding/asn1"

// maxPeekBytes bounds how far into a document EncapsulatedContentType
// looks: the eContentType of a SignedData follows its version and its
// digestAlgorithms, a few dozen bytes in.
const maxPeekBytes = 1024

// EncapsulatedContentType returns the eContentType of the SignedData
// that data starts with (a ContentInfo of id-signedData, DER or BER),
// reading only the headers in front of it: id-data for a signature,
// id-ct-TSTInfo for a time-stamp token. ok is false when data does not
// start like one, or when the field lies beyond the first bytes. It
// parses nothing else and checks nothing: Parse does.
func EncapsulatedContentType(data []byte) (oid asn1.ObjectIdentifier, ok bool) {
	s := data[:min(len(data), maxPeekBytes)]
	// ContentInfo ::= SEQUENCE { contentType, [0] EXPLICIT content }
	if s, ok = peekEnter(s, 0x30); !ok {
		return nil, false
	}
	ct, s, ok := peekElement(s, 0x06)
	if c, ok2 := objectIdentifier(ct); !ok || !ok2 || !c.Equal(OIDSignedData) {
		return nil, false
	}
	if s, ok = peekEnter(s, 0xa0); !ok {
		return nil, false
	}
	// SignedData ::= SEQUENCE { version, digestAlgorithms,
	// encapContentInfo SEQUENCE { eContentType, ... }, ... }
	if s, ok = peekEnter(s, 0x30); !ok {
		return nil, false
	}
	if _, s, ok = peekElement(s, 0x02); !ok {
		return nil, false
	}
	if _, s, ok = peekElement(s, 0x31); !ok {
		return nil, false
	}
	if s, ok = peekEnter(s, 0x30); !ok {
		return nil, false
	}
	raw, _, ok := peekElement(s, 0x06)
	if !ok {
		return nil, false
	}
	return objectIdentifier(raw)
}

// objectIdentifier decodes the DER of an OBJECT IDENTIFIER.
func objectIdentifier(der []byte) (asn1.ObjectIdentifier, bool) {
	var out asn1.ObjectIdentifier
	if rest, err := asn1.Unmarshal(der, &out); err != nil || len(rest) > 0 {
		return nil, false
	}
	return out, true
}

// peekHeader reads the identifier and length octets at the start of s:
// the tag octet, the header's size, and the content's length (-1 for an
// indefinite length).
func peekHeader(s []byte) (tag byte, size, length int, ok bool) {
	if len(s) < 2 || s[0]&0x1f == 0x1f { // no high tag numbers here
		return 0, 0, 0, false
	}
	tag, l := s[0], s[1]
	switch {
	case l < 0x80:
		return tag, 2, int(l), true
	case l == 0x80:
		return tag, 2, -1, true
	}
	n := int(l & 0x7f)
	if n > 4 || len(s) < 2+n {
		return 0, 0, 0, false
	}
	length = 0
	for _, b := range s[2 : 2+n] {
		length = length<<8 | int(b)
	}
	return tag, 2 + n, length, length >= 0
}

// peekEnter returns what follows the header of a constructed element of tag
// at the start of s: its content and whatever comes after.
func peekEnter(s []byte, tag byte) ([]byte, bool) {
	t, size, _, ok := peekHeader(s)
	if !ok || t != tag {
		return nil, false
	}
	return s[size:], true
}

// peekElement returns the whole element of tag, definite length, at the start
// of s, and what follows it.
func peekElement(s []byte, tag byte) (elem, rest []byte, ok bool) {
	t, size, length, ok := peekHeader(s)
	if !ok || t != tag || length < 0 || len(s)-size < length {
		return nil, nil, false
	}
	return s[:size+length], s[size+length:], true
}
