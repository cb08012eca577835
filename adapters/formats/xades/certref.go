package xades

import (
	"bytes"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/domain/ades"
)

// parseIssuerSerial reads the DER of an IssuerSerialV2 (RFC 5035
// IssuerSerial: SEQUENCE { issuer GeneralNames, serialNumber INTEGER })
// and returns the DER of its first directoryName and the serial.
func parseIssuerSerial(der []byte) ([]byte, *big.Int, error) {
	in := cryptobyte.String(der)
	var seq, names cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1(&names, cbasn1.SEQUENCE) {
		return nil, nil, errors.New("not an IssuerSerial")
	}
	serial := new(big.Int)
	if !seq.ReadASN1Integer(serial) {
		return nil, nil, errors.New("IssuerSerial: no serial number")
	}
	var issuer []byte
	for !names.Empty() {
		var name cryptobyte.String
		var tag cbasn1.Tag
		if !names.ReadAnyASN1(&name, &tag) {
			return nil, nil, errors.New("IssuerSerial: malformed GeneralName")
		}
		// directoryName [4] EXPLICIT Name.
		if tag == cbasn1.Tag(4).Constructed().ContextSpecific() && issuer == nil {
			var rdns cryptobyte.String
			if !name.ReadASN1Element(&rdns, cbasn1.SEQUENCE) {
				return nil, nil, errors.New("IssuerSerial: malformed directoryName")
			}
			issuer = rdns
		}
	}
	if issuer == nil {
		return nil, serial, errors.New("IssuerSerial: no directoryName")
	}
	return issuer, serial, nil
}

// reference compares the signing-certificate references with c, which
// may be nil. The reference that matters is the one whose digest is c's
// (SigningCertificate may list the whole chain, in any order); without
// one, the first.
func reference(present bool, refs []certRef, c *x509.Certificate) ades.CertificateReference {
	r := ades.CertificateReference{Present: present}
	if !present || len(refs) == 0 {
		return r
	}
	match := -1
	if c != nil {
		for i, ref := range refs {
			if ref.digestMatches(c) {
				match = i
				break
			}
		}
	}
	ref := refs[0]
	if match >= 0 {
		ref = refs[match]
		r.DigestMatched = true
	}
	r.IssuerSerialPresent = ref.serial != nil
	if c != nil && r.IssuerSerialPresent && c.SerialNumber != nil && ref.serial.Cmp(c.SerialNumber) == 0 {
		switch {
		case ref.issuer != nil:
			r.IssuerSerialMatched = cert.EqualNames(ref.issuer, c.RawIssuer)
		default:
			r.IssuerSerialMatched = equalStringName(ref.issuerName, c.RawIssuer)
		}
	}
	return r
}

func (r certRef) digestMatches(c *x509.Certificate) bool {
	if r.hash == 0 || !r.hash.Available() || len(r.digest) == 0 {
		return false
	}
	h := r.hash.New()
	h.Write(c.Raw)
	return bytes.Equal(h.Sum(nil), r.digest)
}

// referencedCertificate returns the first of candidates that a reference
// names by its digest: the signing certificate when no key verified the
// signature value.
func referencedCertificate(refs []certRef, candidates []*x509.Certificate) *x509.Certificate {
	for _, ref := range refs {
		for _, c := range candidates {
			if ref.digestMatches(c) {
				return c
			}
		}
	}
	return nil
}

// attributeNames maps the attribute type names of RFC 4514 (and those
// X509IssuerName writers use: Java's X500Principal, .NET, OpenSSL) to
// their OIDs.
var attributeNames = map[string]string{
	"CN": "2.5.4.3", "SN": "2.5.4.4", "SURNAME": "2.5.4.4", "SERIALNUMBER": "2.5.4.5",
	"C": "2.5.4.6", "L": "2.5.4.7", "ST": "2.5.4.8", "S": "2.5.4.8", "STREET": "2.5.4.9",
	"O": "2.5.4.10", "OU": "2.5.4.11", "T": "2.5.4.12", "TITLE": "2.5.4.12",
	"POSTALCODE": "2.5.4.17", "GIVENNAME": "2.5.4.42", "G": "2.5.4.42", "GN": "2.5.4.42",
	"INITIALS": "2.5.4.43", "GENERATION": "2.5.4.44", "GENERATIONQUALIFIER": "2.5.4.44",
	"DNQ": "2.5.4.46", "DNQUALIFIER": "2.5.4.46", "PSEUDONYM": "2.5.4.65",
	"ORGANIZATIONIDENTIFIER": "2.5.4.97", "DC": "0.9.2342.19200300.100.1.25",
	"UID": "0.9.2342.19200300.100.1.1", "E": "1.2.840.113549.1.9.1", "EMAILADDRESS": "1.2.840.113549.1.9.1",
}

