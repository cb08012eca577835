package cms_test

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ProtonMail/go-crypto/brainpool"
	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cert"
	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/pki"
)

// brainpoolSigner returns a signer with a brainpoolP256r1 key and a
// certificate for it issued by the fixture intermediate CA. crypto/x509
// cannot encode such a key, so the certificate is made for a P-256
// placeholder and its SubjectPublicKeyInfo replaced before signing.
func brainpoolSigner(t *testing.T, p *pki.PKI) cmswrite.Signer {
	t.Helper()
	key, err := ecdsa.GenerateKey(brainpool.P256r1(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := *p.SignerECDSA.Certificate
	tmpl.Subject.CommonName = "brainpool signer"
	tmpl.SubjectKeyId = []byte{0xb0, 0x01}
	placeholder, err := x509.CreateCertificate(rand.Reader, &tmpl, p.Intermediate.Certificate, p.SignerECDSA.Key.Public(), p.Intermediate.Key)
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 the uncompressed encoding of a point of a custom curve.
	point := elliptic.Marshal(key.Curve, key.X, key.Y)
	spki := build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(cert.OIDECPublicKey)
				b.AddASN1ObjectIdentifier(cert.OIDBrainpoolP256r1)
			})
			b.AddASN1BitString(point)
		})
	})
	in := cryptobyte.String(placeholder)
	var c, tbs, fields, sigAlg cryptobyte.String
	if !in.ReadASN1(&c, cbasn1.SEQUENCE) || !c.ReadASN1(&tbs, cbasn1.SEQUENCE) || !c.ReadASN1Element(&sigAlg, cbasn1.SEQUENCE) {
		t.Fatal("placeholder certificate")
	}
	fields = tbs
	newTBS := build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			for i := 0; !fields.Empty(); i++ {
				var e cryptobyte.String
				var tag cbasn1.Tag
				fields.ReadAnyASN1Element(&e, &tag)
				if i == 6 { // [0] version, serial, signature, issuer, validity, subject, spki
					e = spki
				}
				b.AddBytes(e)
			}
		})
	})
	digest := sha256.Sum256(newTBS)
	sig, err := p.Intermediate.Key.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		t.Fatal(err)
	}
	der := build(t, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddBytes(newTBS)
			b.AddBytes(sigAlg)
			b.AddASN1BitString(sig)
		})
	})
	crt, err := cert.Parse(der)
	if err != nil {
		t.Fatal(err)
	}
	if err := cert.CheckCertificateSignature(crt, p.Intermediate.Certificate.PublicKey); err != nil {
		t.Fatal(err)
	}
	return cmswrite.Signer{Certificate: crt, Key: key, SigningTime: signingTime}
}

func build(t *testing.T, f func(b *cryptobyte.Builder)) []byte {
	t.Helper()
	var b cryptobyte.Builder
	f(&b)
	out, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrainpool signs with a brainpool key, as German qualified signature
// cards do, and verifies.
func TestBrainpool(t *testing.T) {
	is := is.New(t)
	p := testPKI(t)
	s := brainpoolSigner(t, p)
	for _, ski := range []bool{false, true} {
		s.SubjectKeyID = ski
		sd := mustParse(t, mustSign(t, testContent, []cmswrite.Signer{s}, cmswrite.SignOptions{Detached: true}))
		results, err := sd.Verify(cms.VerifyOptions{Detached: bytes.NewReader(testContent)})
		is.NoErr(err)
		is.NoErr(results[0].Err())
		is.True(results[0].Certificate.Equal(s.Certificate))
		results, err = sd.Verify(cms.VerifyOptions{Detached: bytes.NewReader([]byte("other"))})
		is.NoErr(err)
		is.True(errors.Is(results[0].ContentErr, cms.ErrDigestMismatch))
	}
}

// TestOpenSSL cross-checks with OpenSSL, when installed: our SignedData
// verifies with `openssl cms -verify`, and OpenSSL's (DER, and BER with
// -stream) verifies with ours.
func TestOpenSSL(t *testing.T) {
	openssl, err := exec.LookPath("openssl")
	if err != nil {
		t.Skip("openssl not installed: skipping the interoperability checks")
	}
	p := testPKI(t)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	content := write("content.bin", bytes.Repeat([]byte("OpenSSL interop\n"), 500))
	contentBytes, _ := os.ReadFile(content)
	pss := signerFor(p.SignerRSAQC)
	pss.PSS = true
	ski := signerFor(p.SignerECDSA)
	ski.SubjectKeyID = true
	counter := signerFor(p.SignerRSA)
	counter.CounterSigners = []cmswrite.Signer{signerFor(p.SignerECDSAQC)}

	t.Run("ours verified by openssl", func(t *testing.T) {
		tests := []struct {
			name     string
			signers  []cmswrite.Signer
			detached bool
		}{
			{"RSA attached", []cmswrite.Signer{signerFor(p.SignerRSA)}, false},
			{"RSA-PSS detached", []cmswrite.Signer{pss}, true},
			{"ECDSA SKI", []cmswrite.Signer{ski}, false},
			{"counter-signed, two signers", []cmswrite.Signer{counter, signerFor(p.SignerECDSA)}, true},
			{"brainpool", []cmswrite.Signer{brainpoolSigner(t, p)}, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				der := mustSign(t, contentBytes, tt.signers, cmswrite.SignOptions{Detached: tt.detached})
				args := []string{"cms", "-verify", "-noverify", "-binary", "-inform", "DER", "-in", write("sig.p7s", der), "-out", os.DevNull}
				if tt.detached {
					args = append(args, "-content", content)
				}
				if out, err := exec.Command(openssl, args...).CombinedOutput(); err != nil {
					t.Fatalf("openssl: %v\n%s", err, out)
				}
			})
		}
	})

	t.Run("openssl verified by ours", func(t *testing.T) {
		tests := []struct {
			name  string
			id    *pki.Identity
			extra []string
			ber   bool
		}{
			{"RSA DER attached", p.SignerRSA, []string{"-nodetach"}, false},
			{"RSA BER streamed attached", p.SignerRSA, []string{"-nodetach", "-stream"}, true},
			{"RSA-PSS detached", p.SignerRSAQC, []string{"-keyopt", "rsa_padding_mode:pss"}, false},
			{"ECDSA SKI BER streamed detached", p.SignerECDSA, []string{"-keyid", "-stream"}, true},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				is := is.New(t)
				keyDER, err := x509.MarshalPKCS8PrivateKey(tt.id.Key)
				is.NoErr(err)
				keyPath := write("key.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}))
				certPath := write("cert.pem", pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tt.id.DER}))
				out := filepath.Join(dir, "openssl.p7s")
				args := append([]string{"cms", "-sign", "-binary", "-in", content, "-signer", certPath, "-inkey", keyPath,
					"-outform", "DER", "-out", out, "-md", "sha256"}, tt.extra...)
				if msg, err := exec.Command(openssl, args...).CombinedOutput(); err != nil {
					t.Fatalf("openssl: %v\n%s", err, msg)
				}
				der, err := os.ReadFile(out)
				is.NoErr(err)
				is.Equal(der[1] == 0x80, tt.ber) // -stream writes indefinite lengths
				sd := mustParse(t, der)
				opts := cms.VerifyOptions{}
				if sd.Content == nil {
					opts.Detached = bytes.NewReader(contentBytes)
				} else {
					is.Equal(sd.Content, contentBytes)
				}
				results, err := sd.Verify(opts)
				is.NoErr(err)
				is.NoErr(results[0].Err())
				is.True(results[0].Certificate.Equal(tt.id.Certificate))
			})
		}
	})
}
