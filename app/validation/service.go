package validation

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/privateca"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// Service validates documents: the readers of the formats it reads, the
// trust store whose snapshot each validation reads, and the
// certificate-driven egress (revocation data, AIA issuers). It knows no
// tenant, session nor schedule: the validation service
// (app/validator) authenticates the caller and refreshes the trust store
// on its schedule. Safe for concurrent use.
type Service struct {
	logger     *slog.Logger
	clock      func() time.Time
	trust      *TrustStore
	thresholds freshness.Thresholds
	anchors    *anchorCache
	// formats are the formats the service reads; readers their readers,
	// each behind its format's detector, tried in order.
	formats    *formats.Registry
	readers    []ports.DocumentReader
	revocation ports.RevocationSource
	issuers    ports.CertificateSource
	// algorithms are the cryptographic constraints every validation
	// applies, built once.
	algorithms algorithm.Catalogue
}

// An Option changes how New wires validation.
type Option func(*options)

type options struct {
	readers []ports.DocumentReader // WithReaders
	formats *formats.Registry
}

// WithFormats reads the formats of reg instead of those of
// formats.Default: for tests that register a format of their own. The
// error for an upload of no format reg reads names reg's formats.
func WithFormats(reg *formats.Registry) Option {
	if reg == nil {
		panic("app: WithFormats: nil registry")
	}
	return func(o *options) { o.formats = reg }
}

// WithReaders replaces the document readers (CAdES, then PAdES) with
// readers, tried in this order: for tests that need a reader of their
// own, one that fails or panics.
func WithReaders(readers ...ports.DocumentReader) Option {
	return func(o *options) { o.readers = readers }
}

// New wires validation for cfg: its trust store (empty until LoadCache or
// Refresh runs; nothing schedules them here), the readers of the formats
// of formats.Default, and the certificate-driven egress through the
// guarded client (validation-service.md, "Egress control"). It logs the
// start-up warnings of trust and egress configuration and never fails
// for trust configuration: a missing keystore is a warning and a banner,
// not a refusal (§1).
func New(cfg config.Validator, logger *slog.Logger, clock func() time.Time, opts ...Option) (*Service, error) {
	o := options{formats: formats.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	ts, err := newTrustStore(cfg, logger, clock)
	if err != nil {
		return nil, err
	}
	client, err := egress.NewCertClient(egress.Options{
		ProxyHost: cfg.Egress.ProxyHost, ProxyPort: cfg.Egress.ProxyPort,
		AllowPrivateNetworksUnsafe: !cfg.Egress.DenyPrivateNetworks,
		AllowedHosts:               cfg.Egress.AllowedHosts,
	})
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	if !cfg.Egress.DenyPrivateNetworks {
		logger.Warn("svc.dss.validator.egress.deny-private-networks is false: certificate-driven fetches may reach private and loopback addresses")
	}
	cache := egress.NewRevocationCache(clock, egress.CacheOptions{})
	s := &Service{
		logger: logger,
		clock:  clock,
		trust:  ts,
		thresholds: freshness.Thresholds{WarnAfter: cfg.Trust.WarnAfter, FailAfter: cfg.Trust.FailAfter, FailureThreshold: cfg.Trust.FailureThreshold,
			WithdrawalWindow: cfg.Trust.WithdrawalWindow},
		anchors:    &anchorCache{},
		algorithms: algorithm.Default(),
		formats:    o.formats,
		readers:    o.formats.Readers(),
		revocation: egress.NewRevocationSource(client, cache, logger, cfg.Offline),
		issuers:    egress.NewIssuerSource(client, logger, cfg.Offline),
	}
	if o.readers != nil {
		s.readers = o.readers
	}
	return s, nil
}

func newTrustStore(cfg config.Validator, logger *slog.Logger, clock func() time.Time) (*TrustStore, error) {
	src := TrustSources{LOTLURL: cfg.EU.LOTLURL, OJSource: cfg.EU.OJKeystore.Path}
	if certs, err := keystore.ReadTrustStore(cfg.EU.OJKeystore.Path, cfg.EU.OJKeystoreType, cfg.EU.OJKeystorePassword); err != nil {
		logger.Warn("EU LOTL signer keystore unusable: the LOTL and every member-state list are held unauthenticated until it is supplied",
			slog.String("key", "svc.dss.validator.eu.oj-keystore"), slog.String("file", cfg.EU.OJKeystore.Path), slog.String("error", err.Error()))
	} else {
		src.OJCerts = certs
	}
	if cfg.Swiss.Enabled {
		src.SwissURL, src.SwissSource = cfg.Swiss.TLURL, cfg.Swiss.TLSignerCert.Path
		if certs, err := keystore.ReadCertificateFile(cfg.Swiss.TLSignerCert.Path); err != nil {
			logger.Warn("Swiss trusted-list signer certificate unusable: the Swiss list is held unauthenticated until it is supplied",
				slog.String("key", "svc.dss.validator.swiss.ch-tl-signer-cert"), slog.String("file", cfg.Swiss.TLSignerCert.Path), slog.String("error", err.Error()))
		} else {
			src.SwissCerts = certs
		}
	}
	cache, err := tlcache.Open(cfg.TLCacheDir, logger)
	if err != nil {
		return nil, fmt.Errorf("app: trusted-list cache: %w", err)
	}
	client, err := egress.NewClient(egress.Options{ProxyHost: cfg.Egress.ProxyHost, ProxyPort: cfg.Egress.ProxyPort})
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	return NewTrustStore(src, cache, egress.NewListSource(client), loadPrivateCA(cfg, logger), clock, logger), nil
}

func loadPrivateCA(cfg config.Validator, logger *slog.Logger) trust.PrivateCA {
	p := trust.PrivateCA{Enabled: cfg.PrivateCA.Enabled, Directory: cfg.PrivateCA.Directory.Path}
	if !p.Enabled {
		return p
	}
	anchors, skipped, err := privateca.Load(context.Background(), p.Directory, logger)
	if err != nil {
		p.Problem = "the directory cannot be read"
		logger.Warn("private CA anchors enabled but the directory cannot be read", slog.String("directory", p.Directory), slog.String("error", err.Error()))
		return p
	}
	p.Anchors, p.Skipped = anchors, skipped
	if len(anchors) == 0 {
		logger.Warn("private CA anchors enabled but none was loaded", slog.String("directory", p.Directory))
	} else {
		logger.Info("private CA anchors loaded", slog.Int("count", len(anchors)), slog.String("directory", p.Directory))
	}
	return p
}

// Trust returns the trust store: a caller loads its cache and refreshes
// it (app/validator does, on its schedule).
func (v *Service) Trust() *TrustStore { return v.trust }

// Thresholds are the freshness thresholds of the configuration.
func (v *Service) Thresholds() freshness.Thresholds { return v.thresholds }

// Formats names the formats the service reads, in the order they are
// tried ("CAdES, PAdES"): from its registry, for the pages that say what
// may be uploaded.
func (v *Service) Formats() string { return v.formats.List() }

// TrustStatus evaluates the current snapshot at now.
func (v *Service) TrustStatus(now time.Time) verdict.TrustData {
	return verdict.NewTrustData(v.trust.Snapshot(), now, v.thresholds)
}
