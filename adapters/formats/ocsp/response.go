package ocsp

import (
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"fmt"
	"math/big"
	"time"
)

// MaxResponseBytes bounds a response, fetched or parsed. Real responses
// are one to a few kilobytes (a SingleResponse and at most a short chain of
// responder certificates); the cap is generous and still keeps a hostile
// responder from making us read or decode much.
const MaxResponseBytes = 64 << 10

// A ResponseStatus is the OCSPResponseStatus of RFC 6960, section 4.2.1.
type ResponseStatus int

// Response statuses. Only Successful responses carry a [BasicResponse].
const (
	Successful       ResponseStatus = 0
	MalformedRequest ResponseStatus = 1
	InternalError    ResponseStatus = 2
	TryLater         ResponseStatus = 3
	SigRequired      ResponseStatus = 5
	Unauthorized     ResponseStatus = 6
)

func (s ResponseStatus) String() string {
	switch s {
	case Successful:
		return "successful"
	case MalformedRequest:
		return "malformedRequest"
	case InternalError:
		return "internalError"
	case TryLater:
		return "tryLater"
	case SigRequired:
		return "sigRequired"
	case Unauthorized:
		return "unauthorized"
	}
	return fmt.Sprintf("ResponseStatus(%d)", int(s))
}

// A CertStatus is the status a SingleResponse gives a certificate.
type CertStatus int

// Certificate statuses (RFC 6960, section 4.2.1, CertStatus).
const (
	Good CertStatus = iota
	Revoked
	Unknown
)

func (s CertStatus) String() string {
	switch s {
	case Good:
		return "good"
	case Revoked:
		return "revoked"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("CertStatus(%d)", int(s))
}

// A Response is a parsed OCSPResponse.
type Response struct {
	// Raw is the complete OCSPResponse.
	Raw []byte
	// Status is the responder's answer to the request as a whole.
	Status ResponseStatus
	// Basic is the BasicOCSPResponse; non-nil exactly when Status is
	// Successful.
	Basic *BasicResponse
}

// A BasicResponse is a BasicOCSPResponse (RFC 6960, section 4.2.1). It is
// unverified until [BasicResponse.Verify] succeeds.
type BasicResponse struct {
	// Raw is the BasicOCSPResponse, as carried in the response bytes.
	Raw []byte
	// RawResponseData is tbsResponseData, the signed bytes.
	RawResponseData []byte

	// Version is 0 for v1, the only version defined.
	Version     int
	ResponderID ResponderID
	ProducedAt  time.Time
	Responses   []SingleResponse
	// Extensions are the responseExtensions, nonce included.
	Extensions []pkix.Extension
	// Nonce is the value of the id-pkix-ocsp-nonce extension (the
	// content of its OCTET STRING, RFC 8954), nil when absent.
	Nonce []byte

	// SignatureAlgorithm names the algorithm of Signature;
	// x509.UnknownSignatureAlgorithm when this package cannot verify it.
	SignatureAlgorithm x509.SignatureAlgorithm
	// RawSignatureAlgorithm is the encoded AlgorithmIdentifier.
	RawSignatureAlgorithm []byte
	Signature             []byte

	// Certificates are the certs sent with the response, DER as sent.
	// They are parsed only when a delegated responder is looked for, so
	// one certificate crypto/x509 refuses does not spoil the response.
	Certificates [][]byte
}

// A ResponderID identifies the signer of a response: exactly one of
// RawName and KeyHash is set.
type ResponderID struct {
	// RawName is the DER Name of the responder (byName).
	RawName []byte
	// KeyHash is the SHA-1 hash of the responder's subjectPublicKey BIT
	// STRING content (byKey).
	KeyHash []byte
}

// A CertID identifies the certificate a SingleResponse is about.
type CertID struct {
	// Raw is the encoded CertID.
	Raw []byte
	// HashAlgorithm is the OID of the hash of IssuerNameHash and
	// IssuerKeyHash.
	HashAlgorithm  asn1.ObjectIdentifier
	IssuerNameHash []byte
	IssuerKeyHash  []byte
	SerialNumber   *big.Int
}

// A SingleResponse is the status of one certificate.
type SingleResponse struct {
	CertID CertID
	Status CertStatus
	// RevocationTime is set when Status is Revoked.
	RevocationTime time.Time
	// RevocationReason is the CRLReason code (RFC 5280, section 5.3.1:
	// 1 keyCompromise, 6 certificateHold, …) of a revoked certificate;
	// 0 (unspecified) when the responder gave none. HasReason tells the
	// two apart.
	RevocationReason int
	HasReason        bool
	ThisUpdate       time.Time
	// NextUpdate is zero when absent: newer information may be available
	// at any time (RFC 6960, section 4.2.2.1).
	NextUpdate time.Time
	Extensions []pkix.Extension
}
