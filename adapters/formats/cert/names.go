package cert

import (
	"bytes"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// ParseName reads a DER distinguished name (an RDNSequence) leniently:
// every string type is decoded, invalid characters for the type are kept
// (as U+FFFD when not UTF-8), and a value that is no string is kept as its
// DER encoding (an asn1.RawValue's FullBytes). crypto/x509 refuses such
// names; issuers matching certificates by name need them read anyway.
func ParseName(der []byte) (pkix.Name, error) {
	rdns, err := parseRDNSequence(der)
	if err != nil {
		return pkix.Name{}, err
	}
	var name pkix.Name
	name.FillFromRDNSequence(&rdns)
	return name, nil
}

func parseRDNSequence(der []byte) (pkix.RDNSequence, error) {
	in := cryptobyte.String(der)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, fmt.Errorf("%w: name", ErrMalformed)
	}
	var rdns pkix.RDNSequence
	count := 0
	for !seq.Empty() {
		var set cryptobyte.String
		if !seq.ReadASN1(&set, cbasn1.SET) {
			return nil, fmt.Errorf("%w: relative distinguished name", ErrMalformed)
		}
		var rdn pkix.RelativeDistinguishedNameSET
		for !set.Empty() {
			if count++; count > MaxNameAttributes {
				return nil, fmt.Errorf("%w: name with more than %d attributes", ErrLimitExceeded, MaxNameAttributes)
			}
			var atv cryptobyte.String
			var oid asn1.ObjectIdentifier
			var value cryptobyte.String
			var tag cbasn1.Tag
			if !set.ReadASN1(&atv, cbasn1.SEQUENCE) || !atv.ReadASN1ObjectIdentifier(&oid) ||
				!atv.ReadAnyASN1Element(&value, &tag) || !atv.Empty() {
				return nil, fmt.Errorf("%w: attribute of a name", ErrMalformed)
			}
			rdn = append(rdn, pkix.AttributeTypeAndValue{Type: oid, Value: decodeString(tag, value)})
		}
		rdns = append(rdns, rdn)
	}
	return rdns, nil
}

// decodeString decodes a directory string value of any string type. Other
// values come back as asn1.RawValue.
func decodeString(tag cbasn1.Tag, element cryptobyte.String) any {
	var content cryptobyte.String
	var t cbasn1.Tag
	raw := []byte(element)
	if !element.ReadAnyASN1(&content, &t) {
		return asn1.RawValue{FullBytes: raw}
	}
	b := []byte(content)
	switch tag {
	case cbasn1.UTF8String, cbasn1.PrintableString, cbasn1.IA5String,
		cbasn1.Tag(asn1.TagNumericString), cbasn1.Tag(26), // VisibleString
		cbasn1.Tag(25), cbasn1.Tag(27): // GraphicString, GeneralString
		return strings.ToValidUTF8(string(b), "\uFFFD")
	case cbasn1.T61String, cbasn1.Tag(21): // VideotexString: read as Latin-1, as crypto/x509 does
		var sb strings.Builder
		for _, c := range b {
			sb.WriteRune(rune(c))
		}
		return sb.String()
	case cbasn1.Tag(asn1.TagBMPString):
		if len(b)%2 != 0 {
			break
		}
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = binary.BigEndian.Uint16(b[2*i:])
		}
		return string(utf16.Decode(u))
	case cbasn1.Tag(28): // UniversalString, UTF-32BE
		if len(b)%4 != 0 {
			break
		}
		var sb strings.Builder
		for i := 0; i < len(b); i += 4 {
			r := rune(binary.BigEndian.Uint32(b[i:]))
			if !utf8.ValidRune(r) {
				r = utf8.RuneError
			}
			sb.WriteRune(r)
		}
		return sb.String()
	}
	return asn1.RawValue{FullBytes: raw}
}

// EqualNames reports whether two DER distinguished names are the same name:
// byte for byte, or else attribute for attribute with string values
// compared after RFC 5280 section 7.1 style normalisation (case folding,
// leading, trailing and repeated spaces ignored), whatever string type
// encodes them. CMS and ESS identify certificates by issuer name, and some
// signers re-encode the name they copy.
func EqualNames(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	ra, err := parseRDNSequence(a)
	if err != nil {
		return false
	}
	rb, err := parseRDNSequence(b)
	if err != nil || len(ra) != len(rb) {
		return false
	}
	for i := range ra {
		if len(ra[i]) != len(rb[i]) {
			return false
		}
		for j := range ra[i] {
			x, y := ra[i][j], rb[i][j]
			if !x.Type.Equal(y.Type) || !equalValues(x.Value, y.Value) {
				return false
			}
		}
	}
	return true
}

func equalValues(x, y any) bool {
	xs, ok1 := x.(string)
	ys, ok2 := y.(string)
	if ok1 && ok2 {
		return normalizeString(xs) == normalizeString(ys)
	}
	xr, ok1 := x.(asn1.RawValue)
	yr, ok2 := y.(asn1.RawValue)
	return ok1 && ok2 && bytes.Equal(xr.FullBytes, yr.FullBytes)
}

func normalizeString(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}
