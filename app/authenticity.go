package app

import (
	"bytes"
	"crypto/x509"

	"github.com/svc-dss/dss/adapters/formats/xmldsig"
	"github.com/svc-dss/dss/domain/trust"
)

// authenticate checks a list's own signature against the certificates
// allowed to sign it: INVALID when signed content or the signature value
// was altered, VALID when it verifies with an allowed signer, and
// INDETERMINATE otherwise (another signer, no signature, or a signature
// that cannot be checked).
func authenticate(data []byte, allowed []*x509.Certificate) trust.Authenticity {
	res, err := xmldsig.Verify(data, xmldsig.WithCertificates(allowed...))
	switch {
	case err == nil && allowedSigner(res.Signer, allowed):
		return trust.AuthValid
	case err == nil:
		return trust.AuthIndeterminate
	case xmldsig.IsTampered(err):
		return trust.AuthInvalid
	default:
		return trust.AuthIndeterminate
	}
}

// allowedSigner accepts the signer when it is one of the allowed
// certificates or carries the same public key (a re-issued certificate
// for the announced key).
func allowedSigner(signer *x509.Certificate, allowed []*x509.Certificate) bool {
	for _, c := range allowed {
		if bytes.Equal(signer.Raw, c.Raw) || bytes.Equal(signer.RawSubjectPublicKeyInfo, c.RawSubjectPublicKeyInfo) {
			return true
		}
	}
	return false
}
