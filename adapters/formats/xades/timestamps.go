package xades

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
)

// errNoContent: an input of the imprint is not available (a detached
// data object not supplied).
var errNoContent = fmt.Errorf("xades: %w", cades.ErrNoContent)

// errUnsupported: the input uses what this reader does not compute.
var errUnsupported = errors.New("xades: unsupported time-stamp input")

// signedRef is one ds:Reference of SignedInfo as the time-stamps see it.
type signedRef struct {
	id string
	// octets are the reference's data after its transforms, as digested;
	// nil when not found or not computed.
	octets []byte
	found  bool
	// signedProperties: the reference to the SignedProperties.
	signedProperties bool
	// element is the element a same-document reference selected, and
	// bare says it had no transforms: its output is a node-set, which a
	// time-stamp canonicalises with its own method (EN 319 132-1 5.5.2.2
	// step 2), not with the XMLDSig default its digest used.
	element *etree.Element
	bare    bool
}

// bytesFor returns the octets the reference contributes to a time-stamp
// whose canonicalisation is c14n.
func (r signedRef) bytesFor(c14n string) ([]byte, error) {
	if !r.found {
		return nil, errNoContent
	}
	if r.bare && r.element != nil {
		return xmldsig.Canonicalize(r.element, c14n, nil)
	}
	if r.octets == nil {
		return nil, errNoContent
	}
	return r.octets, nil
}

// inputs is what the time-stamps of one signature cover.
type inputs struct {
	sig        *etree.Element // ds:Signature
	signedInfo *etree.Element
	value      *etree.Element // ds:SignatureValue
	keyInfo    *etree.Element // nil when absent
	refs       []signedRef    // SignedInfo's, in order
	props      *etree.Element // xades:QualifyingProperties
	unsigned   *etree.Element // UnsignedSignatureProperties
}

// canonical writes the canonical form of each element to buf.
func canonical(buf *bytes.Buffer, c14n string, els ...*etree.Element) error {
	for _, el := range els {
		if el == nil {
			continue
		}
		b, err := xmldsig.Canonicalize(el, c14n, nil)
		if err != nil {
			return err
		}
		buf.Write(b)
	}
	return nil
}

// signatureTS is the input of a SignatureTimeStamp: the canonicalised
// ds:SignatureValue element (EN 319 132-1 5.3).
func (in *inputs) signatureTS(c14n string) ([]byte, error) {
	var buf bytes.Buffer
	err := canonical(&buf, c14n, in.value)
	return buf.Bytes(), err
}

