package ocsp_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha1"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"math/big"
	"testing"
	"time"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/ocsp"
)

// This file builds OCSP responses independently of the package under
// test, so that the parser and verifier are checked against encodings
// they did not produce, including ones the fixture PKI never sends.

var (
	oidBasic         = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 48, 1, 1}
	oidSHA1          = asn1.ObjectIdentifier{1, 3, 14, 3, 2, 26}
	oidSHA256WithRSA = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidSHA1WithRSA   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 5}
	oidECDSASHA256   = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
	oidRSAPSS        = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 10}
)

type single struct {
	cert, issuer *x509.Certificate
	serial       *big.Int // overrides cert's serial when set
	status       ocsp.CertStatus
	revokedAt    time.Time
	reason       int // -1: none
	thisUpdate   time.Time
	nextUpdate   time.Time // zero: absent
	rawTime      string    // overrides thisUpdate's encoding when set
}

type spec struct {
	responder  *x509.Certificate // named in the responder ID
	byKey      bool
	signer     crypto.Signer
	alg        x509.SignatureAlgorithm // SHA256WithRSA (default), SHA1WithRSA, ECDSAWithSHA256, SHA256WithRSAPSS
	producedAt time.Time
	singles    []single
	certs      []*x509.Certificate
}

func keyBits(t testing.TB, c *x509.Certificate) []byte {
	t.Helper()
	var info struct {
		Algorithm pkix.AlgorithmIdentifier
		PublicKey asn1.BitString
	}
	if _, err := asn1.Unmarshal(c.RawSubjectPublicKeyInfo, &info); err != nil {
		t.Fatal(err)
	}
	return info.PublicKey.Bytes
}

func addCertID(t testing.TB, b *cryptobyte.Builder, s single) {
	nameHash := sha1.Sum(s.cert.RawIssuer)
	keyHash := sha1.Sum(keyBits(t, s.issuer))
	serial := s.cert.SerialNumber
	if s.serial != nil {
		serial = s.serial
	}
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oidSHA1)
			b.AddASN1NULL()
		})
		b.AddASN1OctetString(nameHash[:])
		b.AddASN1OctetString(keyHash[:])
		b.AddASN1BigInt(serial)
	})
}

func addTime(b *cryptobyte.Builder, t time.Time, raw string) {
	if raw != "" {
		b.AddASN1(cbasn1.GeneralizedTime, func(b *cryptobyte.Builder) { b.AddBytes([]byte(raw)) })
		return
	}
	b.AddASN1GeneralizedTime(t.UTC())
}

// build returns a DER OCSPResponse for s.
func build(t testing.TB, s spec) []byte {
	t.Helper()
	var tbs cryptobyte.Builder
	tbs.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		if s.byKey {
			sum := sha1.Sum(keyBits(t, s.responder))
			b.AddASN1(cbasn1.Tag(2).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddASN1OctetString(sum[:])
			})
		} else {
			b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddBytes(s.responder.RawSubject)
			})
		}
		b.AddASN1GeneralizedTime(s.producedAt.UTC())
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			for _, sr := range s.singles {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					addCertID(t, b, sr)
					switch sr.status {
					case ocsp.Good:
						b.AddASN1(cbasn1.Tag(0).ContextSpecific(), func(*cryptobyte.Builder) {})
					case ocsp.Revoked:
						b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
							b.AddASN1GeneralizedTime(sr.revokedAt.UTC())
							if sr.reason >= 0 {
								b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
									b.AddASN1Enum(int64(sr.reason))
								})
							}
						})
					default:
						b.AddASN1(cbasn1.Tag(2).ContextSpecific(), func(*cryptobyte.Builder) {})
					}
					addTime(b, sr.thisUpdate, sr.rawTime)
					if !sr.nextUpdate.IsZero() {
						b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
							b.AddASN1GeneralizedTime(sr.nextUpdate.UTC())
						})
					}
				})
			}
		})
	})
	tbsDER := tbs.BytesOrPanic()
	algDER, sig := sign(t, s.signer, s.alg, tbsDER)

	var basic cryptobyte.Builder
	basic.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddBytes(tbsDER)
		b.AddBytes(algDER)
		b.AddASN1BitString(sig)
		if len(s.certs) > 0 {
			b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					for _, c := range s.certs {
						b.AddBytes(c.Raw)
					}
				})
			})
		}
	})
	var resp cryptobyte.Builder
	resp.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1Enum(0)
		b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(oidBasic)
				b.AddASN1OctetString(basic.BytesOrPanic())
			})
		})
	})
	return resp.BytesOrPanic()
}

// sign returns the AlgorithmIdentifier and the signature of data.
func sign(t testing.TB, key crypto.Signer, alg x509.SignatureAlgorithm, data []byte) ([]byte, []byte) {
	t.Helper()
	var ai cryptobyte.Builder
	var h crypto.Hash
	var opts crypto.SignerOpts
	switch alg {
	case x509.SHA256WithRSA, x509.UnknownSignatureAlgorithm:
		h, opts = crypto.SHA256, crypto.SHA256
		ai.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oidSHA256WithRSA); b.AddASN1NULL() })
	case x509.SHA1WithRSA:
		h, opts = crypto.SHA1, crypto.SHA1
		ai.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oidSHA1WithRSA); b.AddASN1NULL() })
	case x509.ECDSAWithSHA256:
		h, opts = crypto.SHA256, crypto.SHA256
		ai.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) { b.AddASN1ObjectIdentifier(oidECDSASHA256) })
	case x509.SHA256WithRSAPSS:
		h = crypto.SHA256
		opts = &rsa.PSSOptions{SaltLength: rsa.PSSSaltLengthEqualsHash, Hash: crypto.SHA256}
		// The parameters x509 itself writes for SHA256WithRSAPSS.
		ai.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oidRSAPSS)
			b.AddBytes([]byte{0x30, 0x34, 0xa0, 0x0f, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
				0xa1, 0x1c, 0x30, 0x1a, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x08, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86,
				0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0xa2, 0x03, 0x02, 0x01, 0x20})
		})
	default:
		t.Fatalf("no signing for %v", alg)
	}
	hh := h.New()
	hh.Write(data)
	sig, err := key.Sign(rand.Reader, hh.Sum(nil), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := key.(*ecdsa.PrivateKey); ok && alg != x509.ECDSAWithSHA256 {
		t.Fatalf("ECDSA key with %v", alg)
	}
	return ai.BytesOrPanic(), sig
}
