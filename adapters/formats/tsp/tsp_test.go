package tsp

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/asn1"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"
	"golang.org/x/crypto/cryptobyte"
	cbasn1 "golang.org/x/crypto/cryptobyte/asn1"

	"github.com/svc-dss/dss/adapters/formats/cms"
	"github.com/svc-dss/dss/fixtures/cmswrite"
	"github.com/svc-dss/dss/fixtures/pki"
)

var stamped = []byte("data to time-stamp")

// TestFixtureTSA checks tokens of the fixture TSA: every field, the
// signature, the ESS signing-certificate and the imprint.
func TestFixtureTSA(t *testing.T) {
	srv := fixture(t)
	tests := []struct {
		name    string
		hash    crypto.Hash
		certReq bool
		nonce   *big.Int
	}{
		{"SHA-256 with certificates", crypto.SHA256, true, big.NewInt(0x0102030405)},
		{"SHA-384 without certificates", crypto.SHA384, false, nil},
		{"SHA-512 with nonce", crypto.SHA512, false, new(big.Int).Lsh(big.NewInt(1), 62)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			resp := timestamp(t, stamped, tt.hash, RequestOptions{CertReq: tt.certReq, Nonce: tt.nonce, Policy: pki.TSAPolicy})
			tok, raw, err := ParseResponse(resp)
			is.NoErr(err)
			is.True(len(raw) > 0)
			info := tok.Info
			is.Equal(info.Version, 1)
			is.True(info.Policy.Equal(pki.TSAPolicy))
			is.Equal(info.MessageImprint.Hash, tt.hash)
			is.True(info.GenTime.Equal(pki.ReferenceTime.Add(time.Second))) // truncated to the second
			is.Equal(info.Accuracy, Accuracy{Seconds: 1})
			is.Equal(info.Accuracy.Duration(), time.Second)
			is.True(!info.Ordering)
			is.Equal(info.Nonce, tt.nonce)
			is.True(info.SerialNumber.Sign() > 0)
			name, ok := info.TSADirectoryName()
			is.True(ok)
			is.Equal(name, srv.TSA.Certificate.RawSubject)
			is.Equal(len(tok.SignedData.Certificates) > 0, tt.certReq)

			opts := VerifyOptions{}
			if !tt.certReq {
				_, err := tok.Verify(opts)
				is.True(errors.Is(err, cms.ErrSignerNotFound))
				opts.Certificates = []*x509.Certificate{srv.SignerRSA.Certificate, srv.TSA.Certificate}
			}
			c, err := tok.Verify(opts)
			is.NoErr(err)
			is.True(c.Equal(srv.TSA.Certificate))
			is.NoErr(tok.CheckImprint(stamped))
			is.NoErr(CheckTSACertificate(c, true))

			again, c2, err := Verify(raw, func(h crypto.Hash) ([]byte, error) {
				hh := h.New()
				hh.Write(stamped)
				return hh.Sum(nil), nil
			}, opts)
			is.NoErr(err)
			is.True(c2.Equal(c))
			is.Equal(again.Info.SerialNumber, info.SerialNumber)
		})
	}
}

// TestTamper checks the failures a validation policy must tell apart.
func TestTamper(t *testing.T) {
	is := is.New(t)
	raw := token(t, stamped, RequestOptions{CertReq: true})
	tok, err := Parse(raw)
	is.NoErr(err)

	// Other data: the imprint does not match.
	is.True(errors.Is(tok.CheckImprint([]byte("other data")), ErrImprintMismatch))
	_, _, err = Verify(raw, func(crypto.Hash) ([]byte, error) { return make([]byte, 32), nil }, VerifyOptions{})
	is.True(errors.Is(err, ErrImprintMismatch))

	// An imprint altered inside the token: the TSTInfo no longer matches
	// the message-digest the TSA signed.
	imprint := tok.Info.MessageImprint.HashedMessage
	altered := bytes.Clone(imprint)
	altered[0] ^= 0xff
	forged, err := Parse(bytes.Replace(raw, imprint, altered, 1))
	is.NoErr(err)
	_, err = forged.Verify(VerifyOptions{})
	is.True(errors.Is(err, cms.ErrDigestMismatch))
	is.True(cms.IsTampered(err))

	// A signature byte flipped.
	sig := tok.Signer.Signature
	flipped := bytes.Clone(sig)
	flipped[10] ^= 0x01
	forged, err = Parse(bytes.Replace(raw, sig, flipped, 1))
	is.NoErr(err)
	_, err = forged.Verify(VerifyOptions{})
	is.True(errors.Is(err, cms.ErrSignatureInvalid))
}

