package xmldsig

import (
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/beevik/etree"
)

// keyInfoCertificates returns the DER of every X509Data/X509Certificate in
// KeyInfo. Other key material (KeyValue, X509IssuerSerial, RetrievalMethod)
// is ignored: a bare key cannot be matched to a trust anchor, and nothing is
// ever retrieved.
func keyInfoCertificates(keyInfo *etree.Element) ([][]byte, error) {
	var ders [][]byte
	for _, data := range keyInfo.ChildElements() {
		if !isDS(data, "X509Data") {
			continue
		}
		for _, c := range data.ChildElements() {
			if !isDS(c, "X509Certificate") {
				continue
			}
			if len(ders) == MaxCertificates {
				return nil, fmt.Errorf("%w: more than %d certificates in KeyInfo", ErrLimitExceeded, MaxCertificates)
			}
			der, err := decodeBase64(c)
			if err != nil {
				return nil, fmt.Errorf("%w: X509Certificate: %w", ErrMalformedSignature, err)
			}
			ders = append(ders, der)
		}
	}
	return ders, nil
}

// parseCertificates parses what it can. A certificate crypto/x509 cannot
// read (a brainpool key, say) does not stop the others from being tried;
// the joined parse errors are returned for the report.
func parseCertificates(ders [][]byte) ([]*x509.Certificate, error) {
	var (
		certs []*x509.Certificate
		errs  []error
	)
	for i, der := range ders {
		c, err := x509.ParseCertificate(der)
		if err != nil {
			errs = append(errs, fmt.Errorf("KeyInfo certificate %d: %w", i, err))
			continue
		}
		certs = append(certs, c)
	}
	return certs, errors.Join(errs...)
}
