package cms

import "errors"

// Sentinel errors. Callers compare with errors.Is; the returned errors wrap
// them with the detail (signer, attribute, algorithm).
//
// For a validation policy they fall in three groups:
//
//   - tampering: ErrDigestMismatch (the content is not the one signed),
//     ErrSignatureInvalid (the signed attributes or the signature value were
//     altered, or the certificate is not the signer's) and
//     ErrContentTypeMismatch. IsTampered reports this group.
//   - missing input: ErrNoContent (detached signature, no content given),
//     ErrSignerNotFound.
//   - could not check: ErrMalformed, ErrUnsupported, ErrLimitExceeded.
var (
	// ErrMalformed reports input that is not a BER encoding of a CMS
	// ContentInfo holding SignedData (RFC 5652), or violates a MUST that
	// leaves its meaning unclear (two message-digest attributes, say).
	ErrMalformed = errors.New("cms: malformed")

	// ErrUnsupported reports a content type, algorithm or key this package
	// does not process. It is not proof of tampering.
	ErrUnsupported = errors.New("cms: unsupported")

	// ErrLimitExceeded reports input beyond the bounds in limits.go.
	ErrLimitExceeded = errors.New("cms: limit exceeded")

	// ErrDigestMismatch reports a message-digest attribute that differs from
	// the digest of the content: the content is not the one signed.
	ErrDigestMismatch = errors.New("cms: message digest mismatch")

	// ErrContentTypeMismatch reports a content-type attribute that differs
	// from the encapsulated content type (RFC 5652, section 11.1).
	ErrContentTypeMismatch = errors.New("cms: content-type attribute mismatch")

	// ErrSignatureInvalid reports a signature value that does not verify
	// with the signer certificate's key over the signed attributes (or the
	// content, without signed attributes).
	ErrSignatureInvalid = errors.New("cms: signature value does not verify")

	// ErrSignerNotFound reports that no certificate in the SignedData or
	// among those supplied matches the signer identifier.
	ErrSignerNotFound = errors.New("cms: signer certificate not found")

	// ErrNoContent reports a detached signature checked without its
	// content: the signature cannot be tied to any data.
	ErrNoContent = errors.New("cms: no content to check the signature against")
)

// IsTampered reports whether err shows that the content, the signed
// attributes or the signature value were altered, as opposed to a
// signature that could not be checked.
func IsTampered(err error) bool {
	return errors.Is(err, ErrDigestMismatch) || errors.Is(err, ErrSignatureInvalid) ||
		errors.Is(err, ErrContentTypeMismatch)
}
