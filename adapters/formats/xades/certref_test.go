package xades

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"testing"
	"time"
)

// testCertificate returns a certificate issued by "CN=Issuer A,O=DSS\,
// Test,C=LU" (C first, as X500Principal writes it last).
func testCertificate(t *testing.T) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	issuer := pkix.Name{Country: []string{"LU"}, Organization: []string{"DSS, Test"}, CommonName: "Issuer A"}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1234567), Subject: pkix.Name{CommonName: "Signer"}, Issuer: issuer,
		NotBefore: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}
	parent := &x509.Certificate{Subject: issuer, SerialNumber: big.NewInt(1)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestEqualStringName(t *testing.T) {
	t.Parallel()
	c := testCertificate(t)
	for _, tc := range []struct {
		name string
		want bool
	}{
		{`CN=Issuer A,O=DSS\, Test,C=LU`, true},
		{`C=LU, O="DSS, Test", CN=Issuer A`, true},
		{`cn=issuer  a;o=DSS\2C Test;c=lu`, true},
		{`2.5.4.3=Issuer A,OID.2.5.4.10=DSS\, Test,C=#13024c55`, true},
		{`CN=Issuer B,O=DSS\, Test,C=LU`, false},
		{`CN=Issuer A,O=DSS\, Test`, false},
		{`CN=Issuer A,O=DSS\, Test,C=LU,C=LU`, false},
		{`CN=Issuer A,X=1`, false},
		{``, false},
	} {
		if got := equalStringName(tc.name, c.RawIssuer); got != tc.want {
			t.Errorf("%q: %t, want %t", tc.name, got, tc.want)
		}
	}
}

// TestReference: a SigningCertificate(V2) reference matches on the digest
// of the certificate and, when present, its issuer and serial, V1 (an
// RFC 4514 name) and V2 (IssuerSerial DER) alike; the Cert that matters
// is the one whose digest matches.
func TestReference(t *testing.T) {
	t.Parallel()
	c := testCertificate(t)
	digest := sha256.Sum256(c.Raw)
	// IssuerSerial { GeneralNames { directoryName [4] EXPLICIT Name }, serial }
	directoryName := asn1.RawValue{Class: asn1.ClassContextSpecific, Tag: 4, IsCompound: true, Bytes: c.RawIssuer}
	v2, err := asn1.Marshal(struct {
		Names  []asn1.RawValue
		Serial *big.Int
	}{[]asn1.RawValue{directoryName}, c.SerialNumber})
	if err != nil {
		t.Fatal(err)
	}
	issuer, serial, err := parseIssuerSerial(v2)
	if err != nil {
		t.Fatal(err)
	}
	other := certRef{hash: 5, digest: []byte{1, 2, 3}} // crypto.SHA256, another certificate
	for _, tc := range []struct {
		name                     string
		refs                     []certRef
		digest, issuerSerial, is bool
	}{
		{"V2", []certRef{{hash: 5, digest: digest[:], issuer: issuer, serial: serial}}, true, true, true},
		{"V1", []certRef{{hash: 5, digest: digest[:], issuerName: "CN=Issuer A, O=DSS\\, Test, C=LU", serial: c.SerialNumber}}, true, true, true},
		{"V1 wrong serial", []certRef{{hash: 5, digest: digest[:], issuerName: "CN=Issuer A, O=DSS\\, Test, C=LU", serial: big.NewInt(7)}}, true, true, false},
		{"digest only", []certRef{{hash: 5, digest: digest[:]}}, true, false, false},
		{"the chain, signer second", []certRef{other, {hash: 5, digest: digest[:], issuer: issuer, serial: serial}}, true, true, true},
		{"another certificate", []certRef{other}, false, false, false},
	} {
		r := reference(true, tc.refs, c)
		if !r.Present || r.DigestMatched != tc.digest || r.IssuerSerialPresent != tc.issuerSerial || r.IssuerSerialMatched != tc.is {
			t.Errorf("%s: %+v", tc.name, r)
		}
	}
	if got := referencedCertificate([]certRef{other, {hash: 5, digest: digest[:]}}, []*x509.Certificate{c}); got != c {
		t.Error("referencedCertificate did not find the certificate the digest names")
	}
	if _, _, err := parseIssuerSerial([]byte{0x30, 0x00}); err == nil {
		t.Error("an empty IssuerSerial parsed")
	}
}
