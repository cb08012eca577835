package cert

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/asn1"
	"sync"
	"testing"

	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/fixtures/pki"
)

var (
	pkiOnce sync.Once
	pkiVal  *pki.PKI
	pkiErr  error
)

// testPKI returns the fixture PKI, built once per test binary.
func testPKI(tb testing.TB) *pki.PKI {
	tb.Helper()
	pkiOnce.Do(func() { pkiVal, pkiErr = pki.New("http://pki.invalid") })
	if pkiErr != nil {
		tb.Fatal(pkiErr)
	}
	return pkiVal
}

// tbsParts are the TBSCertificate elements forge lets a test change.
type tbsParts struct {
	version, serial, issuer, validity, subject, spki []byte
	extensions                                       [][]byte // Extension elements
}

// forge takes the certificate base, lets edit change its TBSCertificate and
// signs the result with issuerKey (SHA-256 with RSA PKCS #1 v1.5 or
// ECDSA), so that the certificate is genuinely issued: only the deviation
// the test puts in differs from a valid certificate.
func forge(tb testing.TB, base []byte, edit func(*tbsParts), issuerKey crypto.Signer) []byte {
	tb.Helper()
	rc, err := parseRawCertificate(base)
	if err != nil {
		tb.Fatal(err)
	}
	t := rc.tbs
	p := &tbsParts{version: t.version, serial: t.serialElem, issuer: t.issuer,
		validity: t.validity, subject: t.subject, spki: t.spki}
	for _, e := range t.extensions {
		p.extensions = append(p.extensions, e.raw)
	}
	edit(p)
	sigOID := asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	if _, ok := issuerKey.Public().(*ecdsa.PublicKey); ok {
		sigOID = asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}
	}
	sigAlg := build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(sigOID)
			if !sigOID.Equal(asn1.ObjectIdentifier{1, 2, 840, 10045, 4, 3, 2}) {
				b.AddASN1NULL()
			}
		})
	})
	tbs := build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddBytes(p.version)
			b.AddBytes(p.serial)
			b.AddBytes(sigAlg)
			b.AddBytes(p.issuer)
			b.AddBytes(p.validity)
			b.AddBytes(p.subject)
			b.AddBytes(p.spki)
			if len(p.extensions) > 0 {
				b.AddASN1(cbasn1.Tag(3).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
					b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
						for _, e := range p.extensions {
							b.AddBytes(e)
						}
					})
				})
			}
		})
	})
	digest := sha256.Sum256(tbs)
	sig, err := issuerKey.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		tb.Fatal(err)
	}
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddBytes(tbs)
			b.AddBytes(sigAlg)
			b.AddASN1BitString(sig)
		})
	})
}

func build(tb testing.TB, f func(b *cryptobyte.Builder)) []byte {
	tb.Helper()
	var b cryptobyte.Builder
	f(&b)
	out, err := b.Bytes()
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// extensionDER encodes an extension.
func extensionDER(tb testing.TB, oid asn1.ObjectIdentifier, critical bool, value []byte) []byte {
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1ObjectIdentifier(oid)
			if critical {
				b.AddASN1Boolean(true)
			}
			b.AddASN1OctetString(value)
		})
	})
}

// brainpoolSPKI encodes the public key of key, on a brainpool curve.
func brainpoolSPKI(tb testing.TB, key *ecdsa.PublicKey) []byte {
	oid := BrainpoolCurveOID(key.Curve)
	//lint:ignore SA1019 the encoding of a point of a custom curve.
	point := elliptic.Marshal(key.Curve, key.X, key.Y)
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(OIDECPublicKey)
				b.AddASN1ObjectIdentifier(oid)
			})
			b.AddASN1BitString(point)
		})
	})
}

// pssSPKI encodes an RSA key labelled id-RSASSA-PSS (RFC 4055).
func pssSPKI(tb testing.TB, key *rsa.PublicKey) []byte {
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(OIDRSASSAPSS)
			})
			b.AddASN1BitString(build(tb, func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1BigInt(key.N)
					b.AddASN1Int64(int64(key.E))
				})
			}))
		})
	})
}

// rsaSPKI encodes an rsaEncryption key with or without the NULL parameters
// and, if unsigned, with a modulus that lacks its leading zero octet.
func rsaSPKI(tb testing.TB, key *rsa.PublicKey, null, unsigned bool) []byte {
	return build(tb, func(b *cryptobyte.Builder) {
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(OIDRSAEncryption)
				if null {
					b.AddASN1NULL()
				}
			})
			b.AddASN1BitString(build(tb, func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					if unsigned {
						b.AddASN1(cbasn1.INTEGER, func(b *cryptobyte.Builder) { b.AddBytes(key.N.Bytes()) })
					} else {
						b.AddASN1BigInt(key.N)
					}
					b.AddASN1Int64(int64(key.E))
				})
			}))
		})
	})
}
