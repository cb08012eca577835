package xades

import (
	"context"
	"errors"
	"fmt"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/tsp"
	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// typeManifest is the Type of a reference to a ds:Manifest (XMLDSig
// 5.1).
const typeManifest = "http://www.w3.org/2000/09/xmldsig#Manifest"

// signature builds the evidence of el, a ds:Signature: a top-level
// signature when parentValue is nil, else a counter-signature of the
// signature whose ds:SignatureValue is parentValue, at depth.
func (rd *reading) signature(ctx context.Context, el, parentValue *etree.Element, depth int) (ades.Signature, error) {
	rd.count++
	if rd.count > MaxSignatures {
		return ades.Signature{}, fmt.Errorf("%w: %w: more than %d signatures", ports.ErrUnreadable, errLimit, MaxSignatures)
	}
	value := dsChild(el, "SignatureValue")
	sig := ades.Signature{ID: rd.id(value), Format: ades.XAdES}
	if value != nil {
		if b, err := decodeBase64(text(value)); err == nil {
			sig.SignatureValue = b
		}
	}
	q := findQualifying(el)
	sig.Problems = append(sig.Problems, q.problems...)

	// The unsigned values first: CertificateValues are candidates for
	// the signer.
	vd := newValidationData()
	u := readUnsigned(q.unsigned, vd)

	chk, err := xmldsig.CheckSignature(rd.tree, el, xmldsig.CheckOptions{Certificates: candidates(vd, rd.doc), Resolve: rd.resolve,
		DiscardOctets: !hashesReferences(q.props)})
	if err != nil {
		if errors.Is(err, xmldsig.ErrLimitExceeded) {
			return ades.Signature{}, fmt.Errorf("%w: xades: %w", ports.ErrUnreadable, err)
		}
		// The signature cannot be read at all: a format failure.
		code := CodeSignatureMalformed
		switch {
		case errors.Is(err, xmldsig.ErrDuplicateID):
			code = CodeDuplicateID
		case errors.Is(err, xmldsig.ErrUnsupported):
			code = CodeReferenceUnresolved
		}
		sig.Problems = append(sig.Problems, ades.Problem{Code: code, Message: err.Error(), FormatFailure: true})
		sig.Value = ades.Check{Reason: code}
		sig.Level = ades.NotBaseline
		if q.props == nil {
			sig.Form = formNotETSI
		}
		sig.Certificates, sig.CRLs, sig.OCSPResponses = vd.Certificates, vd.CRLs, vd.OCSPResponses
		sig.Problems = append(sig.Problems, vd.Problems...)
		return sig, nil
	}

	// The signature's certificates: KeyInfo's first (they come first in
	// the document), then the unsigned values.
	all := newValidationData()
	for _, c := range chk.KeyInfoCertificates {
		all.AddCertificate(c)
	}
	for _, c := range vd.Certificates {
		all.AddCertificate(c)
	}
	all.CRLs, all.OCSPResponses = vd.CRLs, vd.OCSPResponses
	all.Over = vd.Over

	in := &inputs{sig: el, signedInfo: chk.SignedInfo, value: chk.SignatureValue, keyInfo: dsChild(el, "KeyInfo"), props: q.props, unsigned: q.unsigned}
	facts := levelFacts{}
	spRefs := rd.references(&sig, el, chk, in, &facts, parentValue)

	signed := rd.signedProperties(&sig, q, spRefs)
	var props signedProps
	if signed != nil {
		props = readSigned(signed)
		facts.qualifying = true
		sig.Problems = append(sig.Problems, props.problems...)
		sig.ClaimedSigningTime = props.signingTime
		sig.CommitmentTypes = props.commitments
		sig.PolicyID = props.policyID
	}

	sig.Value = valueCheck(chk)
	sig.SigningCertificate = chk.Signer
	if sig.SigningCertificate == nil {
		sig.SigningCertificate = referencedCertificate(props.certRefs, append(all.Certificates, rd.doc.Certificates...))
	}
	sig.Reference = reference(props.refElements > 0, props.certRefs, sig.SigningCertificate)

	// Time-stamps: content ones first (signed), then the unsigned ones in
	// their order.
	items := make([]tsItem, 0, len(props.contentTS)+len(u.timestamps))
	for _, c := range props.contentTS {
		k := kindAllDataObjects
		if c.Tag == "IndividualDataObjectsTimeStamp" {
			k = kindIndividualDataObjects
		}
		items = append(items, tsItem{c, k})
	}
	items = append(items, u.timestamps...)
	n := 0
	for _, it := range items {
		p := readTimestamp(it.el, &sig.Problems)
		for _, der := range p.tokens {
			if n++; n > MaxTimestamps {
				return ades.Signature{}, fmt.Errorf("%w: %w: more than %d time-stamps in one signature", ports.ErrUnreadable, errLimit, MaxTimestamps)
			}
			tok, err := tsp.Parse(der)
			if err != nil {
				sig.Problems = append(sig.Problems, ades.Problem{Code: CodeTimestampUnreadable, Message: fmt.Sprintf("%s: %v", it.el.Tag, err)})
				continue
			}
			sig.Timestamps = append(sig.Timestamps, cades.TimestampEvidenceOf(it.kind.timestampType(), tok, all.Certificates, in.input(it, p.c14n), imprintCodes))
			switch it.kind {
			case kindSignature:
				facts.signatureTS++
			case kindArchive132, kindArchive141:
				facts.archiveTS++
			case kindSigAndRefs, kindSigAndRefsV2, kindRefsOnly, kindRefsOnlyV2:
				facts.xTS++
			}
		}
	}

	facts.values, facts.refs = u.values, u.refs
	if facts.signatureTS == 0 && facts.qualifying {
		// A time-mark stands where a signature time-stamp stands.
		if value, err := decodeBase64(text(chk.SignatureValue)); err == nil {
			sig.TimeMark = timeMark(all.OCSPResponses, sig.SigningCertificate, value, sig.PolicyID)
		}
		facts.timeMark = sig.TimeMark != nil
	}
	sig.Level, sig.Form = level(&sig, facts)
	if sig.Form != formLTTM {
		sig.TimeMark = nil
	}
	if facts.qualifying && sig.Reference.Present && !props.hasSigningTime {
		sig.Problems = append(sig.Problems, ades.Say(CodeNoSigningTime, "missing", "signing-certificate reference without SigningTime (required by EN 319 132-1 B-B)"))
	}
	sig.Problems = append(sig.Problems, all.Problems...)
	sig.Problems = append(sig.Problems, vd.Problems...)
	if all.Over {
		sig.Problems = append(sig.Problems, ades.Say(CodeLimitExceeded, "left-out", "validation data beyond the limits was left out"))
	}
	sig.Certificates, sig.CRLs, sig.OCSPResponses = all.Certificates, all.CRLs, all.OCSPResponses

	// Counter-signatures.
	if len(u.counters) > 0 && depth+1 > MaxCounterSignatureDepth {
		return ades.Signature{}, fmt.Errorf("%w: %w: counter-signatures nested deeper than %d", ports.ErrUnreadable, errLimit, MaxCounterSignatureDepth)
	}
	for _, cs := range u.counters {
		c, err := rd.signature(ctx, cs, chk.SignatureValue, depth+1)
		if err != nil {
			return ades.Signature{}, err
		}
		c.CounterSignatureOf = sig.ID
		sig.CounterSignatures = append(sig.CounterSignatures, c)
	}
	return sig, nil
}

// hashesReferences reports whether the qualifying properties props hold a
// time-stamp whose input is the references' octets: a content time-stamp
// (AllDataObjectsTimeStamp, IndividualDataObjectsTimeStamp) or an archive
// one. Without any, the references are only digested, and their octets,
// the canonical form of a whole document for an enveloped signature, need
// not be kept. It looks at the whole of props, counter-signatures
// included: keeping octets that are not needed costs memory only.
func hashesReferences(props *etree.Element) bool {
	if props == nil {
		return false
	}
	for _, c := range props.ChildElements() {
		if isXAdES(c, "AllDataObjectsTimeStamp") || isXAdES(c, "IndividualDataObjectsTimeStamp") || isXAdES(c, "ArchiveTimeStamp") || hashesReferences(c) {
			return true
		}
	}
	return false
}

// references turns the checked references into data objects, problems
// and the time-stamps' view of them, and returns the references that
// cover a SignedProperties (by Type or by target).
func (rd *reading) references(sig *ades.Signature, el *etree.Element, chk *xmldsig.Checked, in *inputs, facts *levelFacts, parentValue *etree.Element) []xmldsig.ReferenceCheck {
	var spRefs []xmldsig.ReferenceCheck
	coversParent := false
	for _, rc := range chk.References {
		if rc.Manifest != nil {
			manifestEntry(sig, rc)
			continue
		}
		if rc.Type == typeSignedProperties || (rc.Element != nil && isXAdES(rc.Element, "SignedProperties")) {
			spRefs = append(spRefs, rc)
			in.refs = append(in.refs, signedRef{id: rc.ID, octets: rc.Octets, found: rc.Found, signedProperties: true, element: rc.Element, bare: bare(rc)})
			if rc.Found && !rc.Intact && rc.Unchecked == "" {
				// The signed properties were altered: what the signature
				// covers is not what the document shows (HASH_FAILURE, as
				// DSS has it).
				sig.DataObjects = append(sig.DataObjects, dataObject(rc, "xades:SignedProperties"))
			}
			continue
		}
		facts.dataRefs++
		obj := dataObject(rc, rc.Name)
		if parentValue != nil && rc.Element == parentValue {
			obj.Name, coversParent = "signature-value", true
		}
		if rc.Type == typeManifest && rc.Found && !manifestInSignature(rc.Element, el) {
			// A manifest outside the signature's ds:Object elements (or
			// not a ds:Manifest) is not what the reference's Type says it
			// signs: a wrapping attempt, or a signature no reader can
			// show the content of.
			obj.Found, obj.Intact = false, false
			sig.Problems = append(sig.Problems, ades.Problem{Code: CodeManifestMisplaced, Message: fmt.Sprintf("reference %q of Type Manifest does not select a ds:Manifest in a ds:Object of the signature", rc.URI)})
		}
		switch rc.Unchecked {
		case "":
		case xmldsig.ReasonXSLTUnsupported:
			// What an XSLT transform makes of the data is a program's
			// output that no reader of this service runs: what was
			// signed cannot be shown, which is the format's failure.
			sig.Problems = append(sig.Problems, ades.Problem{Code: CodeXSLTTransform, FormatFailure: true,
				Message: fmt.Sprintf("reference %q: an XSLT transform: running a stylesheet from a document is refused, so what was signed cannot be shown", rc.URI)})
		default:
			sig.Problems = append(sig.Problems, ades.Problem{Code: CodeUnsupportedTransform, Message: fmt.Sprintf("reference %q: %s", rc.URI, rc.Unchecked)})
		}
		sig.DataObjects = append(sig.DataObjects, obj)
		in.refs = append(in.refs, signedRef{id: rc.ID, octets: rc.Octets, found: rc.Found, element: rc.Element, bare: bare(rc)})
	}
	if parentValue != nil && !coversParent {
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeCounterSignatureTarget, FormatFailure: true,
			Message: "the counter-signature has no reference to the ds:SignatureValue of the signature it counter-signs"})
	}
	return spRefs
}

