package cms_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/crypto/ocsp"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/pki"
)

var testContent = []byte("Signed content of a CMS round trip.\n")

// TestRoundTrip signs with every key type and option and checks that the
// result parses and verifies, and that the fields say what was signed.
func TestRoundTrip(t *testing.T) {
	p := testPKI(t)
	tests := []struct {
		name     string
		id       *pki.Identity
		hash     crypto.Hash
		pss      bool
		ski      bool
		detached bool
		noAttrs  bool
		scheme   cert.Scheme
	}{
		{name: "RSA attached", id: p.SignerRSA, scheme: cert.PKCS1v15},
		{name: "RSA detached", id: p.SignerRSA, detached: true, scheme: cert.PKCS1v15},
		{name: "RSA SHA-512", id: p.SignerRSA, hash: crypto.SHA512, scheme: cert.PKCS1v15},
		{name: "RSA SHA3-256", id: p.SignerRSA, hash: crypto.SHA3_256, scheme: cert.PKCS1v15},
		{name: "RSA-PSS attached", id: p.SignerRSA, pss: true, scheme: cert.PSS},
		{name: "RSA-PSS detached SHA-384", id: p.SignerRSAQC, pss: true, hash: crypto.SHA384, detached: true, scheme: cert.PSS},
		{name: "ECDSA attached", id: p.SignerECDSA, scheme: cert.ECDSA},
		{name: "ECDSA detached", id: p.SignerECDSA, detached: true, scheme: cert.ECDSA},
		{name: "ECDSA SKI", id: p.SignerECDSA, ski: true, scheme: cert.ECDSA},
		{name: "RSA SKI detached", id: p.SignerRSA, ski: true, detached: true, scheme: cert.PKCS1v15},
		{name: "RSA no signed attributes", id: p.SignerRSA, noAttrs: true, scheme: cert.PKCS1v15},
		{name: "ECDSA no signed attributes detached", id: p.SignerECDSA, noAttrs: true, detached: true, scheme: cert.ECDSA},
		{name: "Ed25519", id: ed25519Identity(t, p), scheme: cert.Ed25519},
		{name: "Ed25519 detached SKI", id: ed25519Identity(t, p), detached: true, ski: true, scheme: cert.Ed25519},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := signerFor(tt.id)
			s.Hash, s.PSS, s.SubjectKeyID, s.NoSignedAttributes = tt.hash, tt.pss, tt.ski, tt.noAttrs
			der := mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{
				Detached:     tt.detached,
				Certificates: []*x509.Certificate{p.Intermediate.Certificate},
			})
			sd := mustParse(t, der)
			is.True(sd.ContentType.Equal(cms.OIDData))
			is.Equal(len(sd.Certificates), 2)
			is.Equal(len(sd.SignerInfos), 1)
			if tt.detached {
				is.True(sd.Content == nil)
			} else {
				is.Equal(sd.Content, testContent)
			}
			si := sd.SignerInfos[0]
			alg, err := si.Algorithm()
			is.NoErr(err)
			is.Equal(alg.Scheme, tt.scheme)
			if tt.ski {
				is.Equal(si.Version, 3)
				is.Equal(sd.Version, 3)
				is.Equal(si.SID.SubjectKeyID, tt.id.Certificate.SubjectKeyId)
			} else {
				is.Equal(si.Version, 1)
				is.Equal(si.SID.SerialNumber.Cmp(tt.id.Certificate.SerialNumber), 0)
			}
			if tt.noAttrs {
				is.True(si.SignedAttrs == nil)
			} else {
				is.True(!si.SignedAttrsBER)
				is.Equal(si.SignedAttrsDER[1:], si.RawSignedAttrs[1:])
				at, ok, err := si.SigningTime()
				is.NoErr(err)
				is.True(ok)
				is.True(at.Equal(signingTime))
				ids, err := si.SigningCertificate()
				is.NoErr(err)
				is.Equal(len(ids), 1)
				is.True(ids[0].Matches(tt.id.Certificate))
				is.True(!ids[0].Matches(p.Intermediate.Certificate))
			}
			opts := cms.VerifyOptions{}
			if tt.detached {
				opts.Detached = bytes.NewReader(testContent)
			}
			results, err := sd.Verify(opts)
			is.NoErr(err)
			is.Equal(len(results), 1)
			is.NoErr(results[0].Err())
			is.True(results[0].Certificate.Equal(tt.id.Certificate))
		})
	}
}

