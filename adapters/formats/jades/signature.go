package jades

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/svc-dss/dss/adapters/formats/cades"
	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/domain/ades"
)

// sigD mechanisms (TS 119 182-1 5.2.8).
const (
	mechHTTPHeaders   = "http://uri.etsi.org/19182/HttpHeaders"
	mechObjectIDByURI = "http://uri.etsi.org/19182/ObjectIdByURI"
	mechURIHash       = "http://uri.etsi.org/19182/ObjectIdByURIHash"
)

// formNotETSI is DSS's name for a JWS of no baseline level.
const formNotETSI = "JSON_NOT_ETSI"

// signature builds the evidence of one signature: a signature of the
// document when parent is nil, else a counter-signature of parent. An
// error is a document that is not well-formed or over a limit: Read
// wraps it with ports.ErrUnreadable.
func (rd *reading) signature(j jws, parent *counterSigned) (ades.Signature, error) {
	if *rd.count++; *rd.count > MaxSignatures {
		return ades.Signature{}, fmt.Errorf("%w: more than %d signatures, counter-signatures included", errLimit, MaxSignatures)
	}
	sig := ades.Signature{ID: rd.id(j.signature), Format: ades.JAdES}
	protBytes, err := decodeB64URL("protected header", j.protected)
	if err != nil {
		return sig, err
	}
	hdr, err := parseJSON(protBytes)
	if err != nil {
		return sig, fmt.Errorf("protected header: %w", err)
	}
	if hdr.kind != kindObject {
		return sig, fmt.Errorf("protected header is %v, not an object", hdr.kind)
	}
	sigValue, err := decodeB64URL("signature", j.signature)
	if err != nil {
		return sig, err
	}
	sig.SignatureValue = sigValue
	if j.attached {
		// How a Signature Validation Token names the signed bytes
		// (ades.Signature).
		input := sha256.Sum256([]byte(j.protected + "." + string(j.payload)))
		sig.SignedBytesSHA256 = input[:]
	}
	comps, problems, err := readComponents(j.header)
	if err != nil {
		return sig, err
	}
	h := readProtected(hdr, j.header)
	if j.attached && h.b64 && (!isB64URL(j.payload) || len(j.payload)%4 == 1) {
		return sig, errors.New("payload: invalid base64url (RFC 7515 section 2, no padding)")
	}
	sig.Problems = append(sig.Problems, h.problems...)
	sig.Problems = append(sig.Problems, problems...)

	// Validation data first: xVals are candidates for the signer.
	vd := newValidationData()
	for _, c := range h.x5c {
		vd.AddCertificate(c)
	}
	facts := levelFacts{reference: h.refNamed}
	for _, c := range comps {
		switch c.name {
		case "xVals":
			facts.values = vd.addXVals(c.val, "xVals") > 0 || facts.values
		case "rVals":
			facts.values = vd.addRVals(c.val, "rVals") > 0 || facts.values
		case "tstVD":
			vd.addXVals(c.val.get("xVals"), "tstVD.xVals")
			vd.addRVals(c.val.get("rVals"), "tstVD.rVals")
		case "axVals", "arVals":
			// Attribute certificates and their revocation data: the
			// signature's attributes, not its signer's path.
			if c.val.kind != kindArray && c.val.kind != kindObject {
				vd.Problem(CodeMalformedProperty, "%s is %v", c.name, c.val.kind)
			}
		case "sigTst", "arcTst", "cSig":
			// Read below: the time-stamps after the signature value, the
			// counter-signatures last.
		case "sigRTst", "xRefs", "rRefs", "axRefs", "arRefs", "sigR", "sigAndRfsTst", "rfsTst", "sigPSt":
			vd.Problem(CodeUnknownComponent, "etsiU component %s is not read", c.name)
		default:
			vd.Problem(CodeUnknownComponent, "etsiU component %q is not one of TS 119 182-1", c.name)
		}
	}

	// What was signed.
	a, known, algErr := lookupAlgorithm(h.alg)
	payloads := rd.dataObjects(&sig, h, j, a)

	// The signature value.
	cands := append(append([]*x509.Certificate(nil), vd.Certificates...), rd.doc.Certificates...)
	signer := h.signer(cands)
	switch {
	case h.alg == "":
		sig.Value = ades.Check{Reason: CodeHeaderInvalid}
	case algErr != nil:
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeAlgorithmRefused, Message: algErr.Error(), FormatFailure: true})
		sig.Value = ades.Check{Reason: CodeAlgorithmRefused}
	case !known:
		sig.Value = ades.Check{Algorithm: h.alg, Reason: CodeUnsupportedAlgorithm}
	case payloads.reason != "":
		sig.Value = ades.Check{Algorithm: a.name, Reason: payloads.reason}
	case signer == nil:
		sig.Value = ades.Check{Algorithm: a.name, Reason: CodeSignerNotFound}
	default:
		sig.Value, signer = rd.verify(&sig, a, signer, h, j, payloads, sigValue)
	}
	if parent != nil {
		counterDataObjects(&sig, h, j, parent.value)
	}
	sig.SigningCertificate = signer
	sig.Reference = ades.CertificateReference{Present: h.refNamed, IssuerSerialPresent: h.kid != nil, IssuerSerialMatched: h.kid.matches(signer)}
	for _, r := range h.refs {
		if r.matches(signer) {
			sig.Reference.DigestMatched = true
		}
	}
	sig.ClaimedSigningTime = h.sigT
	sig.CommitmentTypes = h.commits
	sig.PolicyID = h.policyID

	// Time-stamps: the content one (signed), then the unsigned ones in
	// their order.
	in := &inputs{j: j, payload: payloads.chosen(), comps: comps, sigD: h.sigD != nil}
	n := 0
	add := func(typ ades.TimestampType, v *value, name string, input func(canonAlg string) func() ([]byte, error)) error {
		toks, canonAlg := tokens(v, name, &sig.Problems)
		for _, tok := range toks {
			if n++; n > MaxTimestamps {
				return fmt.Errorf("more than %d time-stamps in one signature", MaxTimestamps)
			}
			sig.Timestamps = append(sig.Timestamps, cades.TimestampEvidenceOf(typ, tok, vd.Certificates, input(canonAlg), imprintCodes))
			switch typ {
			case ades.SignatureTimestamp:
				facts.signatureTS++
			case ades.ArchiveTimestamp:
				facts.archiveTS++
			}
		}
		return nil
	}
	if h.adoTst != nil {
		if err := add(ades.ContentTimestamp, h.adoTst, "adoTst", func(string) func() ([]byte, error) { return in.dataObjects }); err != nil {
			return sig, err
		}
	}
	for i, c := range comps {
		var err error
		switch c.name {
		case "sigTst":
			err = add(ades.SignatureTimestamp, c.val, "sigTst", func(string) func() ([]byte, error) { return in.signatureValue })
		case "arcTst":
			err = add(ades.ArchiveTimestamp, c.val, "arcTst", func(canonAlg string) func() ([]byte, error) {
				return func() ([]byte, error) { return in.archive(i, canonAlg) }
			})
		}
		if err != nil {
			return sig, err
		}
	}

	sig.Level, sig.Form = level(facts)
	if sig.Reference.Present && !h.hasSigT {
		sig.Problems = append(sig.Problems, ades.Say(CodeNoSigningTime, "missing", "no sigT in the protected header (required by TS 119 182-1 B-B)"))
	}
	sig.Problems = append(sig.Problems, vd.Problems...)
	if vd.Over {
		sig.Problems = append(sig.Problems, ades.Say(CodeLimitExceeded, "left-out", "validation data beyond the limits was left out"))
	}
	sig.Certificates, sig.CRLs, sig.OCSPResponses = vd.Certificates, vd.CRLs, vd.OCSPResponses

	depth := 0
	if parent != nil {
		depth = parent.depth
	}
	if err := rd.counterSignatures(&sig, comps, sigValue, depth); err != nil {
		return ades.Signature{}, err
	}
	return sig, nil
}