// TestSigningCertificate checks the ESS signing-certificate attribute: a
// token whose attribute names another certificate, and one without it.
func TestSigningCertificate(t *testing.T) {
	srv := fixture(t)
	tok, err := Parse(token(t, stamped, RequestOptions{}))
	if err != nil {
		t.Fatal(err)
	}
	tstInfo := tok.SignedData.Content
	tsa := cmswrite.Signer{Certificate: srv.TSA.Certificate, Key: srv.TSA.Key, SigningTime: pki.ReferenceTime}
	wrongRef := tsa
	wrongRef.ESSCertificate = srv.Intermediate.Certificate
	noAttrs := tsa
	noAttrs.NoSignedAttributes = true
	// The TSA key under a twin certificate of the TSA's (another serial
	// number): the ESS attribute names the TSA certificate, the signer
	// identifier the twin.
	sidOther := tsa
	sidOther.Certificate = twin(t, srv.TSA.Certificate)
	sidOther.ESSCertificate = srv.TSA.Certificate
	tests := []struct {
		name   string
		signer cmswrite.Signer
		want   error
	}{
		{"names the TSA", tsa, nil},
		{"names another certificate", wrongRef, ErrSigningCertificateMismatch},
		{"no signed attributes", noAttrs, ErrNoSigningCertificate},
		{"signer identifier names another certificate", sidOther, ErrSigningCertificateMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			der, err := cmswrite.Sign(tstInfo, []cmswrite.Signer{tt.signer}, cmswrite.SignOptions{ContentType: cms.OIDTSTInfo})
			is.NoErr(err)
			tok, err := Parse(der)
			is.NoErr(err)
			c, err := tok.Verify(VerifyOptions{})
			if tt.want == nil {
				is.NoErr(err)
			} else {
				is.True(errors.Is(err, tt.want))
			}
			is.True(c.Equal(tt.signer.Certificate)) // the key verified: the reference is what is wrong

			// Without the certificate the attribute names, the signing
			// certificate cannot be identified (ETSI: INDETERMINATE).
			if tt.want == nil {
				tok.SignedData.Certificates = nil
				_, err := tok.Verify(VerifyOptions{Certificates: []*x509.Certificate{srv.Intermediate.Certificate}})
				is.True(errors.Is(err, cms.ErrSignerNotFound))
			}
		})
	}
}

// TestCheckTSACertificate checks the extended key usage rule.
func TestCheckTSACertificate(t *testing.T) {
	srv := fixture(t)
	is := is.New(t)
	is.NoErr(CheckTSACertificate(srv.TSA.Certificate, true))
	is.True(errors.Is(CheckTSACertificate(srv.SignerRSA.Certificate, false), ErrNotTSACertificate))
	is.True(errors.Is(CheckTSACertificate(srv.OCSPResponder.Certificate, false), ErrNotTSACertificate))
}

// TestCAdESSignatureTimeStamp builds a CAdES-T with the fixture TSA and
// checks its signature time-stamp the way a validator does.
func TestCAdESSignatureTimeStamp(t *testing.T) {
	srv := fixture(t)
	is := is.New(t)
	signer := cmswrite.Signer{
		Certificate: srv.SignerECDSA.Certificate, Key: srv.SignerECDSA.Key, SigningTime: pki.ReferenceTime,
		UnsignedAttributes: func(sig []byte) ([]cms.Attribute, error) {
			return []cms.Attribute{{Type: cms.OIDAttrTimeStampToken, Values: [][]byte{token(t, sig, RequestOptions{CertReq: true})}}}, nil
		},
	}
	der, err := cmswrite.Sign([]byte("content"), []cmswrite.Signer{signer}, cmswrite.SignOptions{})
	is.NoErr(err)
	sd, err := cms.Parse(der)
	is.NoErr(err)
	si := sd.SignerInfos[0]
	attrs := si.UnsignedAttrs.Find(cms.OIDAttrTimeStampToken)
	is.Equal(len(attrs), 1)
	tok, err := Parse(attrs[0].Values[0])
	is.NoErr(err)
	c, err := tok.Verify(VerifyOptions{Certificates: sd.Certificates})
	is.NoErr(err)
	is.True(c.Equal(srv.TSA.Certificate))
	is.NoErr(tok.CheckImprint(si.Signature)) // the time-stamp covers the signature value
	is.True(errors.Is(tok.CheckImprint([]byte("content")), ErrImprintMismatch))
}

