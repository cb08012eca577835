package egress_test

import (
	"bytes"
	"context"
	"crypto"
	"crypto/x509"
	"errors"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/domain/revocation"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

// Times the fixture clock is pinned to: before and after the revocation of
// pki's Revoked identity (2026-01-15).
var (
	beforeRevocation = time.Date(2025, time.June, 1, 12, 0, 0, 0, time.UTC)
	afterRevocation  = pki.ReferenceTime
)

// startPKI starts the fixture services on 127.0.0.1 with the clock pinned.
func startPKI(t *testing.T, at time.Time) *pki.Server {
	t.Helper()
	srv := pki.Start(t)
	srv.SetClock(func() time.Time { return at })
	return srv
}

// localClient is the guarded client with the private-network guard off,
// for the fixture servers on 127.0.0.1 only.
func localClient(t *testing.T) *http.Client {
	t.Helper()
	c, err := egress.NewCertClient(egress.Options{AllowPrivateNetworksUnsafe: true, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// logBuffer is a text slog logger writing to a buffer safe for
// concurrent use.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func newLogger() (*slog.Logger, *logBuffer) {
	lb := &logBuffer{}
	return slog.New(slog.NewTextHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug})), lb
}

// fixtureOCSP returns the fixture's OCSP response about id at now.
func fixtureOCSP(t *testing.T, p *pki.PKI, id *pki.Identity, now time.Time) []byte {
	t.Helper()
	return fixtureOCSPBy(t, p, nil, id, now)
}

// fixtureOCSPBy is fixtureOCSP signed by responder (pki.OCSPResponseBy).
func fixtureOCSPBy(t *testing.T, p *pki.PKI, responder, id *pki.Identity, now time.Time) []byte {
	t.Helper()
	req, err := ocsp.Request(id.Certificate, id.Issuer.Certificate, crypto.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := p.OCSPResponseBy(responder, req, now)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

func fixtureCRL(t *testing.T, p *pki.PKI, ca *pki.Identity, now time.Time) []byte {
	t.Helper()
	der, err := p.CRL(ca, now)
	if err != nil {
		t.Fatal(err)
	}
	return der
}

// counter is a reverse proxy on 127.0.0.1 in front of a fixture server
// that counts the requests per path and answers 500 for the paths in fail.
type counter struct {
	*httptest.Server
	mu    sync.Mutex
	count map[string]int
}

func newCounter(t *testing.T, target string, fail ...string) *counter {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	c := &counter{count: make(map[string]int)}
	c.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.count[r.URL.Path]++
		c.mu.Unlock()
		for _, f := range fail {
			if r.URL.Path == f {
				http.Error(w, "broken", http.StatusInternalServerError)
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(c.Close)
	return c
}

func (c *counter) n(path string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.count[path]
}

func (c *counter) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.count {
		n += v
	}
	return n
}

// via returns a copy of cert whose OCSP and CRL URLs point at c instead
// of the fixture server at base. Only the parsed fields change; the
// encoding, and so signatures and CertIDs, stay those of cert.
func (c *counter) via(cert *x509.Certificate, base string) *x509.Certificate {
	cp := *cert
	swap := func(in []string) []string {
		out := make([]string, len(in))
		for i, u := range in {
			out[i] = strings.Replace(u, base, c.URL, 1)
		}
		return out
	}
	cp.OCSPServer = swap(cert.OCSPServer)
	cp.CRLDistributionPoints = swap(cert.CRLDistributionPoints)
	cp.IssuingCertificateURL = swap(cert.IssuingCertificateURL)
	return &cp
}

func TestRevocationEmbedded(t *testing.T) {
	t.Parallel()
	srv := startPKI(t, afterRevocation)
	signer, inter := srv.SignerRSA.Certificate, srv.Intermediate.Certificate
	goodOCSP := fixtureOCSP(t, srv.PKI, srv.SignerRSA, beforeRevocation)
	parsed, err := ocsp.ParseResponse(goodOCSP)
	if err != nil {
		t.Fatal(err)
	}
	basic := parsed.Basic.Raw
	interCRL := fixtureCRL(t, srv.PKI, srv.Intermediate, afterRevocation)

	// No client: nothing may be fetched in these cases.
	src := egress.NewRevocationSource(nil, nil, nil, false)

	t.Run("OCSPResponse good", func(t *testing.T) {
		is := is.New(t)
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{OCSPResponses: [][]byte{goodOCSP}}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 1)
		f := facts[0]
		is.Equal(f.Source, revocation.OCSP)
		is.Equal(f.Status, revocation.Good)
		is.True(f.Embedded)
		is.True(f.Certificate == signer)
		is.True(f.Issuer == inter)
		is.True(f.ThisUpdate.Equal(beforeRevocation))
		is.True(f.ProducedAt.Equal(beforeRevocation))
		is.True(f.NextUpdate.Equal(beforeRevocation.Add(12 * time.Hour)))
		is.True(f.Signer.Equal(srv.OCSPResponder.Certificate))
		is.True(f.Delegated)
		is.True(f.NoCheck)
	})

	t.Run("BasicOCSPResponse", func(t *testing.T) {
		is := is.New(t)
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{OCSPResponses: [][]byte{basic}}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 1)
		is.Equal(facts[0].Status, revocation.Good)
		is.True(facts[0].Embedded)
		is.True(facts[0].Delegated)
	})

	t.Run("CRL revoked", func(t *testing.T) {
		is := is.New(t)
		revoked := srv.Revoked.Certificate
		facts, err := src.Revocation(t.Context(), revoked, inter, ports.EmbeddedRevocation{CRLs: [][]byte{interCRL}}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 1)
		f := facts[0]
		is.Equal(f.Source, revocation.CRL)
		is.Equal(f.Status, revocation.Revoked)
		is.True(f.Embedded)
		is.True(f.RevokedAt.Equal(pki.RevocationTime))
		is.Equal(f.Reason, 1) // keyCompromise
		is.True(f.ThisUpdate.Equal(afterRevocation))
		is.True(f.NextUpdate.Equal(afterRevocation.Add(24 * time.Hour)))
		is.True(f.Signer == inter)
		is.True(!f.Delegated)
		is.True(f.ProducedAt.IsZero())
	})

	t.Run("CRL good", func(t *testing.T) {
		is := is.New(t)
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{CRLs: [][]byte{interCRL}}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 1)
		is.Equal(facts[0].Status, revocation.Good)
	})

	t.Run("order and duplicates", func(t *testing.T) {
		is := is.New(t)
		newer := fixtureOCSP(t, srv.PKI, srv.SignerRSA, afterRevocation)
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{
			OCSPResponses: [][]byte{goodOCSP, newer, goodOCSP},
			CRLs:          [][]byte{fixtureCRL(t, srv.PKI, srv.Intermediate, afterRevocation.Add(time.Hour))},
		}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 3)
		is.Equal(facts[0].Source, revocation.CRL)
		is.True(facts[0].ThisUpdate.Equal(afterRevocation.Add(time.Hour)))
		is.Equal(facts[1].Source, revocation.OCSP)
		is.True(facts[1].ThisUpdate.Equal(afterRevocation))
		is.True(facts[2].ThisUpdate.Equal(beforeRevocation))
	})

	t.Run("other certificate ignored", func(t *testing.T) {
		is := is.New(t)
		logger, logs := newLogger()
		src := egress.NewRevocationSource(nil, nil, logger, false)
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{
			OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerECDSA, beforeRevocation)},
			CRLs:          [][]byte{fixtureCRL(t, srv.PKI, srv.Root, beforeRevocation)},
		}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 0)
		is.True(strings.Contains(logs.String(), "level=DEBUG"))
		is.True(!strings.Contains(logs.String(), "level=WARN"))
	})

	t.Run("trusted responder", func(t *testing.T) {
		// The root answers for a certificate of the intermediate: not the
		// issuer, not its delegate; a responder the lists trust.
		is := is.New(t)
		byRoot := fixtureOCSPBy(t, srv.PKI, srv.Root, srv.SignerRSA, beforeRevocation)
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{OCSPResponses: [][]byte{byRoot}}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 0) // unauthorised
		facts, err = src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{
			OCSPResponses:     [][]byte{byRoot},
			TrustedResponders: []*x509.Certificate{srv.TSA.Certificate, srv.Root.Certificate},
		}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 1)
		is.Equal(facts[0].Status, revocation.Good)
		is.True(facts[0].Signer.Equal(srv.Root.Certificate))
		is.True(facts[0].Delegated)
		is.True(facts[0].Embedded)
		// Trusting another responder does not make the root's answer
		// usable.
		facts, err = src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{
			OCSPResponses: [][]byte{byRoot}, TrustedResponders: []*x509.Certificate{srv.TSA.Certificate},
		}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 0)
	})

	t.Run("tampered ignored", func(t *testing.T) {
		is := is.New(t)
		logger, logs := newLogger()
		src := egress.NewRevocationSource(nil, nil, logger, false)
		tampered := bytes.Clone(goodOCSP)
		i := bytes.Index(tampered, parsed.Basic.Signature)
		is.True(i > 0)
		tampered[i+len(parsed.Basic.Signature)-1] ^= 1
		badCRL := bytes.Clone(interCRL)
		badCRL[len(badCRL)-1] ^= 1 // the signature ends the CRL
		facts, err := src.Revocation(t.Context(), signer, inter, ports.EmbeddedRevocation{
			OCSPResponses: [][]byte{tampered, []byte("not DER")},
			CRLs:          [][]byte{badCRL},
		}, afterRevocation)
		is.NoErr(err)
		is.Equal(len(facts), 0)
		is.True(strings.Contains(logs.String(), "level=WARN"))
	})
}