// signer is the certificate the header names: the first candidate an
// x5t#S256, x5t#o or sigX5ts digest matches, else the first of x5c,
// else the one kid's IssuerSerial names; nil when none.
func (h *protectedHeader) signer(cands []*x509.Certificate) *x509.Certificate {
	for _, r := range h.refs {
		for _, c := range cands {
			if r.matches(c) {
				return c
			}
		}
	}
	if len(h.x5c) > 0 {
		return h.x5c[0]
	}
	for _, c := range cands {
		if h.kid.matches(c) {
			return c
		}
	}
	return nil
}

// verify checks the signature value over each candidate payload, with
// signer's key, then (when that fails) with the first x5c certificate's,
// which RFC 7515 says holds the key. It returns the check and the
// certificate whose key verified (signer when none did).
func (rd *reading) verify(sig *ades.Signature, a jwsAlgorithm, signer *x509.Certificate, h protectedHeader, j jws, p *payloadChoice, value []byte) (ades.Check, *x509.Certificate) {
	keys := []*x509.Certificate{signer}
	if len(h.x5c) > 0 && h.x5c[0] != signer {
		keys = append(keys, h.x5c[0])
	}
	first := ades.Check{}
	for k, c := range keys {
		if !a.keyMatches(c.PublicKey) {
			if k == 0 {
				first = ades.Check{Done: true, Algorithm: a.name, Reason: CodeKeyMismatch}
			}
			continue
		}
		for i, pl := range p.payloads {
			// The signing input is hashed as it is written, the payload
			// base64url-encoded on the way: a detached file is never
			// copied.
			w := a.alg.Hash.New()
			w.Write([]byte(j.protected))
			w.Write([]byte{'.'})
			pl.writeTo(w)
			err := cert.CheckDigestSignature(c.PublicKey, a.alg, w.Sum(nil), value)
			var chk ades.Check
			switch {
			case err == nil:
				p.pick(sig, i)
				return ades.Check{Done: true, Valid: true, Algorithm: a.name}, c
			case errors.Is(err, cert.ErrSignatureInvalid):
				chk = ades.Check{Done: true, Algorithm: a.name, Reason: CodeSignatureInvalid}
			default:
				chk = ades.Check{Algorithm: a.name, Reason: CodeUnsupportedAlgorithm}
			}
			if k == 0 && i == 0 {
				first = chk
			}
		}
	}
	p.pick(sig, 0)
	return first, signer
}

