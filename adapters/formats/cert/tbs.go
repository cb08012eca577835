package cert

import (
	"encoding/asn1"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

// rawCertificate is a certificate split into the elements of RFC 5280,
// section 4.1, read with the tolerance crypto/x509 lacks. Every []byte is a
// slice of the input.
type rawCertificate struct {
	raw       []byte
	tbs       tbsCertificate
	sigAlg    []byte // signatureAlgorithm element
	sigValue  []byte // signatureValue BIT STRING element
	signature []byte // its bits
}

type tbsCertificate struct {
	raw        []byte
	version    []byte // [0] element, nil when absent (v1)
	versionNum int    // 1, 2 or 3, as x509.Certificate.Version
	serialElem []byte
	serial     *big.Int
	serialDER  bool // the INTEGER is minimally encoded
	sigAlg     []byte
	issuer     []byte // Name element
	validity   []byte
	notBefore  time.Time
	notAfter   time.Time
	subject    []byte
	spki       []byte
	uniqueIDs  [][]byte // [1] and [2] elements, as found
	extensions []extension
}

// An extension as written, value undecoded.
type extension struct {
	raw      []byte
	oid      asn1.ObjectIdentifier
	critical bool
	value    []byte
}

// parseRawCertificate splits der. It refuses what it cannot split; values
// it can split but not decode are the callers' problem.
func parseRawCertificate(der []byte) (*rawCertificate, error) {
	if len(der) > MaxCertificateSize {
		return nil, fmt.Errorf("%w: certificate of %d bytes (max %d)", ErrLimitExceeded, len(der), MaxCertificateSize)
	}
	rc := &rawCertificate{}
	in := cryptobyte.String(der)
	var seq, bits cryptobyte.String
	var elem cryptobyte.String
	if !in.ReadASN1Element(&elem, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, fmt.Errorf("%w: not a certificate SEQUENCE", ErrMalformed)
	}
	rc.raw = elem
	if !elem.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: certificate", ErrMalformed)
	}
	var tbsElem, sigAlg, sigValue cryptobyte.String
	if !seq.ReadASN1Element(&tbsElem, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&sigAlg, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&sigValue, cbasn1.BIT_STRING) || !seq.Empty() {
		return nil, fmt.Errorf("%w: certificate fields", ErrMalformed)
	}
	rc.sigAlg, rc.sigValue = sigAlg, sigValue
	if !sigValue.ReadASN1(&bits, cbasn1.BIT_STRING) || len(bits) == 0 || bits[0] != 0 {
		return nil, fmt.Errorf("%w: signature value", ErrMalformed)
	}
	rc.signature = bits[1:]
	tbs, err := parseTBS(tbsElem)
	if err != nil {
		return nil, err
	}
	rc.tbs = *tbs
	return rc, nil
}

func parseTBS(elem []byte) (*tbsCertificate, error) {
	t := &tbsCertificate{raw: elem, versionNum: 1}
	in := cryptobyte.String(elem)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: TBSCertificate", ErrMalformed)
	}
	versionTag := cbasn1.Tag(0).ContextSpecific().Constructed()
	if seq.PeekASN1Tag(versionTag) {
		var v cryptobyte.String
		var n int64
		if !seq.ReadASN1Element(&v, versionTag) {
			return nil, fmt.Errorf("%w: version", ErrMalformed)
		}
		t.version = v
		var inner cryptobyte.String
		if !v.ReadASN1(&inner, versionTag) || !inner.ReadASN1Int64WithTag(&n, cbasn1.INTEGER) || n < 0 || n > 2 {
			return nil, fmt.Errorf("%w: version", ErrMalformed)
		}
		t.versionNum = int(n) + 1
	}
	var serial cryptobyte.String
	if !seq.ReadASN1Element(&serial, cbasn1.INTEGER) {
		return nil, fmt.Errorf("%w: serial number", ErrMalformed)
	}
	t.serialElem = serial
	var err error
	if t.serial, t.serialDER, err = readLenientInteger(serial); err != nil {
		return nil, fmt.Errorf("serial number: %w", err)
	}
	var sigAlg, issuer, validity, subject, spki cryptobyte.String
	if !seq.ReadASN1Element(&sigAlg, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&issuer, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&validity, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&subject, cbasn1.SEQUENCE) ||
		!seq.ReadASN1Element(&spki, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: TBSCertificate fields", ErrMalformed)
	}
	t.sigAlg, t.issuer, t.validity, t.subject, t.spki = sigAlg, issuer, validity, subject, spki
	if t.notBefore, t.notAfter, err = parseValidity(validity); err != nil {
		return nil, err
	}
	for _, tag := range []cbasn1.Tag{
		cbasn1.Tag(1).ContextSpecific(), cbasn1.Tag(2).ContextSpecific(),
	} {
		// Unique identifiers are BIT STRINGs, [1] and [2] IMPLICIT; some
		// encoders mark them constructed.
		if seq.PeekASN1Tag(tag) || seq.PeekASN1Tag(tag.Constructed()) {
			var uid cryptobyte.String
			var got cbasn1.Tag
			if !seq.ReadAnyASN1Element(&uid, &got) {
				return nil, fmt.Errorf("%w: unique identifier", ErrMalformed)
			}
			t.uniqueIDs = append(t.uniqueIDs, uid)
		}
	}
	extTag := cbasn1.Tag(3).ContextSpecific().Constructed()
	if seq.PeekASN1Tag(extTag) {
		var outer, exts cryptobyte.String
		if !seq.ReadASN1(&outer, extTag) || !outer.ReadASN1(&exts, cbasn1.SEQUENCE) || !outer.Empty() {
			return nil, fmt.Errorf("%w: extensions", ErrMalformed)
		}
		for !exts.Empty() {
			if len(t.extensions) == MaxExtensions {
				return nil, fmt.Errorf("%w: more than %d extensions", ErrLimitExceeded, MaxExtensions)
			}
			e, err := readExtension(&exts)
			if err != nil {
				return nil, err
			}
			t.extensions = append(t.extensions, e)
		}
	}
	if !seq.Empty() {
		return nil, fmt.Errorf("%w: trailing data in TBSCertificate", ErrMalformed)
	}
	return t, nil
}