func TestRevocationOnlineOCSP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		at     time.Time
		status revocation.Status
	}{
		{"good before revocation", beforeRevocation, revocation.Good},
		{"revoked after revocation", afterRevocation, revocation.Revoked},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv := startPKI(t, tc.at)
			src := egress.NewRevocationSource(localClient(t), nil, nil, false)
			facts, err := src.Revocation(t.Context(), srv.Revoked.Certificate, srv.Intermediate.Certificate, ports.EmbeddedRevocation{}, tc.at)
			is.NoErr(err)
			is.Equal(len(facts), 1) // OCSP answered: no CRL
			f := facts[0]
			is.Equal(f.Source, revocation.OCSP)
			is.True(!f.Embedded)
			is.Equal(f.Status, tc.status)
			is.True(f.ThisUpdate.Equal(tc.at))
			is.True(f.Delegated)
			if tc.status == revocation.Revoked {
				is.True(f.RevokedAt.Equal(pki.RevocationTime))
				is.Equal(f.Reason, 1)
			}
		})
	}
}

func TestRevocationFallbackToCRL(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startPKI(t, afterRevocation)
	c := newCounter(t, srv.URL, "/ocsp")
	logger, logs := newLogger()
	src := egress.NewRevocationSource(localClient(t), nil, logger, false)
	cert := c.via(srv.Revoked.Certificate, srv.URL)
	facts, err := src.Revocation(t.Context(), cert, srv.Intermediate.Certificate, ports.EmbeddedRevocation{}, afterRevocation)
	is.NoErr(err)
	is.Equal(c.n("/ocsp"), 1)
	is.Equal(c.n("/crl/intermediate.crl"), 1)
	is.Equal(len(facts), 1)
	f := facts[0]
	is.Equal(f.Source, revocation.CRL)
	is.True(!f.Embedded)
	is.Equal(f.Status, revocation.Revoked)
	is.True(f.RevokedAt.Equal(pki.RevocationTime))
	out := logs.String()
	is.True(strings.Contains(out, "level=WARN"))
	is.True(strings.Contains(out, c.URL+"/ocsp"))
	is.True(strings.Contains(out, "HTTP 500"))
}

