// Package tsp reads and verifies RFC 3161 time-stamp tokens, as found in
// CAdES signature-time-stamp attributes, PAdES document time-stamps and
// TSA responses, and builds time-stamp requests.
//
// # Scope
//
//   - Parse reads a TimeStampToken: a CMS SignedData (package cms) with
//     eContentType id-ct-TSTInfo and one signer; ParseResponse reads a
//     TimeStampResp and its status; ParseTSTInfo reads the TSTInfo: version,
//     policy, message imprint, serial number, genTime with fractions of a
//     second, accuracy, ordering, nonce, TSA name and extensions.
//   - Token.Verify checks the token: the CMS signature by the TSA (its
//     certificate from the token or supplied by the caller) and the ESS
//     signing-certificate or signing-certificate-v2 attribute (RFC 2634,
//     RFC 5035, RFC 5816) against that certificate. CheckImprint and
//     CheckImprintDigest compare the message imprint with data or its
//     digest; Verify does all of it in one call.
//   - CheckTSACertificate checks the extended key usage RFC 3161 requires
//     of a TSA certificate.
//   - CreateRequest builds a TimeStampReq.
//
// Errors are typed: signature problems wrap the cms errors
// (cms.ErrSignatureInvalid, cms.ErrDigestMismatch, cms.ErrSignerNotFound,
// ...), this package adds ErrImprintMismatch, ErrNoSigningCertificate,
// ErrSigningCertificateMismatch, ErrRejected and ErrMalformed.
//
// # Non-goals
//
//   - Trust in the TSA, the validity of its certificate at genTime, and the
//     TSA name: the validation policy decides them.
//   - Computing the imprint of CAdES archive time-stamps: callers hash what
//     the archive time-stamp covers and use CheckImprintDigest.
//   - Requesting tokens over HTTP: callers post CreateRequest's output
//     (application/timestamp-query) and give the answer to ParseResponse.
package tsp
