package crl_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/fixtures/pki"
)

func TestCheckSignatureFrom(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	der, err := p.CRL(p.Intermediate, pki.ReferenceTime)
	if err != nil {
		t.Fatal(err)
	}
	tampered := bytes.Clone(der)
	tampered[len(tampered)-1] ^= 1
	renumbered := bytes.Replace(bytes.Clone(der), []byte("260601000000Z"), []byte("270601000000Z"), 1)
	tests := []struct {
		name   string
		der    []byte
		issuer *x509.Certificate
		err    error
	}{
		{name: "issuer", der: der, issuer: p.Intermediate.Certificate},
		{name: "another CA", der: der, issuer: p.Root.Certificate, err: crl.ErrWrongIssuer},
		{name: "signature altered", der: tampered, issuer: p.Intermediate.Certificate, err: crl.ErrSignatureInvalid},
		{name: "thisUpdate altered", der: renumbered, issuer: p.Intermediate.Certificate, err: crl.ErrSignatureInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			l, err := crl.Parse(tt.der)
			is.NoErr(err)
			err = l.CheckSignatureFrom(tt.issuer)
			if tt.err == nil {
				is.NoErr(err)
				return
			}
			is.True(errors.Is(err, tt.err))
		})
	}
}

// TestVersion1 builds a v1 CRL (no version field, no extensions) signed
// with a fixture key, which crypto/x509 refuses, with a negative serial
// number as some CAs have issued.
func TestVersion1(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	for _, alg := range []x509.SignatureAlgorithm{x509.SHA256WithRSA, x509.SHA1WithRSA} {
		t.Run(alg.String(), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			der := v1CRL(t, p.Intermediate, alg, pki.ReferenceTime.Add(7*24*time.Hour), []revokedV1{
				{Serial: big.NewInt(-5), Date: pki.RevocationTime},
				{Serial: big.NewInt(0x1007), Date: pki.RevocationTime.Add(time.Hour)},
			})
			_, err := x509.ParseRevocationList(der)
			is.True(err != nil) // the reason this package parses CRLs itself

			l, err := crl.Parse(der)
			is.NoErr(err)
			is.NoErr(l.CheckSignatureFrom(p.Intermediate.Certificate))
			is.Equal(l.Version, 1)
			is.Equal(l.SignatureAlgorithm, alg)
			is.Equal(l.Number, nil)
			is.True(l.NextUpdate.Equal(pki.ReferenceTime.Add(7 * 24 * time.Hour)))

			revoked, at, reason := l.Status(big.NewInt(-5))
			is.True(revoked)
			is.True(at.Equal(pki.RevocationTime))
			is.Equal(reason, crl.ReasonUnspecified)
			revoked, _, _ = l.Status(big.NewInt(5)) // same magnitude, other sign
			is.True(!revoked)
			revoked, at, _ = l.Status(big.NewInt(0x1007))
			is.True(revoked)
			is.True(at.Equal(pki.RevocationTime.Add(time.Hour)))
		})
	}
}