// PAdES signatures carry no signing-time attribute (EN 319 142-1, 5.3).
func TestOmitSigningTime(t *testing.T) {
	is := is.New(t)
	s := signerFor(testPKI(t).SignerRSA)
	s.OmitSigningTime = true
	sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{}))
	si := sd.SignerInfos[0]
	is.Equal(len(si.SignedAttrs.Find(cms.OIDAttrSigningTime)), 0)
	is.Equal(len(si.SignedAttrs), 3) // content-type, message-digest, signing-certificate-v2
	res, err := sd.Verify(cms.VerifyOptions{})
	is.NoErr(err)
	is.NoErr(res[0].Err())
}

// TestTamper checks that each kind of alteration gives its error.
func TestTamper(t *testing.T) {
	p := testPKI(t)
	tests := []struct {
		name     string
		id       *pki.Identity
		noAttrs  bool
		detached bool
		tamper   func(t *testing.T, der []byte) (out []byte, detached []byte)
		want     error
	}{
		{
			name: "attached content changed", id: p.SignerRSA,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) {
				return replaceOnce(t, der, testContent, bytes.ToUpper(testContent)), nil
			},
			want: cms.ErrDigestMismatch,
		},
		{
			name: "detached content changed", id: p.SignerECDSA, detached: true,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) {
				return der, []byte("other content")
			},
			want: cms.ErrDigestMismatch,
		},
		{
			name: "signature byte flipped RSA", id: p.SignerRSA,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) {
				return flipSignature(t, der), nil
			},
			want: cms.ErrSignatureInvalid,
		},
		{
			name: "signature byte flipped ECDSA", id: p.SignerECDSA,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) {
				return flipSignature(t, der), nil
			},
			want: cms.ErrSignatureInvalid,
		},
		{
			name: "signing time changed", id: p.SignerRSA,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) {
				return replaceOnce(t, der, []byte("260301120000Z"), []byte("260301120001Z")), nil
			},
			want: cms.ErrSignatureInvalid,
		},
		{
			name: "content changed without signed attributes", id: p.SignerRSA, noAttrs: true,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) {
				return replaceOnce(t, der, testContent, bytes.ToUpper(testContent)), nil
			},
			want: cms.ErrSignatureInvalid,
		},
		{
			name: "detached without content", id: p.SignerRSA, detached: true,
			tamper: func(t *testing.T, der []byte) ([]byte, []byte) { return der, nil },
			want:   cms.ErrNoContent,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			s := signerFor(tt.id)
			s.NoSignedAttributes = tt.noAttrs
			der := mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{Detached: tt.detached})
			der, detached := tt.tamper(t, der)
			sd := mustParse(t, der)
			opts := cms.VerifyOptions{}
			if detached != nil {
				opts.Detached = bytes.NewReader(detached)
			}
			results, err := sd.Verify(opts)
			is.NoErr(err)
			err = results[0].Err()
			is.True(errors.Is(err, tt.want)) // the error names the alteration
			if !errors.Is(tt.want, cms.ErrNoContent) {
				is.True(cms.IsTampered(err))
			}
		})
	}
}

// replaceOnce replaces the only occurrence of old in b with new, of the
// same length.
func replaceOnce(t *testing.T, b, old, new []byte) []byte {
	t.Helper()
	if bytes.Count(b, old) != 1 || len(old) != len(new) {
		t.Fatalf("%q occurs %d times", old, bytes.Count(b, old))
	}
	return bytes.Replace(b, old, new, 1)
}

// flipSignature flips a bit in the middle of the first signature value.
func flipSignature(t *testing.T, der []byte) []byte {
	t.Helper()
	sd := mustParse(t, der)
	sig := sd.SignerInfos[0].Signature
	flipped := bytes.Clone(sig)
	flipped[len(flipped)/2] ^= 0x01
	return replaceOnce(t, der, sig, flipped)
}

