// Package ocsp reads and verifies OCSP responses and encodes OCSP requests
// (RFC 6960) for the revocation checks of signature validation (ETSI EN
// 319 102-1).
//
// # Scope
//
//   - [ParseResponse]: an OCSPResponse to a [Response], with the
//     BasicOCSPResponse of a successful one in full ([BasicResponse]):
//     responder ID by name or by key, producedAt, every SingleResponse
//     (certificate ID, good/revoked/unknown, revocation time and reason,
//     thisUpdate, nextUpdate, extensions), the response extensions and the
//     nonce, the signature and its algorithm, and the certificates sent
//     along. The signed tbsResponseData is kept byte for byte.
//   - [BasicResponse.Find] and [CertID.Matches]: which SingleResponse is
//     about a given certificate, recomputing the issuer name and key
//     hashes with the hash algorithm the CertID names.
//   - [BasicResponse.Verify]: the signature, and whether its signer may
//     answer for the issuer: the issuer itself, or a delegated responder
//     certificate sent in the response, issued by the issuer and carrying
//     id-kp-OCSPSigning (RFC 6960, section 4.2.2.2). Whether the delegate
//     carries id-pkix-ocsp-nocheck is reported in [Signer].
//   - [Request] and [RequestWithNonce]: a DER request for one
//     certificate.
//
// # Non-goals
//
//   - No revocation decision. A verified response is evidence; whether it
//     is fresh enough, whether its producedAt and thisUpdate suit the
//     validation time, whether the responder certificate was valid then
//     and, without ocsp-nocheck, not revoked itself, is decided by the
//     validation algorithm, which also applies the cryptographic policy to
//     [BasicResponse.SignatureAlgorithm]. SHA-1 signatures are verified,
//     not refused: refusing them is the policy's call.
//   - Which responders are trusted besides the issuers is the caller's:
//     [BasicResponse.VerifyTrusted] checks a response against the
//     responder certificates it is given (egress passes those a trusted
//     list names as OCSP services).
//   - No signed requests, no GET requests, no response types other than
//     id-pkix-ocsp-basic.
//   - No network: the POST of RFC 6960, appendix A.1 (egress.ExchangeOCSP,
//     over the guarded client of egress.NewCertClient for URLs from
//     certificates) is adapters/egress's; this package reads and writes
//     the bytes.
//
// # Errors and limits
//
// Parse failures wrap [ErrMalformed], also beyond [MaxResponseBytes];
// unknown algorithms and response types wrap [ErrUnsupported].
// Verification fails with [ErrUnauthorisedResponder] or
// [ErrSignatureInvalid], lookup with [ErrNoMatchingResponse].
package ocsp
