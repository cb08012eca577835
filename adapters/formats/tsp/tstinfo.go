package tsp

import (
	"crypto"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// TSTInfo is the content of a time-stamp token (RFC 3161, section 2.4.2).
type TSTInfo struct {
	// Raw is the DER as given to ParseTSTInfo.
	Raw []byte

	Version        int
	Policy         asn1.ObjectIdentifier
	MessageImprint MessageImprint
	SerialNumber   *big.Int

	// GenTime is the time of the time-stamp, in UTC, with the fractions of
	// a second the TSA wrote.
	GenTime time.Time

	// Accuracy is zero when absent.
	Accuracy Accuracy
	Ordering bool

	// Nonce is nil when absent.
	Nonce *big.Int

	// TSA is the DER of the tsa GeneralName, nil when absent; see
	// TSADirectoryName.
	TSA []byte

	Extensions []pkix.Extension
}

// MessageImprint is the hash the token time-stamps.
type MessageImprint struct {
	// HashAlgorithm is the AlgorithmIdentifier, DER. Hash is the hash it
	// names, 0 when this package does not know it.
	HashAlgorithm []byte
	Hash          crypto.Hash
	HashedMessage []byte
}

// Accuracy is the accuracy of GenTime (RFC 3161, section 2.4.2).
type Accuracy struct {
	Seconds, Millis, Micros int
}

// Duration returns the accuracy as a duration.
func (a Accuracy) Duration() time.Duration {
	return time.Duration(a.Seconds)*time.Second + time.Duration(a.Millis)*time.Millisecond +
		time.Duration(a.Micros)*time.Microsecond
}

// TSADirectoryName returns the DER Name of the tsa field when it is a
// directoryName.
func (info *TSTInfo) TSADirectoryName() ([]byte, bool) {
	in := cryptobyte.String(info.TSA)
	var dn, name cryptobyte.String
	if !in.ReadASN1(&dn, cbasn1.Tag(4).ContextSpecific().Constructed()) ||
		!dn.ReadASN1Element(&name, cbasn1.SEQUENCE) || !dn.Empty() {
		return nil, false
	}
	return name, true
}

// ParseTSTInfo reads a DER TSTInfo.
func ParseTSTInfo(der []byte) (*TSTInfo, error) {
	info := &TSTInfo{Raw: der}
	in := cryptobyte.String(der)
	var s cryptobyte.String
	if !in.ReadASN1(&s, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, fmt.Errorf("%w: TSTInfo is not a SEQUENCE", ErrMalformed)
	}
	var version int64
	if !s.ReadASN1Int64WithTag(&version, cbasn1.INTEGER) || version != 1 {
		return nil, fmt.Errorf("%w: TSTInfo version", ErrMalformed)
	}
	info.Version = int(version)
	if !s.ReadASN1ObjectIdentifier(&info.Policy) {
		return nil, fmt.Errorf("%w: TSTInfo policy", ErrMalformed)
	}
	mi, err := readMessageImprint(&s)
	if err != nil {
		return nil, err
	}
	info.MessageImprint = mi
	if info.SerialNumber, err = readInteger(&s, "serialNumber"); err != nil {
		return nil, err
	}
	var genTime cryptobyte.String
	if !s.ReadASN1(&genTime, cbasn1.GeneralizedTime) {
		return nil, fmt.Errorf("%w: TSTInfo genTime", ErrMalformed)
	}
	if info.GenTime, err = cert.ParseTime(true, string(genTime)); err != nil {
		return nil, fmt.Errorf("%w: genTime: %v", ErrMalformed, err)
	}
	if s.PeekASN1Tag(cbasn1.SEQUENCE) {
		if info.Accuracy, err = readAccuracy(&s); err != nil {
			return nil, err
		}
	}
	if s.PeekASN1Tag(cbasn1.BOOLEAN) {
		if !s.ReadASN1Boolean(&info.Ordering) {
			return nil, fmt.Errorf("%w: TSTInfo ordering", ErrMalformed)
		}
	}
	if s.PeekASN1Tag(cbasn1.INTEGER) {
		if info.Nonce, err = readInteger(&s, "nonce"); err != nil {
			return nil, err
		}
	}
	tsaTag := cbasn1.Tag(0).ContextSpecific().Constructed()
	if s.PeekASN1Tag(tsaTag) {
		// [0] EXPLICIT GeneralName: GeneralName is a CHOICE.
		var tsa, name cryptobyte.String
		var tag cbasn1.Tag
		if !s.ReadASN1(&tsa, tsaTag) || !tsa.ReadAnyASN1Element(&name, &tag) || !tsa.Empty() {
			return nil, fmt.Errorf("%w: TSTInfo tsa", ErrMalformed)
		}
		info.TSA = name
	}
	extTag := cbasn1.Tag(1).ContextSpecific().Constructed()
	if s.PeekASN1Tag(extTag) {
		if info.Extensions, err = readExtensions(&s, extTag); err != nil {
			return nil, err
		}
	}
	if !s.Empty() {
		return nil, fmt.Errorf("%w: trailing data in TSTInfo", ErrMalformed)
	}
	return info, nil
}

func readMessageImprint(s *cryptobyte.String) (MessageImprint, error) {
	var mi MessageImprint
	var seq, alg, hashed cryptobyte.String
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) || !seq.ReadASN1Element(&alg, cbasn1.SEQUENCE) ||
		!seq.ReadASN1(&hashed, cbasn1.OCTET_STRING) || !seq.Empty() {
		return mi, fmt.Errorf("%w: messageImprint", ErrMalformed)
	}
	mi.HashAlgorithm, mi.HashedMessage = alg, hashed
	if h, err := cert.HashFromAlgorithmIdentifier(alg); err == nil {
		mi.Hash = h
	}
	return mi, nil
}

