package xades

import (
	"bytes"
	"crypto/x509"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/internal/der"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/domain/ades"
)

// PolicyBDOCTimeMark is the signature policy of Estonian BDOC 2.1
// time-mark signatures (BDOC 2.1 spec, 2.2, written
// "urn:oid:1.3.6.1.4.1.10015.1000.3.2.1"), as the reader reports it in
// ades.Signature.PolicyID.
const PolicyBDOCTimeMark = "1.3.6.1.4.1.10015.1000.3.2.1"

// timeMark finds the time-mark of a signature without a signature
// time-stamp (BDOC 2.1, 5.3): the first of its OCSP responses (full
// OCSPResponse encodings) that is about signer, by serial number and
// issuer name, and carries a nonce. value is the signature value's
// octets, policy the signature's policy identifier.
//
// A nonce that is no DigestInfo is a time-mark only under the BDOC
// policy, whose nonce must be one: elsewhere it is taken for the random
// nonce of RFC 8954, which proves nothing of the signature, and the
// response for revocation data alone. It returns nil when there is no
// time-mark.
func timeMark(responses [][]byte, signer *x509.Certificate, value []byte, policy string) *ades.TimeMark {
	if signer == nil {
		return nil
	}
	for _, raw := range responses {
		resp, err := ocsp.ParseResponse(raw)
		if err != nil || resp.Basic == nil || resp.Basic.Nonce == nil || !about(resp.Basic, signer) {
			continue
		}
		nonce := checkNonce(resp.Basic.Nonce, value)
		if nonce.Reason == CodeTimeMarkNonceMalformed && policy != PolicyBDOCTimeMark {
			continue
		}
		tm := &ades.TimeMark{ProducedAt: resp.Basic.ProducedAt, Response: resp.Basic.Raw, Nonce: nonce}
		for _, c := range resp.Basic.Certificates {
			if crt, err := cert.Parse(c); err == nil {
				tm.Certificates = append(tm.Certificates, crt)
			}
		}
		return tm
	}
	return nil
}

// about reports whether one of b's SingleResponses names c.
func about(b *ocsp.BasicResponse, c *x509.Certificate) bool {
	for _, sr := range b.Responses {
		if ok, err := sr.CertID.MatchesName(c); err == nil && ok {
			return true
		}
	}
	return false
}

// checkNonce checks an OCSP nonce against the signature value: it must
// be a DER DigestInfo (RFC 8017, 9.2: an AlgorithmIdentifier and an
// OCTET STRING) of the hash of value by the algorithm it names (BDOC
// 2.1, 5.3; libdigidocpp writes SHA-256). The nonce is the extension's
// content already unwrapped of the OCTET STRING of RFC 8954 when there
// was one (ocsp.BasicResponse.Nonce), so both encodings found in
// archived containers are read.
func checkNonce(nonce, value []byte) ades.Check {
	in := cryptobyte.String(nonce)
	var seq cryptobyte.String
	var digest []byte
	if !in.ReadASN1(&seq, cbasn1.SEQUENCE) || !in.Empty() {
		return ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}
	}
	ai, _, ok := der.ReadAlgorithmIdentifier(&seq)
	if !ok || !seq.ReadASN1Bytes(&digest, cbasn1.OCTET_STRING) || !seq.Empty() {
		return ades.Check{Done: true, Reason: CodeTimeMarkNonceMalformed}
	}
	h, err := cert.HashFromOID(ai.Algorithm)
	if err != nil || !h.Available() {
		return ades.Check{Reason: CodeUnsupportedAlgorithm}
	}
	c := ades.Check{Done: true, Algorithm: cert.HashName(h)}
	sum := h.New()
	sum.Write(value)
	if !bytes.Equal(sum.Sum(nil), digest) {
		c.Reason = CodeTimeMarkNonceMismatch
		return c
	}
	c.Valid = true
	return c
}
