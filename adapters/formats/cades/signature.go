package cades

import (
	"bytes"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"slices"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/domain/ades"
	"github.com/svc-dss/dss/ports"
)

// signature builds the evidence of si: a signer of the SignedData when
// parent is nil, else a counter-signature of parent at depth.
func (rd *reading) signature(si *cms.SignerInfo, parent *cms.SignerInfo, depth int) (ades.Signature, error) {
	rd.count++
	if rd.count > MaxSignatures {
		return ades.Signature{}, fmt.Errorf("%w: %w: more than %d signatures", ports.ErrUnreadable, errLimit, MaxSignatures)
	}
	sig := ades.Signature{ID: rd.id(si), Format: rd.format, SignatureValue: si.Signature}
	if si.SignedAttrsDER != nil {
		signedSum := sha256.Sum256(si.SignedAttrsDER)
		sig.SignedBytesSHA256 = signedSum[:]
	}

	// Validation data: the SignedData's, then this signer's attributes.
	vd := newValidationData()
	for _, c := range rd.shared.Certificates {
		vd.AddCertificate(c)
	}
	for _, b := range rd.shared.CRLs {
		vd.AddCRL(b)
	}
	for _, b := range rd.shared.OCSPResponses {
		vd.AddOCSP(b)
	}
	if parent == nil {
		vd.Problems = append(vd.Problems, rd.shared.Problems...)
	}
	attrCerts := vd.addAttributes(si)

	// Content and signature value.
	// The validator's own certificates come last: a certificate the
	// signature carries is preferred.
	content, found := rd.check(&sig, si, parent, slices.Concat(attrCerts, rd.certs))
	sig.Problems = append(sig.Problems, vd.Problems...)
	vd.Problems = nil

	rd.attributes(&sig, si)

	// Time-stamps.
	ts, stats, err := rd.timestamps(si, parent, content, found, vd.Certificates)
	if err != nil {
		return ades.Signature{}, err
	}
	sig.Timestamps = ts
	sig.Problems = append(sig.Problems, stats.problems...)
	if vd.Over || stats.over {
		sig.Problems = append(sig.Problems, ades.Say(CodeLimitExceeded, "left-out", "validation data beyond the limits was left out"))
	}
	sig.Certificates, sig.CRLs, sig.OCSPResponses = vd.Certificates, vd.CRLs, vd.OCSPResponses

	_, hasTime, _ := si.SigningTime()
	sig.Level = level(&sig, levelFacts{
		signedDataValues: len(rd.sd.Certificates) > 0 && len(rd.shared.CRLs)+len(rd.shared.OCSPResponses) > 0,
		signatureTS:      stats.signature,
		archiveV3:        stats.archiveV3,
		topLevel:         parent == nil,
	})
	if sig.Reference.Present && !hasTime {
		sig.Problems = append(sig.Problems, ades.Say(CodeNoSigningTime, "missing", "signing-certificate reference without signing-time (required by EN 319 122-1 B-B)"))
	}

	// Counter-signatures.
	if len(si.CounterSignatures) > 0 && depth+1 > MaxCounterSignatureDepth {
		return ades.Signature{}, fmt.Errorf("%w: %w: counter-signatures nested deeper than %d", ports.ErrUnreadable, errLimit, MaxCounterSignatureDepth)
	}
	for _, cs := range si.CounterSignatures {
		c, err := rd.signature(cs, si, depth+1)
		if err != nil {
			return ades.Signature{}, err
		}
		c.CounterSignatureOf = sig.ID
		sig.CounterSignatures = append(sig.CounterSignatures, c)
	}
	return sig, nil
}

