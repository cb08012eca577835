package ocsp_test

import (
	"bytes"
	"crypto"
	"crypto/x509"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/matryer/is"
	xocsp "golang.org/x/crypto/ocsp"

	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestParseAgreesWithXCrypto cross-checks the parser with x/crypto/ocsp
// on a fixture response.
func TestParseAgreesWithXCrypto(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	der := fixtureResponse(t, p, p.Revoked, pki.ReferenceTime)

	mine, err := ocsp.ParseResponse(der)
	is.NoErr(err)
	theirs, err := xocsp.ParseResponseForCert(der, p.Revoked.Certificate, p.Intermediate.Certificate)
	is.NoErr(err)
	sr := mine.Basic.Responses[0]
	is.Equal(theirs.Status, xocsp.Revoked)
	is.Equal(sr.Status, ocsp.Revoked)
	is.True(theirs.RevokedAt.Equal(sr.RevocationTime))
	is.Equal(theirs.RevocationReason, sr.RevocationReason)
	is.True(theirs.ThisUpdate.Equal(sr.ThisUpdate))
	is.True(theirs.NextUpdate.Equal(sr.NextUpdate))
	is.True(theirs.ProducedAt.Equal(mine.Basic.ProducedAt))
	is.Equal(theirs.SerialNumber, sr.CertID.SerialNumber)
	is.Equal(theirs.RawResponderName, mine.Basic.ResponderID.RawName)
	is.Equal(theirs.TBSResponseData, mine.Basic.RawResponseData)
	is.Equal(theirs.Signature, mine.Basic.Signature)
	is.Equal(len(mine.Basic.Certificates), 1)
	is.Equal(mine.Basic.Certificates[0], p.OCSPResponder.DER)
}

// TestVerify covers who may sign, with responses built by the test.
func TestVerify(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	now := pki.ReferenceTime
	about := func(id *pki.Identity) []single {
		return []single{{cert: id.Certificate, issuer: id.Issuer.Certificate, status: ocsp.Good, reason: -1, thisUpdate: now}}
	}
	tests := []struct {
		name      string
		spec      spec
		issuer    *pki.Identity
		err       error
		delegated bool
		nocheck   bool
		alg       x509.SignatureAlgorithm
	}{
		{name: "issuer itself, by name",
			spec:   spec{responder: p.Intermediate.Certificate, signer: p.Intermediate.Key, singles: about(p.SignerRSA)},
			issuer: p.Intermediate, alg: x509.SHA256WithRSA},
		{name: "issuer itself, by key",
			spec:   spec{responder: p.Intermediate.Certificate, byKey: true, signer: p.Intermediate.Key, singles: about(p.SignerRSA)},
			issuer: p.Intermediate, alg: x509.SHA256WithRSA},
		{name: "issuer itself, RSA-PSS",
			spec:   spec{responder: p.Intermediate.Certificate, signer: p.Intermediate.Key, alg: x509.SHA256WithRSAPSS, singles: about(p.SignerRSA)},
			issuer: p.Intermediate, alg: x509.SHA256WithRSAPSS},
		{name: "issuer itself, SHA-1 is verified, not judged",
			spec:   spec{responder: p.Intermediate.Certificate, signer: p.Intermediate.Key, alg: x509.SHA1WithRSA, singles: about(p.SignerRSA)},
			issuer: p.Intermediate, alg: x509.SHA1WithRSA},
		{name: "delegated responder, by key",
			spec:   spec{responder: p.OCSPResponder.Certificate, byKey: true, signer: p.OCSPResponder.Key, singles: about(p.SignerRSA), certs: []*x509.Certificate{p.OCSPResponder.Certificate}},
			issuer: p.Intermediate, delegated: true, nocheck: true, alg: x509.SHA256WithRSA},
		{name: "delegated responder after an unrelated certificate",
			spec:   spec{responder: p.OCSPResponder.Certificate, signer: p.OCSPResponder.Key, singles: about(p.SignerRSA), certs: []*x509.Certificate{p.Root.Certificate, p.OCSPResponder.Certificate}},
			issuer: p.Intermediate, delegated: true, nocheck: true, alg: x509.SHA256WithRSA},
		{name: "responder without id-kp-OCSPSigning",
			spec:   spec{responder: p.SignerRSA.Certificate, signer: p.SignerRSA.Key, singles: about(p.SignerECDSA), certs: []*x509.Certificate{p.SignerRSA.Certificate}},
			issuer: p.Intermediate, err: ocsp.ErrUnauthorisedResponder},
		{name: "time-stamping unit is no responder either",
			spec:   spec{responder: p.TSA.Certificate, signer: p.TSA.Key, singles: about(p.SignerRSA), certs: []*x509.Certificate{p.TSA.Certificate}},
			issuer: p.Intermediate, err: ocsp.ErrUnauthorisedResponder},
		{name: "delegated responder of another CA",
			spec:   spec{responder: p.OCSPResponder.Certificate, signer: p.OCSPResponder.Key, singles: about(p.Intermediate), certs: []*x509.Certificate{p.OCSPResponder.Certificate}},
			issuer: p.Root, err: ocsp.ErrUnauthorisedResponder},
		{name: "delegated responder not sent",
			spec:   spec{responder: p.OCSPResponder.Certificate, signer: p.OCSPResponder.Key, singles: about(p.SignerRSA)},
			issuer: p.Intermediate, err: ocsp.ErrUnauthorisedResponder},
		{name: "named responder, another key signed",
			spec:   spec{responder: p.OCSPResponder.Certificate, signer: p.TSA.Key, singles: about(p.SignerRSA), certs: []*x509.Certificate{p.OCSPResponder.Certificate}},
			issuer: p.Intermediate, err: ocsp.ErrSignatureInvalid},
		{name: "issuer named, responder key signed",
			spec:   spec{responder: p.Intermediate.Certificate, signer: p.OCSPResponder.Key, singles: about(p.SignerRSA), certs: []*x509.Certificate{p.OCSPResponder.Certificate}},
			issuer: p.Intermediate, err: ocsp.ErrSignatureInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			tt.spec.producedAt = now
			resp, err := ocsp.ParseResponse(build(t, tt.spec))
			is.NoErr(err)
			signer, err := resp.Basic.Verify(tt.issuer.Certificate)
			if tt.err != nil {
				is.True(errors.Is(err, tt.err))
				return
			}
			is.NoErr(err)
			is.Equal(signer.Delegated, tt.delegated)
			is.Equal(signer.NoCheck, tt.nocheck)
			is.Equal(resp.Basic.SignatureAlgorithm, tt.alg)
		})
	}
}

