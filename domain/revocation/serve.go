package revocation

import (
	"bytes"
	"crypto/x509"
	"time"
)

// Usable reports whether f may be relied on for cert, issued by issuer,
// at t (EN 319 102-1, 5.2.5, simplified as docs/decisions/0018 and 0035
// say): it is about cert (when it names a certificate) and about
// issuer's key (when it names an issuer), it says GOOD or REVOKED, and
// it speaks of t:
//
//   - data issued at or before t (a zero ThisUpdate counts as issued
//     then) does;
//   - REVOKED data issued after t does: its revocation time says
//     whether the certificate was revoked at t;
//   - GOOD data issued after t does when it was issued while cert was
//     still valid (ThisUpdate at or before its notAfter). Revocation is
//     permanent, so a certificate not revoked then was not revoked at
//     t; once the certificate has expired, a CRL may drop it and a
//     responder may no longer know it (RFC 5280, 3.3), and GOOD no
//     longer proves that.
//
// Usable does not look at freshness (see [Fresh]) nor at who signed the
// data: the adapter that made the fact checked its signature and the
// responder's authorisation.
func Usable(f Fact, cert, issuer *x509.Certificate, t time.Time) bool {
	if f.Certificate != nil && (cert == nil || !bytes.Equal(f.Certificate.Raw, cert.Raw)) {
		return false
	}
	if f.Issuer != nil && (issuer == nil || !bytes.Equal(f.Issuer.RawSubjectPublicKeyInfo, issuer.RawSubjectPublicKeyInfo)) {
		return false
	}
	switch {
	case f.Status != Good && f.Status != Revoked:
		return false
	case !IssuedAfter(f, t), f.Status == Revoked:
		return true
	}
	return cert != nil && !f.ThisUpdate.After(cert.NotAfter)
}

// IssuedAfter reports whether f was issued after t: its ThisUpdate is
// after t. Data without a ThisUpdate counts as issued at any t.
func IssuedAfter(f Fact, t time.Time) bool {
	return !f.ThisUpdate.IsZero() && f.ThisUpdate.After(t)
}

// Fresh reports whether f, once [Usable] at t, settles the certificate's
// status at t without other data (5.2.5.4 without a freshness
// constraint):
//
//   - REVOKED at or before t does, whatever its age: the certificate was
//     revoked then (a suspension too: it is not assumed lifted);
//   - REVOKED after t does, the certificate not revoked at t, unless it
//     is a suspension (certificateHold): a suspension after t does not
//     tell whether an earlier one, lifted since, covered t;
//   - GOOD issued after t does: revocation is permanent (see [Usable]);
//   - GOOD issued by t does while its NextUpdate is after t or not
//     given.
func Fresh(f Fact, t time.Time) bool {
	switch {
	case f.Status == Revoked:
		return !f.RevokedAt.After(t) || f.Reason != ReasonCertificateHold
	case IssuedAfter(f, t):
		return true
	}
	return f.NextUpdate.IsZero() || f.NextUpdate.After(t)
}

// Serves reports whether facts settle the status of cert, issued by
// issuer, at t: one of them is [Usable] and [Fresh] at t. When none is,
// the ETSI process concludes INDETERMINATE/TRY_LATER for that
// certificate unless a proof of existence lets older data do, so a
// caller that can get more data (online) should.
func Serves(facts []Fact, cert, issuer *x509.Certificate, t time.Time) bool {
	for _, f := range facts {
		if Usable(f, cert, issuer, t) && Fresh(f, t) {
			return true
		}
	}
	return false
}
