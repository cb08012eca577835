// Package revocation holds revocation facts: what an OCSP response or a
// CRL says about one certificate, already parsed and with its own
// signature checked by an adapter. The ETSI process (domain/etsi) judges
// them: freshness against the validation time, proof of existence,
// whether the data's signer chains to a trust anchor.
package revocation

import (
	"crypto/x509"
	"time"
)

// Status is a certificate's status according to one source.
type Status uint8

const (
	_       Status = iota
	Good           // GOOD
	Revoked        // REVOKED
	Unknown        // UNKNOWN: the source does not know the certificate
)

func (s Status) String() string {
	switch s {
	case Good:
		return "GOOD"
	case Revoked:
		return "REVOKED"
	case Unknown:
		return "UNKNOWN"
	}
	return ""
}

// Source is the kind of revocation data.
type Source uint8

const (
	_    Source = iota
	OCSP        // OCSP
	CRL         // CRL
)

func (s Source) String() string {
	switch s {
	case OCSP:
		return "OCSP"
	case CRL:
		return "CRL"
	}
	return ""
}

// ReasonCertificateHold is the RFC 5280 reason code of a suspension: the
// one revocation that may be lifted again (removeFromCRL, or GOOD from
// a responder), so the only one that is not permanent.
const ReasonCertificateHold = 6

// A Fact is one piece of revocation data about one certificate.
type Fact struct {
	Certificate *x509.Certificate
	Issuer      *x509.Certificate
	Source      Source
	// Embedded is true for data found in the document, false for data
	// fetched online during this validation.
	Embedded bool
	Status   Status
	// RevokedAt and Reason (RFC 5280 reason code, [ReasonCertificateHold]
	// among them) are set when Revoked.
	RevokedAt time.Time
	Reason    int
	// ProducedAt is the OCSP producedAt (zero for a CRL); ThisUpdate and
	// NextUpdate bound the data's validity (NextUpdate zero: not given).
	ProducedAt time.Time
	ThisUpdate time.Time
	NextUpdate time.Time
	// Signer signed the data: the issuer, a delegated OCSP responder or a
	// CRL issuer. Delegated is true for a responder other than the issuer;
	// NoCheck when it carries id-pkix-ocsp-nocheck.
	Signer    *x509.Certificate
	Delegated bool
	NoCheck   bool
	// SignatureAlgorithm is the algorithm of the data's signature, judged
	// by the cryptographic constraints; x509.UnknownSignatureAlgorithm
	// when the source did not name it.
	SignatureAlgorithm x509.SignatureAlgorithm
	// Raw is the data the fact was read from, DER: the CertificateList of
	// a CRL, the BasicOCSPResponse of an OCSP response (as documents embed
	// it); nil when the source did not keep it. The process does not read
	// it; the validation reports carry it.
	Raw []byte
}
