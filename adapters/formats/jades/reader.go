package jades

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// Reader reads JAdES signatures (ETSI TS 119 182-1) and plain JWS
// (RFC 7515) in the compact, flattened JSON and general JSON
// serialisations. It implements ports.DocumentReader. The zero value is
// ready to use.
type Reader struct{}

var _ ports.DocumentReader = (*Reader)(nil)

// NewReader returns a Reader.
func NewReader() *Reader { return &Reader{} }

// jws is one signature of a serialisation, as it appears.
type jws struct {
	protected string // the base64url-encoded protected header
	header    *value // the unprotected header; nil when absent
	signature string // the base64url-encoded signature value
	// payload is the JWS Payload as the serialisation carries it (the
	// base64url text, or the octets themselves under b64 false);
	// attached says it is there: a detached payload is absent, or empty.
	payload  []byte
	attached bool
}

// Read returns the evidence of every signature of doc.Data, in order:
// one for a compact or flattened serialisation, one per entry of
// "signatures" for the general one. doc.Detached are the detached data
// objects: a sigD names them, a detached payload without sigD is the
// only part supplied (or the first that verifies).
//
// Input that is not well-formed is refused with an error wrapping
// ports.ErrUnreadable and saying why: invalid base64url, JSON that is
// not strictly valid (a member name given twice, invalid UTF-8, trailing
// data) or over a limit (limits.go).
func (r *Reader) Read(ctx context.Context, doc ports.Document) ([]ades.Signature, error) {
	if !Detect(doc.Data) {
		return nil, fmt.Errorf("%w: jades: not a JWS", ports.ErrNotThisFormat)
	}
	if len(doc.Data) > MaxDocumentSize {
		return nil, fmt.Errorf("%w: jades: document over %d bytes", ports.ErrUnreadable, MaxDocumentSize)
	}
	if len(doc.Detached) > MaxDetached {
		return nil, fmt.Errorf("%w: jades: more than %d detached parts", ports.ErrUnreadable, MaxDetached)
	}
	all, err := serialisation(doc.Data)
	if err != nil {
		return nil, fmt.Errorf("%w: jades: %s: %w", ports.ErrUnreadable, doc.Name, err)
	}
	rd := &reading{doc: doc, ids: map[string]int{}, count: new(int)}
	out := make([]ades.Signature, 0, len(all))
	for i, j := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sig, err := rd.signature(j, nil)
		if err != nil {
			if len(all) > 1 {
				return nil, fmt.Errorf("%w: jades: %s: signature %d: %w", ports.ErrUnreadable, doc.Name, i+1, err)
			}
			return nil, fmt.Errorf("%w: jades: %s: %w", ports.ErrUnreadable, doc.Name, err)
		}
		out = append(out, sig)
	}
	return out, nil
}

// serialisation splits data into its signatures.
func serialisation(data []byte) ([]jws, error) {
	trimmed := bytes.TrimLeft(bytes.TrimPrefix(data, utf8BOM), " \t\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' {
		parts, ok := compactParts(data)
		if !ok {
			return nil, errors.New("not a JWS compact serialisation")
		}
		return []jws{{protected: string(parts[0]), signature: string(parts[2]), payload: parts[1], attached: len(parts[1]) > 0}}, nil
	}
	top, err := parseJSON(trimmed)
	if err != nil {
		return nil, err
	}
	if top.kind != kindObject {
		return nil, errors.New("the JSON serialisation is not an object")
	}
	payload, attached, err := payloadOf(top)
	if err != nil {
		return nil, err
	}
	entries := []*value{top}
	if sigs := top.get("signatures"); sigs != nil {
		if top.get("protected") != nil || top.get("signature") != nil {
			return nil, errors.New("both the general (signatures) and the flattened (protected, signature) serialisation")
		}
		if sigs.kind != kindArray || len(sigs.elems) == 0 {
			return nil, errors.New("signatures is not a non-empty array")
		}
		if len(sigs.elems) > MaxSignatures {
			return nil, fmt.Errorf("more than %d signatures", MaxSignatures)
		}
		entries = sigs.elems
	}
	out := make([]jws, 0, len(entries))
	for i, e := range entries {
		where := "the signature"
		if len(entries) > 1 || top.get("signatures") != nil {
			where = fmt.Sprintf("signatures[%d]", i)
		}
		j, err := entry(e, where)
		if err != nil {
			return nil, err
		}
		j.payload, j.attached = payload, attached
		out = append(out, j)
	}
	return out, nil
}

