package certpath

import (
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/svc-dss/dss/domain/verdict"
)

// Reason is why a certificate path could not be found or failed a check.
// Each value maps to exactly one ETSI EN 319 102-1 sub-indication, given
// by [Reason.SubIndication] and as the value's comment.
type Reason uint8

const (
	_                 Reason = iota
	ReasonNoChain            // NO_CERTIFICATE_CHAIN_FOUND
	ReasonExpired            // EXPIRED
	ReasonNotYetValid        // NOT_YET_VALID
	// ReasonChainConstraints is no longer returned by [Check]: EU DSS
	// pairs the checks of the issuing certificates (cA, path length,
	// keyCertSign) with CERTIFICATE_CHAIN_GENERAL_FAILURE, and keeps
	// CHAIN_CONSTRAINTS_FAILURE for constraints on the certified entity
	// itself (the signing certificate's key usage, an extended key
	// usage), which certpath does not check. The value stays reserved.
	ReasonChainConstraints // CHAIN_CONSTRAINTS_FAILURE
	ReasonGeneralFailure   // CERTIFICATE_CHAIN_GENERAL_FAILURE
)

// SubIndication returns the EN 319 102-1 sub-indication of r, "" for the
// zero value.
func (r Reason) SubIndication() verdict.SubIndication {
	switch r {
	case ReasonNoChain:
		return verdict.SubNoCertificateChainFound
	case ReasonExpired:
		return verdict.SubExpired
	case ReasonNotYetValid:
		return verdict.SubNotYetValid
	case ReasonChainConstraints:
		return verdict.SubChainConstraintsFailure
	case ReasonGeneralFailure:
		return verdict.SubCertificateChainGeneralFailure
	}
	return ""
}

// String returns the sub-indication.
func (r Reason) String() string { return string(r.SubIndication()) }

// CheckKind names the X.509 check a [PathError] reports. Several kinds
// share one [Reason]; the kind is for reports and tests.
type CheckKind uint8

const (
	_                      CheckKind = iota
	CheckExpired                     // certificate expired at the validation time (ReasonExpired)
	CheckNotYetValid                 // certificate not yet valid at the validation time (ReasonNotYetValid)
	CheckNotCA                       // issuing certificate without basicConstraints cA (ReasonGeneralFailure, DSS "CA")
	CheckPathLength                  // pathLenConstraint exceeded (ReasonGeneralFailure, DSS "MaxPathLength")
	CheckKeyCertSign                 // issuing certificate's key usage lacks keyCertSign (ReasonGeneralFailure, DSS CA "KeyUsage")
	CheckCriticalExtension           // critical extension not understood (ReasonGeneralFailure, DSS "SupportedCriticalExtensions")
	CheckNameChaining                // issuer name differs from the next certificate's subject (ReasonGeneralFailure)
	CheckEmptyPath                   // the path holds no certificate (ReasonGeneralFailure)
)

var checkNames = [...]string{
	CheckExpired:           "expired",
	CheckNotYetValid:       "not yet valid",
	CheckNotCA:             "issuer is not a CA",
	CheckPathLength:        "path length constraint exceeded",
	CheckKeyCertSign:       "issuer key usage lacks keyCertSign",
	CheckCriticalExtension: "unhandled critical extension",
	CheckNameChaining:      "issuer name does not chain",
	CheckEmptyPath:         "empty path",
}

func (k CheckKind) String() string {
	if int(k) < len(checkNames) {
		return checkNames[k]
	}
	return ""
}

// Reason returns the reason a failure of this check maps to, as EU DSS
// pairs the X.509 checks with sub-indications (its validation policy's
// correspondence table; decision 0016): every structural failure of the
// path, the issuing certificates' cA, path length and keyCertSign
// included, is CERTIFICATE_CHAIN_GENERAL_FAILURE.
func (k CheckKind) Reason() Reason {
	switch k {
	case CheckExpired:
		return ReasonExpired
	case CheckNotYetValid:
		return ReasonNotYetValid
	case CheckNotCA, CheckPathLength, CheckKeyCertSign,
		CheckCriticalExtension, CheckNameChaining, CheckEmptyPath:
		return ReasonGeneralFailure
	}
	return 0
}

// A PathError reports the check one certificate of a path failed, in the
// shape of x509.CertificateInvalidError.
type PathError struct {
	// Cert is the certificate that failed (nil for CheckEmptyPath).
	Cert *x509.Certificate
	// Index is Cert's position in Path.Certificates (0 is the leaf).
	Index  int
	Reason Reason
	Check  CheckKind
	// Detail says more: the validity bounds, the extension OID…
	Detail string
}

