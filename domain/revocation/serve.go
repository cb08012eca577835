package revocation

import (
	"bytes"
	"crypto/x509"
	"time"
)

// Usable reports whether f may be relied on for cert, issued by issuer,
// at t (EN 319 102-1, 5.2.5, simplified as docs/decisions/0018 says): it
// is about cert (when it names a certificate) and about issuer's key
// (when it names an issuer), it says GOOD or REVOKED, and it was issued
// at or before t (a zero ThisUpdate counts as issued then).
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
	if f.Status != Good && f.Status != Revoked {
		return false
	}
	return f.ThisUpdate.IsZero() || !f.ThisUpdate.After(t)
}

// Fresh reports whether f, once [Usable] at t, settles the certificate's
// status at t without other data (5.2.5.4 without a freshness
// constraint): a REVOKED fact always does (a revocation at or before t,
// or one after it that leaves the certificate not revoked at t), a GOOD
// one when its NextUpdate is after t or not given.
func Fresh(f Fact, t time.Time) bool {
	return f.Status == Revoked || f.NextUpdate.IsZero() || f.NextUpdate.After(t)
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