func TestRevocationOffline(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startPKI(t, beforeRevocation)
	c := newCounter(t, srv.URL)
	src := egress.NewRevocationSource(localClient(t), nil, nil, true)
	cert := c.via(srv.SignerRSA.Certificate, srv.URL)
	inter := srv.Intermediate.Certificate

	facts, err := src.Revocation(t.Context(), cert, inter, ports.EmbeddedRevocation{}, beforeRevocation)
	is.NoErr(err)
	is.Equal(len(facts), 0)

	facts, err = src.Revocation(t.Context(), cert, inter, ports.EmbeddedRevocation{
		OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerRSA, beforeRevocation)},
	}, beforeRevocation)
	is.NoErr(err)
	is.Equal(len(facts), 1)
	is.True(facts[0].Embedded)
	is.Equal(c.total(), 0)
}

func TestRevocationEmbeddedSkipsOnline(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startPKI(t, beforeRevocation)
	c := newCounter(t, srv.URL)
	src := egress.NewRevocationSource(localClient(t), nil, nil, false)
	cert := c.via(srv.SignerRSA.Certificate, srv.URL)
	facts, err := src.Revocation(t.Context(), cert, srv.Intermediate.Certificate, ports.EmbeddedRevocation{
		CRLs: [][]byte{fixtureCRL(t, srv.PKI, srv.Intermediate, beforeRevocation)},
	}, beforeRevocation)
	is.NoErr(err)
	is.Equal(len(facts), 1)
	is.True(facts[0].Embedded)
	is.Equal(c.total(), 0)
}

