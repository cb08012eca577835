package trust

import (
	"time"

	"github.com/svc-dss/dss/domain/algorithm"
)

// A Check is the outcome of checking one copy of a list against its own
// signature: the [Authenticity], why it is short of VALID, and what a
// VALID signature still deserves a warning for.
type Check struct {
	Authenticity Authenticity
	// Reason says why Authenticity is INVALID or INDETERMINATE; zero
	// otherwise.
	Reason AuthReason
	// SHA1 reports a signature that uses SHA-1, as its signature method or
	// as the digest of a reference; Judged refuses it by the
	// cryptographic constraints, and the warning says why.
	SHA1 bool
	// Uses are the algorithms the signature relies on: its signature
	// method with the signer's key, and each reference's digest.
	Uses []algorithm.Use
}

// Judged is c with the cryptographic constraints of cat applied at t, the
// time the list is read: a signature that relies on an algorithm not
// acceptable then (SHA-1 since 2010, a 1024-bit key) vouches for nothing,
// and the check is INDETERMINATE with ReasonAlgorithmNotAcceptable, as an
// EN 319 102-1 validation of the list's signature concludes
// CRYPTO_CONSTRAINTS_FAILURE_NO_POE (docs/decisions/0027). Only a VALID
// check can be downgraded.
func (c Check) Judged(cat algorithm.Catalogue, t time.Time) Check {
	if c.Authenticity != AuthValid {
		return c
	}
	for _, u := range c.Uses {
		if !cat.Judge(u).AcceptableAt(t) {
			c.Authenticity, c.Reason = AuthIndeterminate, ReasonAlgorithmNotAcceptable
			return c
		}
	}
	return c
}

// Refused reports whether a copy with this outcome may not supply anchors:
// its signature shows it altered (INVALID), or nothing shows that the list
// is the one its signer vouched for (INDETERMINATE). A refused copy never
// replaces the copy in use and is never cached; the list reports the
// refusal and degrades the store (validation-service.md §3,
// "Authenticity of a trusted list").
func (c Check) Refused() bool {
	return c.Authenticity == AuthInvalid || c.Authenticity == AuthIndeterminate
}

// AuthReason is why a list's own signature is not VALID, in a closed
// vocabulary: a status carries it as a code and a fixed sentence, never the
// checker's error text, which quotes the document.
type AuthReason uint8

const (
	_ AuthReason = iota
	// ReasonAltered: a reference digest or the signature value does not
	// verify (INVALID).
	ReasonAltered // ALTERED
	// ReasonNoSignature: the list carries no signature.
	ReasonNoSignature // NO_SIGNATURE
	// ReasonSeveralSignatures: the list carries more than one signature.
	ReasonSeveralSignatures // SEVERAL_SIGNATURES
	// ReasonAmbiguousReference: the signature references an ID that more
	// than one element of the document carries (signature wrapping).
	ReasonAmbiguousReference // AMBIGUOUS_REFERENCE
	// ReasonUnreadableSignature: the signature cannot be checked: it is
	// malformed, out of place, beyond the limits, or uses an algorithm or
	// reference form this service does not process.
	ReasonUnreadableSignature // UNREADABLE_SIGNATURE
	// ReasonCoversPart: the signature covers elements of the list, not the
	// list as a whole.
	ReasonCoversPart // COVERS_PART
	// ReasonCoversOtherElement: the signature covers an element that is not
	// the document's root: a copy of a list nested elsewhere in the
	// document, the signature's own content, or some other element.
	ReasonCoversOtherElement // COVERS_OTHER_ELEMENT
	// ReasonSignerNotAllowed: the signature is intact but its signer is
	// not one the list may be signed by.
	ReasonSignerNotAllowed // SIGNER_NOT_ALLOWED
	// ReasonSubstituted: the list names another territory than the
	// pointer that leads to it.
	ReasonSubstituted // SUBSTITUTED
	// ReasonNoReadableSigner: signer certificates are announced for the
	// list but none of them can be read, so nothing says who may sign it.
	ReasonNoReadableSigner // NO_READABLE_SIGNER
	// ReasonAlgorithmNotAcceptable: the signature is intact but relies on
	// an algorithm or key size the cryptographic constraints no longer
	// accept (SHA-1, RSA-1024).
	ReasonAlgorithmNotAcceptable // ALGORITHM_NOT_ACCEPTABLE
)

// String returns the reason's code, "" for the zero value.
func (r AuthReason) String() string {
	switch r {
	case ReasonAltered:
		return "ALTERED"
	case ReasonNoSignature:
		return "NO_SIGNATURE"
	case ReasonSeveralSignatures:
		return "SEVERAL_SIGNATURES"
	case ReasonAmbiguousReference:
		return "AMBIGUOUS_REFERENCE"
	case ReasonUnreadableSignature:
		return "UNREADABLE_SIGNATURE"
	case ReasonCoversPart:
		return "COVERS_PART"
	case ReasonCoversOtherElement:
		return "COVERS_OTHER_ELEMENT"
	case ReasonSignerNotAllowed:
		return "SIGNER_NOT_ALLOWED"
	case ReasonSubstituted:
		return "SUBSTITUTED"
	case ReasonNoReadableSigner:
		return "NO_READABLE_SIGNER"
	case ReasonAlgorithmNotAcceptable:
		return "ALGORITHM_NOT_ACCEPTABLE"
	}
	return ""
}

// Text says the reason in a sentence for status pages and logs: what the
// signature covers or shows instead of the whole list.
func (r AuthReason) Text() string {
	switch r {
	case ReasonAltered:
		return "a digest or the signature value does not verify: the list was changed after it was signed"
	case ReasonNoSignature:
		return "the list carries no signature"
	case ReasonSeveralSignatures:
		return "the list carries more than one signature"
	case ReasonAmbiguousReference:
		return "the signature references an ID that more than one element of the document carries, so what it covers is ambiguous"
	case ReasonUnreadableSignature:
		return "the signature cannot be checked: it is malformed, out of place, too large, or uses an algorithm or reference this service does not process"
	case ReasonCoversPart:
		return "the signature covers parts of the document, not the list as a whole"
	case ReasonCoversOtherElement:
		return "the signature covers another element than the document's root (a copy nested elsewhere, or the signature's own content), not the list that was read"
	case ReasonSignerNotAllowed:
		return "the signature is intact but its signer is not one this list may be signed by"
	case ReasonSubstituted:
		return "the list names another territory than the pointer that leads to it"
	case ReasonNoReadableSigner:
		return "none of the signer certificates announced for this list can be read, so nothing says who may sign it"
	case ReasonAlgorithmNotAcceptable:
		return "the signature is intact but relies on an algorithm or key size that is no longer acceptable (SHA-1, a short key), so it vouches for nothing"
	}
	return ""
}
