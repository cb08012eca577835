package tsp

import "errors"

// Sentinel errors. Callers compare with errors.Is. Errors about the CMS
// signature of a token wrap the sentinel errors of package cms as well.
var (
	// ErrMalformed reports a token, TSTInfo or response that is not the
	// DER of the RFC 3161 structure, or a token with another content type
	// or more than one signer.
	ErrMalformed = errors.New("tsp: malformed")

	// ErrUnsupported reports a hash algorithm this package does not
	// compute.
	ErrUnsupported = errors.New("tsp: unsupported")

	// ErrLimitExceeded reports input beyond the bounds in limits.go.
	ErrLimitExceeded = errors.New("tsp: limit exceeded")

	// ErrImprintMismatch reports a message imprint that is not the hash of
	// the data: the token time-stamps something else.
	ErrImprintMismatch = errors.New("tsp: message imprint mismatch")

	// ErrNoSigningCertificate reports a token without the ESS
	// signing-certificate(-v2) attribute RFC 3161 requires.
	ErrNoSigningCertificate = errors.New("tsp: no ESS signing-certificate attribute")

	// ErrSigningCertificateMismatch reports an ESS signing-certificate
	// attribute that does not identify the certificate whose key verified
	// the signature.
	ErrSigningCertificateMismatch = errors.New("tsp: ESS signing-certificate does not identify the TSA certificate")

	// ErrRejected reports a TimeStampResp whose status is neither granted
	// nor grantedWithMods.
	ErrRejected = errors.New("tsp: time-stamp request rejected")

	// ErrNotTSACertificate reports a certificate without the extended key
	// usage id-kp-timeStamping as its only purpose.
	ErrNotTSACertificate = errors.New("tsp: not a time-stamping certificate")
)