// TestCheckSignatureECDSA verifies an ECDSA signature with the signing
// certificate alone (the locally trusted responder case).
func TestCheckSignatureECDSA(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	der := build(t, spec{responder: p.SignerECDSA.Certificate, signer: p.SignerECDSA.Key, alg: x509.ECDSAWithSHA256, producedAt: pki.ReferenceTime,
		singles: []single{{cert: p.SignerRSA.Certificate, issuer: p.Intermediate.Certificate, reason: -1, thisUpdate: pki.ReferenceTime}}})
	resp, err := ocsp.ParseResponse(der)
	is.NoErr(err)
	is.Equal(resp.Basic.SignatureAlgorithm, x509.ECDSAWithSHA256)
	is.NoErr(resp.Basic.CheckSignature(p.SignerECDSA.Certificate))
	is.True(errors.Is(resp.Basic.CheckSignature(p.SignerECDSAQC.Certificate), ocsp.ErrSignatureInvalid))
	is.True(errors.Is(resp.Basic.CheckSignature(p.SignerRSA.Certificate), ocsp.ErrSignatureInvalid))
}

// TestTamperedResponse changes signed bytes of a genuine response.
func TestTamperedResponse(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	der := fixtureResponse(t, p, p.SignerRSA, pki.ReferenceTime)
	tests := []struct {
		name   string
		tamper func([]byte) []byte
	}{
		{name: "producedAt moved a year", tamper: func(b []byte) []byte {
			return bytes.Replace(b, []byte("20260601000000Z"), []byte("20270601000000Z"), 1)
		}},
		{name: "good turned unknown", tamper: func(b []byte) []byte {
			// good is [0] IMPLICIT NULL (80 00), unknown [2] (82 00),
			// right before thisUpdate.
			i := bytes.Index(b, []byte{0x80, 0x00, 0x18, 0x0f})
			if i < 0 {
				t.Fatal("no good status found")
			}
			b[i] = 0x82
			return b
		}},
		{name: "last signature byte", tamper: func(b []byte) []byte {
			resp, err := ocsp.ParseResponse(b)
			if err != nil {
				t.Fatal(err)
			}
			sig := resp.Basic.Signature
			b[bytes.Index(b, sig)+len(sig)-1] ^= 0x01
			return b
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			resp, err := ocsp.ParseResponse(tt.tamper(bytes.Clone(der)))
			is.NoErr(err) // still well-formed
			_, err = resp.Basic.Verify(p.Intermediate.Certificate)
			is.True(errors.Is(err, ocsp.ErrSignatureInvalid))
		})
	}
}