// readInteger reads an INTEGER of at most MaxIntegerSize bytes.
func readInteger(s *cryptobyte.String, field string) (*big.Int, error) {
	var raw cryptobyte.String
	if !s.PeekASN1Tag(cbasn1.INTEGER) {
		return nil, fmt.Errorf("%w: TSTInfo %s", ErrMalformed, field)
	}
	probe := *s
	if !probe.ReadASN1(&raw, cbasn1.INTEGER) {
		return nil, fmt.Errorf("%w: TSTInfo %s", ErrMalformed, field)
	}
	if len(raw) > MaxIntegerSize {
		return nil, fmt.Errorf("%w: %s of %d bytes", ErrLimitExceeded, field, len(raw))
	}
	n := new(big.Int)
	if !s.ReadASN1Integer(n) {
		return nil, fmt.Errorf("%w: TSTInfo %s", ErrMalformed, field)
	}
	return n, nil
}

// readAccuracy reads Accuracy ::= SEQUENCE { seconds INTEGER OPTIONAL,
// millis [0] INTEGER (1..999) OPTIONAL, micros [1] INTEGER (1..999)
// OPTIONAL }, tagged implicitly.
func readAccuracy(s *cryptobyte.String) (Accuracy, error) {
	var a Accuracy
	var seq cryptobyte.String
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return a, fmt.Errorf("%w: accuracy", ErrMalformed)
	}
	read := func(tag cbasn1.Tag, max int64, out *int) error {
		if !seq.PeekASN1Tag(tag) {
			return nil
		}
		var n int64
		if !seq.ReadASN1Int64WithTag(&n, tag) || n < 0 || n > max {
			return fmt.Errorf("%w: accuracy value", ErrMalformed)
		}
		*out = int(n)
		return nil
	}
	if err := read(cbasn1.INTEGER, 1<<31-1, &a.Seconds); err != nil {
		return a, err
	}
	if err := read(cbasn1.Tag(0).ContextSpecific(), 999, &a.Millis); err != nil {
		return a, err
	}
	if err := read(cbasn1.Tag(1).ContextSpecific(), 999, &a.Micros); err != nil {
		return a, err
	}
	if !seq.Empty() {
		return a, fmt.Errorf("%w: trailing data in accuracy", ErrMalformed)
	}
	return a, nil
}

func readExtensions(s *cryptobyte.String, tag cbasn1.Tag) ([]pkix.Extension, error) {
	var exts cryptobyte.String
	if !s.ReadASN1(&exts, tag) {
		return nil, fmt.Errorf("%w: TSTInfo extensions", ErrMalformed)
	}
	var out []pkix.Extension
	for !exts.Empty() {
		if len(out) == MaxExtensions {
			return nil, fmt.Errorf("%w: more than %d extensions", ErrLimitExceeded, MaxExtensions)
		}
		var ext cryptobyte.String
		var e pkix.Extension
		if !exts.ReadASN1(&ext, cbasn1.SEQUENCE) || !ext.ReadASN1ObjectIdentifier(&e.Id) {
			return nil, fmt.Errorf("%w: TSTInfo extension", ErrMalformed)
		}
		if ext.PeekASN1Tag(cbasn1.BOOLEAN) && !ext.ReadASN1Boolean(&e.Critical) {
			return nil, fmt.Errorf("%w: TSTInfo extension critical flag", ErrMalformed)
		}
		var value cryptobyte.String
		if !ext.ReadASN1(&value, cbasn1.OCTET_STRING) || !ext.Empty() {
			return nil, fmt.Errorf("%w: TSTInfo extension value", ErrMalformed)
		}
		e.Value = value
		out = append(out, e)
	}
	return out, nil
}