// TestBER checks that indefinite-length variants of a DER SignedData parse
// and verify as the DER does.
func TestBER(t *testing.T) {
	p := testPKI(t)
	content := bytes.Repeat([]byte("0123456789abcdef"), 300)
	for _, detached := range []bool{false, true} {
		s := signerFor(p.SignerRSA)
		s.CounterSigners = []cmswrite.Signer{signerFor(p.SignerECDSA)}
		der := mustSign(t, content, []cmswrite.Signer{s, signerFor(p.SignerECDSAQC)},
			cmswrite.SignOptions{Detached: detached, Certificates: []*x509.Certificate{p.Intermediate.Certificate}})
		variants := []struct {
			name    string
			ber     []byte
			attrBER bool
		}{
			{"everything indefinite", cms.ToBER(t, der, 1000, always), true},
			{"outer structure indefinite", cms.ToBER(t, der, 512, func(depth int) bool { return depth <= 4 }), false},
		}
		for _, v := range variants {
			t.Run(v.name, func(t *testing.T) {
				is := is.New(t)
				is.True(!bytes.Equal(v.ber, der))
				want, got := mustParse(t, der), mustParse(t, v.ber)
				is.Equal(got.Content, want.Content)
				is.Equal(got.Version, want.Version)
				is.Equal(got.DigestAlgorithms, want.DigestAlgorithms)
				is.Equal(len(got.Certificates), len(want.Certificates))
				for i := range want.Certificates {
					is.True(got.Certificates[i].Equal(want.Certificates[i]))
				}
				is.Equal(len(got.SignerInfos), len(want.SignerInfos))
				for i, si := range got.SignerInfos {
					w := want.SignerInfos[i]
					is.Equal(si.SignedAttrsBER, v.attrBER)
					is.Equal(si.SignedAttrsDER, w.SignedAttrsDER) // the same bytes are verified
					is.Equal(si.Signature, w.Signature)
					is.Equal(len(si.CounterSignatures), len(w.CounterSignatures))
				}
				opts := cms.VerifyOptions{}
				if detached {
					opts.Detached = bytes.NewReader(content)
				}
				results, err := got.Verify(opts)
				is.NoErr(err)
				for _, r := range results {
					is.NoErr(r.Err())
					for _, cs := range r.Signer.CounterSignatures {
						is.NoErr(got.VerifyCounterSignature(r.Signer, cs, nil).Err())
					}
				}
			})
		}
	}
}

// TestCounterSignature checks that counter-signatures are listed and
// verify over the signature value they counter-sign.
func TestCounterSignature(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	inner := signerFor(p.SignerRSAQC)
	cs := signerFor(p.SignerECDSA)
	cs.CounterSigners = []cmswrite.Signer{inner} // a counter-signature of the counter-signature
	s := signerFor(p.SignerRSA)
	s.CounterSigners = []cmswrite.Signer{cs, signerFor(p.SignerECDSAQC)}
	sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{}))
	is.Equal(len(sd.Certificates), 4) // signer and three counter-signers
	si := sd.SignerInfos[0]
	is.Equal(len(si.CounterSignatures), 2)
	is.Equal(len(si.UnsignedAttrs.Find(cms.OIDAttrCounterSignature)), 1)
	for _, c := range si.CounterSignatures {
		is.True(c.SignedAttrs != nil)
		_, hasCT, _ := c.ContentTypeAttr()
		is.True(!hasCT) // RFC 5652, section 11.1
		r := sd.VerifyCounterSignature(si, c, nil)
		is.NoErr(r.Err())
		// Against another signature value the digest does not match.
		other := &cms.SignerInfo{Signature: []byte("not the countersigned value")}
		is.True(errors.Is(sd.VerifyCounterSignature(other, c, nil).ContentErr, cms.ErrDigestMismatch))
	}
	var nested *cms.SignerInfo
	for _, c := range si.CounterSignatures {
		if len(c.CounterSignatures) == 1 {
			nested = c
		}
	}
	is.True(nested != nil)
	is.NoErr(sd.VerifyCounterSignature(nested, nested.CounterSignatures[0], nil).Err())
}

// TestMultipleSigners checks that every signer is checked, and that a
// tampered one does not spoil the others.
func TestMultipleSigners(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	pss := signerFor(p.SignerRSAQC)
	pss.PSS = true
	ski := signerFor(p.SignerECDSAQC)
	ski.SubjectKeyID = true
	ids := []*pki.Identity{p.SignerRSA, p.SignerECDSA, p.SignerRSAQC, p.SignerECDSAQC}
	der := mustSign(t, testContent, []cmswrite.Signer{signerFor(p.SignerRSA), signerFor(p.SignerECDSA), pss, ski}, cmswrite.SignOptions{Detached: true})
	sd := mustParse(t, der)
	is.Equal(len(sd.SignerInfos), 4)
	results, err := sd.Verify(cms.VerifyOptions{Detached: bytes.NewReader(testContent)})
	is.NoErr(err)
	found := map[string]bool{}
	for _, r := range results {
		is.NoErr(r.Err())
		found[r.Certificate.Subject.CommonName] = true
	}
	for _, id := range ids {
		is.True(found[id.Certificate.Subject.CommonName])
	}

	sig := sd.SignerInfos[2].Signature
	flipped := bytes.Clone(sig)
	flipped[0] ^= 0x80
	sd = mustParse(t, replaceOnce(t, der, sig, flipped))
	results, err = sd.Verify(cms.VerifyOptions{Detached: bytes.NewReader(testContent)})
	is.NoErr(err)
	failed := 0
	for _, r := range results {
		if r.Err() != nil {
			failed++
			is.True(errors.Is(r.SignatureErr, cms.ErrSignatureInvalid))
		}
	}
	is.Equal(failed, 1)
}

