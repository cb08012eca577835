package cms

import (
	"bytes"
	"crypto"
	"crypto/subtle"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"fmt"
	"hash"
	"io"
	"slices"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// Digests holds digests of one content under several hashes.
type Digests map[crypto.Hash][]byte

// DigestContent reads r to the end once and returns its digest under each
// of hashes.
func DigestContent(r io.Reader, hashes ...crypto.Hash) (Digests, error) {
	hs := make(map[crypto.Hash]hash.Hash, len(hashes))
	writers := make([]io.Writer, 0, len(hashes))
	for _, h := range hashes {
		if _, dup := hs[h]; dup {
			continue
		}
		if !h.Available() {
			return nil, fmt.Errorf("%w: hash %v", ErrUnsupported, h)
		}
		hs[h] = h.New()
		writers = append(writers, hs[h])
	}
	if _, err := io.Copy(io.MultiWriter(writers...), r); err != nil {
		return nil, fmt.Errorf("cms: reading content: %w", err)
	}
	out := make(Digests, len(hs))
	for h, w := range hs {
		out[h] = w.Sum(nil)
	}
	return out, nil
}

// Hashes returns the hashes si needs over its content: its digest
// algorithm and, without signed attributes, the hash of its signature
// algorithm. Unsupported algorithms are left out; checking si reports them.
func (si *SignerInfo) Hashes() []crypto.Hash {
	var out []crypto.Hash
	if h, err := si.Hash(); err == nil {
		out = append(out, h)
	}
	if si.SignedAttrs == nil {
		if alg, err := si.Algorithm(); err == nil && alg.Hash != 0 && !slices.Contains(out, alg.Hash) {
			out = append(out, alg.Hash)
		}
	}
	return out
}

// Hashes returns the hashes the signers of sd need over the content.
func (sd *SignedData) Hashes() []crypto.Hash {
	var out []crypto.Hash
	for _, si := range sd.SignerInfos {
		for _, h := range si.Hashes() {
			if !slices.Contains(out, h) {
				out = append(out, h)
			}
		}
	}
	return out
}

// CheckMessageDigest compares the message-digest attribute of si with the
// digest of the content. It returns an error wrapping ErrDigestMismatch
// when they differ, ErrMalformed when si has no signed attributes or the
// attribute is missing or repeated, ErrUnsupported for an unknown digest
// algorithm.
func (si *SignerInfo) CheckMessageDigest(d Digests) error {
	h, err := si.Hash()
	if err != nil {
		return err
	}
	want, err := si.MessageDigest()
	if err != nil {
		return err
	}
	got, ok := d[h]
	if !ok {
		return fmt.Errorf("cms: no %v digest of the content was computed", h)
	}
	if subtle.ConstantTimeCompare(want, got) != 1 {
		return fmt.Errorf("%w: %v of the content is %x, the signed attribute says %x", ErrDigestMismatch, h, got, want)
	}
	return nil
}

// CheckContentType compares the content-type attribute of si with
// contentType. The attribute is required with signed attributes (RFC 5652,
// section 5.3) except in counter-signatures, where it is forbidden.
func (si *SignerInfo) CheckContentType(contentType asn1.ObjectIdentifier) error {
	oid, ok, err := si.ContentTypeAttr()
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: no content-type attribute", ErrMalformed)
	}
	if !oid.Equal(contentType) {
		return fmt.Errorf("%w: attribute says %v, eContentType is %v", ErrContentTypeMismatch, oid, contentType)
	}
	return nil
}

// CheckSignature checks the signature value of si with pub: over
// SignedAttrsDER when si has signed attributes, or else over the content,
// whose digest d must then hold. It returns nil or an error wrapping
// ErrSignatureInvalid, ErrUnsupported or ErrMalformed.
func (si *SignerInfo) CheckSignature(pub crypto.PublicKey, d Digests) error {
	alg, err := si.Algorithm()
	if err != nil {
		return err
	}
	if si.SignedAttrs != nil {
		return wrapCertError(cert.CheckSignature(pub, alg, si.SignedAttrsDER, si.Signature))
	}
	if alg.Scheme == cert.Ed25519 {
		return fmt.Errorf("%w: Ed25519 without signed attributes", ErrUnsupported)
	}
	digest, ok := d[alg.Hash]
	if !ok {
		return fmt.Errorf("%w: no content to check a signature without signed attributes", ErrNoContent)
	}
	return wrapCertError(cert.CheckDigestSignature(pub, alg, digest, si.Signature))
}

// SignerCandidates returns the certificates that match the signer
// identifier of si: those of sd first, then those of extra. An attacker can
// add a certificate with the same issuer and serial number as the genuine
// one, so callers try each (VerifySigner does).
func (sd *SignedData) SignerCandidates(si *SignerInfo, extra []*x509.Certificate) []*x509.Certificate {
	var out []*x509.Certificate
	for _, pool := range [][]*x509.Certificate{sd.Certificates, extra} {
		for _, c := range pool {
			if si.SID.Matches(c) && !slices.ContainsFunc(out, c.Equal) {
				out = append(out, c)
			}
		}
	}
	return out
}

