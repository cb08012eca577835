package cades

import (
	"bytes"
	"crypto"
	"encoding/asn1"
	"fmt"
	"slices"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
)

// This file is the one place where the archive-time-stamp-v3 imprint and
// its ats-hash-index-v3 are computed: the reader checks with it and the
// CAdES fixture signer (fixtures/cades) builds with it.

// HashIndex is a parsed ATSHashIndex(-v2, -v3) (EN 319 122-1, 5.5.2):
//
//	ATSHashIndexV3 ::= SEQUENCE {
//	  hashIndAlgorithm            AlgorithmIdentifier DEFAULT {algorithm id-sha256},
//	  certificatesHashIndex       SEQUENCE OF OCTET STRING,
//	  crlsHashIndex               SEQUENCE OF OCTET STRING,
//	  unsignedAttrValuesHashIndex SEQUENCE OF OCTET STRING }
type HashIndex struct {
	Hash         crypto.Hash
	Certificates [][]byte
	CRLs         [][]byte
	Attributes   [][]byte
	// PerValue is true for v3 (one entry per unsigned attribute value,
	// the hash of the DER attrType followed by the DER value), false for
	// the earlier forms (one entry per attribute, its whole DER).
	PerValue bool
}

// rawSignedData are the encoded elements of a SignedData the
// archive-time-stamp-v3 covers, located in SignedData.Raw.
type rawSignedData struct {
	certs, crls [][]byte // CertificateChoices and RevocationInfoChoice elements
	// encap, certsField and crlsField are the encapContentInfo and the
	// [0] and [1] elements, as encoded (nil when absent).
	encap, certsField, crlsField []byte
}

// locate finds the certificates and crls elements of sd as encoded. The
// input must be DER (definite lengths) around them.
func locate(sd *cms.SignedData) (*rawSignedData, error) {
	in := cryptobyte.String(sd.Raw)
	var ci, oid, explicit, body cryptobyte.String
	if !in.ReadASN1(&ci, cbasn1.SEQUENCE) || !ci.ReadASN1(&oid, cbasn1.OBJECT_IDENTIFIER) ||
		!ci.ReadASN1(&explicit, cbasn1.Tag(0).ContextSpecific().Constructed()) ||
		!explicit.ReadASN1(&body, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: ContentInfo is not DER", ErrStructure)
	}
	var encap cryptobyte.String
	if !body.SkipASN1(cbasn1.INTEGER) || !body.SkipASN1(cbasn1.SET) || !body.ReadASN1Element(&encap, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: SignedData is not DER", ErrStructure)
	}
	out := &rawSignedData{encap: encap}
	var err error
	for i, tag := range []cbasn1.Tag{cbasn1.Tag(0).ContextSpecific().Constructed(), cbasn1.Tag(1).ContextSpecific().Constructed()} {
		if !body.PeekASN1Tag(tag) {
			continue
		}
		var elem, field cryptobyte.String
		body.ReadASN1Element(&elem, tag)
		copyElem := elem
		copyElem.ReadASN1(&field, tag)
		var elems [][]byte
		if elems, err = members(field); err != nil {
			return nil, err
		}
		if i == 0 {
			out.certs, out.certsField = elems, elem
		} else {
			out.crls, out.crlsField = elems, elem
		}
	}
	return out, nil
}

// members splits the contents of a constructed element into elements.
func members(s cryptobyte.String) ([][]byte, error) {
	var out [][]byte
	for !s.Empty() {
		if len(out) == MaxAttributeItems {
			return nil, fmt.Errorf("%w: more than %d elements", ErrStructure, MaxAttributeItems)
		}
		var e cryptobyte.String
		var tag cbasn1.Tag
		if !s.ReadAnyASN1Element(&e, &tag) {
			return nil, fmt.Errorf("%w: element is not DER", ErrStructure)
		}
		out = append(out, e)
	}
	return out, nil
}