// ava is one attribute of a name, its value normalised for comparison.
type ava struct{ oid, value string }

// parseStringName reads an RFC 4514 distinguished name string into its
// attributes, in order, values unescaped and normalised. The input is
// bounded by the document's text limits and read once.
func parseStringName(s string) ([]ava, error) {
	var out []ava
	for s = strings.TrimSpace(s); s != ""; {
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("attribute without type in %q", s)
		}
		typ := strings.ToUpper(strings.TrimSpace(s[:eq]))
		typ = strings.TrimPrefix(typ, "OID.")
		oid, ok := attributeNames[typ]
		if !ok {
			if !isDottedOID(typ) {
				return nil, fmt.Errorf("unknown attribute type %q", typ)
			}
			oid = typ
		}
		s = strings.TrimLeft(s[eq+1:], " ")
		value, rest, err := stringValue(s)
		if err != nil {
			return nil, err
		}
		out = append(out, ava{oid: oid, value: value})
		s = strings.TrimLeft(rest, " ")
		if s != "" {
			if s[0] != ',' && s[0] != ';' && s[0] != '+' {
				return nil, fmt.Errorf("unexpected %q after a value", s[0])
			}
			s = strings.TrimSpace(s[1:])
		}
	}
	return out, nil
}

func isDottedOID(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return false
	}
	for _, r := range s {
		if (r < '0' || r > '9') && r != '.' {
			return false
		}
	}
	return true
}

// stringValue reads one attribute value up to an unescaped separator: a
// "#" hex-encoded BER value or a string with RFC 4514 escapes (or a
// quoted RFC 1779 string).
func stringValue(s string) (value, rest string, err error) {
	if strings.HasPrefix(s, "#") {
		end := strings.IndexAny(s, ",;+")
		if end < 0 {
			end = len(s)
		}
		der, err := hex.DecodeString(strings.TrimSpace(s[1:end]))
		if err != nil {
			return "", "", fmt.Errorf("hex value: %w", err)
		}
		var raw asn1.RawValue
		if _, err := asn1.Unmarshal(der, &raw); err != nil {
			return "", "", fmt.Errorf("hex value: %w", err)
		}
		return normalize(string(raw.Bytes)), s[end:], nil
	}
	var b strings.Builder
	quoted := strings.HasPrefix(s, "\"")
	i := 0
	if quoted {
		i = 1
	}
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case quoted && c == '"':
			return normalize(b.String()), s[i+1:], nil
		case !quoted && (c == ',' || c == ';' || c == '+'):
			return normalize(b.String()), s[i:], nil
		case c == '\\':
			if i+1 >= len(s) {
				return "", "", errors.New("escape at the end of a value")
			}
			if i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
				v, _ := hex.DecodeString(s[i+1 : i+3])
				b.Write(v)
				i += 2
				continue
			}
			b.WriteByte(s[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	if quoted {
		return "", "", errors.New("unterminated quoted value")
	}
	return normalize(b.String()), "", nil
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// normalize folds case and collapses white space, as name comparison
// (RFC 5280 7.1, caseIgnoreMatch) does.
func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// equalStringName reports whether the RFC 4514 string name and the DER
// name der hold the same attributes. The order of RDNs is not compared:
// writers disagree on it (X500Principal writes the most specific first,
// others the reverse), and the serial number already pins the
// certificate; every attribute must be in both, as many times.
func equalStringName(name string, der []byte) bool {
	want, err := parseStringName(name)
	if err != nil || len(want) == 0 {
		return false
	}
	n, err := cert.ParseName(der)
	if err != nil {
		return false
	}
	have := derAttributes(n)
	if len(have) != len(want) {
		return false
	}
	count := map[ava]int{}
	for _, a := range have {
		count[a]++
	}
	for _, a := range want {
		if count[a] == 0 {
			return false
		}
		count[a]--
	}
	return true
}

// derAttributes lists the attributes of a parsed name, values
// normalised.
func derAttributes(n pkix.Name) []ava {
	out := make([]ava, 0, len(n.Names))
	for _, a := range n.Names {
		out = append(out, ava{oid: a.Type.String(), value: normalize(fmt.Sprint(a.Value))})
	}
	return out
}