// bare reports whether rc is a same-document reference without
// transforms: its output is a node-set.
func bare(rc xmldsig.ReferenceCheck) bool {
	return len(rc.Transforms) == 0 && !rc.Detached && rc.Element != nil
}

func dataObject(rc xmldsig.ReferenceCheck, name string) ades.DataObject {
	if name == "" {
		name = rc.URI
	}
	unchecked := rc.Unchecked
	if unchecked == xmldsig.ReasonUnsupportedDigest {
		// A digest by an algorithm this reader does not know cannot be
		// shown to match what was signed: the data object is not intact,
		// as DSS reports it (the corpus's xades-034), rather than
		// unchecked, which the process would take for a cryptographic
		// constraint on an algorithm it knows. The problem names it.
		unchecked = ""
	}
	return ades.DataObject{
		Name:            name,
		Found:           rc.Found,
		Part:            rc.Part,
		Intact:          rc.Found && rc.Intact && unchecked == "",
		Unchecked:       unchecked,
		DigestAlgorithm: cert.HashName(digestHash(rc.DigestMethod)),
		Digest:          rc.Digest,
	}
}

// manifestEntry reports a ds:Manifest reference that does not hold: a
// warning (XMLDSig 5.1: the application decides what a manifest's
// references mean; DSS warns).
func manifestEntry(sig *ades.Signature, rc xmldsig.ReferenceCheck) {
	name := rc.Name
	if name == "" {
		name = rc.URI
	}
	switch {
	case !rc.Found:
		sig.Problems = append(sig.Problems, ades.Say(CodeManifestEntryNotFound, "entry", fmt.Sprintf("manifest entry %q: data not found", name), verdict.QuotedParam("Entry", name)))
	case rc.Unchecked != "":
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeManifestEntryNotIntact, Message: fmt.Sprintf("manifest entry %q: not checked (%s)", name, rc.Unchecked)})
	case !rc.Intact:
		sig.Problems = append(sig.Problems, ades.Say(CodeManifestEntryNotIntact, "digest", fmt.Sprintf("manifest entry %q: digest mismatch", name), verdict.QuotedParam("Entry", name)))
	}
}

