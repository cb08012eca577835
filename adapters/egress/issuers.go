package egress

import (
	"bytes"
	"context"
	"crypto/x509"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/svc-dss/dss/ports"
)

// Bounds of the CA issuers cache of an IssuerSource. Issuing CAs are few
// and their certificates change rarely; the cache spares the CA a request
// per validation.
const (
	MaxCachedIssuerURLs = 256
	IssuerCacheTTL      = time.Hour
)

// IssuerSource is the ports.CertificateSource of the service: it fetches
// the CA issuers (AIA) URLs of a certificate through the guarded client of
// NewCertClient and returns the certificates found there whose subject is
// the certificate's issuer name, byte for byte. What a URL served is cached
// for IssuerCacheTTL, at most MaxCachedIssuerURLs URLs, least recently
// used first out; failures are not cached. It is safe for concurrent use.
type IssuerSource struct {
	client  *http.Client
	logger  *slog.Logger
	offline bool
	now     func() time.Time

	mu    sync.Mutex
	cache *lru[string, []*x509.Certificate]
}

var _ ports.CertificateSource = (*IssuerSource)(nil)

// NewIssuerSource returns an IssuerSource fetching with client, which must
// be NewCertClient's. Offline, or with a nil client, it finds nothing. A
// nil logger logs nothing.
func NewIssuerSource(client *http.Client, logger *slog.Logger, offline bool) *IssuerSource {
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &IssuerSource{
		client:  client,
		logger:  logger,
		offline: offline || client == nil,
		now:     time.Now,
		cache:   newLRU[string, []*x509.Certificate](MaxCachedIssuerURLs),
	}
}

// Issuers returns the candidate issuers of cert found at its CA issuers
// URLs, in URL order, without duplicates. Failed or refused fetches are
// logged at WARN and skipped; the only error is the context's.
func (s *IssuerSource) Issuers(ctx context.Context, cert *x509.Certificate) ([]*x509.Certificate, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("egress: issuers: %w", err)
	}
	if s.offline || cert == nil {
		return nil, nil
	}
	var out []*x509.Certificate
	for _, u := range cert.IssuingCertificateURL {
		certs, err := s.fetch(ctx, u)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("egress: issuers: %w", ctxErr)
		}
		if err != nil {
			s.logger.LogAttrs(ctx, slog.LevelWarn, "CA issuers fetch failed",
				slog.String("url", redact(u)),
				slog.String("reason", err.Error()),
				slog.Bool("blocked", IsBlocked(err)),
				blockReason(err),
				slog.String("subject", cert.Subject.String()))
			continue
		}
	next:
		for _, c := range certs {
			if !bytes.Equal(c.RawSubject, cert.RawIssuer) {
				continue
			}
			for _, o := range out {
				if bytes.Equal(o.Raw, c.Raw) {
					continue next
				}
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// fetch returns what u serves, from the cache when it can.
func (s *IssuerSource) fetch(ctx context.Context, u string) ([]*x509.Certificate, error) {
	s.mu.Lock()
	certs, ok := s.cache.get(u, s.now())
	s.mu.Unlock()
	if ok {
		return certs, nil
	}
	certs, err := FetchCAIssuers(ctx, s.client, u)
	if err != nil {
		return nil, err
	}
	now := s.now()
	s.mu.Lock()
	s.cache.put(u, certs, now.Add(IssuerCacheTTL), 1)
	s.mu.Unlock()
	return certs, nil
}
