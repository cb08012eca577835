package ocsp

import (
	"encoding/asn1"
	"fmt"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/der"
)

var (
	oidBasicResponse = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 1}
	oidNonce         = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 2}
)

// Context-specific tags of RFC 6960's ASN.1 module, which uses explicit
// tagging except for CertStatus.
var (
	tagExplicit0 = cbasn1.Tag(0).ContextSpecific().Constructed()
	tagExplicit1 = cbasn1.Tag(1).ContextSpecific().Constructed()
	tagExplicit2 = cbasn1.Tag(2).ContextSpecific().Constructed()
	tagGood      = cbasn1.Tag(0).ContextSpecific()               // [0] IMPLICIT NULL
	tagRevoked   = cbasn1.Tag(1).ContextSpecific().Constructed() // [1] IMPLICIT RevokedInfo
	tagUnknown   = cbasn1.Tag(2).ContextSpecific()               // [2] IMPLICIT UnknownInfo (NULL)
)

// malformed wraps a description of what failed in ErrMalformed.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// ParseResponse parses a DER OCSPResponse. An unsuccessful response
// (tryLater, unauthorized…) parses without error; its Basic is nil. The
// response is not verified: see [BasicResponse.Verify].
func ParseResponse(data []byte) (*Response, error) {
	if len(data) > MaxResponseBytes {
		return nil, malformed("%d bytes, limit %d", len(data), MaxResponseBytes)
	}
	in := cryptobyte.String(data)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return nil, malformed("not a DER SEQUENCE")
	}
	var status int
	if !der.ReadEnumerated(&seq, &status) {
		return nil, malformed("responseStatus")
	}
	r := &Response{Raw: data, Status: ResponseStatus(status)}
	switch r.Status {
	case Successful, MalformedRequest, InternalError, TryLater, SigRequired, Unauthorized:
	default:
		return nil, malformed("responseStatus %d", status)
	}
	var bytesField cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&bytesField, &present, tagExplicit0) || !seq.Empty() {
		return nil, malformed("responseBytes")
	}
	if r.Status != Successful {
		// Response bytes of an unsuccessful response mean nothing
		// (RFC 6960, section 4.2.1); they are ignored.
		return r, nil
	}
	if !present {
		return nil, malformed("successful response without responseBytes")
	}
	var rb cryptobyte.String
	var typ asn1.ObjectIdentifier
	var basic []byte
	if !bytesField.ReadASN1(&rb, cbasn1.SEQUENCE) || !bytesField.Empty() ||
		!rb.ReadASN1ObjectIdentifier(&typ) || !rb.ReadASN1Bytes(&basic, cbasn1.OCTET_STRING) || !rb.Empty() {
		return nil, malformed("ResponseBytes")
	}
	if !typ.Equal(oidBasicResponse) {
		return nil, fmt.Errorf("%w: response type %v", ErrUnsupported, typ)
	}
	b, err := parseBasic(basic)
	if err != nil {
		return nil, err
	}
	r.Basic = b
	return r, nil
}

// parseBasic parses a BasicOCSPResponse.
func parseBasic(data []byte) (*BasicResponse, error) {
	b := &BasicResponse{Raw: data}
	in := cryptobyte.String(data)
	var seq, tbs cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() || !seq.ReadASN1Element(&tbs, cbasn1.SEQUENCE) {
		return nil, malformed("BasicOCSPResponse")
	}
	b.RawResponseData = tbs
	if err := b.parseResponseData(tbs); err != nil {
		return nil, err
	}
	var algDER []byte
	var ok bool
	if _, algDER, ok = der.ReadAlgorithmIdentifier(&seq); !ok {
		return nil, malformed("signatureAlgorithm")
	}
	b.RawSignatureAlgorithm = algDER
	if alg, err := cert.ParseSignatureAlgorithm(algDER, 0); err == nil {
		b.SignatureAlgorithm = alg.X509()
	}
	var sig asn1.BitString
	if !seq.ReadASN1BitString(&sig) || sig.BitLength%8 != 0 {
		return nil, malformed("signature")
	}
	b.Signature = sig.Bytes
	var certsField cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&certsField, &present, tagExplicit0) || !seq.Empty() {
		return nil, malformed("certs")
	}
	if present {
		var certs cryptobyte.String
		if !certsField.ReadASN1(&certs, cbasn1.SEQUENCE) || !certsField.Empty() {
			return nil, malformed("certs")
		}
		for !certs.Empty() {
			var cert cryptobyte.String
			if !certs.ReadASN1Element(&cert, cbasn1.SEQUENCE) {
				return nil, malformed("certs[%d]", len(b.Certificates))
			}
			b.Certificates = append(b.Certificates, cert)
		}
	}
	return b, nil
}