func TestParseFields(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p := fixture(t)
	negative := *p.SignerRSA.Certificate
	negative.SerialNumber = big.NewInt(-0x1234)
	next := pki.ReferenceTime.Add(time.Hour)
	der := build(t, spec{responder: p.Intermediate.Certificate, signer: p.Intermediate.Key, producedAt: pki.ReferenceTime, singles: []single{
		{cert: p.SignerRSA.Certificate, issuer: p.Intermediate.Certificate, status: ocsp.Revoked, revokedAt: pki.RevocationTime, reason: -1, thisUpdate: pki.ReferenceTime},
		{cert: &negative, issuer: p.Intermediate.Certificate, status: ocsp.Revoked, revokedAt: pki.RevocationTime, reason: 6, thisUpdate: pki.ReferenceTime, nextUpdate: next},
		{cert: p.SignerECDSA.Certificate, issuer: p.Intermediate.Certificate, status: ocsp.Good, reason: -1, rawTime: "20260601000000.25Z"},
	}})
	resp, err := ocsp.ParseResponse(der)
	is.NoErr(err)
	_, err = resp.Basic.Verify(p.Intermediate.Certificate)
	is.NoErr(err)

	sr, err := resp.Basic.Find(p.SignerRSA.Certificate, p.Intermediate.Certificate)
	is.NoErr(err)
	is.Equal(sr.Status, ocsp.Revoked)
	is.True(!sr.HasReason)
	is.Equal(sr.RevocationReason, 0)
	is.True(sr.NextUpdate.IsZero())

	sr, err = resp.Basic.Find(&negative, p.Intermediate.Certificate)
	is.NoErr(err)
	is.Equal(sr.CertID.SerialNumber, big.NewInt(-0x1234))
	is.True(sr.HasReason)
	is.Equal(sr.RevocationReason, 6) // certificateHold
	is.True(sr.NextUpdate.Equal(next))

	sr, err = resp.Basic.Find(p.SignerECDSA.Certificate, p.Intermediate.Certificate)
	is.NoErr(err)
	is.Equal(sr.Status, ocsp.Good)
	is.True(sr.ThisUpdate.Equal(pki.ReferenceTime.Add(250 * time.Millisecond))) // fractional seconds tolerated

	// Matching needs the right issuer key as well as the serial number.
	_, err = resp.Basic.Find(p.SignerRSA.Certificate, p.Root.Certificate)
	is.True(errors.Is(err, ocsp.ErrNoMatchingResponse))
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	good := fixtureResponse(t, p, p.SignerRSA, pki.ReferenceTime)
	tests := []struct {
		name   string
		in     []byte
		err    error
		status ocsp.ResponseStatus
	}{
		{name: "empty", in: nil, err: ocsp.ErrMalformed},
		{name: "garbage", in: []byte("<html>not found</html>"), err: ocsp.ErrMalformed},
		{name: "truncated", in: good[:len(good)-10], err: ocsp.ErrMalformed},
		{name: "trailing data", in: append(bytes.Clone(good), 0), err: ocsp.ErrMalformed},
		{name: "successful without response bytes", in: []byte{0x30, 0x03, 0x0a, 0x01, 0x00}, err: ocsp.ErrMalformed},
		{name: "status 4 is unassigned", in: []byte{0x30, 0x03, 0x0a, 0x01, 0x04}, err: ocsp.ErrMalformed},
		{name: "too large", in: make([]byte, ocsp.MaxResponseBytes+1), err: ocsp.ErrMalformed},
		{name: "not a basic response", in: []byte{0x30, 0x11, 0x0a, 0x01, 0x00, 0xa0, 0x0c, 0x30, 0x0a, 0x06, 0x03, 0x2a, 0x03, 0x04, 0x04, 0x03, 0x01, 0x02, 0x03}, err: ocsp.ErrUnsupported},
		{name: "tryLater", in: []byte{0x30, 0x03, 0x0a, 0x01, 0x03}, status: ocsp.TryLater},
		{name: "unauthorized", in: []byte{0x30, 0x03, 0x0a, 0x01, 0x06}, status: ocsp.Unauthorized},
		{name: "malformedRequest", in: []byte{0x30, 0x03, 0x0a, 0x01, 0x01}, status: ocsp.MalformedRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			resp, err := ocsp.ParseResponse(tt.in)
			if tt.err != nil {
				is.True(errors.Is(err, tt.err))
				is.Equal(resp, nil)
				return
			}
			is.NoErr(err)
			is.Equal(resp.Status, tt.status)
			is.Equal(resp.Basic, nil)
		})
	}
}