// allDataObjects is the input of an AllDataObjectsTimeStamp: every
// SignedInfo reference but the SignedProperties one, in order (EN 319
// 132-1 5.2.8.1).
func (in *inputs) allDataObjects(c14n string) ([]byte, error) {
	var buf bytes.Buffer
	for _, r := range in.refs {
		if r.signedProperties {
			continue
		}
		b, err := r.bytesFor(c14n)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	return buf.Bytes(), nil
}

// individualDataObjects is the input of an IndividualDataObjectsTimeStamp:
// the references its xades:Include elements name ("#" and a Reference
// Id), in the includes' order (EN 319 132-1 5.2.8.2).
func (in *inputs) individualDataObjects(ts *etree.Element, c14n string) ([]byte, error) {
	var buf bytes.Buffer
	n := 0
	for _, inc := range childrenOf(ts, func(c *etree.Element) bool { return isXAdES(c, "Include") }) {
		if n++; n > MaxPropertyItems {
			return nil, fmt.Errorf("%w: more than %d includes", errUnsupported, MaxPropertyItems)
		}
		if strings.EqualFold(attr(inc, "referencedData"), "false") {
			return nil, fmt.Errorf("%w: an include with referencedData false", errUnsupported)
		}
		id, ok := strings.CutPrefix(attr(inc, "URI"), "#")
		found := false
		for _, r := range in.refs {
			if ok && r.id == id && !r.signedProperties {
				b, err := r.bytesFor(c14n)
				if err != nil {
					return nil, err
				}
				buf.Write(b)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%w: include %q names no reference", errUnsupported, attr(inc, "URI"))
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: no include", errUnsupported)
	}
	return buf.Bytes(), nil
}

// before returns the children of in.unsigned that precede ts, in order.
func (in *inputs) before(ts *etree.Element) []*etree.Element {
	var out []*etree.Element
	for _, c := range kids(in.unsigned) {
		if c == ts {
			break
		}
		out = append(out, c)
	}
	return out
}

// hasLocal reports whether el's local name is one of names (in a XAdES
// namespace).
func hasLocal(el *etree.Element, names ...string) bool {
	if _, ok := xadesNS(el); !ok {
		return false
	}
	for _, n := range names {
		if el.Tag == n {
			return true
		}
	}
	return false
}

// refsNames are the properties a SigAndRefsTimeStamp and a
// RefsOnlyTimeStamp cover besides the signature value (XAdES 1.3.2 7.5.1,
// 7.5.2; EN 319 132-1 A.1.5 for the V2 forms).
func refsNames(v2 bool) []string {
	if v2 {
		return []string{"CompleteCertificateRefsV2", "CompleteRevocationRefs", "AttributeCertificateRefsV2", "AttributeRevocationRefs"}
	}
	return []string{"CompleteCertificateRefs", "CompleteRevocationRefs", "AttributeCertificateRefs", "AttributeRevocationRefs"}
}

// sigAndRefs is the input of a SigAndRefsTimeStamp(V2): the
// ds:SignatureValue, then the SignatureTimeStamp and reference properties
// that precede it, in their order of appearance.
func (in *inputs) sigAndRefs(ts *etree.Element, c14n string, v2 bool) ([]byte, error) {
	var buf bytes.Buffer
	if err := canonical(&buf, c14n, in.value); err != nil {
		return nil, err
	}
	names := append(refsNames(v2), "SignatureTimeStamp")
	for _, c := range in.before(ts) {
		if hasLocal(c, names...) {
			if err := canonical(&buf, c14n, c); err != nil {
				return nil, err
			}
		}
	}
	return buf.Bytes(), nil
}

// refsOnly is the input of a RefsOnlyTimeStamp(V2): the reference
// properties that precede it, in their order of appearance.
func (in *inputs) refsOnly(ts *etree.Element, c14n string, v2 bool) ([]byte, error) {
	var buf bytes.Buffer
	for _, c := range in.before(ts) {
		if hasLocal(c, refsNames(v2)...) {
			if err := canonical(&buf, c14n, c); err != nil {
				return nil, err
			}
		}
	}
	return buf.Bytes(), nil
}

// archive is the input of an ArchiveTimeStamp (EN 319 132-1 5.5.2.2, the
// not distributed case; XAdES 1.3.2 7.7.1 when v132):
//
//  1. every SignedInfo reference, the SignedProperties one included, in
//     order, processed as XMLDSig does (a node-set canonicalised with the
//     time-stamp's method);
//  2. the canonicalised ds:SignedInfo, ds:SignatureValue and ds:KeyInfo
//     when present;
//  3. every unsigned signature property before the time-stamp, in order;
//  4. every ds:Object of the signature but the one holding the
//     QualifyingProperties (1.3.2: and but those a reference names by
//     "#Id").
func (in *inputs) archive(ts *etree.Element, c14n string, v132 bool) ([]byte, error) {
	var buf bytes.Buffer
	referenced := map[string]bool{}
	for _, r := range in.refs {
		b, err := r.bytesFor(c14n)
		if err != nil {
			return nil, err
		}
		buf.Write(b)
	}
	for _, r := range in.refURIs() {
		referenced[r] = true
	}
	if err := canonical(&buf, c14n, in.signedInfo, in.value, in.keyInfo); err != nil {
		return nil, err
	}
	if ts.Parent() == in.unsigned {
		if err := canonical(&buf, c14n, in.before(ts)...); err != nil {
			return nil, err
		}
	}
	for _, obj := range childrenOf(in.sig, func(c *etree.Element) bool { return isDS(c, "Object") }) {
		if in.props != nil && in.props.Parent() == obj {
			continue
		}
		if v132 && referenced[attr(obj, "Id")] && attr(obj, "Id") != "" {
			continue
		}
		if err := canonical(&buf, c14n, obj); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// refURIs returns the Ids the SignedInfo references name ("#id").
func (in *inputs) refURIs() []string {
	var out []string
	for _, r := range childrenOf(in.signedInfo, func(c *etree.Element) bool { return isDS(c, "Reference") }) {
		if id, ok := strings.CutPrefix(attr(r, "URI"), "#"); ok {
			out = append(out, id)
		}
	}
	return out
}

// tsProperty is one XAdES time-stamp property (XAdESTimeStampType): its
// canonicalisation and its encapsulated tokens.
type tsProperty struct {
	el     *etree.Element
	c14n   string
	tokens [][]byte
}

// readTimestamp reads el, a time-stamp property. An XMLTimeStamp is
// reported, not read.
func readTimestamp(el *etree.Element, problems *[]ades.Problem) tsProperty {
	p := tsProperty{el: el, c14n: algorithm(el, "CanonicalizationMethod")}
	if p.c14n == "" {
		p.c14n = defaultC14N
	}
	for _, c := range el.ChildElements() {
		switch {
		case isXAdES(c, "EncapsulatedTimeStamp"):
			der, err := decodeBase64(c.Text())
			if err != nil {
				*problems = append(*problems, ades.Problem{Code: CodeTimestampUnreadable, Message: fmt.Sprintf("%s: %v", el.Tag, err)})
				continue
			}
			p.tokens = append(p.tokens, der)
		case isXAdES(c, "XMLTimeStamp"):
			*problems = append(*problems, ades.Say(CodeTimestampUnsupported, "xml", el.Tag+": XMLTimeStamp is not read", verdict.TextParam("Element", el.Tag)))
		}
	}
	return p
}

// input returns the function computing the imprint input of a time-stamp
// property it.
func (in *inputs) input(it tsItem, c14n string) func() ([]byte, error) {
	return func() ([]byte, error) {
		switch it.kind {
		case kindAllDataObjects:
			return in.allDataObjects(c14n)
		case kindIndividualDataObjects:
			return in.individualDataObjects(it.el, c14n)
		case kindSignature:
			return in.signatureTS(c14n)
		case kindSigAndRefs, kindSigAndRefsV2:
			return in.sigAndRefs(it.el, c14n, it.kind == kindSigAndRefsV2)
		case kindRefsOnly, kindRefsOnlyV2:
			return in.refsOnly(it.el, c14n, it.kind == kindRefsOnlyV2)
		case kindArchive132, kindArchive141:
			return in.archive(it.el, c14n, it.kind == kindArchive132)
		}
		return nil, errUnsupported
	}
}

// imprintCodes name the reasons of this reader's time-stamp imprints
// (cades.TimestampEvidenceOf).
var imprintCodes = cades.ImprintCodes{
	NoContent: CodeNoContent, NotComputed: CodeImprintNotComputed,
	Mismatch: CodeImprintMismatch, UnsupportedAlgorithm: CodeUnsupportedAlgorithm,
}
