package ades

import (
	"crypto/x509"
	"time"
)

// A TimeMark is the proof of existence of an Estonian BDOC 2.1 time-mark
// signature (XAdES_BASELINE_LT_TM, as SiVa and libdigidocpp name it): an
// OCSP response about the signing certificate, embedded in the
// signature's revocation values, whose nonce is the DigestInfo of the
// hash of the signature value. The responder could only have computed
// that nonce once the signature existed, so the response's producedAt
// stands where a signature time-stamp's genTime stands, and there is no
// signature time-stamp.
//
// The reader checks the nonce; whether the response is a revocation fact
// the process may rely on (signed by the issuer or a responder it
// authorised, about the signing certificate) is the process's question,
// asked of the facts the application gathered from the same response.
type TimeMark struct {
	// ProducedAt is the response's producedAt: when the process accepts
	// the time-mark, a proof of existence of the signature.
	ProducedAt time.Time
	// Response is the BasicOCSPResponse, DER, as revocation.Fact.Raw
	// carries it: the process finds the time-mark's fact by it. The whole
	// OCSPResponse is among the signature's OCSPResponses.
	Response []byte
	// Certificates are those the response carries: the responder's
	// certificate, for a delegated responder.
	Certificates []*x509.Certificate
	// Nonce is the check of the response's nonce against the signature
	// value: Algorithm names the digest of the nonce's DigestInfo
	// (SHA256), Reason the reader's stable code when it does not match
	// or cannot be checked.
	Nonce Check
}
