// Package cryptosuite reads cryptographic-suite documents in the form of
// ETSI TS 119 322 (the RFC 5698 SecuritySuitabilityPolicy, in XML or in
// JSON) into an [algorithm.Catalogue]: the documents EU DSS 6.3 and later
// read, so an operator's suite file serves here unchanged.
//
// A document lists algorithms, each named by its name, its object
// identifiers and its URIs, with one or more evaluations: the key sizes
// an evaluation covers (moduluslength for RSA, plength and qlength for
// DSA) and the end of its validity. Parse maps what the validator judges:
//
//   - digest algorithms (SHA256, SHA3-256, ...) to [algorithm.Builder.Digest];
//   - signature algorithms paired with one digest (sha256WithRSAEncryption,
//     ECDSA with SHA-256, id-rsassa-pkcs1-v1-5-with-sha3-256) to
//     [algorithm.Builder.Signature];
//   - rsassa-pss, with any digest, to a signature of [algorithm.RSAPSS];
//   - key algorithms (DSA, rsaEncryption, id-ecPublicKey, id-Ed25519,
//     id-Ed448) and the NIST curves (secp256r1, secp384r1, secp521r1,
//     secp224r1) to [algorithm.Builder.Key], a curve as the EC key size it
//     names.
//
// An algorithm the validator cannot meet is skipped (ML-DSA, SLH-DSA,
// EC-SDSA, brainpool and FRP curves: no reader here produces them), so a
// document made for a richer validator still reads; one that names none
// it judges is an error. The end of an evaluation's validity is the
// first instant its uses are no longer acceptable; its start is read and
// checked but not applied (docs/decisions/0041-cryptographic-suite.md).
//
// Parse is linear in its input, refuses more than [MaxSize] bytes and
// XML with a DOCTYPE (no entity is ever expanded), and reports every
// problem as an [*Error] naming the path in the document.
package cryptosuite