// TestEntriesAndExtensions covers entry extensions, delta CRLs, the
// issuing distribution point and unknown critical extensions, on CRLs
// that crypto/x509 writes, signed with ECDSA and RSA-PSS.
func TestEntriesAndExtensions(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	invalid := time.Date(2025, time.December, 24, 0, 0, 0, 0, time.UTC)
	invalidity, err := asn1.MarshalWithParams(invalid, "generalized")
	is.NoErr(err)
	idp := []byte{0x30, 0x03, 0x81, 0x01, 0xff} // onlyContainsUserCerts
	unknown := asn1.ObjectIdentifier{1, 2, 3, 4}
	ecCA, ecKey := ecdsaCA(t)

	tests := []struct {
		name   string
		issuer *x509.Certificate
		key    crypto.Signer
		alg    x509.SignatureAlgorithm
	}{
		{name: "RSA-PSS", issuer: p.Intermediate.Certificate, key: p.Intermediate.Key, alg: x509.SHA256WithRSAPSS},
		{name: "ECDSA", issuer: ecCA, key: ecKey, alg: x509.ECDSAWithSHA384},
	}
	for _, tt := range tests {
		tmpl := &x509.RevocationList{
			Number:             big.NewInt(42),
			ThisUpdate:         pki.ReferenceTime,
			NextUpdate:         pki.ReferenceTime.Add(time.Hour),
			SignatureAlgorithm: tt.alg,
			RevokedCertificateEntries: []x509.RevocationListEntry{
				{SerialNumber: big.NewInt(1), RevocationTime: pki.RevocationTime, ReasonCode: crl.ReasonCertificateHold},
				{SerialNumber: big.NewInt(2), RevocationTime: pki.RevocationTime, ReasonCode: crl.ReasonRemoveFromCRL},
				{SerialNumber: big.NewInt(3), RevocationTime: pki.RevocationTime,
					ExtraExtensions: []pkix.Extension{{Id: asn1.ObjectIdentifier{2, 5, 29, 24}, Value: invalidity}}},
			},
			ExtraExtensions: []pkix.Extension{
				{Id: asn1.ObjectIdentifier{2, 5, 29, 27}, Critical: true, Value: []byte{0x02, 0x01, 0x29}}, // delta of 41
				{Id: asn1.ObjectIdentifier{2, 5, 29, 28}, Critical: true, Value: idp},
				{Id: unknown, Critical: true, Value: []byte{0x05, 0x00}},
			},
		}
		der, err := x509.CreateRevocationList(rand.Reader, tmpl, tt.issuer, tt.key)
		is.NoErr(err)
		l, err := crl.Parse(der)
		is.NoErr(err)
		is.NoErr(l.CheckSignatureFrom(tt.issuer)) // tt.name
		is.Equal(l.SignatureAlgorithm, tt.alg)
		is.Equal(l.Number, big.NewInt(42))
		is.Equal(l.DeltaCRLIndicator, big.NewInt(41))
		is.Equal(l.IssuingDistributionPoint, idp)
		is.Equal(l.UnhandledCriticalExtensions, []asn1.ObjectIdentifier{unknown})

		revoked, _, reason := l.Status(big.NewInt(1))
		is.True(revoked)
		is.Equal(reason, crl.ReasonCertificateHold)
		revoked, at, reason := l.Status(big.NewInt(2)) // a released hold
		is.True(!revoked)
		is.True(at.Equal(pki.RevocationTime))
		is.Equal(reason, crl.ReasonRemoveFromCRL)
		e, ok := l.Lookup(big.NewInt(3))
		is.True(ok)
		is.True(!e.HasReason)
		is.True(e.InvalidityDate.Equal(invalid))
		_, ok = l.Lookup(big.NewInt(4))
		is.True(!ok)
	}
}

// TestMinimalV1 is a v1 CRL with neither nextUpdate nor entries.
func TestMinimalV1(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	l, err := crl.Parse(v1CRL(t, p.Root, x509.SHA256WithRSA, time.Time{}, nil))
	is.NoErr(err)
	is.NoErr(l.CheckSignatureFrom(p.Root.Certificate))
	is.Equal(l.Version, 1)
	is.True(l.NextUpdate.IsZero())
	is.Equal(len(l.Entries), 0)
	revoked, _, _ := l.Status(big.NewInt(1))
	is.True(!revoked)
}

func TestPEM(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	der, err := p.CRL(p.Root, pki.ReferenceTime)
	is.NoErr(err)
	l, err := crl.Parse(append([]byte("\n"), pem.EncodeToMemory(&pem.Block{Type: "X509 CRL", Bytes: der})...))
	is.NoErr(err)
	is.NoErr(l.CheckSignatureFrom(p.Root.Certificate))
	_, err = crl.Parse(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
	is.True(errors.Is(err, crl.ErrMalformed))
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	good, err := p.CRL(p.Intermediate, pki.ReferenceTime)
	if err != nil {
		t.Fatal(err)
	}
	// A CRL whose inner algorithm says SHA-1 while the outer one says
	// SHA-256.
	mismatched := bytes.Replace(bytes.Clone(good), []byte{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b}, []byte{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x05}, 1)
	tests := []struct {
		name  string
		in    []byte
		limit bool
	}{
		{name: "empty", in: nil},
		{name: "garbage", in: []byte("not a CRL")},
		{name: "truncated", in: good[:len(good)-1]},
		{name: "trailing data", in: append(bytes.Clone(good), 0)},
		{name: "algorithm mismatch", in: mismatched},
		{name: "too large", in: make([]byte, crl.MaxBytes+1), limit: true},
		{name: "too many entries", in: manyEntries(t, p, crl.MaxEntries+1), limit: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			l, err := crl.Parse(tt.in)
			is.True(errors.Is(err, crl.ErrMalformed))
			is.Equal(errors.Is(err, crl.ErrLimit), tt.limit)
			is.Equal(l, nil)
		})
	}
}

