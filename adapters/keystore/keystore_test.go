package keystore_test

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/fixtures/realworld"
)

func TestReadTrustStore(t *testing.T) {
	t.Parallel()
	corpus := realworld.Trust(t)
	tests := []struct {
		file, password string
		certs          int
		err            string
	}{
		{"dss/oj-keystore/keystore.p12", "dss-password", 8, ""},
		{"derived/eu-lotl-signers-2026-latest.p12", "dss-password", 6, ""},
		{"dss/oj-keystore/keystore.p12", "wrong", 0, "decryption password incorrect"},
		{"dss/keystore_corrupted.p12", "dss-password", 0, "pkcs12:"},
	}
	for _, tt := range tests {
		certs, err := keystore.ReadTrustStore(filepath.Join(corpus, tt.file), "PKCS12", tt.password)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want %q", tt.file, err, tt.err)
			}
			continue
		}
		if err != nil || len(certs) != tt.certs {
			t.Errorf("%s: %d certificates, %v; want %d", tt.file, len(certs), err, tt.certs)
		}
	}
}

func TestMissingFilesAreRecognisable(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, err := keystore.ReadTrustStore(filepath.Join(t.TempDir(), "none.p12"), "PKCS12", "")
	is.True(errors.Is(err, fs.ErrNotExist))
	_, err = keystore.ReadCertificateFile(filepath.Join(t.TempDir(), "none.cer"))
	is.True(errors.Is(err, fs.ErrNotExist))
	_, err = keystore.ReadTrustStore("x.jks", "JKS", "")
	is.Equal(err.Error(), `keystore: x.jks: unsupported keystore type "JKS"`)
}

func TestReadCertificateFileDERAndPEM(t *testing.T) {
	t.Parallel()
	corpus := realworld.Trust(t)
	is := is.New(t)
	der, err := keystore.ReadCertificateFile(filepath.Join(corpus, "ch/CH-TL-cert-DER.cer"))
	is.NoErr(err)
	pemCerts, err := keystore.ReadCertificateFile(filepath.Join(corpus, "ch/CH-TL-signer-cert.pem"))
	is.NoErr(err)
	is.Equal(len(der), 1)
	is.Equal(der[0].Raw, pemCerts[0].Raw)
	is.True(strings.Contains(der[0].Subject.String(), "Swiss Accreditation Service"))
}
