package cades

import (
	"bytes"
	"crypto"
	"slices"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/domain/ades"
)

// archiveV2Inputs returns the candidate data an archive-time-stamp v2
// (TS 101 733 V2.2.1, 6.4.1; RFC 5126) of si, the attribute ats, covers:
// the encapContentInfo element (followed by the content when detached),
// the certificates and crls elements, the SignerInfo fields and the
// unsigned attributes. Implementations differ on the detail (which
// unsigned attributes, the tag of the crls and unsigned attribute
// elements), so the readings below are all tried; a match on any of them
// is a valid imprint:
//
//   - unsigned attributes: all but the archive time-stamps (v2 and v3),
//     or those before ats in input order;
//   - each wrapped in [1] IMPLICIT (as DSS does) or bare;
//   - crls as the [1] element or re-tagged as a SET.
func archiveV2Inputs(sd *cms.SignedData, si *cms.SignerInfo, ats cms.Attribute, content []byte) ([][]byte, error) {
	raw, err := locate(sd)
	if err != nil {
		return nil, err
	}
	fields, err := signerFields(si)
	if err != nil {
		return nil, err
	}
	var before, others [][]byte
	seen := false
	for _, a := range si.UnsignedAttrs {
		if bytes.Equal(a.Raw, ats.Raw) {
			seen = true
			continue
		}
		if !seen {
			before = append(before, a.Raw)
		}
		if !a.Type.Equal(OIDAttrArchiveTimeStampV2) && !a.Type.Equal(cms.OIDAttrArchiveTimeStampV3) {
			others = append(others, a.Raw)
		}
	}
	wrap := func(attrs [][]byte) []byte {
		var b cryptobyte.Builder
		b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			for _, a := range attrs {
				b.AddBytes(a)
			}
		})
		out, err := b.Bytes()
		if err != nil {
			return nil
		}
		return out
	}
	head := slices.Clone(raw.encap)
	if sd.Content == nil {
		head = append(head, content...)
	}
	crlVariants := [][]byte{raw.crlsField}
	if raw.crlsField != nil {
		crlVariants = append(crlVariants, append([]byte{0x31}, raw.crlsField[1:]...))
	}
	var out [][]byte
	for _, crls := range crlVariants {
		common := slices.Concat(head, raw.certsField, crls, slices.Concat(fields...))
		for _, attrs := range [][][]byte{others, before} {
			out = append(out, slices.Concat(common, wrap(attrs)), slices.Concat(common, slices.Concat(attrs...)))
		}
	}
	return out, nil
}

// archiveV2Imprint checks the imprint of an archive-time-stamp v2. When no
// reading matches, the check is reported not done (CodeImprintNotComputed)
// rather than failed: the v2 encodings in use vary more than this reader
// knows.
func (rd *reading) archiveV2Imprint(si *cms.SignerInfo, ats cms.Attribute, tok *tsp.Token, content []byte, found bool) ades.Check {
	h := tok.Info.MessageImprint.Hash
	c := ades.Check{Algorithm: cert.HashName(h)}
	if !found {
		c.Reason = CodeNoContent
		return c
	}
	if h == 0 || !h.Available() {
		c.Reason = CodeUnsupportedAlgorithm
		return c
	}
	inputs, err := archiveV2Inputs(rd.sd, si, ats, content)
	if err != nil {
		c.Reason = CodeImprintNotComputed
		return c
	}
	for _, in := range inputs {
		if tok.CheckImprintDigest(digest(h, in)) == nil {
			c.Done, c.Valid = true, true
			return c
		}
	}
	c.Reason = CodeImprintNotComputed
	return c
}

func digest(h crypto.Hash, b []byte) []byte {
	hh := h.New()
	hh.Write(b)
	return hh.Sum(nil)
}
