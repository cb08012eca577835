// Package certpath builds certificate paths from a signing (or time-stamp,
// or revocation-signer) certificate to a trust anchor and runs the X.509
// checks of a path at a given time. It is the path part of the X.509
// Certificate Validation building block of ETSI EN 319 102-1 (§5.2.6)
// and of the Identification of the signing certificate (§5.2.3).
//
// Most callers need three functions: [AnchorsFrom] turns a
// [trust.Snapshot] into [Anchor]s, [Build] finds every candidate [Path]
// from a certificate to an anchor, best first, and [Check] runs the X.509
// checks of one path at a validation time. [Path.Links] gives the
// (certificate, issuer) pairs the revocation step needs.
//
// # Errors and sub-indications
//
// Failures are typed: [*NoChainError] when no path exists (keeping the
// closest miss), [*PathError] when a path fails a check. Each carries a
// [Reason] that maps 1:1 to an EN 319 102-1 sub-indication:
//
//	Reason                    sub-indication
//	ReasonNoChain             NO_CERTIFICATE_CHAIN_FOUND
//	ReasonExpired             EXPIRED
//	ReasonNotYetValid         NOT_YET_VALID
//	ReasonChainConstraints    CHAIN_CONSTRAINTS_FAILURE (reserved, not returned)
//	ReasonGeneralFailure      CERTIFICATE_CHAIN_GENERAL_FAILURE
//
// Every check is paired as EU DSS pairs it: EXPIRED and NOT_YET_VALID, and
// CERTIFICATE_CHAIN_GENERAL_FAILURE for every structural failure, an
// issuing certificate without cA, a path length exceeded or an issuing key
// usage without keyCertSign included. A path that
// fails validity at the current time is, in the XCV building block,
// INDETERMINATE/OUT_OF_BOUNDS_NO_POE or OUT_OF_BOUNDS_NOT_REVOKED; which one,
// and whether a proof of existence cures it, is for the caller (the etsi
// package) to decide with revocation data and POEs: it runs [Check] again
// at the time it can prove. The Check field of a [PathError] says which
// X.509 check failed, for reports.
//
// # Swiss precedence
//
// A certificate listed both on an EU list and on the Swiss list is
// assessed with Swiss precedence (validation-service.md §2 rule 3).
// [AnchorsFrom] returns the CH anchor before the EU one and marks the EU
// one [Anchor.SwissListed]; [Build] orders paths to CH_ZERTES anchors
// first, then EU_EIDAS, then other public lists, then private anchors, so
// the first path of a certificate listed on both runs the Swiss branch.
//
// # Non-goals
//
// No fetching (AIA, LDAP): the caller supplies every intermediate. No
// revocation checking: [Path.Links] says what to ask. No trusted-list
// service status at a time, no qualification, no cryptographic constraints
// (algorithm and key-size acceptability): those belong to the etsi and
// qualification packages. Name constraints and certificate policy
// processing (RFC 5280 §6.1.3 (b)-(f)) are not enforced.
package certpath
