package cades

import (
	"bytes"
	"context"
	"crypto"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// Reader reads CAdES (and plain CMS/PKCS #7) signatures. It implements
// ports.DocumentReader. The zero value is ready to use.
type Reader struct{}

var _ ports.DocumentReader = (*Reader)(nil)

// NewReader returns a Reader.
func NewReader() *Reader { return &Reader{} }

// signedDataPrefix is the DER of the contentType OID id-signedData, which
// follows the ContentInfo SEQUENCE header.
var signedDataPrefix = []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x02}

// Read returns the evidence of every SignerInfo of doc.Data, a CMS
// ContentInfo holding SignedData (DER, BER, or PEM "PKCS7"/"CMS"), with
// their counter-signatures nested. doc.Detached is the content of a
// detached signature: each part is tried and the one whose digest matches
// the message-digest is used; the data object names it (Name, Part).
func (r *Reader) Read(ctx context.Context, doc ports.Document) ([]ades.Signature, error) {
	data, err := detect(doc.Data)
	if err != nil {
		return nil, err
	}
	sd, err := cms.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: cades: %s: %w", ports.ErrUnreadable, doc.Name, err)
	}
	if len(sd.SignerInfos) > MaxSigners {
		return nil, fmt.Errorf("%w: cades: more than %d signers", ports.ErrUnreadable, MaxSigners)
	}
	if len(doc.Detached) > MaxDetached {
		return nil, fmt.Errorf("%w: cades: more than %d detached parts", ports.ErrUnreadable, MaxDetached)
	}
	rd := &reading{sd: sd, shared: *newValidationData(), certs: doc.Certificates, format: ades.CAdES, ids: map[string]int{}}
	for i, d := range doc.Detached {
		name := d.Name
		if name == "" {
			name = fmt.Sprintf("detached part %d", i+1)
		}
		rd.detached = append(rd.detached, signedContent{data: d.Data, name: name, part: i + 1})
	}
	return rd.signers(ctx)
}

// Content is the signed content of an embedded signature, which the
// document holds elsewhere.
type Content struct {
	// Open streams it, one fresh reader a call.
	Open func() io.Reader
	// Digest, when set, computes its digests instead: a PDF reader shares
	// the hashing of byte ranges that start alike.
	Digest func(hashes ...crypto.Hash) (cms.Digests, error)
}

// ReadEmbedded reads a CMS signature embedded in a document of another
// format (a PDF's /Contents) whose signed content is not in the CMS but
// in the document (content), so that the document is hashed where it
// lies and never copied. The signatures get format f;
// certs are the validator's certificates (ports.Document.Certificates).
// Archive time-stamps inside such a CMS are reported as not checked:
// their imprint needs the content's bytes, and the formats that embed CMS
// time-stamp the document instead. The errors are Read's.
func ReadEmbedded(ctx context.Context, der []byte, content Content, certs []*x509.Certificate, f ades.Format) ([]ades.Signature, error) {
	if !isSignedData(der) {
		return nil, fmt.Errorf("%w: cades: the embedded signature is not a CMS SignedData", ports.ErrUnreadable)
	}
	sd, err := cms.Parse(der)
	if err != nil {
		return nil, fmt.Errorf("%w: cades: embedded signature: %w", ports.ErrUnreadable, err)
	}
	if len(sd.SignerInfos) > MaxSigners {
		return nil, fmt.Errorf("%w: cades: more than %d signers", ports.ErrUnreadable, MaxSigners)
	}
	rd := &reading{sd: sd, shared: *newValidationData(), certs: certs, format: f, ids: map[string]int{}, detached: []signedContent{{open: content.Open, digest: content.Digest}}}
	return rd.signers(ctx)
}

// signers returns the evidence of every SignerInfo of rd.sd.
func (rd *reading) signers(ctx context.Context) ([]ades.Signature, error) {
	sd := rd.sd
	rd.shared.addSignedData(sd)
	out := make([]ades.Signature, 0, len(sd.SignerInfos))
	for _, si := range sd.SignerInfos {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sig, err := rd.signature(si, nil, 0)
		if err != nil {
			return nil, err
		}
		out = append(out, sig)
	}
	return out, nil
}

// Detect reports whether data is of the format Read reads: a CMS
// ContentInfo holding SignedData (DER or BER), or a PEM "PKCS7" or "CMS"
// block, which Read may still find unreadable. A SignedData that
// encapsulates a TSTInfo is a time-stamp token, not a signature: the
// time-stamp format reads it (adapters/formats/timestamp). It looks at
// the first bytes only. Read returns an error wrapping
// ports.ErrNotThisFormat for exactly the data Detect does not claim.
func Detect(data []byte) bool {
	return isPEM(data) || isSignedData(data) && !isToken(data)
}

