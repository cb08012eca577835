package jades

import (
	"bytes"
	"encoding/base64"
)

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// Detect reports whether data is of the format Read reads, from its
// shape alone: a JWS JSON serialisation (a JSON object, after an optional
// byte order mark and white space, naming a "protected" header or
// "signatures"), or a JWS compact serialisation (three base64url parts
// separated by dots, with white space after them, whose first part
// decodes to a JSON object naming "alg"). Read may still find it
// unreadable. Read returns an error wrapping ports.ErrNotThisFormat for
// exactly the data Detect does not claim.
func Detect(data []byte) bool {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	if len(trimmed) == 0 {
		return false
	}
	if trimmed[0] == '{' {
		return bytes.Contains(trimmed, []byte(`"protected"`)) || bytes.Contains(trimmed, []byte(`"signatures"`))
	}
	_, ok := compactParts(data)
	return ok
}

// compactParts splits a compact serialisation into its three parts:
// base64url characters only, exactly two dots, white space only after
// them; the first part decodes to something that starts like a JSON
// object and names "alg". A payload of RFC 7797 (b64 false) may hold any
// character but a dot: the middle part is taken as it is.
func compactParts(data []byte) ([3][]byte, bool) {
	var parts [3][]byte
	s := bytes.TrimRight(data, " \t\r\n")
	first := bytes.IndexByte(s, '.')
	last := bytes.LastIndexByte(s, '.')
	if first <= 0 || last == first {
		return parts, false
	}
	parts[0], parts[1], parts[2] = s[:first], s[first+1:last], s[last+1:]
	if bytes.IndexByte(parts[1], '.') >= 0 || !isB64URL(parts[0]) || !isB64URL(parts[2]) {
		return parts, false
	}
	// The header alone is decoded, up to a bound: enough to see "alg".
	head := parts[0][:min(len(parts[0]), 1<<20)]
	head = head[:len(head)/4*4]
	dec, err := base64.RawURLEncoding.DecodeString(string(head))
	if err != nil {
		return parts, false
	}
	dec = bytes.TrimLeft(dec, " \t\r\n")
	return parts, len(dec) > 0 && dec[0] == '{' && bytes.Contains(dec, []byte(`"alg"`))
}

func isB64URL(b []byte) bool {
	for _, c := range b {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
