package redisconn_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/redisconn"
)

// writeCA writes a self-signed certificate to a PEM file, as a CA file
// holds, and returns its path.
func writeCA(t *testing.T, dir string) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "redis test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestParseOptions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		o    redisconn.Options
		err  string // the exact message; "" for none
	}{
		{"no URL", redisconn.Options{}, "redisconn: no URL"},
		{"not Redis", redisconn.Options{URL: "http://cache:6379"}, "redisconn: http://cache:6379: redis: invalid URL scheme: http"},
		{"bad database, password hidden", redisconn.Options{URL: "redis://:s3cret@cache:6379/x"}, `redisconn: redis://:xxxxx@cache:6379/x: redis: invalid database number: "x"`},
		{"does not parse, password hidden", redisconn.Options{URL: "redis://:s3cret@cache:port"}, `redisconn: (a URL that does not parse): invalid port ":port" after host`},
		{"CA file without TLS", redisconn.Options{URL: "redis://cache:6379", CAFile: "/etc/ca.pem"}, "redisconn: a CA file (/etc/ca.pem) is set for redis://cache:6379, which is not TLS: use rediss://"},
		{"CA file missing", redisconn.Options{URL: "rediss://cache:6380", CAFile: filepath.Join(dir, "none.pem")}, "redisconn: CA file: open " + filepath.Join(dir, "none.pem") + ": no such file or directory"},
		{"CA file not PEM", redisconn.Options{URL: "rediss://cache:6380", CAFile: notPEM}, "redisconn: CA file " + notPEM + " holds no PEM certificate"},
		{"plain", redisconn.Options{URL: "redis://cache:6379/2"}, ""},
		{"TLS, password apart", redisconn.Options{URL: "rediss://cache", Password: "s3cret"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := redisconn.ParseOptions(tt.o)
			if tt.err == "" {
				is.NoErr(err)
				return
			}
			is.True(err != nil)
			is.Equal(err.Error(), tt.err)
		})
	}
}

// The password given apart wins over the URL's; TLS verifies the host
// the URL names, with at least TLS 1.2; the client fails fast.
func TestParseOptionsValues(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	o, err := redisconn.ParseOptions(redisconn.Options{URL: "rediss://user:fromurl@cache.example:6380/3", Password: "apart"})
	is.NoErr(err)
	is.Equal(o.Addr, "cache.example:6380")
	is.Equal(o.DB, 3)
	is.Equal(o.Username, "user")
	is.Equal(o.Password, "apart")
	is.Equal(o.TLSConfig.ServerName, "cache.example")
	is.True(o.TLSConfig.RootCAs == nil) // the system's
	is.Equal(o.DialTimeout, redisconn.DialTimeout)
	is.Equal(o.ReadTimeout, redisconn.IOTimeout)
	is.Equal(o.MaxRetries, 1)

	o, err = redisconn.ParseOptions(redisconn.Options{URL: "rediss://cache", CAFile: writeCA(t, t.TempDir())})
	is.NoErr(err)
	is.True(o.TLSConfig.RootCAs != nil) // the file's, not the system's

	o, err = redisconn.ParseOptions(redisconn.Options{URL: "redis://:fromurl@cache"})
	is.NoErr(err)
	is.Equal(o.Password, "fromurl")
	is.Equal(o.Addr, "cache:6379")
	is.True(o.TLSConfig == nil)
}