func TestRevocationCache(t *testing.T) {
	t.Parallel()
	srv := startPKI(t, beforeRevocation)
	inter := srv.Intermediate.Certificate
	cacheAt := func() time.Time { return beforeRevocation.Add(time.Minute) }

	t.Run("OCSP", func(t *testing.T) {
		is := is.New(t)
		c := newCounter(t, srv.URL)
		cache := egress.NewRevocationCache(cacheAt, egress.CacheOptions{})
		src := egress.NewRevocationSource(localClient(t), cache, nil, false)
		cert := c.via(srv.SignerRSA.Certificate, srv.URL)
		first, err := src.Revocation(t.Context(), cert, inter, ports.EmbeddedRevocation{}, beforeRevocation)
		is.NoErr(err)
		second, err := src.Revocation(t.Context(), cert, inter, ports.EmbeddedRevocation{}, beforeRevocation)
		is.NoErr(err)
		is.Equal(c.n("/ocsp"), 1)
		is.Equal(c.total(), 1)
		is.Equal(len(first), 1)
		is.Equal(first, second)
		is.Equal(second[0].Status, revocation.Good)
	})

	t.Run("CRL", func(t *testing.T) {
		is := is.New(t)
		c := newCounter(t, srv.URL, "/ocsp")
		cache := egress.NewRevocationCache(cacheAt, egress.CacheOptions{})
		src := egress.NewRevocationSource(localClient(t), cache, nil, false)
		cert := c.via(srv.SignerRSA.Certificate, srv.URL)
		for range 2 {
			facts, err := src.Revocation(t.Context(), cert, inter, ports.EmbeddedRevocation{}, beforeRevocation)
			is.NoErr(err)
			is.Equal(len(facts), 1)
			is.Equal(facts[0].Source, revocation.CRL)
			is.Equal(facts[0].Status, revocation.Good)
		}
		is.Equal(c.n("/ocsp"), 2) // failures are not cached
		is.Equal(c.n("/crl/intermediate.crl"), 1)
	})
}