func readExtension(exts *cryptobyte.String) (extension, error) {
	var e extension
	var raw, ext cryptobyte.String
	if !exts.ReadASN1Element(&raw, cbasn1.SEQUENCE) {
		return e, fmt.Errorf("%w: extension", ErrMalformed)
	}
	e.raw = raw
	if !raw.ReadASN1(&ext, cbasn1.SEQUENCE) || !ext.ReadASN1ObjectIdentifier(&e.oid) {
		return e, fmt.Errorf("%w: extension", ErrMalformed)
	}
	if ext.PeekASN1Tag(cbasn1.BOOLEAN) {
		// Read by hand: DER wants 0xFF for TRUE and no explicit FALSE,
		// and real certificates have both 0x01 and an explicit FALSE.
		var b cryptobyte.String
		if !ext.ReadASN1(&b, cbasn1.BOOLEAN) || len(b) != 1 {
			return e, fmt.Errorf("%w: extension %v critical flag", ErrMalformed, e.oid)
		}
		e.critical = b[0] != 0
	}
	var value cryptobyte.String
	if !ext.ReadASN1(&value, cbasn1.OCTET_STRING) || !ext.Empty() {
		return e, fmt.Errorf("%w: extension %v value", ErrMalformed, e.oid)
	}
	e.value = value
	return e, nil
}

// readLenientInteger reads an INTEGER element as two's complement,
// accepting the non-minimal encodings DER forbids. minimal reports whether
// the encoding was DER.
func readLenientInteger(elem []byte) (n *big.Int, minimal bool, err error) {
	in := cryptobyte.String(elem)
	var content cryptobyte.String
	if !in.ReadASN1(&content, cbasn1.INTEGER) || len(content) == 0 {
		return nil, false, fmt.Errorf("%w: INTEGER", ErrMalformed)
	}
	n, minimal = der.Integer(content)
	return n, minimal, nil
}

func parseValidity(elem []byte) (notBefore, notAfter time.Time, err error) {
	in := cryptobyte.String(elem)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return notBefore, notAfter, fmt.Errorf("%w: validity", ErrMalformed)
	}
	if notBefore, err = readTime(&seq); err != nil {
		return notBefore, notAfter, fmt.Errorf("notBefore: %w", err)
	}
	if notAfter, err = readTime(&seq); err != nil {
		return notBefore, notAfter, fmt.Errorf("notAfter: %w", err)
	}
	if !seq.Empty() {
		return notBefore, notAfter, fmt.Errorf("%w: trailing data in validity", ErrMalformed)
	}
	return notBefore, notAfter, nil
}

// readTime reads a UTCTime or GeneralizedTime, accepting the forms real
// certificates use beyond DER: no seconds, fractions, offsets instead of Z.
func readTime(s *cryptobyte.String) (time.Time, error) {
	var content cryptobyte.String
	var tag cbasn1.Tag
	if !s.ReadAnyASN1(&content, &tag) {
		return time.Time{}, fmt.Errorf("%w: time", ErrMalformed)
	}
	return ParseTime(tag == cbasn1.GeneralizedTime, string(content))
}

// ParseTime parses the content of a GeneralizedTime (generalized true) or
// UTCTime leniently: seconds optional, fractions of a second, a "Z" or a
// +hhmm/-hhmm offset (no zone at all is read as UTC). UTCTime years 50-99
// are 1950-1999 (RFC 5280, section 4.1.2.5.1).
func ParseTime(generalized bool, s string) (time.Time, error) {
	layouts := []string{"060102150405Z0700", "0601021504Z0700", "060102150405", "0601021504"}
	if generalized {
		layouts = []string{"20060102150405.999999999Z0700", "200601021504Z0700", "20060102150405.999999999", "200601021504"}
	}
	for _, layout := range layouts {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if !generalized && t.Year() >= 2050 {
			t = t.AddDate(-100, 0, 0)
		}
		return t.UTC(), nil
	}
	return time.Time{}, fmt.Errorf("%w: time %q", ErrMalformed, s)
}
