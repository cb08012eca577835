package cert_test

import (
	"crypto"
	"crypto/x509"
	"testing"

	"github.com/svc-dss/dss/adapters/formats/cert"
)

func TestSignatureAlgorithmX509(t *testing.T) {
	t.Parallel()
	tests := []struct {
		alg  cert.SignatureAlgorithm
		want x509.SignatureAlgorithm
	}{
		{cert.SignatureAlgorithm{Scheme: cert.PKCS1v15, Hash: crypto.SHA256}, x509.SHA256WithRSA},
		{cert.SignatureAlgorithm{Scheme: cert.PKCS1v15, Hash: crypto.SHA1}, x509.SHA1WithRSA},
		{cert.SignatureAlgorithm{Scheme: cert.PSS, Hash: crypto.SHA512, SaltLength: 64}, x509.SHA512WithRSAPSS},
		{cert.SignatureAlgorithm{Scheme: cert.ECDSA, Hash: crypto.SHA384}, x509.ECDSAWithSHA384},
		{cert.SignatureAlgorithm{Scheme: cert.Ed25519}, x509.PureEd25519},
		{cert.SignatureAlgorithm{Scheme: cert.ECDSAPlain, Hash: crypto.SHA256}, x509.UnknownSignatureAlgorithm},
		{cert.SignatureAlgorithm{Scheme: cert.PSS, Hash: crypto.SHA1}, x509.UnknownSignatureAlgorithm},
	}
	for _, tt := range tests {
		if got := tt.alg.X509(); got != tt.want {
			t.Errorf("%v %v: %v, want %v", tt.alg.Scheme, tt.alg.Hash, got, tt.want)
		}
	}
}
