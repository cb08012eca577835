package egress_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/x509"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/fixtures/pki"
)

// TestExchangeOCSPWithFixture asks the fixture responder about its identities
// before and after the revoked signer's revocation, and verifies each
// answer as a client must.
func TestExchangeOCSPWithFixture(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		subject   func(*pki.Server) *pki.Identity
		clock     time.Time
		hash      crypto.Hash
		want      ocsp.CertStatus
		delegated bool // answered by the delegated responder, not the CA
	}{
		{name: "good signer", subject: func(s *pki.Server) *pki.Identity { return s.SignerRSA }, clock: pki.ReferenceTime, hash: crypto.SHA1, want: ocsp.Good, delegated: true},
		{name: "good ECDSA signer, SHA-256 CertID", subject: func(s *pki.Server) *pki.Identity { return s.SignerECDSA }, clock: pki.ReferenceTime, hash: crypto.SHA256, want: ocsp.Good, delegated: true},
		{name: "revoked signer after revocation", subject: func(s *pki.Server) *pki.Identity { return s.Revoked }, clock: pki.ReferenceTime, hash: crypto.SHA1, want: ocsp.Revoked, delegated: true},
		{name: "revoked signer before revocation is good", subject: func(s *pki.Server) *pki.Identity { return s.Revoked }, clock: pki.RevocationTime.Add(-24 * time.Hour), hash: crypto.SHA1, want: ocsp.Good, delegated: true},
		{name: "revoked signer at the revocation instant", subject: func(s *pki.Server) *pki.Identity { return s.Revoked }, clock: pki.RevocationTime, hash: crypto.SHA512, want: ocsp.Revoked, delegated: true},
		{name: "intermediate, answered by the root itself", subject: func(s *pki.Server) *pki.Identity { return s.Intermediate }, clock: pki.ReferenceTime, hash: crypto.SHA1, want: ocsp.Good},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv := pki.Start(t)
			srv.SetClock(func() time.Time { return tt.clock })
			subject := tt.subject(srv)
			cert, issuer := subject.Certificate, subject.Issuer.Certificate

			req, err := ocsp.Request(cert, issuer, tt.hash)
			is.NoErr(err)
			resp, err := egress.ExchangeOCSP(context.Background(), localClient(t), cert.OCSPServer[0], req)
			is.NoErr(err)
			is.Equal(resp.Status, ocsp.Successful)

			signer, err := resp.Basic.Verify(issuer)
			is.NoErr(err)
			is.Equal(signer.Delegated, tt.delegated)
			is.Equal(signer.NoCheck, tt.delegated) // the fixture responder has ocsp-nocheck
			if tt.delegated {
				is.True(signer.Certificate.Equal(srv.OCSPResponder.Certificate))
			} else {
				is.True(signer.Certificate.Equal(issuer))
			}
			is.Equal(resp.Basic.SignatureAlgorithm, x509.SHA256WithRSA)

			sr, err := resp.Basic.Find(cert, issuer)
			is.NoErr(err)
			is.Equal(sr.Status, tt.want)
			is.True(sr.ThisUpdate.Equal(tt.clock))
			is.True(sr.NextUpdate.Equal(tt.clock.Add(12 * time.Hour)))
			is.True(resp.Basic.ProducedAt.Equal(tt.clock))
			if tt.want == ocsp.Revoked {
				is.True(sr.RevocationTime.Equal(pki.RevocationTime))
				is.True(sr.HasReason)
				is.Equal(sr.RevocationReason, 1) // keyCompromise
			}
		})
	}
}

// TestExchangeOCSPUnknownSerial asks about a serial number the intermediate never
// issued.
func TestExchangeOCSPUnknownSerial(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return pki.ReferenceTime })
	stranger := *srv.SignerRSA.Certificate
	stranger.SerialNumber = big.NewInt(0x9999)
	issuer := srv.Intermediate.Certificate

	req, err := ocsp.Request(&stranger, issuer, crypto.SHA1)
	is.NoErr(err)
	resp, err := egress.ExchangeOCSP(context.Background(), localClient(t), srv.OCSPURL(), req)
	is.NoErr(err)
	_, err = resp.Basic.Verify(issuer)
	is.NoErr(err)
	sr, err := resp.Basic.Find(&stranger, issuer)
	is.NoErr(err)
	is.Equal(sr.Status, ocsp.Unknown)

	// The response is about 0x9999, not about the real signer.
	_, err = resp.Basic.Find(srv.SignerRSA.Certificate, issuer)
	is.True(errors.Is(err, ocsp.ErrNoMatchingResponse))
}

func TestExchangeOCSPNonceIsEchoed(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := pki.Start(t)
	nonce := []byte("0123456789abcdef")
	req, err := ocsp.RequestWithNonce(srv.SignerRSA.Certificate, srv.Intermediate.Certificate, crypto.SHA256, nonce)
	is.NoErr(err)
	resp, err := egress.ExchangeOCSP(context.Background(), localClient(t), srv.OCSPURL(), req)
	is.NoErr(err)
	is.Equal(resp.Basic.Nonce, nonce)
	is.Equal(len(resp.Basic.Extensions), 1)

	// Without a nonce there is none.
	req, err = ocsp.Request(srv.SignerRSA.Certificate, srv.Intermediate.Certificate, crypto.SHA256)
	is.NoErr(err)
	resp, err = egress.ExchangeOCSP(context.Background(), localClient(t), srv.OCSPURL(), req)
	is.NoErr(err)
	is.Equal(resp.Basic.Nonce, nil)
}

// TestExchangeOCSPUnavailable: every way of getting no answer wraps
// ErrUnavailable; an answer that does not parse does not.
func TestExchangeOCSPUnavailable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/trylater":
			w.Write([]byte{0x30, 0x03, 0x0a, 0x01, 0x03})
		case "/garbage":
			w.Write([]byte("<html>"))
		case "/huge":
			w.Write(make([]byte, ocsp.MaxResponseBytes+1))
		case "/method":
			if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/ocsp-request" {
				http.Error(w, "want POST application/ocsp-request", http.StatusBadRequest)
				return
			}
			w.Write([]byte{0x30, 0x03, 0x0a, 0x01, 0x02})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	guarded, err := egress.NewCertClient(egress.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		client   *http.Client
		path     string
		err      error
		blocked  bool
		contains string
	}{
		{name: "404", client: localClient(t), path: "/missing", err: egress.ErrOCSPUnavailable, contains: "HTTP 404"},
		{name: "tryLater", client: localClient(t), path: "/trylater", err: egress.ErrOCSPUnavailable, contains: "tryLater"},
		{name: "POST with the OCSP media type", client: localClient(t), path: "/method", err: egress.ErrOCSPUnavailable, contains: "internalError"},
		{name: "over the size cap", client: localClient(t), path: "/huge", err: egress.ErrOCSPUnavailable},
		{name: "blocked by the guard", client: guarded, path: "/trylater", err: egress.ErrOCSPUnavailable, blocked: true},
		{name: "garbage is malformed, not unavailable", client: localClient(t), path: "/garbage", err: ocsp.ErrMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := egress.ExchangeOCSP(context.Background(), tt.client, srv.URL+tt.path, []byte{0x30, 0x00})
			is.True(errors.Is(err, tt.err))
			is.Equal(egress.IsBlocked(err), tt.blocked)
			if tt.contains != "" {
				is.True(bytes.Contains([]byte(err.Error()), []byte(tt.contains)))
			}
			if tt.err == ocsp.ErrMalformed {
				is.True(!errors.Is(err, egress.ErrOCSPUnavailable))
			}
		})
	}
}