// isToken reports whether data starts like a ContentInfo whose SignedData
// encapsulates a TSTInfo: an RFC 3161 time-stamp token.
func isToken(data []byte) bool {
	ct, ok := cms.EncapsulatedContentType(data)
	return ok && ct.Equal(cms.OIDTSTInfo)
}

// isPEM reports whether data starts, after white space, with a PEM
// PKCS #7 or CMS block.
func isPEM(data []byte) bool {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	return bytes.HasPrefix(trimmed, []byte("-----BEGIN PKCS7")) || bytes.HasPrefix(trimmed, []byte("-----BEGIN CMS"))
}

// detect returns the BER of a ContentInfo holding SignedData, or an error
// wrapping ports.ErrNotThisFormat (another format) or ports.ErrUnreadable
// (a PEM PKCS #7 that does not decode).
func detect(data []byte) ([]byte, error) {
	if isPEM(data) {
		trimmed := bytes.TrimLeft(data, " \t\r\n")
		block, _ := pem.Decode(trimmed)
		if block == nil {
			return nil, fmt.Errorf("%w: cades: PEM PKCS #7 does not decode", ports.ErrUnreadable)
		}
		data = block.Bytes
		if !isSignedData(data) {
			return nil, fmt.Errorf("%w: cades: PEM PKCS #7 holds no SignedData", ports.ErrUnreadable)
		}
		if isToken(data) {
			return nil, fmt.Errorf("%w: cades: PEM PKCS #7 holds a time-stamp token, not a signature", ports.ErrUnreadable)
		}
		return data, nil
	}
	if !isSignedData(data) || isToken(data) {
		return nil, fmt.Errorf("%w: cades: not a CMS SignedData of a signature", ports.ErrNotThisFormat)
	}
	return data, nil
}

// isSignedData reports whether data starts like a ContentInfo whose
// contentType is id-signedData: a SEQUENCE header (definite or
// indefinite length) followed by the OID.
func isSignedData(data []byte) bool {
	if len(data) < 2 || data[0] != 0x30 {
		return false
	}
	n := 2
	switch l := data[1]; {
	case l == 0x80: // indefinite (BER)
	case l > 0x80:
		n += int(l & 0x7f)
		if l&0x7f > 4 {
			return false
		}
	}
	return len(data) >= n+len(signedDataPrefix) && bytes.Equal(data[n:n+len(signedDataPrefix)], signedDataPrefix)
}

// reading is the state of one Read.
type reading struct {
	sd *cms.SignedData
	// detached are the candidates for the signed content of a detached
	// signature; certs the validator's own certificates.
	detached []signedContent
	certs    []*x509.Certificate
	format   ades.Format
	ids      map[string]int // IDs given, for uniqueness

	count int // signatures produced, counter-signatures included

	// shared are the values of the SignedData itself, common to its
	// signers.
	shared validationData
}

// id returns the signature ID: "S-" and the first 16 hex digits of the
// SHA-256 of the signature value's octets; a repeated value (a signer
// copied) gets "-2", "-3"... in document order.
func (rd *reading) id(si *cms.SignerInfo) string {
	sum := sha256.Sum256(si.Signature)
	id := "S-" + hex.EncodeToString(sum[:])[:16]
	rd.ids[id]++
	if n := rd.ids[id]; n > 1 {
		id = fmt.Sprintf("%s-%d", id, n)
	}
	return id
}

// errLimit is wrapped with ports.ErrUnreadable for input over a limit.
var errLimit = errors.New("cades: limit exceeded")

// signedContent is a candidate for the signed content: bytes at hand, or
// a source that streams them (open non-nil). A detached part supplied
// with the document has its name and position (from 1); other content
// has part 0.
type signedContent struct {
	data   []byte
	open   func() io.Reader
	digest func(hashes ...crypto.Hash) (cms.Digests, error)
	name   string
	part   int
}

// digests computes the digests of the content under hashes.
func (c signedContent) digests(hashes ...crypto.Hash) (cms.Digests, error) {
	if c.digest != nil {
		return c.digest(hashes...)
	}
	return cms.DigestContent(c.reader(), hashes...)
}

func (c signedContent) reader() io.Reader {
	if c.open != nil {
		return c.open()
	}
	return bytes.NewReader(c.data)
}

// streamed reports whether the signed content is streamed, not held.
func (rd *reading) streamed() bool {
	return len(rd.detached) == 1 && rd.detached[0].open != nil
}
