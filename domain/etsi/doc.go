// Package etsi runs the signature validation process of ETSI EN 319 102-1
// (V1.3.1/V1.4.1) over the evidence a document reader found
// ([ades.Signature]), the trust anchors and the revocation facts the
// application fetched. It decides the indication, the sub-indication, the
// certificate path, the best-signature-time and the level the evidence
// supports, and fills a [verdict.SignatureReport].
//
// # Process
//
// [Validate] runs, in this order: format checking (FC, clause 5.2.2),
// identification of the signing certificate (ISC, 5.2.3), cryptographic
// verification (CV, 5.2.7), X.509 certificate validation (XCV, 5.2.6)
// with revocation facts (5.2.5), signature acceptance validation (SAV,
// 5.2.8, warnings only), the basic signature validation (5.3), and the
// validation process for signatures with time and with long-term
// validation material (5.5, 5.6, simplified) which may cure a basic
// INDETERMINATE/REVOKED_NO_POE or OUT_OF_BOUNDS_NO_POE with a proof of
// existence from a trusted time-stamp, or from the time-mark of an
// Estonian BDOC 2.1 signature (an OCSP response whose nonce binds the
// signature value, docs/decisions/0031-bdoc-time-mark.md).
// docs/decisions/0018-etsi-process.md lists the clauses, what is
// simplified and every message code.
//
// # What the process ran
//
// Besides the verdict, a [Result] records the building blocks that ran
// ([Block]: each check and its conclusion), the basic and long-term
// stages, every time-stamp's validation and the revocation facts relied
// on, for the validation reports (domain/report,
// docs/decisions/0025-validation-reports.md). The verdict never depends on
// them.
//
// # Calling sequence
//
//  1. Policy.Validate (a zero validation time is an error).
//  2. Needs: the (certificate, issuer) links whose revocation the process
//     will look at; the application fetches facts for them.
//  3. Validate with the facts in Inputs.Revocation, keyed by Key.
//  4. Report, with the authenticity of the trusted lists; Describe for
//     what a person reads first (times, scope, chain).
//
// # Non-goals
//
// No parsing, no I/O, no clock: readers and adapters deliver facts, the
// validation time is an input. No qualification (domain/qualification),
// no signature policies, no counter-signatures, no cryptographic
// algorithm catalogue (ETSI TS 119 312).
package etsi