// TestSignerNotFound checks the search for the signer certificate: absent,
// supplied by the caller, and hidden behind a planted certificate with the
// same issuer and serial number.
func TestSignerNotFound(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	for _, ski := range []bool{false, true} {
		s := signerFor(p.SignerECDSA)
		s.SubjectKeyID = ski
		sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{}))
		sd.Certificates = nil
		results, err := sd.Verify(cms.VerifyOptions{})
		is.NoErr(err)
		is.True(errors.Is(results[0].SignatureErr, cms.ErrSignerNotFound))
		is.NoErr(results[0].ContentErr)
		_, err = sd.FindSigner(sd.SignerInfos[0], nil)
		is.True(errors.Is(err, cms.ErrSignerNotFound))

		results, err = sd.Verify(cms.VerifyOptions{Certificates: []*x509.Certificate{p.SignerRSA.Certificate, p.SignerECDSA.Certificate}})
		is.NoErr(err)
		is.NoErr(results[0].Err())

		// A planted certificate with the same identifier comes first; the
		// genuine one supplied by the caller must still be found.
		sd.Certificates = []*x509.Certificate{plantedTwin(t, p.SignerECDSA.Certificate)}
		is.True(sd.SignerInfos[0].SID.Matches(sd.Certificates[0]))
		results, err = sd.Verify(cms.VerifyOptions{})
		is.NoErr(err)
		is.True(errors.Is(results[0].SignatureErr, cms.ErrSignatureInvalid))
		results, err = sd.Verify(cms.VerifyOptions{Certificates: []*x509.Certificate{p.SignerECDSA.Certificate}})
		is.NoErr(err)
		is.NoErr(results[0].Err())
		is.True(results[0].Certificate.Equal(p.SignerECDSA.Certificate))
	}
}

// plantedTwin returns a certificate with the issuer, serial number and
// subject key identifier of c but another key.
func plantedTwin(t *testing.T, c *x509.Certificate) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: c.SerialNumber,
		Subject:      c.Subject,
		NotBefore:    c.NotBefore,
		NotAfter:     c.NotAfter,
		SubjectKeyId: c.SubjectKeyId,
	}
	parent := &x509.Certificate{Subject: c.Issuer, RawSubject: c.RawIssuer}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	twin, err := cert.Parse(der)
	if err != nil {
		t.Fatal(err)
	}
	return twin
}

// TestContentTypeMismatch checks the content-type attribute against the
// eContentType.
func TestContentTypeMismatch(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	s := signerFor(p.SignerRSA)
	der := mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{ContentType: cms.OIDTSTInfo})
	sd := mustParse(t, der)
	is.Equal(sd.Version, 3)
	results, err := sd.Verify(cms.VerifyOptions{})
	is.NoErr(err)
	is.NoErr(results[0].Err())
	sd.ContentType = cms.OIDData
	results, err = sd.Verify(cms.VerifyOptions{})
	is.NoErr(err)
	is.True(errors.Is(results[0].ContentErr, cms.ErrContentTypeMismatch))
}

