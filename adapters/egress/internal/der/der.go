// Package der reads the DER values that OCSP responses and CRLs share, on
// top of cryptobyte. It is lenient exactly where deployed responders and CAs
// are known to deviate from DER, and nowhere else:
//
//   - INTEGERs may be encoded non-minimally (a redundant leading 0x00 or
//     0xff), which some CAs emit for serial numbers; cryptobyte refuses
//     them.
//   - GeneralizedTime may carry fractional seconds, which RFC 6960 does not
//     forbid and some OCSP responders send; cryptobyte refuses them.
//
// Everything else is read as strictly as cryptobyte reads it.
package der

import (
	"crypto/x509/pkix"
	"encoding/asn1"
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
	n := new(big.Int).SetBytes(content)
	if content[0]&0x80 != 0 {
		// Two's complement: subtract 2^(8·len).
		n.Sub(n, new(big.Int).Lsh(big.NewInt(1), uint(len(content))*8))
	}
	return n, true
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
	in := cryptobyte.String(full)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1ObjectIdentifier(&ai.Algorithm) {
		return ai, false
	}
	if !seq.Empty() {
		var params cryptobyte.String
		var tag cbasn1.Tag
		if !seq.ReadAnyASN1Element(&params, &tag) || !seq.Empty() {
			return ai, false
		}
		if _, err := asn1.Unmarshal(params, &ai.Parameters); err != nil {
			return ai, false
		}
	}
	return ai, true
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