func TestRevocationGuardRefusesLoopback(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv := startPKI(t, beforeRevocation)
	c := newCounter(t, srv.URL)
	guarded, err := egress.NewCertClient(egress.Options{}) // guard on
	is.NoErr(err)
	logger, logs := newLogger()
	src := egress.NewRevocationSource(guarded, nil, logger, false)
	cert := c.via(srv.SignerRSA.Certificate, srv.URL)
	facts, err := src.Revocation(t.Context(), cert, srv.Intermediate.Certificate, ports.EmbeddedRevocation{}, beforeRevocation)
	is.NoErr(err)
	is.Equal(len(facts), 0)
	is.Equal(c.total(), 0) // never connected
	out := logs.String()
	is.True(strings.Contains(out, "level=WARN"))
	is.True(strings.Contains(out, "url="+c.URL+"/ocsp"))
	is.True(strings.Contains(out, "url="+c.URL+"/crl/intermediate.crl"))
	is.True(strings.Contains(out, "blocked=true"))
}

func TestRevocationContext(t *testing.T) {
	t.Parallel()
	srv := startPKI(t, beforeRevocation)
	inter := srv.Intermediate.Certificate

	t.Run("cancelled before", func(t *testing.T) {
		is := is.New(t)
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		src := egress.NewRevocationSource(localClient(t), nil, nil, false)
		facts, err := src.Revocation(ctx, srv.SignerRSA.Certificate, inter, ports.EmbeddedRevocation{}, beforeRevocation)
		is.True(errors.Is(err, context.Canceled))
		is.Equal(len(facts), 0)
	})

	t.Run("cancelled during fetch", func(t *testing.T) {
		is := is.New(t)
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// The server notices a closed connection only once the
			// request body is read: read it, then let the client go.
			_, _ = io.Copy(io.Discard, r.Body)
			cancel()
			<-r.Context().Done()
		}))
		defer hang.Close()
		cert := *srv.SignerRSA.Certificate
		cert.OCSPServer = []string{hang.URL + "/ocsp"}
		src := egress.NewRevocationSource(localClient(t), nil, nil, false)
		facts, err := src.Revocation(ctx, &cert, inter, ports.EmbeddedRevocation{}, beforeRevocation)
		is.True(errors.Is(err, context.Canceled))
		is.Equal(len(facts), 0)
	})
}

func TestParseOCSPForms(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://pki.test")
	is.NoErr(err)
	full := fixtureOCSP(t, p, p.SignerRSA, beforeRevocation)
	r1, err := egress.ParseOCSP(full)
	is.NoErr(err)
	r2, err := egress.ParseOCSP(r1.Basic.Raw)
	is.NoErr(err)
	is.Equal(r2.Status, ocsp.Successful)
	is.Equal(r1.Basic.Raw, r2.Basic.Raw)
	is.Equal(r1.Raw, r2.Raw) // the fixture's wrapping is the canonical one
	_, err = egress.ParseOCSP([]byte{0x30, 0x00})
	is.True(errors.Is(err, ocsp.ErrMalformed))
}