func fixture(t testing.TB) *pki.PKI {
	t.Helper()
	p, err := pki.New("http://crl.test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

type revokedV1 struct {
	Serial *big.Int
	Date   time.Time `asn1:"utc"`
}

// v1CRL encodes and signs a version 1 CRL (RFC 5280, section 5.1: no
// version, no extensions) with encoding/asn1.
func v1CRL(t testing.TB, ca *pki.Identity, alg x509.SignatureAlgorithm, nextUpdate time.Time, entries []revokedV1) []byte {
	t.Helper()
	var oid asn1.ObjectIdentifier
	var h crypto.Hash
	switch alg {
	case x509.SHA256WithRSA:
		oid, h = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}, crypto.SHA256
	case x509.SHA1WithRSA:
		oid, h = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 5}, crypto.SHA1
	default:
		t.Fatalf("no v1 CRL with %v", alg)
	}
	ai := pkix.AlgorithmIdentifier{Algorithm: oid, Parameters: asn1.NullRawValue}
	tbs, err := asn1.Marshal(struct {
		Signature  pkix.AlgorithmIdentifier
		Issuer     asn1.RawValue
		ThisUpdate time.Time   `asn1:"utc"`
		NextUpdate time.Time   `asn1:"utc,optional"`
		Revoked    []revokedV1 `asn1:"optional"`
	}{ai, asn1.RawValue{FullBytes: ca.Certificate.RawSubject}, pki.ReferenceTime, nextUpdate, entries})
	if err != nil {
		t.Fatal(err)
	}
	hh := h.New()
	hh.Write(tbs)
	sig, err := ca.Key.Sign(rand.Reader, hh.Sum(nil), h)
	if err != nil {
		t.Fatal(err)
	}
	der, err := asn1.Marshal(struct {
		TBS       asn1.RawValue
		Algorithm pkix.AlgorithmIdentifier
		Signature asn1.BitString
	}{asn1.RawValue{FullBytes: tbs}, ai, asn1.BitString{Bytes: sig, BitLength: 8 * len(sig)}})
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// manyEntries returns an unsigned CRL with n minimal entries, written
// directly as bytes so that building it costs nothing.
func manyEntries(t testing.TB, p *pki.PKI, n int) []byte {
	t.Helper()
	entry := []byte{0x30, 0x13, 0x02, 0x02, 0x10, 0x07, 0x17, 0x0d}
	entry = append(entry, "260115000000Z"...)
	revoked := append(derHeader(0x30, n*len(entry)), bytes.Repeat(entry, n)...)
	alg := []byte{0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05, 0x00}
	body := append([]byte{0x02, 0x01, 0x01}, alg...)
	body = append(body, p.Intermediate.Certificate.RawSubject...)
	body = append(body, 0x17, 0x0d)
	body = append(body, "260601000000Z"...)
	body = append(body, revoked...)
	tbs := append(derHeader(0x30, len(body)), body...)
	outer := append(tbs, alg...)
	outer = append(outer, 0x03, 0x02, 0x00, 0x00)
	return append(derHeader(0x30, len(outer)), outer...)
}

func derHeader(tag byte, n int) []byte {
	if n < 0x80 {
		return []byte{tag, byte(n)}
	}
	var l []byte
	for v := n; v > 0; v >>= 8 {
		l = append([]byte{byte(v)}, l...)
	}
	return append([]byte{tag, 0x80 | byte(len(l))}, l...)
}

// ecdsaCA returns a self-signed P-384 CA allowed to sign CRLs.
func ecdsaCA(t testing.TB) (*x509.Certificate, crypto.Signer) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "ECDSA CRL Issuer"},
		NotBefore:             pki.ReferenceTime.AddDate(-1, 0, 0),
		NotAfter:              pki.ReferenceTime.AddDate(1, 0, 0),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}