// check fills DataObjects, Value, SigningCertificate and Reference, and
// returns the signed content (nil, false when not found).
func (rd *reading) check(sig *ades.Signature, si, parent *cms.SignerInfo, extra []*x509.Certificate) ([]byte, bool) {
	obj := ades.DataObject{Name: "content"}
	if d, err := si.MessageDigest(); err == nil {
		obj.Digest = d
	}
	if h, err := si.Hash(); err == nil {
		obj.DigestAlgorithm = h.String()
	} else {
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeUnsupportedAlgorithm, Message: fmt.Sprintf("digest algorithm: %v", err)})
	}

	var candidates []signedContent
	switch {
	case parent != nil:
		obj.Name = "signature-value"
		candidates = []signedContent{{data: parent.Signature}}
	case rd.sd.Content != nil:
		candidates = []signedContent{{data: rd.sd.Content}}
		if len(rd.detached) > 0 {
			sig.Problems = append(sig.Problems, ades.Say(CodeDetachedIgnored, "attached", "the content is attached: the detached parts supplied were not used"))
		}
	default:
		candidates = rd.detached
	}

	var res cms.SignerResult
	var content []byte
	if len(candidates) == 0 {
		res = rd.sd.VerifySigner(si, nil, extra)
	} else {
		// The first candidate whose digest matches (or, without signed
		// attributes, whose signature verifies); else the first.
		for i, c := range candidates {
			d, err := c.digests(si.Hashes()...)
			if err != nil {
				d = cms.Digests{}
			}
			r := rd.sd.VerifySigner(si, d, extra)
			ok := r.ContentErr == nil
			if si.SignedAttrs == nil {
				ok = r.SignatureErr == nil
			}
			if i == 0 || ok {
				// Streamed content is not held: nil, and found.
				res, content = r, c.data
			}
			if ok {
				if c.part > 0 {
					obj.Name, obj.Part = c.name, c.part
				}
				break
			}
		}
		obj.Found = true
	}

	switch {
	case !obj.Found:
	case si.SignedAttrs == nil:
		// The signature covers the content directly.
		obj.Intact = res.SignatureErr == nil
		sig.Problems = append(sig.Problems, ades.Say(CodeNoSignedAttributes, "none", "no signed attributes: the signature value covers the content directly"))
	case res.ContentErr == nil:
		obj.Intact = true
	case errors.Is(res.ContentErr, cms.ErrDigestMismatch):
	case errors.Is(res.ContentErr, cms.ErrUnsupported):
		obj.Unchecked = CodeUnsupportedAlgorithm
	default:
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeMessageDigestMissing, Message: res.ContentErr.Error()})
	}
	sig.DataObjects = []ades.DataObject{obj}

	sig.Value = valueCheck(si, res.SignatureErr)
	if sig.Value.Reason == CodeUnsupportedAlgorithm {
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeUnsupportedAlgorithm, Message: res.SignatureErr.Error()})
	}

	// content-type: required with signed attributes, once, and equal to
	// the eContentType; forbidden in a counter-signature (RFC 5652, 5.3
	// and 11.1). Its check is part of verifying the signature (5.6): a
	// signature whose attribute is missing, doubled or names another
	// content (a time-stamp's TSTInfo presented as a signed document)
	// does not verify, whatever its value, as a CMS library that follows
	// RFC 5652 fails it.
	if parent == nil {
		// What a policy's content-type check reads (etsi.Constraints).
		sig.ContentTypeReported = true
		if oid, ok, _ := si.ContentTypeAttr(); ok {
			sig.ContentType = oid.String()
		}
	}
	if si.SignedAttrs != nil {
		if parent != nil {
			if _, ok, _ := si.ContentTypeAttr(); ok {
				sig.Problems = append(sig.Problems, ades.Say(CodeCounterSignatureContentType, "present", "content-type attribute in a counter-signature"))
			}
		} else if err := si.CheckContentType(rd.sd.ContentType); err != nil {
			sig.Problems = append(sig.Problems, ades.Problem{Code: CodeContentTypeMismatch, Message: "the content-type signed attribute does not hold (RFC 5652, 5.3): " + err.Error()})
			if sig.Value.Done && sig.Value.Valid {
				sig.Value.Valid, sig.Value.Reason = false, CodeContentTypeMismatch
			}
		}
	}
	sig.SigningCertificate = res.Certificate
	sig.Reference = rd.signingCertReference(sig, si, res.Certificate)
	return content, obj.Found
}

