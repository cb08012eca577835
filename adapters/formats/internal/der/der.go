// Package der is the lenient-DER toolkit of the format readers
// (certificates, CRLs, OCSP responses), on top of cryptobyte. It is lenient
// exactly where deployed CAs and responders are known to deviate from DER,
// and nowhere else:
//
//   - INTEGERs may be encoded non-minimally (a redundant leading 0x00 or
//     0xff), which some CAs emit for serial numbers; cryptobyte refuses
//     them.
//   - GeneralizedTime may carry fractional seconds, which RFC 6960 does not
//     forbid and some OCSP responders send; cryptobyte refuses them.
//
// Everything else is read as strictly as cryptobyte reads it. Package cert
// reads certificates with a wider tolerance of its own (times without
// seconds, BOOLEAN TRUE as 0x01), which real certificates need and which
// stays there.
package der

import (
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"
)

// MaxIntegerBytes bounds an INTEGER read by ReadInteger. Serial numbers are
// at most 20 octets (RFC 5280, section 4.1.2.2); twice that leaves room for
// non-conforming CAs while keeping a hostile value from costing big-number
// work.
const MaxIntegerBytes = 64

// ReadInteger reads an INTEGER of at most MaxIntegerBytes content octets,
// negative values and non-minimal encodings included.
func ReadInteger(s *cryptobyte.String) (*big.Int, bool) {
	var content cryptobyte.String
	if !s.ReadASN1(&content, cbasn1.INTEGER) || len(content) == 0 || len(content) > MaxIntegerBytes {
		return nil, false
	}
	n, _ := Integer(content)
	return n, true
}

// Integer decodes the content octets of an INTEGER, which must not be
// empty, as two's complement, non-minimal encodings included; minimal
// reports whether the encoding is DER's.
func Integer(content []byte) (n *big.Int, minimal bool) {
	minimal = len(content) == 1 ||
		!(content[0] == 0 && content[1] < 0x80 || content[0] == 0xff && content[1] >= 0x80)
	n = new(big.Int).SetBytes(content)
	if content[0]&0x80 != 0 {
		// Two's complement: subtract 2^(8·len).
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(content))*8))
	}
	return n, minimal
}

// ReadTime reads a UTCTime or a GeneralizedTime (the X.509 Time CHOICE) and
// returns it in UTC.
func ReadTime(s *cryptobyte.String, out *time.Time) bool {
	switch {
	case s.PeekASN1Tag(cbasn1.UTCTime):
		var t time.Time
		if !s.ReadASN1UTCTime(&t) {
			return false
		}
		*out = t.UTC()
		return true
	case s.PeekASN1Tag(cbasn1.GeneralizedTime):
		return ReadGeneralizedTime(s, out)
	}
	return false
}

// generalizedTimeLayout accepts optional fractional seconds; the zone must
// be given (DER wants "Z", offsets are tolerated as encoding/asn1 does).
const generalizedTimeLayout = "20060102150405.999999999Z0700"

// ReadGeneralizedTime reads a GeneralizedTime and returns it in UTC.
func ReadGeneralizedTime(s *cryptobyte.String, out *time.Time) bool {
	var content cryptobyte.String
	if !s.ReadASN1(&content, cbasn1.GeneralizedTime) {
		return false
	}
	// time.Parse accepts a comma as decimal separator and single-digit
	// fields in some layouts; the explicit length and digit checks keep
	// the accepted language to YYYYMMDDHHMMSS[.f+](Z|±hhmm).
	if len(content) < 15 {
		return false
	}
	for _, c := range content[:14] {
		if c < '0' || c > '9' {
			return false
		}
	}
	for _, c := range content[14:] {
		if c == ',' {
			return false
		}
	}
	t, err := time.Parse(generalizedTimeLayout, string(content))
	if err != nil {
		return false
	}
	*out = t.UTC()
	return true
}

