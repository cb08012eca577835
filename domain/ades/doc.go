// Package ades holds the evidence of one signature as a document reader
// found it: what was signed and whether it is intact, the signature
// value's check, the signing-certificate reference, attributes, embedded
// validation data and timestamps. It is format-neutral: the CAdES, PAdES,
// XAdES, JAdES and ASiC readers all produce a [Signature], and the ETSI
// EN 319 102-1 process (domain/etsi) decides on it.
//
// # Facts, not bytes
//
// Readers do the format-specific work (parse, canonicalise, hash, verify
// the signature value and the timestamps' imprints) and record outcomes.
// The domain never re-parses. Revocation data stays raw here because its
// checks need the certificate path, which the domain builds: the
// application turns it into facts through ports.RevocationSource.
//
// # Non-goals
//
// No trust decisions: whether a certificate is trusted, revoked or
// qualified is decided later, from the trust snapshot and revocation facts.
package ades
