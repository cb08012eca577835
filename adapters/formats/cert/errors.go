package cert

import "errors"

// Sentinel errors. Callers compare with errors.Is; returned errors wrap them
// with the detail.
var (
	// ErrMalformed reports input that is not the DER (or tolerated BER) of
	// the structure expected.
	ErrMalformed = errors.New("cert: malformed")

	// ErrUnsupported reports a key type, curve or algorithm that this
	// package does not process. It is not proof of a forged signature.
	ErrUnsupported = errors.New("cert: unsupported")

	// ErrSignatureInvalid reports a signature value that does not verify
	// under the key: the signed bytes or the value were altered, or the key
	// is not the signer's.
	ErrSignatureInvalid = errors.New("cert: signature value does not verify")

	// ErrLimitExceeded reports input beyond the bounds in limits.go.
	ErrLimitExceeded = errors.New("cert: limit exceeded")
)
