package ocsp

import "errors"

// ErrMalformed is wrapped by every parse failure: the bytes are not a DER
// OCSPResponse, or exceed [MaxResponseBytes].
var ErrMalformed = errors.New("ocsp: malformed response")

// ErrUnsupported is wrapped when a response, request or CertID uses a
// response type, hash or signature algorithm this package does not handle.
var ErrUnsupported = errors.New("ocsp: unsupported")

// ErrUnauthorisedResponder is wrapped when the response is signed by
// neither the issuer nor a delegated responder the issuer authorised.
var ErrUnauthorisedResponder = errors.New("ocsp: unauthorised responder")

// ErrSignatureInvalid is wrapped when the response signature does not
// verify with the responder's key.
var ErrSignatureInvalid = errors.New("ocsp: signature invalid")

// ErrNoMatchingResponse is wrapped when no SingleResponse is about the
// certificate asked for.
var ErrNoMatchingResponse = errors.New("ocsp: no matching response")