// TestParseResponseRejected checks a rejection by the TSA.
func TestParseResponseRejected(t *testing.T) {
	is := is.New(t)
	resp := timestamp(t, stamped, crypto.SHA1, RequestOptions{}) // the fixture TSA refuses SHA-1
	_, _, err := ParseResponse(resp)
	is.True(errors.Is(err, ErrRejected))
	var rej *RejectedError
	is.True(errors.As(err, &rej))
	is.Equal(rej.Status, StatusRejection)
	is.Equal(rej.FailInfo, []int{0}) // badAlg

	for _, bad := range [][]byte{nil, {0x30, 0x00}, {0x30, 0x03, 0x30, 0x01, 0x02}, {0x30, 0x05, 0x30, 0x03, 0x02, 0x01, 0x00}} {
		_, _, err := ParseResponse(bad)
		is.True(errors.Is(err, ErrMalformed))
	}
}

// tstInfoBuilder writes a TSTInfo for the table tests.
type tstInfoBuilder struct {
	version  int64
	genTime  string
	accuracy func(b *cryptobyte.Builder)
	ordering bool
	nonce    []byte // INTEGER content
	serial   []byte // INTEGER content
	tsa      bool
	ext      bool
	trailing bool
}

func (tb tstInfoBuilder) der(t testing.TB) []byte {
	digest := sha256.Sum256(stamped)
	var b cryptobyte.Builder
	b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
		b.AddASN1Int64(tb.version)
		b.AddASN1ObjectIdentifier(pki.TSAPolicy)
		b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
			b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
				b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 16, 840, 1, 101, 3, 4, 2, 1})
				b.AddASN1NULL()
			})
			b.AddASN1OctetString(digest[:])
		})
		b.AddASN1(cbasn1.INTEGER, func(b *cryptobyte.Builder) { b.AddBytes(tb.serial) })
		if tb.genTime != "" {
			b.AddASN1(cbasn1.GeneralizedTime, func(b *cryptobyte.Builder) { b.AddBytes([]byte(tb.genTime)) })
		}
		if tb.accuracy != nil {
			b.AddASN1(cbasn1.SEQUENCE, tb.accuracy)
		}
		if tb.ordering {
			b.AddASN1Boolean(true)
		}
		if tb.nonce != nil {
			b.AddASN1(cbasn1.INTEGER, func(b *cryptobyte.Builder) { b.AddBytes(tb.nonce) })
		}
		if tb.tsa {
			b.AddASN1(cbasn1.Tag(0).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.Tag(6).ContextSpecific(), func(b *cryptobyte.Builder) { b.AddBytes([]byte("https://tsa.example.eu")) })
			})
		}
		if tb.ext {
			b.AddASN1(cbasn1.Tag(1).ContextSpecific().Constructed(), func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.SEQUENCE, func(b *cryptobyte.Builder) {
					b.AddASN1ObjectIdentifier(asn1.ObjectIdentifier{2, 999, 7})
					b.AddASN1Boolean(true)
					b.AddASN1OctetString([]byte{5, 0})
				})
			})
		}
		if tb.trailing {
			b.AddASN1NULL()
		}
	})
	out, err := b.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// validTSTInfo is a TSTInfo with every optional field.
var validTSTInfo = tstInfoBuilder{
	version: 1, genTime: "20260301120000.125Z", serial: []byte{0x01, 0x00},
	accuracy: func(b *cryptobyte.Builder) {
		b.AddASN1Int64(2)
		b.AddASN1(cbasn1.Tag(0).ContextSpecific(), func(b *cryptobyte.Builder) { b.AddBytes([]byte{0x00, 0xfa}) })
		b.AddASN1(cbasn1.Tag(1).ContextSpecific(), func(b *cryptobyte.Builder) { b.AddUint8(7) })
	},
	ordering: true, nonce: []byte{0x00, 0xff}, tsa: true, ext: true,
}