// signerFields returns the SignerInfo fields version, sid,
// digestAlgorithm, signedAttrs (the [0] IMPLICIT element, when present),
// signatureAlgorithm and signature, as encoded: everything but the
// unsigned attributes.
func signerFields(si *cms.SignerInfo) ([][]byte, error) {
	in := cryptobyte.String(si.Raw)
	var body cryptobyte.String
	if !in.ReadASN1(&body, cbasn1.SEQUENCE) {
		return nil, fmt.Errorf("%w: SignerInfo is not DER", ErrStructure)
	}
	fields, err := members(body)
	if err != nil {
		return nil, err
	}
	if n := len(fields); n > 0 && fields[n-1][0] == 0xa1 {
		fields = fields[:n-1]
	}
	return fields, nil
}

// HashIndexV3 returns the DER ATSHashIndexV3 of signer si of sd as they
// are now, with hash h (SHA-256 is the default and omitted): the hash of
// each certificates and crls element as encoded (tag and length
// included, the [1] OtherRevocationInfoFormat too) and, for each
// unsigned attribute value in order, the hash of the DER attrType
// followed by the DER value. A signer adds it to the archive time-stamp
// token's unsigned attributes (OIDAttrATSHashIndexV3) before adding the
// token to si.
func HashIndexV3(sd *cms.SignedData, si *cms.SignerInfo, h crypto.Hash) ([]byte, error) {
	idx, err := computeIndex(sd, si, h, true)
	if err != nil {
		return nil, err
	}
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		if h != crypto.SHA256 {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(cert.OIDFromHash(h))
			})
		}
		for _, list := range [][][]byte{idx.Certificates, idx.CRLs, idx.Attributes} {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				for _, sum := range list {
					b.AddASN1OctetString(sum)
				}
			})
		}
	})
	out, err := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("cades: encode ATSHashIndexV3: %w", err)
	}
	return out, nil
}

// computeIndex hashes the elements of sd and si the way an index of kind
// perValue does.
func computeIndex(sd *cms.SignedData, si *cms.SignerInfo, h crypto.Hash, perValue bool) (*HashIndex, error) {
	if h == 0 || !h.Available() || cert.OIDFromHash(h) == nil {
		return nil, fmt.Errorf("%w: hash %v", ErrUnsupported, h)
	}
	raw, err := locate(sd)
	if err != nil {
		return nil, err
	}
	sum := func(parts ...[]byte) []byte {
		hh := h.New()
		for _, p := range parts {
			hh.Write(p)
		}
		return hh.Sum(nil)
	}
	idx := &HashIndex{Hash: h, PerValue: perValue}
	for _, c := range raw.certs {
		idx.Certificates = append(idx.Certificates, sum(c))
	}
	for _, c := range raw.crls {
		idx.CRLs = append(idx.CRLs, sum(c))
	}
	for _, a := range si.UnsignedAttrs {
		if !perValue {
			idx.Attributes = append(idx.Attributes, sum(a.Raw))
			continue
		}
		typ, err := asn1.Marshal(a.Type)
		if err != nil {
			return nil, fmt.Errorf("%w: attrType %v", ErrStructure, a.Type)
		}
		for _, v := range a.Values {
			idx.Attributes = append(idx.Attributes, sum(typ, v))
		}
	}
	return idx, nil
}

