package xades

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/beevik/etree"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// Reader reads XAdES and XMLDSig signatures. It implements
// ports.DocumentReader. The zero value is ready to use.
type Reader struct{}

var _ ports.DocumentReader = (*Reader)(nil)

// NewReader returns a Reader.
func NewReader() *Reader { return &Reader{} }

// Read returns the evidence of every ds:Signature of doc.Data that is not
// a counter-signature, in document order, with the counter-signatures
// nested in the signature they sign. doc.Detached are the data objects of
// detached references: a reference takes the part of the same name (or
// base name), else the only part when there is one; none found makes the
// data object Found false.
func (r *Reader) Read(ctx context.Context, doc ports.Document) ([]ades.Signature, error) {
	if !Detect(doc.Data) {
		return nil, fmt.Errorf("%w: xades: not an XML signature", ports.ErrNotThisFormat)
	}
	if len(doc.Detached) > MaxDetached {
		return nil, fmt.Errorf("%w: xades: more than %d detached parts", ports.ErrUnreadable, MaxDetached)
	}
	tree, err := parse(doc.Data)
	if err != nil {
		return nil, fmt.Errorf("%w: xades: %s: %w", ports.ErrUnreadable, doc.Name, err)
	}
	all, err := xmldsig.Signatures(tree)
	if err != nil {
		return nil, fmt.Errorf("%w: xades: %s: %w", ports.ErrUnreadable, doc.Name, err)
	}
	rd := &reading{tree: tree, doc: doc, ids: map[string]int{}}
	var out []ades.Signature
	for _, el := range all {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if counterSignatureHolder(el) != nil {
			continue // read with the signature it counter-signs
		}
		sig, err := rd.signature(ctx, el, nil, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, sig)
	}
	return out, nil
}

// counterSignatureHolder returns the xades:CounterSignature element that
// holds sig, nil for a signature that is not a counter-signature.
func counterSignatureHolder(sig *etree.Element) *etree.Element {
	if p := sig.Parent(); p != nil && isXAdES(p, "CounterSignature") {
		return p
	}
	return nil
}

// reading is the state of one Read.
type reading struct {
	tree  *etree.Document
	doc   ports.Document
	ids   map[string]int
	count int // signatures produced, counter-signatures included
}

// id returns the signature ID: "S-" and the first 16 hex digits of the
// SHA-256 of the signature value's text (white space removed); a repeated
// value gets "-2", "-3"... in document order.
func (rd *reading) id(value *etree.Element) string {
	v := strings.Join(strings.Fields(text(value)), "")
	sum := sha256.Sum256([]byte(v))
	id := "S-" + hex.EncodeToString(sum[:])[:16]
	rd.ids[id]++
	if n := rd.ids[id]; n > 1 {
		id = fmt.Sprintf("%s-%d", id, n)
	}
	return id
}

// resolve finds the detached part a reference URI names: by name, else by
// base name (a relative path), else the only part supplied.
func (rd *reading) resolve(uri string) ([]byte, string, int, bool) {
	parts := rd.doc.Detached
	name := func(i int) string {
		if parts[i].Name == "" {
			return fmt.Sprintf("detached part %d", i+1)
		}
		return parts[i].Name
	}
	for i, p := range parts {
		if uri != "" && p.Name == uri {
			return p.Data, name(i), i + 1, true
		}
	}
	base := path.Base(strings.ReplaceAll(uri, "\\", "/"))
	for i, p := range parts {
		if uri != "" && p.Name != "" && path.Base(strings.ReplaceAll(p.Name, "\\", "/")) == base {
			return p.Data, name(i), i + 1, true
		}
	}
	if len(parts) == 1 {
		return parts[0].Data, name(0), 1, true
	}
	return nil, "", 0, false
}

// errLimit is wrapped with ports.ErrUnreadable for input over a limit.
var errLimit = errors.New("xades: limit exceeded")

// candidates are the certificates a signature's signer may be: those it
// carries, then the validator's.
func candidates(vd *validationData, doc ports.Document) []*x509.Certificate {
	out := append([]*x509.Certificate(nil), vd.Certificates...)
	return append(out, doc.Certificates...)
}
