package redisconn_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/redisconn"
	"github.com/svc-dss/dss/fixtures/redistest"
)

// tlsFiles writes a CA and a server certificate it issued for
// 127.0.0.1, and returns the CA file and the server's certificate and
// key files.
func tlsFiles(t *testing.T) (ca, cert, key string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, typ string, der []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "redis test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srvTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "redis"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	return write("ca.pem", "CERTIFICATE", caDER), write("server.pem", "CERTIFICATE", srvDER), write("server.key", "EC PRIVATE KEY", keyDER)
}

// A real Redis over TLS with a password: the CA file and the password,
// in the URL or apart, let the client in; anything less does not.
func TestTLSAndPassword(t *testing.T) {
	t.Parallel()
	ca, cert, key := tlsFiles(t)
	const password = "s3cret-of-the-test"
	srv := redistest.StartT(t, redistest.Options{Password: password, TLSCertFile: cert, TLSKeyFile: key})
	tlsURL := srv.URL()
	withPassword := strings.Replace(tlsURL, "rediss://", "rediss://:"+password+"@", 1)
	plainURL := strings.Replace(tlsURL, "rediss://", "redis://", 1)
	tests := []struct {
		name  string
		o     redisconn.Options
		fails bool
		err   string // a part of the error, when it says why
	}{
		{"CA file, password apart", redisconn.Options{URL: tlsURL, CAFile: ca, Password: password}, false, ""},
		{"CA file, password in the URL", redisconn.Options{URL: withPassword, CAFile: ca}, false, ""},
		{"the system's CAs", redisconn.Options{URL: withPassword}, true, "x509: certificate signed by unknown authority"},
		{"wrong password", redisconn.Options{URL: tlsURL, CAFile: ca, Password: "guess"}, true, "WRONGPASS"},
		{"no password", redisconn.Options{URL: tlsURL, CAFile: ca}, true, "NOAUTH"},
		{"no TLS: a plain client on a TLS port", redisconn.Options{URL: plainURL, Password: password}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			c, err := redisconn.Open(tt.o)
			is.NoErr(err)
			defer c.Close()
			err = c.Ping(context.Background()).Err()
			if !tt.fails {
				is.NoErr(err)
				return
			}
			is.True(err != nil)
			is.True(strings.Contains(err.Error(), tt.err)) // err
			is.True(!strings.Contains(err.Error(), password))
		})
	}
}