func TestRequest(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	cert, issuer := p.SignerRSA.Certificate, p.Intermediate.Certificate
	for _, h := range []crypto.Hash{crypto.SHA1, crypto.SHA256, crypto.SHA384, crypto.SHA512} {
		t.Run(h.String(), func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			der, err := ocsp.Request(cert, issuer, h)
			is.NoErr(err)
			// x/crypto's server side reads it as a responder would.
			req, err := xocsp.ParseRequest(der)
			is.NoErr(err)
			is.Equal(req.HashAlgorithm, h)
			is.Equal(req.SerialNumber, cert.SerialNumber)
			hh := h.New()
			hh.Write(issuer.RawSubject)
			is.Equal(req.IssuerNameHash, hh.Sum(nil))
		})
	}
	t.Run("unsupported hash", func(t *testing.T) {
		_, err := ocsp.Request(cert, issuer, crypto.MD5)
		is.New(t).True(errors.Is(err, ocsp.ErrUnsupported))
	})
	t.Run("nonce bounds", func(t *testing.T) {
		is := is.New(t)
		_, err := ocsp.RequestWithNonce(cert, issuer, crypto.SHA1, nil)
		is.True(err != nil)
		_, err = ocsp.RequestWithNonce(cert, issuer, crypto.SHA1, make([]byte, ocsp.MaxNonceBytes+1))
		is.True(err != nil)
	})
}

// fixture returns a PKI without a server, for responses built in process.
func fixture(t testing.TB) *pki.PKI {
	t.Helper()
	p, err := pki.New("http://ocsp.test")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fixtureResponse is the fixture responder's answer about id at now.
func fixtureResponse(t testing.TB, p *pki.PKI, id *pki.Identity, now time.Time) []byte {
	t.Helper()
	req, err := ocsp.Request(id.Certificate, id.Issuer.Certificate, crypto.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	der, err := p.OCSPResponse(req, now)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// TestVerifyTrusted covers the responders trusted to answer for any
// certificate: a responder the issuer did not delegate (here the root,
// answering for a certificate of the intermediate, as SK's responders,
// certified by their root, answer for certificates of the CAs under it).
func TestVerifyTrusted(t *testing.T) {
	t.Parallel()
	p := fixture(t)
	now := pki.ReferenceTime
	bySigner := []single{{cert: p.SignerRSA.Certificate, issuer: p.Intermediate.Certificate, status: ocsp.Good, reason: -1, thisUpdate: now}}
	byRoot := spec{responder: p.Root.Certificate, signer: p.Root.Key, singles: bySigner, producedAt: now}
	tests := []struct {
		name    string
		spec    spec
		trusted []*x509.Certificate
		err     error
		nocheck bool
	}{
		{name: "trusted, by name", spec: byRoot, trusted: []*x509.Certificate{p.TSA.Certificate, p.Root.Certificate}},
		{name: "trusted, by key",
			spec:    spec{responder: p.Root.Certificate, byKey: true, signer: p.Root.Key, singles: bySigner, producedAt: now},
			trusted: []*x509.Certificate{p.Root.Certificate}},
		{name: "trusted, carries id-pkix-ocsp-nocheck",
			spec:    spec{responder: p.OCSPResponder.Certificate, signer: p.OCSPResponder.Key, singles: bySigner, producedAt: now},
			trusted: []*x509.Certificate{p.OCSPResponder.Certificate}, nocheck: true},
		{name: "not among the trusted", spec: byRoot, trusted: []*x509.Certificate{p.TSA.Certificate}, err: ocsp.ErrUnauthorisedResponder},
		{name: "none trusted", spec: byRoot, err: ocsp.ErrUnauthorisedResponder},
		{name: "trusted named, another key signed",
			spec:    spec{responder: p.Root.Certificate, signer: p.TSA.Key, singles: bySigner, producedAt: now},
			trusted: []*x509.Certificate{p.Root.Certificate}, err: ocsp.ErrSignatureInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			resp, err := ocsp.ParseResponse(build(t, tt.spec))
			is.NoErr(err)
			// The issuer itself refuses the root: it did not delegate it.
			_, err = resp.Basic.Verify(p.Intermediate.Certificate)
			is.True(errors.Is(err, ocsp.ErrUnauthorisedResponder) || errors.Is(err, ocsp.ErrSignatureInvalid))
			signer, err := resp.Basic.VerifyTrusted(tt.trusted)
			if tt.err != nil {
				is.True(errors.Is(err, tt.err))
				return
			}
			is.NoErr(err)
			is.True(signer.Delegated)
			is.Equal(signer.NoCheck, tt.nocheck)
			is.True(resp.Basic.CheckSignature(signer.Certificate) == nil)
		})
	}
}
