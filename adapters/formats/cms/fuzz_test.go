package cms_test

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

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
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
	s := cmswrite.Signer{Certificate: c, Key: key, SigningTime: signingTime}
	cs := s
	cs.SubjectKeyID = true
	withCounter := s
	withCounter.CounterSigners = []cmswrite.Signer{cs}
	noAttrs := s
	noAttrs.NoSignedAttributes = true
	var seeds [][]byte
	for _, tc := range []struct {
		signers []cmswrite.Signer
		opts    cmswrite.SignOptions
	}{
		{[]cmswrite.Signer{s}, cmswrite.SignOptions{}},
		{[]cmswrite.Signer{withCounter}, cmswrite.SignOptions{Detached: true}},
		{[]cmswrite.Signer{noAttrs, cs}, cmswrite.SignOptions{}},
	} {
		der, err := cmswrite.Sign([]byte("fuzz content"), tc.signers, tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, der, cms.ToBER(t, der, 4, always))
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
		sd, err := cms.Parse(data)
		if err != nil {
			return
		}
		opts := cms.VerifyOptions{}
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
		der, readErr, derErr := cms.ReencodeDER(data)
		if readErr != nil {
			t.Fatalf("Parse accepted what readElement refuses: %v", readErr)
		}
		if derErr != nil {
			return // a string segment count beyond the limit, say
		}
		again, err := cms.Parse(der)
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
