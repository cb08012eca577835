// Package svt writes the claims of a Signature Validation Token (RFC
// 9321) from a validation: what the validator found about each signature
// of a document, in a form that a program can check later without
// validating the signature again. The token is signed elsewhere (the
// seal); this package is pure: the token's ID, issuer and time are given.
//
// Where RFC 9321 leaves a choice (docs/validate-api.md, "Signature
// Validation Token"):
//
//   - profile: "PDF" for PAdES, "XML" for XAdES, "JWS" for JAdES (the
//     profiles of RFC 9321's appendices); "urn:svc-dss:svt:profile:cms"
//     for CAdES and anything else, which RFC 9321 has no profile for.
//   - sig_ref: id is the verdict's signatureId; sig_hash and sb_hash the
//     SHA-256 of the signature value and of the bytes it signs, where the
//     reader gives them (both for CMS-based signatures and attached JWS,
//     sig_hash alone for XAdES and detached JWS), omitted otherwise.
//   - sig_data_ref: each data object the signature covers with its
//     SHA-256 digest as the signature states it; objects digested with
//     another algorithm are left out, since every hash of the token is
//     hash_algo's.
//   - signer_cert_ref: chain_hash, the SHA-256 of each certificate of the
//     path the process built, signer first, anchor last; the signer's
//     alone when no path was built.
//   - sig_val: one result under the EN 319 102-1 policy of this validator
//     (Policy), PASSED, FAILED or INDETERMINATE from the indication; its
//     ext holds the indication, sub-indication, format, trust framework,
//     anchor's list, qualifications and error codes as the JSON verdict
//     spells them.
//   - time_val: each time-stamp that gave the signature a proof of
//     existence, with its time, type and unit.
//   - sig_val_claims.ext: the document's name and SHA-256, the validation
//     time and the trust data it was judged against.
package svt
