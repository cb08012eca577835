package crl

import "errors"

// ErrMalformed is wrapped by every parse failure.
var ErrMalformed = errors.New("crl: malformed CRL")

// ErrLimit is wrapped, beside [ErrMalformed], when a CRL exceeds
// [MaxBytes] or [MaxEntries].
var ErrLimit = errors.New("crl: limit exceeded")

// ErrUnsupported is wrapped when the signature algorithm is not one this
// package verifies.
var ErrUnsupported = errors.New("crl: unsupported signature algorithm")

// ErrWrongIssuer is wrapped when the certificate given to
// [CRL.CheckSignatureFrom] is not the CRL's issuer: another subject name, or
// a key usage without cRLSign.
var ErrWrongIssuer = errors.New("crl: certificate is not the CRL issuer")

// ErrSignatureInvalid is wrapped when the signature does not verify.
var ErrSignatureInvalid = errors.New("crl: signature invalid")
