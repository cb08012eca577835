package cms

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"testing"
	"time"
)

// fuzzSeeds returns SignedData seeds made with a fresh P-256 key: the
// fixture PKI derives RSA primes, which under the fuzzer's coverage
// instrumentation takes minutes.
func fuzzSeeds(t testing.TB) [][]byte {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(7),
		Subject:      pkix.Name{CommonName: "fuzz signer"},
		NotBefore:    time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:     time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		SubjectKeyId: []byte{1, 2, 3, 4},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	s := Signer{Certificate: c, Key: key, SigningTime: signingTime}
	cs := s
	cs.SubjectKeyID = true
	withCounter := s
	withCounter.CounterSigners = []Signer{cs}
	noAttrs := s
	noAttrs.NoSignedAttributes = true
	var seeds [][]byte
	for _, tc := range []struct {
		signers []Signer
		opts    SignOptions
	}{
		{[]Signer{s}, SignOptions{}},
		{[]Signer{withCounter}, SignOptions{Detached: true}},
		{[]Signer{noAttrs, cs}, SignOptions{}},
	} {
		der, err := Sign([]byte("fuzz content"), tc.signers, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, der, toBER(t, der, 4, always))
	}
	return seeds
}

// FuzzParse feeds arbitrary bytes to Parse and checks every signer of what
// parses. Nothing may panic; the signed attributes the signature covers are
// the input's when it says they are DER; and the DER re-encoding of the
// input parses to the same signers.
func FuzzParse(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sd, err := Parse(data)
		if err != nil {
			return
		}
		opts := VerifyOptions{}
		if sd.Content == nil {
			opts.Detached = bytes.NewReader([]byte("fuzz content"))
		}
		results, err := sd.Verify(opts)
		if err != nil {
			return
		}
		for _, r := range results {
			si := r.Signer
			if si.SignedAttrs != nil && !si.SignedAttrsBER && !bytes.Equal(si.SignedAttrsDER[1:], si.RawSignedAttrs[1:]) {
				t.Fatal("SignedAttrsDER differs from DER input")
			}
			for _, cs := range si.CounterSignatures {
				_ = sd.VerifyCounterSignature(si, cs, nil)
			}
			_, _ = si.SigningCertificate()
			_, _, _ = si.SigningTime()
		}
		e, _, err := readElement(data, 0)
		if err != nil {
			t.Fatalf("Parse accepted what readElement refuses: %v", err)
		}
		der, err := e.der()
		if err != nil {
			return // a string segment count beyond the limit, say
		}
		again, err := Parse(der)
		if err != nil {
			t.Fatalf("DER re-encoding does not parse: %v", err)
		}
		if len(again.SignerInfos) != len(sd.SignerInfos) || !bytes.Equal(again.Content, sd.Content) {
			t.Fatal("DER re-encoding parses differently")
		}
		for i, si := range again.SignerInfos {
			if !bytes.Equal(si.SignedAttrsDER, sd.SignerInfos[i].SignedAttrsDER) {
				t.Fatal("DER re-encoding changes the signed attributes")
			}
		}
	})
}