// TestUnsupported checks that unknown algorithms are reported as such,
// not as invalid signatures.
func TestUnsupported(t *testing.T) {
	p := testPKI(t)
	algID := func(oid asn1.ObjectIdentifier) []byte {
		b, err := asn1.Marshal(pkix.AlgorithmIdentifier{Algorithm: oid})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	tests := []struct {
		name   string
		modify func(si *cms.SignerInfo)
		check  func(r cms.SignerResult) error
	}{
		{"DSA signature", func(si *cms.SignerInfo) {
			si.SignatureAlgorithm = algID(asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 3, 2})
		}, func(r cms.SignerResult) error { return r.SignatureErr }},
		{"RIPEMD-160 digest", func(si *cms.SignerInfo) {
			si.DigestAlgorithm = algID(cert.OIDRIPEMD160)
		}, func(r cms.SignerResult) error { return r.ContentErr }},
		{"ECDSA algorithm for an RSA key", func(si *cms.SignerInfo) {
			si.SignatureAlgorithm = algID(asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2})
		}, func(r cms.SignerResult) error { return r.SignatureErr }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{signerFor(p.SignerRSA)}, cmswrite.SignOptions{}))
			tt.modify(sd.SignerInfos[0])
			results, err := sd.Verify(cms.VerifyOptions{})
			is.NoErr(err)
			err = tt.check(results[0])
			is.True(errors.Is(err, cms.ErrUnsupported))
			is.True(!cms.IsTampered(err))
		})
	}
}

// TestMalformed checks inputs that are not SignedData.
func TestMalformed(t *testing.T) {
	p := testPKI(t)
	good := mustSign(t, testContent, []cmswrite.Signer{signerFor(p.SignerRSA)}, cmswrite.SignOptions{})
	enveloped, _ := asn1.Marshal(struct {
		OID     asn1.ObjectIdentifier
		Content asn1.RawValue `asn1:"explicit,tag:0"`
	}{asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 7, 3}, asn1.RawValue{FullBytes: []byte{0x30, 0x00}}})
	deep := bytes.Repeat([]byte{0x30, 0x80}, cms.MaxDepth+2)
	tests := []struct {
		name string
		in   []byte
		want error
	}{
		{"empty", nil, cms.ErrMalformed},
		{"truncated", good[:len(good)-10], cms.ErrMalformed},
		{"trailing data", append(bytes.Clone(good), 0x01), cms.ErrMalformed},
		{"enveloped data", enveloped, cms.ErrUnsupported},
		{"too deep", deep, cms.ErrLimitExceeded},
		{"indefinite primitive", []byte{0x04, 0x80, 0x00, 0x00}, cms.ErrMalformed},
		{"length beyond input", []byte{0x30, 0x84, 0x7f, 0xff, 0xff, 0xff}, cms.ErrMalformed},
		{"five length octets", []byte{0x30, 0x85, 0, 0, 0, 0, 1, 0}, cms.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := cms.Parse(tt.in)
			is.True(errors.Is(err, tt.want))
		})
	}
	t.Run("trailing zeros", func(t *testing.T) {
		is := is.New(t)
		_, err := cms.Parse(append(bytes.Clone(good), 0, 0, 0, 0))
		is.NoErr(err)
	})
}

// TestAttributesSingle checks the rules for single-valued attributes.
func TestAttributesSingle(t *testing.T) {
	oid := asn1.ObjectIdentifier{1, 2, 3}
	v := []byte{0x05, 0x00}
	tests := []struct {
		name    string
		attrs   cms.Attributes
		wantOK  bool
		wantErr bool
	}{
		{"absent", nil, false, false},
		{"one", cms.Attributes{{Type: oid, Values: [][]byte{v}}}, true, false},
		{"repeated", cms.Attributes{{Type: oid, Values: [][]byte{v}}, {Type: oid, Values: [][]byte{v}}}, true, true},
		{"two values", cms.Attributes{{Type: oid, Values: [][]byte{v, v}}}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			got, ok, err := tt.attrs.Single(oid)
			is.Equal(ok, tt.wantOK)
			is.Equal(err != nil, tt.wantErr)
			if tt.wantOK && !tt.wantErr {
				is.Equal(got, v)
			}
		})
	}
}

// TestSigningTimeEncoding checks UTCTime and GeneralizedTime signing times.
func TestSigningTimeEncoding(t *testing.T) {
	p := testPKI(t)
	for _, at := range []time.Time{
		time.Date(2049, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2050, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		is := is.New(t)
		s := signerFor(p.SignerRSA)
		s.SigningTime = at
		sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{}))
		got, ok, err := sd.SignerInfos[0].SigningTime()
		is.NoErr(err)
		is.True(ok)
		is.True(got.Equal(at))
	}
}