// payloadChoice is what the JWS Payload of the signing input may be: one
// candidate, or (a detached payload without sigD, several parts) one per
// part; reason says why there is none.
type payloadChoice struct {
	payloads []payload
	// parts are the data objects of each candidate, when they differ:
	// pick puts the chosen one in the signature.
	parts  []ades.DataObject
	reason string
	picked int
}

func (p *payloadChoice) pick(sig *ades.Signature, i int) {
	p.picked = i
	if len(p.parts) > 0 {
		sig.DataObjects = []ades.DataObject{p.parts[i]}
	}
}

// chosen returns the JWS Payload of the signing input, nil when there
// is none.
func (p *payloadChoice) chosen() func() []byte {
	return func() []byte {
		if len(p.payloads) == 0 {
			return nil
		}
		return p.payloads[p.picked].bytes()
	}
}

// payload is a JWS Payload as the signing input has it: chunks of octets,
// each as it is or to be base64url-encoded.
type payload []chunk

type chunk struct {
	data   []byte
	encode bool
}

// writeTo writes the payload to w, encoding on the way.
func (pl payload) writeTo(w io.Writer) {
	for _, c := range pl {
		if !c.encode {
			w.Write(c.data)
			continue
		}
		writeEncoded(w, c.data)
	}
}

// bytes is the payload as one slice (non-nil).
func (pl payload) bytes() []byte {
	var b bytes.Buffer
	pl.writeTo(&b)
	if b.Len() == 0 {
		return []byte{}
	}
	return b.Bytes()
}

