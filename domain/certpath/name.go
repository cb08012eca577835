package certpath

import (
	"bytes"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// namesMatch reports whether two DER-encoded distinguished names are the
// same: byte-equal, or equal after normalisation (RFC 5280 §7.1, simplified:
// the same attribute types RDN by RDN, values compared case-insensitively
// with surrounding and repeated white space ignored, whatever string type
// encodes them). Names that do not parse match only byte for byte.
func namesMatch(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	na, ok := normalisedName(a)
	if !ok {
		return false
	}
	nb, ok := normalisedName(b)
	if !ok {
		return false
	}
	return slices.EqualFunc(na, nb, slices.Equal)
}

// normalisedName returns, RDN by RDN, the sorted "type=value" strings of a
// DER distinguished name.
func normalisedName(der []byte) ([][]string, bool) {
	var rdns pkix.RDNSequence
	rest, err := asn1.Unmarshal(der, &rdns)
	if err != nil || len(rest) != 0 {
		return nil, false
	}
	out := make([][]string, 0, len(rdns))
	for _, rdn := range rdns {
		atvs := make([]string, 0, len(rdn))
		for _, atv := range rdn {
			v := strings.Join(strings.Fields(fmt.Sprint(atv.Value)), " ")
			atvs = append(atvs, atv.Type.String()+"="+strings.ToLower(v))
		}
		slices.Sort(atvs)
		out = append(out, atvs)
	}
	return out, true
}

// nameKey returns a string equal for two names exactly when namesMatch
// holds for them (names that do not parse are keyed by their bytes).
func nameKey(der []byte) string {
	n, ok := normalisedName(der)
	if !ok {
		return "raw:" + string(der)
	}
	var sb strings.Builder
	sb.WriteString("norm:")
	for _, rdn := range n {
		sb.WriteString(strconv.Quote(strings.Join(rdn, "\x00")))
		sb.WriteByte(',')
	}
	return sb.String()
}

// nameString renders a DER distinguished name for messages.
func nameString(der []byte) string {
	var rdns pkix.RDNSequence
	if _, err := asn1.Unmarshal(der, &rdns); err != nil {
		return fmt.Sprintf("%x", der)
	}
	var n pkix.Name
	n.FillFromRDNSequence(&rdns)
	return n.String()
}
