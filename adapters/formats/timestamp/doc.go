// Package timestamp reads a bare RFC 3161 time-stamp (a `.tst` or `.tsr`
// file) uploaded with the data it time-stamps as detached parts: a
// TimeStampToken (a CMS ContentInfo whose SignedData encapsulates a
// TSTInfo) or a TimeStampResp (a status and the token, what
// `openssl ts -reply` writes). DSS validates such a file as a detached
// time-stamp; so does this service (docs/decisions/0032).
//
// The reader reports what the file holds, no signature and one
// time-stamp entry (ades.TimestampEntry): the token's own signature
// checked, the certificates and revocation data it carries, and its
// message imprint checked against the detached part whose digest it is
// (or, when none is, against the first part, which then does not match;
// with no part, the data is not found). It decides nothing of trust: the
// validation process judges the entry as it judges a signature's
// time-stamp.
//
// # Non-goals
//
// A token inside a signature or a container is read by that format's
// reader (cades, pades, xades, asic); a rejected TimeStampResp, which
// holds no token, is unreadable. The CAdES reader does not claim a
// time-stamp token (cades.Detect).
package timestamp
