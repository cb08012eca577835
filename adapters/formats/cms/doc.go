// Package cms reads and verifies CMS SignedData
// (RFC 5652), the container of CAdES signatures and RFC 3161 time-stamp
// tokens.
//
// It is ours, not a pkcs7 library's, because signature validation needs
// what those libraries lack: the signed attributes exactly as signed, not
// re-encoded; RSASSA-PSS; signer identification by subject key identifier;
// BER input; counter-signatures; and outcomes typed for a validation
// policy.
//
// # Scope
//
//   - Parse reads a ContentInfo holding SignedData in DER or BER
//     (indefinite lengths, segmented OCTET STRINGs: streaming CAdES
//     signers write them). Structure is read from the input in place;
//     each SignerInfo keeps its signed attributes as found
//     (RawSignedAttrs) and the DER SET the signature covers
//     (SignedAttrsDER; see SignerInfo for the BER case). Certificates go
//     through cert.Parse (which reads brainpool keys and negative serial
//     numbers), CRLs and other revocation information (OCSP responses)
//     stay raw, unsigned attributes stay raw, and countersignature
//     attributes are parsed into SignerInfos.
//   - Verify, VerifySigner and VerifyCounterSignature check signers: the
//     signer certificate by issuer and serial number or subject key
//     identifier among the embedded and supplied certificates (each
//     candidate tried), the message-digest and content-type attributes
//     against the attached or detached content (read once, any size), and
//     the signature value with RSA PKCS #1 v1.5, RSASSA-PSS, ECDSA (NIST
//     and brainpool curves) or Ed25519, with SHA-1, SHA-2 or SHA-3.
//   - SigningCertificate and ParseSigningCertificate read ESS
//     signing-certificate(-v2) attributes; ESSCertID.Matches checks one.
//
// It does not write SignedData: fixtures/cmswrite does, for fixtures and
// tests.
//
// Outcomes are typed (see the errors): a digest mismatch, a signature value
// that does not verify, a signer certificate not found, an unsupported
// algorithm and malformed input are told apart with errors.Is.
//
// # Defences
//
// Input is untrusted. Nesting, counts of certificates, CRLs, signers,
// attributes, values, counter-signature depth and string segments are
// bounded by the constants in limits.go. Every candidate certificate that
// matches a signer identifier is tried, so a planted certificate with the
// genuine issuer and serial number cannot hide the real one. All
// cryptography is crypto/rsa, crypto/ecdsa, crypto/ed25519 and crypto/sha*
// (through package cert).
//
// # Non-goals
//
//   - Trust: Verify says whether a certificate's key made the signature,
//     not whether the certificate is trusted, valid or fit for signing.
//   - CAdES semantics beyond the attributes above (signature policies,
//     commitment types, archive time-stamp hash computation), and
//     time-stamp tokens (package tsp).
//   - EnvelopedData and the other content types, attribute certificates
//     (kept raw), DSA, MD5, RIPEMD-160, RSASSA-PSS with an MGF1 hash other
//     than the message hash: ErrUnsupported.
//   - Streaming the attached content: Parse holds the input in memory.
//     Detached content is streamed.
package cms