// FindSigner returns the first certificate SignerCandidates finds, or an
// error wrapping ErrSignerNotFound.
func (sd *SignedData) FindSigner(si *SignerInfo, extra []*x509.Certificate) (*x509.Certificate, error) {
	c := sd.SignerCandidates(si, extra)
	if len(c) == 0 {
		return nil, fmt.Errorf("%w: %v", ErrSignerNotFound, si.SID)
	}
	return c[0], nil
}

// A SignerResult is the outcome of checking one SignerInfo.
type SignerResult struct {
	Signer *SignerInfo

	// Certificate is the candidate whose key verified the signature, else
	// the first candidate, nil when none matched the signer identifier.
	Certificate *x509.Certificate

	// ContentErr says whether the content is the one signed: nil, or an
	// error wrapping ErrDigestMismatch, ErrContentTypeMismatch,
	// ErrNoContent, ErrMalformed (missing message-digest) or
	// ErrUnsupported. Without signed attributes the content is only
	// covered by the signature value, and ContentErr is nil or
	// ErrNoContent.
	ContentErr error

	// SignatureErr says whether the signature value verifies: nil, or an
	// error wrapping ErrSignatureInvalid, ErrSignerNotFound,
	// ErrUnsupported, ErrMalformed, or ErrNoContent (no signed
	// attributes and no content).
	SignatureErr error
}

// Err returns nil when both checks passed, else the failures joined.
func (r SignerResult) Err() error {
	return errors.Join(r.ContentErr, r.SignatureErr)
}

// VerifyOptions are the inputs of Verify besides the SignedData.
type VerifyOptions struct {
	// Detached is the content of a detached signature, read once for all
	// signers. It must be nil when the content is attached.
	Detached io.Reader

	// Certificates are signer certificate candidates besides those in the
	// SignedData.
	Certificates []*x509.Certificate
}

// Verify checks every SignerInfo of sd against the content: the
// attached content, or opts.Detached. The error is for problems that
// concern all signers (content both attached and supplied, reading the
// detached content failed); each signer's outcome is in its SignerResult.
// Counter-signatures are not checked: see VerifyCounterSignature.
//
// Verify checks the cryptography only. Whether the certificate is trusted,
// valid at the signing time and fit for signing is for the caller.
func (sd *SignedData) Verify(opts VerifyOptions) ([]SignerResult, error) {
	var d Digests
	switch {
	case sd.Content != nil && opts.Detached != nil:
		return nil, fmt.Errorf("cms: content is attached and detached content was supplied too")
	case sd.Content != nil:
		var err error
		if d, err = DigestContent(bytes.NewReader(sd.Content), sd.Hashes()...); err != nil {
			return nil, err
		}
	case opts.Detached != nil:
		var err error
		if d, err = DigestContent(opts.Detached, sd.Hashes()...); err != nil {
			return nil, err
		}
	}
	results := make([]SignerResult, len(sd.SignerInfos))
	for i, si := range sd.SignerInfos {
		results[i] = sd.VerifySigner(si, d, opts.Certificates)
		if d != nil && si.SignedAttrs != nil && results[i].ContentErr == nil {
			results[i].ContentErr = si.CheckContentType(sd.ContentType)
		}
	}
	return results, nil
}

// VerifyCounterSignature checks counter-signature cs of parent: the
// content it signs is the signature value of parent (RFC 5652, section
// 11.4).
func (sd *SignedData) VerifyCounterSignature(parent, cs *SignerInfo, extra []*x509.Certificate) SignerResult {
	d, err := DigestContent(bytes.NewReader(parent.Signature), cs.Hashes()...)
	if err != nil {
		return SignerResult{Signer: cs, ContentErr: err, SignatureErr: err}
	}
	r := sd.VerifySigner(cs, d, extra)
	if r.ContentErr == nil && cs.SignedAttrs != nil {
		if _, ok, _ := cs.ContentTypeAttr(); ok {
			r.ContentErr = fmt.Errorf("%w: content-type attribute in a counter-signature", ErrMalformed)
		}
	}
	return r
}

// VerifySigner checks si against the content digests d (nil when the
// content is not available): the message-digest attribute and the
// signature value, with each candidate certificate in turn. It does not
// check the content-type attribute (Verify does).
func (sd *SignedData) VerifySigner(si *SignerInfo, d Digests, extra []*x509.Certificate) SignerResult {
	r := SignerResult{Signer: si}
	switch {
	case d == nil:
		r.ContentErr = ErrNoContent
	case si.SignedAttrs != nil:
		r.ContentErr = si.CheckMessageDigest(d)
	}
	candidates := sd.SignerCandidates(si, extra)
	if len(candidates) == 0 {
		r.SignatureErr = fmt.Errorf("%w: %v", ErrSignerNotFound, si.SID)
		return r
	}
	r.Certificate = candidates[0]
	for _, c := range candidates {
		if c.PublicKey == nil {
			r.SignatureErr = fmt.Errorf("%w: signer certificate key unreadable", ErrUnsupported)
			continue
		}
		err := si.CheckSignature(c.PublicKey, d)
		if err == nil {
			r.Certificate, r.SignatureErr = c, nil
			return r
		}
		// Keep the most telling error: a value that does not verify
		// beats a key that could not be used.
		if r.SignatureErr == nil || errors.Is(err, ErrSignatureInvalid) {
			r.SignatureErr = err
		}
	}
	return r
}