// dataObjects fills sig.DataObjects and returns the payloads the signing
// input may have.
//
//   - An attached payload is one data object, "payload", found and
//     intact: the JWS Payload has no digest of its own, the signature
//     value is its check (a changed payload is a signature that does not
//     verify).
//   - A detached payload without sigD is the detached part supplied
//     (each part is tried when several are).
//   - sigD ObjectIdByURIHash: each named part with its digest, over its
//     base64url encoding (its octets under b64 false), against hashV.
//   - sigD ObjectIdByURI: each named part; the JWS Payload is their
//     concatenation, each base64url-encoded (the octets under b64 false).
//   - sigD HttpHeaders: the JWS Payload is the signature string of
//     draft-cavage-http-signatures over the named header fields, each
//     the detached part of its name (case-insensitively); a field not
//     given is not found.
//   - Another mechanism: not computed.
func (rd *reading) dataObjects(sig *ades.Signature, h protectedHeader, j jws, a jwsAlgorithm) *payloadChoice {
	p := &payloadChoice{}
	digestName := cert.HashName(a.alg.Hash)
	if h.sigD == nil {
		if j.attached {
			sig.DataObjects = []ades.DataObject{{Name: "payload", Found: true, Intact: true, DigestAlgorithm: digestName}}
			p.payloads = []payload{{{data: j.payload}}}
			return p
		}
		if len(rd.doc.Detached) == 0 {
			sig.DataObjects = []ades.DataObject{{Name: "payload", DigestAlgorithm: digestName}}
			p.reason = CodeNoContent
			return p
		}
		for i, d := range rd.doc.Detached {
			p.payloads = append(p.payloads, payload{{data: d.Data, encode: h.b64}})
			p.parts = append(p.parts, ades.DataObject{Name: rd.partName(i + 1), Part: i + 1, Found: true, Intact: true, DigestAlgorithm: digestName})
		}
		sig.DataObjects = []ades.DataObject{p.parts[0]}
		return p
	}
	mech := strOf(h.sigD.get("mId"))
	pars := h.sigD.get("pars")
	if pars == nil || pars.kind != kindArray || len(pars.elems) == 0 || len(pars.elems) > MaxDetached {
		sig.Problems = append(sig.Problems, ades.Say(CodeHeaderInvalid, "pars", "sigD pars is not an array of 1 to 64 names").Failure())
		p.reason = CodeHeaderInvalid
		return p
	}
	names := make([]string, len(pars.elems))
	for i, e := range pars.elems {
		names[i] = strOf(e)
	}
	switch mech {
	case mechURIHash:
		hm, ok := digestAlgorithm(strOf(h.sigD.get("hashM")))
		hv := h.sigD.get("hashV")
		if hv == nil || hv.kind != kindArray || len(hv.elems) != len(names) {
			sig.Problems = append(sig.Problems, ades.Say(CodeHeaderInvalid, "hashv", "sigD hashV does not give one digest per name of pars").Failure())
			p.reason = CodeHeaderInvalid
			return p
		}
		for i, name := range names {
			do := ades.DataObject{Name: name, DigestAlgorithm: cert.HashName(hm)}
			part, n, found := rd.part(name, len(names))
			if found {
				do.Found, do.Part, do.Name = true, n, rd.partName(n)
				want, err := b64String(hv.elems[i], fmt.Sprintf("sigD hashV[%d]", i))
				do.Digest = want
				switch {
				case !ok:
					do.Unchecked = CodeUnsupportedAlgorithm
					do.DigestAlgorithm = strOf(h.sigD.get("hashM"))
				case err == nil:
					w := hm.New()
					payload{{data: part.Data, encode: h.b64}}.writeTo(w)
					do.Intact = bytes.Equal(w.Sum(nil), want)
				}
			}
			sig.DataObjects = append(sig.DataObjects, do)
		}
		// The JWS Payload is empty (detached); the digests bind the parts.
		p.payloads = []payload{{{data: j.payload}}}
	case mechObjectIDByURI:
		var concat payload
		missing := false
		for _, name := range names {
			do := ades.DataObject{Name: name, DigestAlgorithm: digestName}
			part, n, found := rd.part(name, len(names))
			if found {
				do.Found, do.Intact, do.Part, do.Name = true, true, n, rd.partName(n)
				concat = append(concat, chunk{data: part.Data, encode: h.b64})
			} else {
				missing = true
			}
			sig.DataObjects = append(sig.DataObjects, do)
		}
		if missing {
			p.reason = CodeNoContent
		} else {
			p.payloads = []payload{concat}
		}
	case mechHTTPHeaders:
		// The JWS Payload is the signature string of
		// draft-cavage-http-signatures-10 (2.3) over the named header
		// fields: "name: value" lines joined by "\n", each value the part
		// named as the field (in any case), trimmed.
		var str []byte
		missing := false
		for i, name := range names {
			do := ades.DataObject{Name: name, DigestAlgorithm: digestName}
			n := rd.headerPart(name)
			if n == 0 {
				missing = true
				sig.DataObjects = append(sig.DataObjects, do)
				continue
			}
			do.Found, do.Intact, do.Part, do.Name = true, true, n, rd.partName(n)
			sig.DataObjects = append(sig.DataObjects, do)
			if i > 0 {
				str = append(str, '\n')
			}
			str = append(append(append(str, strings.ToLower(name)...), ": "...), bytes.TrimSpace(rd.doc.Detached[n-1].Data)...)
		}
		if missing {
			p.reason = CodeNoContent
		} else {
			p.payloads = []payload{{{data: str, encode: h.b64}}}
		}
	default:
		// A mechanism of no TS 119 182-1 version: what was signed cannot
		// be rebuilt.
		for _, name := range names {
			sig.DataObjects = append(sig.DataObjects, ades.DataObject{Name: name, Found: true, Unchecked: CodeUnsupportedMechanism, DigestAlgorithm: mech})
		}
		p.reason = CodeUnsupportedMechanism
	}
	return p
}