// valueCheck turns the outcome of a signature check into an ades.Check.
func valueCheck(si *cms.SignerInfo, err error) ades.Check {
	c := ades.Check{Algorithm: algorithmName(si)}
	switch {
	case err == nil:
		c.Done, c.Valid = true, true
	case errors.Is(err, cms.ErrSignerNotFound):
		c.Reason = CodeSignerNotFound
	case errors.Is(err, cms.ErrUnsupported), errors.Is(err, cms.ErrLimitExceeded):
		c.Reason = CodeUnsupportedAlgorithm
	case errors.Is(err, cms.ErrNoContent):
		c.Reason = CodeNoContent
	case errors.Is(err, cms.ErrSignatureInvalid):
		c.Done, c.Reason = true, CodeSignatureInvalid
	default:
		c.Done, c.Reason = true, CodeSignatureMalformed
	}
	return c
}

// algorithmName names the signature algorithm of si: RSA-SHA256,
// RSASSA-PSS-SHA256, ECDSA-SHA256, PLAIN-ECDSA-SHA256, Ed25519; empty
// when unknown.
func algorithmName(si *cms.SignerInfo) string {
	alg, err := si.Algorithm()
	if err != nil {
		// An algorithm this reader does not verify is still named when
		// known, for the process to judge it (Ed448 with a digest RFC
		// 8419 does not pair it with is never acceptable).
		if oid, err := cert.AlgorithmOID(si.SignatureAlgorithm); err == nil && oid.Equal(cert.OIDEd448) {
			return "Ed448"
		}
		return ""
	}
	h := cert.HashName(alg.Hash)
	switch alg.Scheme {
	case cert.PKCS1v15:
		return "RSA-" + h
	case cert.PSS:
		return "RSASSA-PSS-" + h
	case cert.ECDSA:
		return "ECDSA-" + h
	case cert.ECDSAPlain:
		return "PLAIN-ECDSA-" + h
	case cert.Ed25519:
		return "Ed25519"
	}
	return ""
}

// signingCertReference reads the ESS signing-certificate(-v2) attribute
// of si and compares its first identifier with c.
func (rd *reading) signingCertReference(sig *ades.Signature, si *cms.SignerInfo, c *x509.Certificate) ades.CertificateReference {
	v2 := si.SignedAttrs.Find(cms.OIDAttrSigningCertificateV2)
	v1 := si.SignedAttrs.Find(cms.OIDAttrSigningCertificate)
	if len(v1)+len(v2) == 0 {
		return ades.CertificateReference{}
	}
	if len(v1)+len(v2) > 1 || len(slices.Concat(attrValues(v1), attrValues(v2))) > 1 {
		sig.Problems = append(sig.Problems, ades.Say(CodeMultipleSigningCertRefs, "several", "more than one signing-certificate(-v2) attribute or value; the v2 one is used"))
	}
	var ids []cms.ESSCertID
	var err error
	if len(v2) > 0 && len(v2[0].Values) > 0 {
		ids, err = cms.ParseSigningCertificate(v2[0].Values[0], true)
	} else if len(v1) > 0 && len(v1[0].Values) > 0 {
		ids, err = cms.ParseSigningCertificate(v1[0].Values[0], false)
	}
	if err != nil {
		sig.Problems = append(sig.Problems, ades.Problem{Code: CodeMalformedAttribute, Message: fmt.Sprintf("signing-certificate: %v", err)})
		return ades.CertificateReference{Present: true}
	}
	return reference(ids, c)
}

func attrValues(as []cms.Attribute) [][]byte {
	var out [][]byte
	for _, a := range as {
		out = append(out, a.Values...)
	}
	return out
}

// reference compares the first ESS identifier (the signer's, RFC 5035
// 5.4.1.1) with c, which may be nil.
func reference(ids []cms.ESSCertID, c *x509.Certificate) ades.CertificateReference {
	r := ades.CertificateReference{Present: true}
	if len(ids) == 0 {
		return r
	}
	id := ids[0]
	r.IssuerSerialPresent = id.SerialNumber != nil
	if c == nil || !id.Hash.Available() {
		return r
	}
	h := id.Hash.New()
	h.Write(c.Raw)
	r.DigestMatched = bytes.Equal(h.Sum(nil), id.CertHash)
	if r.IssuerSerialPresent && c.SerialNumber != nil && id.SerialNumber.Cmp(c.SerialNumber) == 0 {
		for _, n := range id.IssuerNames {
			if cert.EqualNames(n, c.RawIssuer) {
				r.IssuerSerialMatched = true
			}
		}
	}
	return r
}