// TestRevocationFetchWhenEmbeddedCannotServe checks the fetch decision:
// embedded facts that cannot serve at the validation time (GOOD but
// stale, UNKNOWN) do not stop the search, and are returned with the
// fetched ones; facts that serve (fresh GOOD, GOOD issued after the
// validation time, any REVOKED) do; offline nothing is fetched.
func TestRevocationFetchWhenEmbeddedCannotServe(t *testing.T) {
	t.Parallel()
	at := afterRevocation
	srv := startPKI(t, at)
	inter := srv.Intermediate.Certificate
	// unknownCert is the RSA signer under a serial number the fixture
	// responder does not know: it answers UNKNOWN, the CRL says nothing.
	unknownCert := *srv.SignerRSA.Certificate
	unknownCert.SerialNumber = big.NewInt(0x7fff)
	unknownOCSP := func(t *testing.T) []byte {
		t.Helper()
		req, err := ocsp.Request(&unknownCert, inter, crypto.SHA1)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := srv.PKI.OCSPResponse(req, at)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	type fact struct {
		embedded bool
		status   revocation.Status
	}
	for _, tc := range []struct {
		name     string
		cert     *x509.Certificate
		embedded func(t *testing.T) ports.EmbeddedRevocation
		offline  bool
		fail     []string // paths the servers answer 500
		requests int      // requests to the OCSP responder and CRL DPs
		want     []fact
	}{
		{
			name: "stale GOOD OCSP",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerRSA, at.Add(-13*time.Hour))}}
			},
			requests: 1,
			want:     []fact{{true, revocation.Good}, {false, revocation.Good}},
		},
		{
			name: "stale GOOD CRL",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{CRLs: [][]byte{fixtureCRL(t, srv.PKI, srv.Intermediate, at.Add(-25*time.Hour))}}
			},
			requests: 1,
			want:     []fact{{true, revocation.Good}, {false, revocation.Good}},
		},
		{
			// GOOD after the validation time is GOOD then (decision 0035).
			name: "OCSP and CRL issued after the validation time",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{
					OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerRSA, at.Add(time.Hour))},
					CRLs:          [][]byte{fixtureCRL(t, srv.PKI, srv.Intermediate, at.Add(time.Hour))},
				}
			},
			requests: 0,
			want:     []fact{{true, revocation.Good}, {true, revocation.Good}},
		},
		{
			name: "UNKNOWN OCSP",
			cert: &unknownCert,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{OCSPResponses: [][]byte{unknownOCSP(t)}}
			},
			requests: 2, // OCSP says UNKNOWN again: the CRL is asked too
			want:     []fact{{true, revocation.Unknown}, {false, revocation.Unknown}, {false, revocation.Good}},
		},
		{
			name: "revoked signer, GOOD data older than the revocation",
			cert: srv.Revoked.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.Revoked, beforeRevocation)}}
			},
			requests: 1,
			want:     []fact{{true, revocation.Good}, {false, revocation.Revoked}},
		},
		{
			name: "about other certificates only",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{
					OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerECDSA, at)},
					CRLs:          [][]byte{fixtureCRL(t, srv.PKI, srv.Root, at)},
				}
			},
			requests: 1,
			want:     []fact{{false, revocation.Good}},
		},
		{
			name: "stale, online unreachable",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerRSA, beforeRevocation)}}
			},
			fail:     []string{"/ocsp", "/crl/intermediate.crl"},
			requests: 2,
			want:     []fact{{true, revocation.Good}},
		},
		{
			name: "fresh GOOD serves",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerRSA, at.Add(-11*time.Hour))}}
			},
			want: []fact{{true, revocation.Good}},
		},
		{
			name: "stale REVOKED serves",
			cert: srv.Revoked.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{CRLs: [][]byte{fixtureCRL(t, srv.PKI, srv.Intermediate, pki.RevocationTime.Add(time.Hour))}}
			},
			want: []fact{{true, revocation.Revoked}},
		},
		{
			name: "stale, offline",
			cert: srv.SignerRSA.Certificate,
			embedded: func(t *testing.T) ports.EmbeddedRevocation {
				return ports.EmbeddedRevocation{OCSPResponses: [][]byte{fixtureOCSP(t, srv.PKI, srv.SignerRSA, beforeRevocation)}}
			},
			offline: true,
			want:    []fact{{true, revocation.Good}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			c := newCounter(t, srv.URL, tc.fail...)
			src := egress.NewRevocationSource(localClient(t), nil, nil, tc.offline)
			facts, err := src.Revocation(t.Context(), c.via(tc.cert, srv.URL), inter, tc.embedded(t), at)
			is.NoErr(err)
			is.Equal(c.total(), tc.requests) // requests made
			var got []fact
			for _, f := range facts {
				got = append(got, fact{f.Embedded, f.Status})
				if !f.Embedded {
					is.True(f.ThisUpdate.Equal(at)) // fetched at the server's time
				}
			}
			is.Equal(got, tc.want) // embedded facts first, then fetched
		})
	}
}

func TestRevocationNeedsValidationTime(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	p, err := pki.New("http://pki.test")
	is.NoErr(err)
	src := egress.NewRevocationSource(nil, nil, nil, true)
	_, err = src.Revocation(t.Context(), p.SignerRSA.Certificate, p.Intermediate.Certificate, ports.EmbeddedRevocation{}, time.Time{})
	is.True(err != nil)
}
