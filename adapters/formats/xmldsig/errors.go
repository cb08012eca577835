package xmldsig

import (
	"errors"
	"fmt"
)

// Sentinel errors. Callers compare with errors.Is; the returned errors wrap
// them with the detail (element, algorithm URI, reference).
//
// The outcomes of Verify fall in three groups that a validation policy maps
// differently:
//
//   - tampering: a *DigestError or ErrSignatureInvalid. The signed content or
//     the signature value was altered; the signature is INVALID whatever the
//     trust anchors say. IsTampered reports this group.
//   - absence: ErrNoSignature, ErrMultipleSignatures.
//   - everything else (ErrMalformedXML, ErrMalformedSignature, ErrUnsupported,
//     ErrDuplicateID, ErrNoCertificate, ErrLimitExceeded): the signature could
//     not be checked, which is not proof of tampering.
var (
	// ErrNoSignature reports a document without a ds:Signature element.
	ErrNoSignature = errors.New("xmldsig: no signature")

	// ErrMultipleSignatures reports a document with more than one
	// ds:Signature element. A trusted list carries exactly one.
	ErrMultipleSignatures = errors.New("xmldsig: more than one signature")

	// ErrSignatureInvalid reports a SignatureValue that does not verify over
	// the canonical SignedInfo with any candidate certificate key.
	ErrSignatureInvalid = errors.New("xmldsig: signature value does not verify")

	// ErrMalformedXML reports input that is not a well-formed, namespace
	// well-formed XML document.
	ErrMalformedXML = errors.New("xmldsig: malformed XML")

	// ErrMalformedSignature reports a ds:Signature that does not have the
	// structure XMLDSig requires, or one in the wrong place.
	ErrMalformedSignature = errors.New("xmldsig: malformed signature")

	// ErrUnsupported reports an algorithm, transform, reference URI or
	// document feature (DTD, character encoding) that this package does not
	// process. Unknown input is refused, never guessed at.
	ErrUnsupported = errors.New("xmldsig: unsupported")

	// ErrDuplicateID reports a reference to an ID value that more than one
	// element carries. Resolving it to either element would let an attacker
	// move the signed content (signature wrapping), so it is refused.
	ErrDuplicateID = errors.New("xmldsig: duplicate ID")

	// ErrNoCertificate reports a signature without a usable certificate in
	// KeyInfo/X509Data (and none supplied with WithCertificates).
	ErrNoCertificate = errors.New("xmldsig: no signer certificate")

	// ErrLimitExceeded reports input beyond the bounds this package accepts
	// (document size, references, transforms, certificates, nesting).
	ErrLimitExceeded = errors.New("xmldsig: limit exceeded")
)

// DigestError reports a Reference whose recomputed digest differs from its
// DigestValue: the referenced content was altered after signing.
type DigestError struct {
	Index     int    // position of the Reference in SignedInfo, from 0
	URI       string // the Reference URI attribute
	Type      string // the Reference Type attribute, if any
	Algorithm string // the DigestMethod algorithm URI
}

func (e *DigestError) Error() string {
	return fmt.Sprintf("xmldsig: digest mismatch for reference %d (URI %q)", e.Index, e.URI)
}

// IsTampered reports whether err shows that signed content or the signature
// value was altered (a *DigestError or ErrSignatureInvalid), as opposed to a
// signature that could not be checked at all.
func IsTampered(err error) bool {
	var de *DigestError
	return errors.As(err, &de) || errors.Is(err, ErrSignatureInvalid)
}
