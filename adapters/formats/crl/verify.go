package crl

import (
	"bytes"
	"crypto/x509"
	"fmt"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// CheckSignatureFrom verifies that issuer signed c: issuer's subject is
// c's issuer name (byte for byte, as certificate path building compares
// names), issuer's key usage, if present, allows cRLSign, and the
// signature verifies with issuer's key under the algorithm c names.
// Validity periods are not looked at.
func (c *CRL) CheckSignatureFrom(issuer *x509.Certificate) error {
	if !bytes.Equal(c.RawIssuer, issuer.RawSubject) {
		return fmt.Errorf("%w: CRL issued by %q, certificate is %q", ErrWrongIssuer, c.Issuer.String(), issuer.Subject)
	}
	if issuer.KeyUsage != 0 && issuer.KeyUsage&x509.KeyUsageCRLSign == 0 {
		return fmt.Errorf("%w: %q has no key usage cRLSign", ErrWrongIssuer, issuer.Subject)
	}
	alg, err := cert.ParseSignatureAlgorithm(c.RawSignatureAlgorithm, 0)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrUnsupported, err)
	}
	if err := cert.CheckSignature(issuer.PublicKey, alg, c.RawTBSCertList, c.Signature); err != nil {
		return fmt.Errorf("%w: by %q: %w", ErrSignatureInvalid, issuer.Subject, err)
	}
	return nil
}