// parseResponseData parses tbsResponseData into b.
func (b *BasicResponse) parseResponseData(data []byte) error {
	in := cryptobyte.String(data)
	var seq cryptobyte.String
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return malformed("ResponseData")
	}
	var versionField cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&versionField, &present, tagExplicit0) {
		return malformed("version")
	}
	if present {
		if !versionField.ReadASN1Integer(&b.Version) || !versionField.Empty() {
			return malformed("version")
		}
		if b.Version != 0 {
			return fmt.Errorf("%w: response version %d", ErrUnsupported, b.Version+1)
		}
	}

	var id cryptobyte.String
	switch {
	case seq.PeekASN1Tag(tagExplicit1):
		var name cryptobyte.String
		if !seq.ReadASN1(&id, tagExplicit1) || !id.ReadASN1Element(&name, cbasn1.SEQUENCE) || !id.Empty() {
			return malformed("responderID byName")
		}
		b.ResponderID.RawName = name
	case seq.PeekASN1Tag(tagExplicit2):
		var hash []byte
		if !seq.ReadASN1(&id, tagExplicit2) || !id.ReadASN1Bytes(&hash, cbasn1.OCTET_STRING) || !id.Empty() || len(hash) == 0 {
			return malformed("responderID byKey")
		}
		b.ResponderID.KeyHash = hash
	default:
		return malformed("responderID")
	}

	if !der.ReadGeneralizedTime(&seq, &b.ProducedAt) {
		return malformed("producedAt")
	}
	var responses cryptobyte.String
	if !seq.ReadASN1(&responses, cbasn1.SEQUENCE) {
		return malformed("responses")
	}
	for !responses.Empty() {
		sr, err := parseSingle(&responses)
		if err != nil {
			return fmt.Errorf("responses[%d]: %w", len(b.Responses), err)
		}
		b.Responses = append(b.Responses, sr)
	}
	var extField cryptobyte.String
	if !seq.ReadOptionalASN1(&extField, &present, tagExplicit1) || !seq.Empty() {
		return malformed("responseExtensions")
	}
	if present {
		exts, ok := der.ReadExtensions(&extField)
		if !ok || !extField.Empty() {
			return malformed("responseExtensions")
		}
		b.Extensions = exts
		for _, e := range exts {
			if e.Id.Equal(oidNonce) {
				b.Nonce = nonceValue(e.Value)
			}
		}
	}
	return nil
}

// nonceValue returns the nonce in an id-pkix-ocsp-nonce extension value:
// the content of the OCTET STRING of RFC 8954, or the value as is from
// responders that omit the OCTET STRING (RFC 2560 did not say).
func nonceValue(v []byte) []byte {
	s := cryptobyte.String(v)
	var nonce []byte
	if s.ReadASN1Bytes(&nonce, cbasn1.OCTET_STRING) && s.Empty() {
		return nonce
	}
	return v
}

// parseSingle reads one SingleResponse from s.
func parseSingle(s *cryptobyte.String) (SingleResponse, error) {
	var sr SingleResponse
	var seq cryptobyte.String
	if !s.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return sr, malformed("SingleResponse")
	}
	id, err := parseCertID(&seq)
	if err != nil {
		return sr, err
	}
	sr.CertID = id

	var status cryptobyte.String
	switch {
	case seq.PeekASN1Tag(tagGood):
		if !seq.ReadASN1(&status, tagGood) || !status.Empty() {
			return sr, malformed("certStatus good")
		}
		sr.Status = Good
	case seq.PeekASN1Tag(tagRevoked):
		if !seq.ReadASN1(&status, tagRevoked) || !der.ReadGeneralizedTime(&status, &sr.RevocationTime) {
			return sr, malformed("certStatus revoked")
		}
		var reason cryptobyte.String
		if !status.ReadOptionalASN1(&reason, &sr.HasReason, tagExplicit0) || !status.Empty() {
			return sr, malformed("revocationReason")
		}
		if sr.HasReason && (!der.ReadEnumerated(&reason, &sr.RevocationReason) || !reason.Empty()) {
			return sr, malformed("revocationReason")
		}
		sr.Status = Revoked
	case seq.PeekASN1Tag(tagUnknown):
		if !seq.ReadASN1(&status, tagUnknown) || !status.Empty() {
			return sr, malformed("certStatus unknown")
		}
		sr.Status = Unknown
	default:
		return sr, malformed("certStatus")
	}

	if !der.ReadGeneralizedTime(&seq, &sr.ThisUpdate) {
		return sr, malformed("thisUpdate")
	}
	var field cryptobyte.String
	var present bool
	if !seq.ReadOptionalASN1(&field, &present, tagExplicit0) {
		return sr, malformed("nextUpdate")
	}
	if present && (!der.ReadGeneralizedTime(&field, &sr.NextUpdate) || !field.Empty()) {
		return sr, malformed("nextUpdate")
	}
	if !seq.ReadOptionalASN1(&field, &present, tagExplicit1) || !seq.Empty() {
		return sr, malformed("singleExtensions")
	}
	if present {
		exts, ok := der.ReadExtensions(&field)
		if !ok || !field.Empty() {
			return sr, malformed("singleExtensions")
		}
		sr.Extensions = exts
	}
	return sr, nil
}

// parseCertID reads a CertID from s.
func parseCertID(s *cryptobyte.String) (CertID, error) {
	var id CertID
	var full, seq cryptobyte.String
	if !s.ReadASN1Element(&full, cbasn1.SEQUENCE) {
		return id, malformed("CertID")
	}
	id.Raw = full
	if !full.ReadASN1(&seq, cbasn1.SEQUENCE) {
		return id, malformed("CertID")
	}
	ai, _, ok := der.ReadAlgorithmIdentifier(&seq)
	if !ok {
		return id, malformed("CertID hashAlgorithm")
	}
	id.HashAlgorithm = ai.Algorithm
	if !seq.ReadASN1Bytes(&id.IssuerNameHash, cbasn1.OCTET_STRING) ||
		!seq.ReadASN1Bytes(&id.IssuerKeyHash, cbasn1.OCTET_STRING) {
		return id, malformed("CertID hashes")
	}
	serial, ok := der.ReadInteger(&seq)
	if !ok || !seq.Empty() {
		return id, malformed("CertID serialNumber")
	}
	id.SerialNumber = serial
	return id, nil
}