// ParseHashIndex reads an ATSHashIndex value (DER); perValue says which
// form its attribute type names (true for OIDAttrATSHashIndexV3).
func ParseHashIndex(der []byte, perValue bool) (*HashIndex, error) {
	in := cryptobyte.String(der)
	var body cryptobyte.String
	if !in.ReadASN1(&body, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, fmt.Errorf("%w: ATSHashIndex", ErrStructure)
	}
	idx := &HashIndex{Hash: crypto.SHA256, PerValue: perValue}
	if body.PeekASN1Tag(cbasn1.SEQUENCE) {
		// Either hashIndAlgorithm or certificatesHashIndex: an
		// AlgorithmIdentifier starts with an OBJECT IDENTIFIER.
		var peek cryptobyte.String
		probe := body
		if probe.ReadASN1(&peek, cbasn1.SEQUENCE) && peek.PeekASN1Tag(cbasn1.OBJECT_IDENTIFIER) {
			var alg cryptobyte.String
			body.ReadASN1Element(&alg, cbasn1.SEQUENCE)
			h, err := cert.HashFromAlgorithmIdentifier(alg)
			if err != nil {
				return nil, fmt.Errorf("%w: hashIndAlgorithm: %w", ErrUnsupported, err)
			}
			idx.Hash = h
		}
	}
	for _, list := range []*[][]byte{&idx.Certificates, &idx.CRLs, &idx.Attributes} {
		var seq cryptobyte.String
		if !body.ReadASN1(&seq, cbasn1.SEQUENCE) {
			return nil, fmt.Errorf("%w: ATSHashIndex lists", ErrStructure)
		}
		for !seq.Empty() {
			if len(*list) == MaxAttributeItems {
				return nil, fmt.Errorf("%w: ATSHashIndex over %d entries", ErrStructure, MaxAttributeItems)
			}
			var o cryptobyte.String
			if !seq.ReadASN1(&o, cbasn1.OCTET_STRING) {
				return nil, fmt.Errorf("%w: ATSHashIndex entry", ErrStructure)
			}
			*list = append(*list, o)
		}
	}
	if !body.Empty() {
		return nil, fmt.Errorf("%w: trailing data in ATSHashIndex", ErrStructure)
	}
	return idx, nil
}

// ArchiveImprintV3 returns the message imprint, with hash h, of an
// archive-time-stamp-v3 of signer si of sd (EN 319 122-1, 5.5.3): the hash
// of the concatenation of
//
//  1. the eContentType, DER with tag and length;
//  2. the hash (h) of the signed content: the eContent octets or, when
//     detached, content;
//  3. the SignerInfo fields version, sid, digestAlgorithm, signedAttrs,
//     signatureAlgorithm and signature, as encoded;
//  4. hashIndex, the DER ats-hash-index-v3 value the token carries.
//
// The unsigned attributes, the time-stamp's own included, reach the
// imprint only through hashIndex, so the imprint does not change when the
// token is added.
func ArchiveImprintV3(sd *cms.SignedData, si *cms.SignerInfo, h crypto.Hash, content, hashIndex []byte) ([]byte, error) {
	if h == 0 || !h.Available() {
		return nil, fmt.Errorf("%w: hash %v", ErrUnsupported, h)
	}
	ct, err := asn1.Marshal(sd.ContentType)
	if err != nil {
		return nil, fmt.Errorf("%w: eContentType", ErrStructure)
	}
	fields, err := signerFields(si)
	if err != nil {
		return nil, err
	}
	if sd.Content != nil {
		content = sd.Content
	}
	ch := h.New()
	ch.Write(content)
	hh := h.New()
	hh.Write(ct)
	hh.Write(ch.Sum(nil))
	for _, f := range fields {
		hh.Write(f)
	}
	hh.Write(hashIndex)
	return hh.Sum(nil), nil
}

// checkHashIndex reports whether every entry of idx stands for an element
// of sd and si as they are now (EN 319 122-1, 5.5.2: an index with an
// entry matching nothing is invalid; elements added after the time-stamp
// are not in it).
func checkHashIndex(sd *cms.SignedData, si *cms.SignerInfo, idx *HashIndex) (bool, error) {
	now, err := computeIndex(sd, si, idx.Hash, idx.PerValue)
	if err != nil {
		return false, err
	}
	covered := func(want, have [][]byte) bool {
		for _, w := range want {
			if !slices.ContainsFunc(have, func(b []byte) bool { return bytes.Equal(b, w) }) {
				return false
			}
		}
		return true
	}
	return covered(idx.Certificates, now.Certificates) && covered(idx.CRLs, now.CRLs) &&
		covered(idx.Attributes, now.Attributes), nil
}
