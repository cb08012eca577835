// Package cmssign writes CMS signatures (RFC 5652) for the service's own
// seal: the DER building blocks (algorithm identifiers, DER SETs,
// attributes, the ESS signing-certificate-v2 of RFC 5035) and
// [SignDetached], a detached SignedData of one signer as PAdES baseline
// wants it (ETSI EN 319 142-1: content-type, message-digest,
// signing-certificate-v2, no signing-time; a signature-time-stamp for
// level T).
//
// The building blocks are shared with fixtures/cmswrite, which makes the
// tests' CMS documents, defects included, from them.
package cmssign
