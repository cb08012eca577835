// Package cades reads CAdES signatures (ETSI EN 319 122-1) and plain
// CMS/PKCS #7 signatures: attached or detached (the detached content
// comes as parts of the document, each tried by its digest), with their
// signed and unsigned attributes, signature and archive time-stamps,
// certificate and revocation values, and counter-signatures.
//
// The reader reports what the signature holds as domain/ades evidence:
// the digest and signature-value checks (RFC 5652 verification, the
// content-type attribute included), the signing certificate and the
// signed reference to it, the time-stamps with their imprint checks,
// the embedded validation data, and the level the structure shows
// (level.go). It decides nothing of trust: the validation process does.
// The PAdES reader reads the CMS of a PDF signature through
// ReadEmbedded. Limits on what a signature may make it do are in
// limits.go.
package cades
