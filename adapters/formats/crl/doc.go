// Package crl reads and verifies X.509 certificate revocation lists
// (RFC 5280, section 5), version 2 and version 1, for the revocation checks
// of signature validation (ETSI EN 319 102-1).
//
// crypto/x509.ParseRevocationList is not used: it refuses version 1 CRLs,
// which old and some still-running CAs issue, refuses negative and
// non-minimally encoded serial numbers, which occur in real CRLs, and its
// CheckSignatureFrom refuses SHA-1 signatures, whose acceptability is the
// validation policy's decision, not the parser's.
//
// # Scope
//
//   - [Parse]: DER or PEM to a [CRL]: version, issuer (raw name),
//     thisUpdate, nextUpdate (optional), the revoked entries (serial number
//     as a big.Int, negative ones included; revocation date; reason code;
//     invalidity date; certificate issuer, raw), the CRL number, the delta
//     CRL indicator, the issuing distribution point (raw), the authority key
//     identifier, every extension, and the critical extensions it does not
//     interpret.
//   - [CRL.CheckSignatureFrom]: the signature, with the algorithm the CRL
//     names (RSA PKCS #1 v1.5, RSA-PSS, ECDSA, Ed25519; SHA-1 included), by
//     a certificate whose subject is the CRL's issuer.
//   - [CRL.Status] and [CRL.Lookup]: whether a serial number is listed, in
//     O(log n).
//
// # Non-goals
//
//   - No scope decision. Whether a CRL covers a certificate (its issuing
//     distribution point against the certificate's CRL distribution points,
//     onlySomeReasons, indirect CRLs and their certificateIssuer entries,
//     delta CRLs against their base) and whether it is fresh enough are
//     the validation algorithm's: [CRL.IssuingDistributionPoint],
//     [CRL.DeltaCRLIndicator], [Entry.CertificateIssuer] and
//     [CRL.UnhandledCriticalExtensions] are there for it. Per RFC 5280 a
//     CRL with an unhandled critical extension must not be used to decide
//     revocation status.
//   - No delta CRL merging.
//   - No network: downloading a CRL (egress.FetchCRL, over the guarded
//     client of egress.NewCertClient for URLs from certificates) is
//     adapters/egress's; this package reads the bytes it is given.
//   - BER (indefinite lengths) is refused; CRLs are DER.
//
// # Errors and limits
//
// Parse failures wrap [ErrMalformed], and also [ErrLimit] beyond
// [MaxBytes] or [MaxEntries]. Signature checks fail with [ErrWrongIssuer],
// [ErrUnsupported] or [ErrSignatureInvalid].
package crl