// manifestInSignature reports whether m is a ds:Manifest child of a
// ds:Object child of sig.
func manifestInSignature(m, sig *etree.Element) bool {
	if !isDS(m, "Manifest") {
		return false
	}
	obj := m.Parent()
	return obj != nil && isDS(obj, "Object") && obj.Parent() == sig
}

// signedProperties returns the SignedProperties the signature covers,
// nil when there is none (a plain XMLDSig signature) or when the
// reference to it is not sound, which is then a format failure.
func (rd *reading) signedProperties(sig *ades.Signature, q qualifying, refs []xmldsig.ReferenceCheck) *etree.Element {
	fail := func(code, msg string) *etree.Element {
		sig.Problems = append(sig.Problems, ades.Problem{Code: code, Message: msg, FormatFailure: true})
		return nil
	}
	switch {
	case q.props == nil && len(refs) == 0:
		return nil
	case q.props == nil:
		return fail(CodeSignedPropertiesReference, "a SignedProperties reference, but no xades:QualifyingProperties in the signature")
	case q.signedCandidate == nil:
		return fail(CodeSignedPropertiesNotSigned, "xades:QualifyingProperties without SignedProperties")
	case len(refs) == 0:
		return fail(CodeSignedPropertiesNotSigned, "no ds:Reference covers the xades:SignedProperties")
	case len(refs) > 1:
		return fail(CodeSignedPropertiesReference, fmt.Sprintf("%d references cover a SignedProperties (EN 319 132-1 allows one)", len(refs)))
	}
	rc := refs[0]
	if !rc.Found || rc.Element != q.signedCandidate {
		return fail(CodeSignedPropertiesReference, fmt.Sprintf("reference %q of Type SignedProperties does not select the signature's xades:SignedProperties", rc.URI))
	}
	if rc.Type != typeSignedProperties {
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeSignedPropertiesType,
			Message: fmt.Sprintf("the reference to the SignedProperties has Type %q, not %q", rc.Type, typeSignedProperties)})
	}
	return q.signedCandidate
}

// valueCheck turns xmldsig's check of the signature value into an
// ades.Check.
func valueCheck(chk *xmldsig.Checked) ades.Check {
	c := ades.Check{Done: chk.Value.Done, Valid: chk.Value.Valid, Algorithm: chk.Algorithm}
	if c.Done && c.Valid {
		return c
	}
	switch chk.Value.Reason {
	case xmldsig.ReasonNoCertificate, xmldsig.ReasonNoMatchingKey:
		c.Reason = CodeSignerNotFound
	case xmldsig.ReasonSignatureInvalid:
		c.Reason = CodeSignatureInvalid
	case xmldsig.ReasonUnsupportedKey, xmldsig.ReasonUnsupportedSignatureMethod, xmldsig.ReasonUnsupportedCanonicalization:
		c.Reason = CodeUnsupportedAlgorithm
	default:
		c.Reason = "XADES_" + chk.Value.Reason
	}
	return c
}
