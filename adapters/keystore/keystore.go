// Package keystore reads the certificate files the trust store is
// configured with: the PKCS#12 keystore of the LOTL signers announced in
// the Official Journal, the Swiss list's signer certificate, and
// certificate files in PEM or DER; and the PKCS#12 file of the key the
// validator seals its reports with.
//
// PKCS#12 is read with software.sslmate.com/src/go-pkcs12, which reads the
// trusted-certificate entries of keystores made by Java's keytool; the
// x/crypto reader does not.
package keystore

import (
	"crypto"
	"crypto/x509"
	"errors"
	"fmt"
	"os"

	"software.sslmate.com/src/go-pkcs12"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

// MaxFileBytes caps a keystore or certificate file.
const MaxFileBytes = 4 << 20

// ReadTrustStore returns the trusted certificates of the keystore at path.
// typ is the configured keystore type; only PKCS12 is supported. A missing
// file returns an error wrapping fs.ErrNotExist.
func ReadTrustStore(path, typ, password string) ([]*x509.Certificate, error) {
	if typ != "PKCS12" {
		return nil, fmt.Errorf("keystore: %s: unsupported keystore type %q", path, typ)
	}
	raw, err := read(path)
	if err != nil {
		return nil, err
	}
	certs, err := pkcs12.DecodeTrustStore(raw, password)
	if err != nil {
		return nil, fmt.Errorf("keystore: %s: %w", path, err)
	}
	if len(certs) == 0 {
		return nil, fmt.Errorf("keystore: %s: no trusted certificate entries", path)
	}
	return certs, nil
}

// ReadKey returns the private key of the PKCS#12 file at path and its
// certificate chain, the key's certificate first. A missing file
// returns an error wrapping fs.ErrNotExist; a wrong password says so.
func ReadKey(path, password string) (crypto.Signer, []*x509.Certificate, error) {
	raw, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	key, leaf, cas, err := pkcs12.DecodeChain(raw, password)
	if errors.Is(err, pkcs12.ErrIncorrectPassword) {
		return nil, nil, fmt.Errorf("keystore: %s: the password is wrong", path)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("keystore: %s: %w", path, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, nil, fmt.Errorf("keystore: %s: a %T key cannot sign", path, key)
	}
	return signer, append([]*x509.Certificate{leaf}, cas...), nil
}

// ReadCertificateFile returns the certificates in a PEM or DER file. A
// missing file returns an error wrapping fs.ErrNotExist.
func ReadCertificateFile(path string) ([]*x509.Certificate, error) {
	raw, err := read(path)
	if err != nil {
		return nil, err
	}
	certs, err := ParseCertificates(raw)
	if err != nil {
		return nil, fmt.Errorf("keystore: %s: %w", path, err)
	}
	return certs, nil
}

func read(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	if info.Size() > MaxFileBytes {
		return nil, fmt.Errorf("keystore: %s: larger than %d bytes", path, MaxFileBytes)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("keystore: %w", err)
	}
	return raw, nil
}

// ParseCertificates reads one or more certificates from PEM (any number
// of CERTIFICATE blocks; other blocks are ignored) or DER (one or several
// concatenated), with the lenient parser that also reads the real EU
// certificates crypto/x509 refuses.
func ParseCertificates(raw []byte) ([]*x509.Certificate, error) {
	certs, err := cert.ParseAll(raw)
	if err != nil {
		return nil, err
	}
	if len(certs) == 0 {
		return nil, errors.New("no certificate")
	}
	return certs, nil
}