// inputs computes the imprint inputs of the time-stamps of a signature.
type inputs struct {
	j jws
	// payload returns the JWS Payload of the signing input, nil when
	// unknown; computed when a time-stamp needs it.
	payload func() []byte
	comps   []component
	sigD    bool
}

// signatureValue is the input of sigTst (TS 119 182-1 5.3.4): the
// base64url-encoded JWS Signature Value, as it appears.
func (in *inputs) signatureValue() ([]byte, error) { return []byte(in.j.signature), nil }

// dataObjects is the input of adoTst (5.2.8.1): the JWS Payload as the
// signing input carries it. Over the data objects of a sigD it is not
// computed.
func (in *inputs) dataObjects() ([]byte, error) {
	if in.sigD {
		return nil, fmt.Errorf("%w: adoTst over the data objects of a sigD", errNotComputed)
	}
	pl := in.payload()
	if pl == nil {
		return nil, errNoContent
	}
	return pl, nil
}

// archive is the input of the arcTst at etsiU index i (5.3.6.3): the JWS
// Payload, ".", the protected header, ".", the signature value, ".",
// each base64url-encoded as the signing input has them, then every etsiU
// component before the time-stamp, in order, as it appears. Components in
// clear JSON must be canonicalised with canonAlg first, which this reader
// does not do: the imprint is then not computed.
func (in *inputs) archive(i int, canonAlg string) ([]byte, error) {
	pl := in.payload()
	if pl == nil {
		return nil, errNoContent
	}
	var buf bytes.Buffer
	buf.Write(pl)
	buf.WriteByte('.')
	buf.WriteString(in.j.protected)
	buf.WriteByte('.')
	buf.WriteString(in.j.signature)
	buf.WriteByte('.')
	for _, c := range in.comps[:i] {
		if c.clear {
			return nil, fmt.Errorf("%w: clear-JSON component %s needs canonicalisation (canonAlg %q)", errNotComputed, c.name, canonAlg)
		}
		buf.WriteString(c.enc)
	}
	return buf.Bytes(), nil
}