func (e *PathError) Error() string {
	who := "path"
	if e.Cert != nil {
		who = fmt.Sprintf("certificate %d (%s)", e.Index, nameString(e.Cert.RawSubject))
	}
	msg := "certpath: " + who + ": " + e.Check.String()
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// SubIndication returns e.Reason's sub-indication.
func (e *PathError) SubIndication() verdict.SubIndication { return e.Reason.SubIndication() }

// MissKind says how the closest attempt to build a path failed.
type MissKind uint8

const (
	_ MissKind = iota
	// MissIssuerNotFound: no anchor or intermediate has a subject equal
	// to the certificate's issuer name.
	MissIssuerNotFound
	// MissSignature: certificates with the issuer's name were found,
	// but the certificate's signature verifies with none of their keys
	// (and no candidate's key verified it).
	MissSignature
	// MissLoop: the issuer, whose key verifies the certificate, is
	// already on the path (cross-certificates leading back).
	MissLoop
	// MissTooLong: the path reached MaxPathCertificates.
	MissTooLong
	// MissLimit: the search reached MaxSignatureChecks.
	MissLimit
	// MissSelfSigned: the certificate is self-signed (its own key
	// verifies it) and is no anchor: the chain ends at an untrusted
	// root.
	MissSelfSigned
)

var missNames = [...]string{
	MissIssuerNotFound: "issuer name not among anchors or intermediates",
	MissSignature:      "a certificate with the issuer's name was found, but its key does not match",
	MissLoop:           "issuer already on the path (loop)",
	MissTooLong:        "path too long",
	MissLimit:          "signature check limit reached",
	MissSelfSigned:     "self-signed, on no trusted list and not a configured anchor",
}

func (k MissKind) String() string {
	if int(k) < len(missNames) {
		return missNames[k]
	}
	return ""
}

// A Miss is the closest a search came to a path: how far it got and why
// it stopped there.
type Miss struct {
	Kind MissKind
	// Partial is the path built so far, leaf first; its last certificate
	// is the one whose issuer could not be used.
	Partial []*x509.Certificate
	// Issuer is the name-matching candidate that failed (MissSignature,
	// MissLoop; for MissSelfSigned the certificate's own entity), nil
	// otherwise.
	Issuer *x509.Certificate
	// Err is the signature verification error for MissSignature.
	Err error
}

// A NoChainError reports that no path from the certificate to an anchor
// exists among the supplied certificates (NO_CERTIFICATE_CHAIN_FOUND),
// with the closest miss as a hint.
type NoChainError struct {
	Leaf    *x509.Certificate
	Closest Miss
}

func (e *NoChainError) Error() string {
	msg := "certpath: no certificate chain found"
	if e.Leaf != nil {
		msg += " for " + nameString(e.Leaf.RawSubject)
	}
	m := e.Closest
	if m.Kind == 0 {
		return msg
	}
	if n := len(m.Partial); n > 0 && m.Kind == MissSelfSigned {
		last := m.Partial[n-1]
		if n == 1 {
			return msg + ": the certificate is self-signed, and is on no trusted list and is not a configured anchor"
		}
		return msg + ": the chain ends at the self-signed root \"" + nameString(last.RawSubject) +
			"\", which is on no trusted list and is not a configured anchor"
	}
	if n := len(m.Partial); n > 0 {
		last := m.Partial[n-1]
		msg += fmt.Sprintf(": at %s (depth %d): ", nameString(last.RawSubject), n-1)
		switch m.Kind {
		case MissIssuerNotFound:
			msg += fmt.Sprintf("issuer %s not among anchors or intermediates", nameString(last.RawIssuer))
		case MissSignature:
			// A certificate of the issuer's name whose key does not
			// match is, far more often than a forgery, another
			// certificate of that name (a renewed CA): say that the
			// issuer was not found rather than that a signature "did
			// not verify". The verification error stays reachable
			// through Unwrap.
			msg += fmt.Sprintf("the issuer %s was not found: the certificate of that name that was found has another key",
				nameString(last.RawIssuer))
		default:
			msg += m.Kind.String()
		}
		return msg
	}
	msg += ": " + m.Kind.String()
	if m.Err != nil {
		msg += ": " + m.Err.Error()
	}
	return msg
}

// Unwrap returns the signature error of the closest miss, if any.
func (e *NoChainError) Unwrap() error { return e.Closest.Err }

// Reason returns ReasonNoChain.
func (e *NoChainError) Reason() Reason { return ReasonNoChain }

// SubIndication returns NO_CERTIFICATE_CHAIN_FOUND.
func (e *NoChainError) SubIndication() verdict.SubIndication { return ReasonNoChain.SubIndication() }

// ErrInvalidOptions is wrapped by the errors of [Options.Validate] and
// [Build] when the options cannot be used.
var ErrInvalidOptions = errors.New("certpath: invalid options")