// TestParseTSTInfo checks the fields and the malformed variants.
func TestParseTSTInfo(t *testing.T) {
	t.Run("every field", func(t *testing.T) {
		is := is.New(t)
		info, err := ParseTSTInfo(validTSTInfo.der(t))
		is.NoErr(err)
		is.Equal(info.Version, 1)
		is.Equal(info.SerialNumber.Int64(), int64(256))
		is.True(info.GenTime.Equal(time.Date(2026, 3, 1, 12, 0, 0, 125e6, time.UTC)))
		is.Equal(info.Accuracy, Accuracy{Seconds: 2, Millis: 250, Micros: 7})
		is.Equal(info.Accuracy.Duration(), 2250007*time.Microsecond)
		is.True(info.Ordering)
		is.Equal(info.Nonce.Int64(), int64(255))
		is.Equal(info.MessageImprint.Hash, crypto.SHA256)
		_, isDN := info.TSADirectoryName()
		is.True(!isDN) // a URI
		is.Equal(len(info.Extensions), 1)
		is.True(info.Extensions[0].Critical)
	})
	big := bytes.Repeat([]byte{0x01}, MaxIntegerSize+1)
	tests := []struct {
		name string
		b    func(tb tstInfoBuilder) tstInfoBuilder
		want error
	}{
		{"version 2", func(tb tstInfoBuilder) tstInfoBuilder { tb.version = 2; return tb }, ErrMalformed},
		{"no genTime", func(tb tstInfoBuilder) tstInfoBuilder { tb.genTime = ""; return tb }, ErrMalformed},
		{"bad genTime", func(tb tstInfoBuilder) tstInfoBuilder { tb.genTime = "2026-03-01"; return tb }, ErrMalformed},
		{"trailing data", func(tb tstInfoBuilder) tstInfoBuilder { tb.trailing = true; return tb }, ErrMalformed},
		{"huge serial", func(tb tstInfoBuilder) tstInfoBuilder { tb.serial = big; return tb }, ErrLimitExceeded},
		{"huge nonce", func(tb tstInfoBuilder) tstInfoBuilder { tb.nonce = big; return tb }, ErrLimitExceeded},
		{"millis 1000", func(tb tstInfoBuilder) tstInfoBuilder {
			tb.accuracy = func(b *cryptobyte.Builder) {
				b.AddASN1(cbasn1.Tag(0).ContextSpecific(), func(b *cryptobyte.Builder) { b.AddUint16(1000) })
			}
			return tb
		}, ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			_, err := ParseTSTInfo(tt.b(validTSTInfo).der(t))
			is.True(errors.Is(err, tt.want))
		})
	}
}

// TestParseNotAToken checks that other SignedData is refused.
func TestParseNotAToken(t *testing.T) {
	srv := fixture(t)
	is := is.New(t)
	signer := cmswrite.Signer{Certificate: srv.SignerRSA.Certificate, Key: srv.SignerRSA.Key}
	der, err := cmswrite.Sign(stamped, []cmswrite.Signer{signer}, cmswrite.SignOptions{})
	is.NoErr(err)
	_, err = Parse(der)
	is.True(errors.Is(err, ErrMalformed)) // id-data, not id-ct-TSTInfo
	der, err = cmswrite.Sign(validTSTInfo.der(t), []cmswrite.Signer{signer, {Certificate: srv.TSA.Certificate, Key: srv.TSA.Key}},
		cmswrite.SignOptions{ContentType: cms.OIDTSTInfo})
	is.NoErr(err)
	_, err = Parse(der)
	is.True(errors.Is(err, ErrMalformed)) // two signers
	der, err = cmswrite.Sign(validTSTInfo.der(t), []cmswrite.Signer{signer}, cmswrite.SignOptions{ContentType: cms.OIDTSTInfo, Detached: true})
	is.NoErr(err)
	_, err = Parse(der)
	is.True(errors.Is(err, ErrMalformed)) // no TSTInfo
}

// TestCreateRequest checks the request against what the fixture TSA
// parses, and the argument checks.
func TestCreateRequest(t *testing.T) {
	is := is.New(t)
	n, err := NewNonce()
	is.NoErr(err)
	is.True(n.Sign() > 0 && n.BitLen() <= 64)
	_, err = CreateRequest(crypto.SHA256, make([]byte, 20), RequestOptions{})
	is.True(err != nil)
	_, err = CreateRequest(crypto.MD5, make([]byte, 16), RequestOptions{})
	is.True(errors.Is(err, ErrUnsupported))
}

// twin returns a certificate like c, with the same key, another serial
// number, issued by the fixture intermediate CA.
func twin(t *testing.T, c *x509.Certificate) *x509.Certificate {
	t.Helper()
	srv := fixture(t)
	tmpl := *c
	tmpl.SerialNumber = new(big.Int).Add(c.SerialNumber, big.NewInt(1))
	der, err := x509.CreateCertificate(rand.Reader, &tmpl, srv.Intermediate.Certificate, c.PublicKey, srv.Intermediate.Key)
	if err != nil {
		t.Fatal(err)
	}
	tw, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return tw
}

// TestParseWrapped checks a token wrapped in an OCTET STRING.
func TestParseWrapped(t *testing.T) {
	is := is.New(t)
	raw := token(t, stamped, RequestOptions{CertReq: true})
	var b cryptobyte.Builder
	b.AddASN1OctetString(raw)
	wrapped, err := b.Bytes()
	is.NoErr(err)
	tok, err := Parse(wrapped)
	is.NoErr(err)
	is.True(tok.Wrapped)
	_, err = tok.Verify(VerifyOptions{})
	is.NoErr(err)
	tok, err = Parse(raw)
	is.NoErr(err)
	is.True(!tok.Wrapped)
}