// payloadOf returns the payload member of a JSON serialisation and
// whether it is attached (present and not empty).
func payloadOf(top *value) ([]byte, bool, error) {
	p := top.get("payload")
	if p == nil {
		return nil, false, nil
	}
	if p.kind != kindString {
		return nil, false, fmt.Errorf("payload is %v, not a string", p.kind)
	}
	return []byte(p.str), p.str != "", nil
}

// entry reads the protected header, the unprotected header and the
// signature of e, one signature of a JSON serialisation (named where in
// errors); the payload is the caller's.
func entry(e *value, where string) (jws, error) {
	if e.kind != kindObject {
		return jws{}, fmt.Errorf("%s is %v, not an object", where, e.kind)
	}
	prot, sig, hdr := e.get("protected"), e.get("signature"), e.get("header")
	switch {
	case prot == nil:
		return jws{}, fmt.Errorf("%s has no protected header (TS 119 182-1 requires one)", where)
	case prot.kind != kindString:
		return jws{}, fmt.Errorf("%s: protected is %v, not a string", where, prot.kind)
	case sig == nil || sig.kind != kindString:
		return jws{}, fmt.Errorf("%s: no signature string", where)
	case hdr != nil && hdr.kind != kindObject:
		return jws{}, fmt.Errorf("%s: header is %v, not an object", where, hdr.kind)
	}
	return jws{protected: prot.str, signature: sig.str, header: hdr}, nil
}

// decodeB64URL decodes base64url without padding (RFC 7515 section 2),
// naming what it decodes when it fails.
func decodeB64URL(what, s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid base64url (RFC 7515 section 2, no padding): %w", what, err)
	}
	return b, nil
}

// decodeB64 decodes the standard base64 of x5c and of the "val" of
// time-stamp tokens and validation data; base64url is tolerated there.
func decodeB64(what, s string) ([]byte, error) {
	if b, err := base64.StdEncoding.DecodeString(s); err == nil {
		return b, nil
	}
	if b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "=")); err == nil {
		return b, nil
	}
	return nil, fmt.Errorf("%s: invalid base64", what)
}

// reading is the state of one Read. A counter-signature is read with a
// copy whose doc has its parent's signature value as the only detached
// part; ids and count are shared.
type reading struct {
	doc ports.Document
	ids map[string]int
	// count is the number of signatures read, counter-signatures
	// included (MaxSignatures).
	count *int
}

// id returns the signature ID: "S-" and the first 16 hex digits of the
// SHA-256 of the base64url signature value; a repeated value gets "-2",
// "-3"... in order.
func (rd *reading) id(sigB64 string) string {
	sum := sha256.Sum256([]byte(sigB64))
	id := "S-" + hex.EncodeToString(sum[:])[:16]
	rd.ids[id]++
	if n := rd.ids[id]; n > 1 {
		id = fmt.Sprintf("%s-%d", id, n)
	}
	return id
}

// part finds the detached part a sigD names: by name, else by base name,
// else the only part when only one part is named and one supplied.
func (rd *reading) part(name string, named int) (ports.Detached, int, bool) {
	parts := rd.doc.Detached
	for i, p := range parts {
		if name != "" && p.Name == name {
			return p, i + 1, true
		}
	}
	base := path.Base(strings.ReplaceAll(name, "\\", "/"))
	for i, p := range parts {
		if name != "" && p.Name != "" && path.Base(strings.ReplaceAll(p.Name, "\\", "/")) == base {
			return p, i + 1, true
		}
	}
	if named == 1 && len(parts) == 1 {
		return parts[0], 1, true
	}
	return ports.Detached{}, 0, false
}

// headerPart returns the position, from 1, of the detached part named
// as the HTTP header field name, in any case (RFC 9110 5.1); 0 when none
// is.
func (rd *reading) headerPart(name string) int {
	for i, p := range rd.doc.Detached {
		if strings.EqualFold(p.Name, name) {
			return i + 1
		}
	}
	return 0
}

// partName is the name of detached part i (from 1) for the reports.
func (rd *reading) partName(i int) string {
	if n := rd.doc.Detached[i-1].Name; n != "" {
		return n
	}
	return fmt.Sprintf("detached part %d", i)
}