// ReadAlgorithmIdentifier reads an AlgorithmIdentifier and returns it with
// its complete encoding, which signature verification needs.
func ReadAlgorithmIdentifier(s *cryptobyte.String) (pkix.AlgorithmIdentifier, []byte, bool) {
	var full cryptobyte.String
	if !s.ReadASN1Element(&full, cbasn1.SEQUENCE) {
		return pkix.AlgorithmIdentifier{}, nil, false
	}
	ai, ok := ParseAlgorithmIdentifier(full)
	return ai, full, ok
}

// ParseAlgorithmIdentifier parses the encoding of an AlgorithmIdentifier.
func ParseAlgorithmIdentifier(full []byte) (pkix.AlgorithmIdentifier, bool) {
	var ai pkix.AlgorithmIdentifier
	oid, params, err := SplitAlgorithmIdentifier(full)
	if err != nil {
		return ai, false
	}
	ai.Algorithm = oid
	if params != nil {
		if _, err := asn1.Unmarshal(params, &ai.Parameters); err != nil {
			return ai, false
		}
	}
	return ai, true
}

// SplitAlgorithmIdentifier splits the encoding of an AlgorithmIdentifier
// into its OID and the encoding of its parameters (nil when absent). An
// error says which part is malformed.
func SplitAlgorithmIdentifier(full []byte) (asn1.ObjectIdentifier, []byte, error) {
	in := cryptobyte.String(full)
	var seq cryptobyte.String
	var oid asn1.ObjectIdentifier
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1ObjectIdentifier(&oid) {
		return nil, nil, errors.New("algorithm identifier")
	}
	if seq.Empty() {
		return oid, nil, nil
	}
	// Any tag, high tag numbers included.
	var params cryptobyte.String
	var tag cbasn1.Tag
	if !seq.ReadAnyASN1Element(&params, &tag) {
		return nil, nil, errors.New("algorithm identifier parameters")
	}
	if !seq.Empty() {
		return nil, nil, errors.New("trailing data in algorithm identifier")
	}
	return oid, params, nil
}

// ReadExtensions reads Extensions ::= SEQUENCE SIZE (1..MAX) OF Extension.
// An empty sequence is tolerated.
func ReadExtensions(s *cryptobyte.String) ([]pkix.Extension, bool) {
	var seq cryptobyte.String
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return nil, false
	}
	var exts []pkix.Extension
	for !seq.Empty() {
		var ext cryptobyte.String
		var e pkix.Extension
		var value []byte
		if !seq.ReadASN1(&ext, cbasn1.SEQUENCE) || !ext.ReadASN1ObjectIdentifier(&e.Id) {
			return nil, false
		}
		// critical BOOLEAN DEFAULT FALSE. (cryptobyte's
		// ReadOptionalASN1Boolean is for explicitly tagged booleans.)
		if ext.PeekASN1Tag(cbasn1.BOOLEAN) && !ext.ReadASN1Boolean(&e.Critical) {
			return nil, false
		}
		if !ext.ReadASN1Bytes(&value, cbasn1.OCTET_STRING) || !ext.Empty() {
			return nil, false
		}
		e.Value = value
		exts = append(exts, e)
	}
	return exts, true
}

// ReadEnumerated reads an ENUMERATED that fits an int.
func ReadEnumerated(s *cryptobyte.String, out *int) bool {
	var v int
	if !s.ReadASN1Enum(&v) || v < 0 || v > 1<<16 {
		return false
	}
	*out = v
	return true
}

// SubjectPublicKeyBits returns the subjectPublicKey BIT STRING content of a
// SubjectPublicKeyInfo, the value OCSP key hashes are computed over.
func SubjectPublicKeyBits(spki []byte) ([]byte, bool) {
	in := cryptobyte.String(spki)
	var seq, alg cryptobyte.String
	var bits asn1.BitString
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1(&alg, cbasn1.SEQUENCE) ||
		!seq.ReadASN1BitString(&bits) || bits.BitLength%8 != 0 {
		return nil, false
	}
	return bits.Bytes, true
}