// TestNegativeSerialSigner checks a signer whose certificate has a negative
// serial number, as some European CAs issued.
func TestNegativeSerialSigner(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	key := p.SignerECDSA.Key
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "negative serial"},
		NotBefore:    time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:     time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		KeyUsage:     x509.KeyUsageDigitalSignature,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, p.Intermediate.Certificate, key.Public(), p.Intermediate.Key)
	is.NoErr(err)
	// Serial 1 (02 01 01) becomes -1 (02 01 ff); the signature over the
	// certificate no longer matters here.
	neg := bytes.Replace(der, []byte{0x02, 0x01, 0x01, 0x30}, []byte{0x02, 0x01, 0xff, 0x30}, 1)
	c, err := cert.Parse(neg)
	is.NoErr(err)
	is.Equal(c.SerialNumber.Int64(), int64(-1))
	sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{{Certificate: c, Key: key, SigningTime: signingTime}}, cmswrite.SignOptions{}))
	is.Equal(sd.SignerInfos[0].SID.SerialNumber.Int64(), int64(-1))
	results, err := sd.Verify(cms.VerifyOptions{})
	is.NoErr(err)
	is.NoErr(results[0].Err())
}

// ed25519Identity returns an identity with an Ed25519 key issued by the
// fixture intermediate CA.
func ed25519Identity(t *testing.T, p *pki.PKI) *pki.Identity {
	t.Helper()
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := *p.SignerECDSA.Certificate
	tmpl.Subject.CommonName = "Ed25519 signer"
	tmpl.SubjectKeyId = []byte{0xed, 0x25, 0x51, 0x9}
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, p.Intermediate.Certificate, key.Public(), p.Intermediate.Key)
	if err != nil {
		t.Fatal(err)
	}
	c, err := cert.Parse(der)
	if err != nil {
		t.Fatal(err)
	}
	return &pki.Identity{Name: "ed25519", Certificate: c, DER: der, Key: key, Issuer: p.Intermediate}
}

// TestRevocationInfo checks the crls field: CRLs and OCSP responses as
// other revocation information (RFC 5940).
func TestRevocationInfo(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	crl, err := p.CRL(p.Intermediate, pki.ReferenceTime)
	is.NoErr(err)
	req, err := ocsp.CreateRequest(p.SignerRSA.Certificate, p.Intermediate.Certificate, nil)
	is.NoErr(err)
	resp, err := p.OCSPResponse(req, pki.ReferenceTime)
	is.NoErr(err)
	der := mustSign(t, testContent, []cmswrite.Signer{signerFor(p.SignerRSA)}, cmswrite.SignOptions{
		CRLs:                [][]byte{crl},
		OtherRevocationInfo: []cms.OtherRevocationInfo{{Format: cms.OIDRevInfoOCSPResponse, Info: resp}},
	})
	sd := mustParse(t, der)
	is.Equal(sd.Version, 5)
	is.Equal(sd.CRLs, [][]byte{crl})
	is.Equal(len(sd.OtherRevocationInfo), 1)
	is.True(sd.OtherRevocationInfo[0].Format.Equal(cms.OIDRevInfoOCSPResponse))
	is.Equal(sd.OtherRevocationInfo[0].Info, resp)
	parsed, err := ocsp.ParseResponse(sd.OtherRevocationInfo[0].Info, p.Intermediate.Certificate)
	is.NoErr(err)
	is.Equal(parsed.Status, ocsp.Good)
	_, err = x509.ParseRevocationList(sd.CRLs[0])
	is.NoErr(err)
	results, err := sd.Verify(cms.VerifyOptions{})
	is.NoErr(err)
	is.NoErr(results[0].Err())
}

// TestCounterSignatureContentType: a counter-signature that carries a
// content-type attribute is malformed (RFC 5652, section 11.1: a
// countersignature has no content type of its own), though its digest
// and value verify.
func TestCounterSignatureContentType(t *testing.T) {
	p := testPKI(t)
	dataOID, err := asn1.Marshal(cms.OIDData)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		attrs []cms.Attribute
		want  error
	}{
		{"without content-type", nil, nil},
		{"with content-type", []cms.Attribute{{Type: cms.OIDAttrContentType, Values: [][]byte{dataOID}}}, cms.ErrMalformed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			cs := signerFor(p.SignerECDSA)
			cs.SignedAttributes = tc.attrs
			s := signerFor(p.SignerRSA)
			s.CounterSigners = []cmswrite.Signer{cs}
			sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{}))
			si := sd.SignerInfos[0]
			is.Equal(len(si.CounterSignatures), 1)
			r := sd.VerifyCounterSignature(si, si.CounterSignatures[0], nil)
			is.NoErr(r.SignatureErr) // the value verifies either way
			if tc.want == nil {
				is.NoErr(r.ContentErr)
				return
			}
			is.True(errors.Is(r.ContentErr, tc.want))
		})
	}
}
