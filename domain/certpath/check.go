package certpath

import (
	"crypto/x509"
	"encoding/asn1"
	"fmt"
	"slices"
	"time"
)

// CheckOptions tune [Check]. The zero value checks every certificate of
// the path, the anchor's included, and understands only the extensions
// crypto/x509 handles.
type CheckOptions struct {
	// SkipAnchorValidity leaves the anchor certificate's validity period
	// unchecked, as EU DSS does for every trusted certificate (trust in a
	// trusted-list anchor comes from the service status; in a trusted
	// leaf, from whoever configured it). Zero: the anchor's validity is checked
	// like every other certificate's (a private anchor's must be,
	// validation-service.md §2).
	SkipAnchorValidity bool
	// UnderstoodExtensions are critical extensions the caller processes
	// itself (for instance QCStatements, by the qualification step), so
	// that they do not fail the path. Zero: none besides crypto/x509's.
	UnderstoodExtensions []asn1.ObjectIdentifier
}

// Check runs the X.509 checks of p at the time at and returns the first
// failure as a [*PathError], or nil.
//
// The checks, over every certificate of the path:
//   - name chaining: each certificate's issuer name is the next one's
//     subject (byte-equal or normalised);
//   - each issuing certificate (all but the leaf; a version 1 or 2 anchor
//     excepted, RFC 5280 §6.1 takes its trust anchor as input) is a CA:
//     basicConstraints with cA true;
//   - each issuing certificate with a key usage extension asserts
//     keyCertSign;
//   - each pathLenConstraint holds: the non-self-issued intermediates below
//     an issuing certificate number at most its pathLenConstraint;
//   - no certificate has a critical extension neither crypto/x509 nor
//     opts.UnderstoodExtensions cover;
//   - every certificate is within its validity period at at (notBefore and
//     notAfter inclusive), except the anchor's when opts.SkipAnchorValidity,
//     even when the anchor is the leaf itself.
//
// The time-independent checks (all but validity) run first over the whole
// path, because no proof of existence can cure them; then validity runs
// from the leaf upwards, so the first error names the lowest certificate
// out of bounds. Check neither verifies signatures (Build did), nor checks
// revocation, name constraints, policies or algorithms; a zero at is
// checked like any other time, the caller must supply the validation time.
func Check(p Path, at time.Time, opts CheckOptions) error {
	certs := p.Certificates
	if len(certs) == 0 {
		return &PathError{Reason: ReasonGeneralFailure, Check: CheckEmptyPath}
	}
	last := len(certs) - 1
	fail := func(i int, k CheckKind, detail string) error {
		return &PathError{Cert: certs[i], Index: i, Reason: k.Reason(), Check: k, Detail: detail}
	}
	for i := 0; i < last; i++ {
		if !namesMatch(certs[i].RawIssuer, certs[i+1].RawSubject) {
			return fail(i, CheckNameChaining, fmt.Sprintf("issuer %s, next subject %s",
				nameString(certs[i].RawIssuer), nameString(certs[i+1].RawSubject)))
		}
	}
	// below counts the non-self-issued intermediates between the leaf and
	// the certificate at i.
	below := 0
	for i := 1; i <= last; i++ {
		c := certs[i]
		exempt := i == last && c.Version < 3
		if !exempt && !(c.BasicConstraintsValid && c.IsCA) {
			return fail(i, CheckNotCA, "basicConstraints cA is not asserted")
		}
		if c.KeyUsage != 0 && c.KeyUsage&x509.KeyUsageCertSign == 0 {
			return fail(i, CheckKeyCertSign, fmt.Sprintf("key usage %#x", int(c.KeyUsage)))
		}
		if limit, ok := pathLen(c); ok && below > limit {
			return fail(i, CheckPathLength, fmt.Sprintf("pathLenConstraint %d, %d intermediates below", limit, below))
		}
		if !selfIssued(c) {
			below++
		}
	}
	for i, c := range certs {
		for _, oid := range c.UnhandledCriticalExtensions {
			if !slices.ContainsFunc(opts.UnderstoodExtensions, oid.Equal) {
				return fail(i, CheckCriticalExtension, oid.String())
			}
		}
	}
	for i, c := range certs {
		if i == last && opts.SkipAnchorValidity {
			continue
		}
		if at.Before(c.NotBefore) {
			return fail(i, CheckNotYetValid, "valid from "+c.NotBefore.UTC().Format(time.RFC3339)+", checked at "+at.UTC().Format(time.RFC3339))
		}
		if at.After(c.NotAfter) {
			return fail(i, CheckExpired, "valid until "+c.NotAfter.UTC().Format(time.RFC3339)+", checked at "+at.UTC().Format(time.RFC3339))
		}
	}
	return nil
}

// pathLen returns c's pathLenConstraint, if it has one.
func pathLen(c *x509.Certificate) (int, bool) {
	if !c.BasicConstraintsValid || c.MaxPathLen < 0 || c.MaxPathLen == 0 && !c.MaxPathLenZero {
		return 0, false
	}
	return c.MaxPathLen, true
}

// selfIssued reports whether c's subject and issuer are the same name
// (RFC 5280 §6.1.4 (l) does not count such certificates).
func selfIssued(c *x509.Certificate) bool {
	return namesMatch(c.RawSubject, c.RawIssuer)
}
