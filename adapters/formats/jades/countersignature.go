package jades

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// Counter-signatures (TS 119 182-1 5.3.2): a cSig component holds one
// JAdES signature, in the compact serialisation (a string) or the
// flattened JSON one (an object), whose JWS Payload is the JWS Signature
// Value (the octets) of the signature whose etsiU holds it. The payload
// is usually detached: the counter-signature is then read with that
// value as its only detached part, as DSS does, so that the payload
// rules, sigD included, are those of any signature.

// signatureValueName is the name of a counter-signature's data object,
// as the CAdES reader names it.
const signatureValueName = "signature-value"

// errLimit is wrapped, with ports.ErrUnreadable by Read, for input over a
// limit.
var errLimit = errors.New("jades: limit exceeded")

// counterSigned is what a counter-signature counter-signs: the JWS
// Signature Value of its parent, and its own nesting depth (1 for a cSig
// of a signature of the document).
type counterSigned struct {
	value []byte
	depth int
}

// counterSignatures reads the cSig components of sig, whose JWS
// Signature Value is value, at depth (0 for a signature of the
// document), into sig.CounterSignatures. A cSig that cannot be read is a
// CodeCounterSignatureUnreadable problem of sig and is left out: it
// attests to sig, it does not change what sig is. Input over a limit is
// an error.
func (rd *reading) counterSignatures(sig *ades.Signature, comps []component, value []byte, depth int) error {
	for i, c := range comps {
		if c.name != "cSig" {
			continue
		}
		if depth+1 > MaxCounterSignatureDepth {
			return fmt.Errorf("%w: counter-signatures nested deeper than %d", errLimit, MaxCounterSignatureDepth)
		}
		cs, err := rd.counterSignature(c.val, value, depth+1)
		if errors.Is(err, errLimit) {
			return err
		}
		if err != nil {
			sig.Problems = append(sig.Problems, ades.Problem{Code: CodeCounterSignatureUnreadable,
				Message: fmt.Sprintf("etsiU[%d] cSig is not read: %v", i, err)})
			continue
		}
		cs.CounterSignatureOf = sig.ID
		sig.CounterSignatures = append(sig.CounterSignatures, cs)
	}
	return nil
}

// counterSignature reads the cSig value v, a counter-signature of the
// signature value parent at depth.
func (rd *reading) counterSignature(v *value, parent []byte, depth int) (ades.Signature, error) {
	j, err := counterJWS(v)
	if err != nil {
		return ades.Signature{}, err
	}
	sub := *rd
	sub.doc.Detached = []ports.Detached{{Name: signatureValueName, Data: parent}}
	return sub.signature(j, &counterSigned{value: parent, depth: depth})
}

// counterJWS is the JWS a cSig value holds: a compact serialisation (a
// string) or a flattened JSON one (an object).
func counterJWS(v *value) (jws, error) {
	switch v.kind {
	case kindString:
		parts, ok := compactParts([]byte(v.str))
		if !ok {
			return jws{}, errors.New("a string that is not a JWS compact serialisation")
		}
		return jws{protected: string(parts[0]), payload: parts[1], attached: len(parts[1]) > 0, signature: string(parts[2])}, nil
	case kindObject:
		if v.get("signatures") != nil {
			return jws{}, errors.New("a general JSON serialisation, not the compact or flattened one TS 119 182-1 asks for")
		}
		j, err := entry(v, "the counter-signature")
		if err != nil {
			return jws{}, err
		}
		if j.payload, j.attached, err = payloadOf(v); err != nil {
			return jws{}, err
		}
		return j, nil
	}
	return jws{}, fmt.Errorf("%v, neither a compact serialisation (a string) nor a flattened one (an object)", v.kind)
}

// counterDataObjects makes the data objects of counter-signature sig
// those of its parent's signature value. An attached payload is the
// value as the signing input carries it, or another one (not intact): the
// signature value checks the payload, not that it is the parent's. A
// detached one was the value itself, supplied as a part of no upload:
// its position is cleared.
func counterDataObjects(sig *ades.Signature, h protectedHeader, j jws, parent []byte) {
	if h.sigD == nil && j.attached {
		want := parent
		if h.b64 {
			want = []byte(base64.RawURLEncoding.EncodeToString(parent))
		}
		for i := range sig.DataObjects {
			sig.DataObjects[i].Name = signatureValueName
			sig.DataObjects[i].Intact = sig.DataObjects[i].Found && bytes.Equal(j.payload, want)
		}
		return
	}
	for i := range sig.DataObjects {
		sig.DataObjects[i].Part = 0
	}
}
