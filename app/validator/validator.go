package validator

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/adapters/privateca"
	"github.com/svc-dss/dss/adapters/session"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/control"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// Validator is the validation service's application.
type Validator struct {
	cfg        config.Validator
	db         *sqlx.DB
	logger     *slog.Logger
	clock      func() time.Time
	trust      *TrustStore
	scheduler  gocron.Scheduler
	validation validation
	// auth is nil under permit-all.
	auth *authenticator
	// sessions and login serve the browser UI (ui.go, login.go).
	sessions ports.SessionStore
	login    login
}

// An Option changes how New wires the service.
type Option func(*options)

type options struct {
	lookupEnv func(string) (string, bool)
	readers   []ports.DocumentReader // WithReaders
	formats   *formats.Registry
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

// WithLookupEnv reads the environment variables that client secret
// references name ("env:NAME", docs/decisions/0024) with lookup instead
// of os.LookupEnv: the server passes the environment it was started with.
func WithLookupEnv(lookup func(string) (string, bool)) Option {
	return func(o *options) { o.lookupEnv = lookup }
}

// New wires the service for cfg. It logs the warnings the spec
// asks for at start-up (permit-all, development mode, missing trust-list
// authentication assets) and never fails for trust configuration: a
// missing keystore is a warning and a banner, not a refusal (§1).
func New(cfg config.Validator, logger *slog.Logger, clock func() time.Time, opts ...Option) (*Validator, error) {
	o := options{lookupEnv: os.LookupEnv, formats: formats.Default()}
	for _, opt := range opts {
		opt(&o)
	}
	if cfg.Session.MaxSessions < 1 || cfg.Session.IdleTimeout <= 0 || cfg.Session.AbsoluteTimeout < cfg.Session.IdleTimeout {
		return nil, fmt.Errorf("app: svc.dss.validator.session.*: want at least one session and 0 < idle-timeout <= absolute-timeout, got %d, %s, %s",
			cfg.Session.MaxSessions, cfg.Session.IdleTimeout, cfg.Session.AbsoluteTimeout)
	}
	if cfg.Dev {
		logger.Warn("DEVELOPMENT MODE (--dev): permit-all, no control database; never run this in production")
	}
	if cfg.PermitAll {
		logger.Warn("svc.dss.validator.security.permit-all is true: tenant authentication and licensing are bypassed, on the API and in the browser UI (no login, the development tenant); development only")
	}
	db, err := control.Open(cfg.ControlDB)
	if err != nil {
		return nil, fmt.Errorf("app: control database: %w", err)
	}
	var auth *authenticator
	if !cfg.PermitAll && db != nil {
		auth = newAuthenticator(db, clock)
	}
	ts, err := newTrustStore(cfg, logger, clock)
	if err != nil {
		return nil, err
	}
	val, err := newValidation(cfg, logger, clock, o.formats)
	if err != nil {
		return nil, err
	}
	if o.readers != nil {
		val.readers = o.readers
	}
	return &Validator{cfg: cfg, db: db, logger: logger, clock: clock, trust: ts, validation: val, auth: auth,
		sessions: session.New(cfg.Session.MaxSessions, clock),
		login:    newLogin(oidc.NewRelyingParties(clock), o.lookupEnv),
	}, nil
}

// newValidation wires the readers of the formats of reg and the
// certificate-driven egress: revocation data and AIA issuers through the
// guarded client (validation-service.md, "Egress control").
func newValidation(cfg config.Validator, logger *slog.Logger, clock func() time.Time, reg *formats.Registry) (validation, error) {
	client, err := egress.NewCertClient(egress.Options{
		ProxyHost: cfg.Egress.ProxyHost, ProxyPort: cfg.Egress.ProxyPort,
		AllowPrivateNetworksUnsafe: !cfg.Egress.DenyPrivateNetworks,
		AllowedHosts:               cfg.Egress.AllowedHosts,
	})
	if err != nil {
		return validation{}, fmt.Errorf("app: %w", err)
	}
	if !cfg.Egress.DenyPrivateNetworks {
		logger.Warn("svc.dss.validator.egress.deny-private-networks is false: certificate-driven fetches may reach private and loopback addresses")
	}
	cache := egress.NewRevocationCache(clock, egress.CacheOptions{})
	return validation{
		anchors:    &anchorCache{},
		formats:    reg,
		readers:    reg.Readers(),
		revocation: egress.NewRevocationSource(client, cache, logger, cfg.Offline),
		issuers:    egress.NewIssuerSource(client, logger, cfg.Offline),
	}, nil
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

// Start loads the trusted lists from the cache, then schedules the daily
// refresh and, when the cached lists are behind, one catch-up refresh
// after the configured delay. It returns once the cache is loaded.
func (v *Validator) Start(ctx context.Context) error {
	v.trust.LoadCache(ctx)
	s, err := gocron.NewScheduler(gocron.WithLocation(time.UTC))
	if err != nil {
		return fmt.Errorf("app: scheduler: %w", err)
	}
	refresh := gocron.NewTask(func(ctx context.Context) { v.trust.Refresh(ctx) })
	// Reschedule: a refresh still running when the next is due is not
	// doubled; the next one waits for its own time.
	daily, err := s.NewJob(gocron.CronJob(v.cfg.RefreshCron, true), refresh, gocron.WithSingletonMode(gocron.LimitModeReschedule), gocron.WithName("trusted-list refresh"))
	if err != nil {
		return fmt.Errorf("app: schedule %q: %w", v.cfg.RefreshCron, err)
	}
	if v.cfg.Trust.StartupCatchUp && v.behind(v.clock()) {
		at := v.clock().Add(v.cfg.Trust.StartupCatchUpDelay)
		start := gocron.OneTimeJobStartDateTime(at)
		if v.cfg.Trust.StartupCatchUpDelay <= 0 {
			start = gocron.OneTimeJobStartImmediately()
		}
		if _, err := s.NewJob(gocron.OneTimeJob(start), refresh, gocron.WithSingletonMode(gocron.LimitModeReschedule), gocron.WithName("trusted-list catch-up")); err != nil {
			return fmt.Errorf("app: schedule catch-up: %w", err)
		}
		v.logger.Info("trusted lists behind: catch-up refresh scheduled", slog.Time("at", at))
	}
	s.Start()
	v.scheduler = s
	if next, err := daily.NextRun(); err == nil {
		v.logger.Info("trusted-list refresh scheduled", slog.String("cron", v.cfg.RefreshCron), slog.Time("next", next))
	}
	return nil
}

// behind reports whether some list was never confirmed online, or not
// within startup-catch-up-after.
func (v *Validator) behind(now time.Time) bool {
	for _, l := range v.trust.Snapshot().Lists {
		if l.LastOnlineConfirmation.IsZero() || now.Sub(l.LastOnlineConfirmation) >= v.cfg.Trust.StartupCatchUpAfter {
			return true
		}
	}
	return false
}

// Config returns the configuration the service was built with.
func (v *Validator) Config() config.Validator { return v.cfg }

// Trust returns the trust store.
func (v *Validator) Trust() *TrustStore { return v.trust }

// Thresholds are the freshness thresholds of the configuration.
func (v *Validator) Thresholds() freshness.Thresholds {
	return freshness.Thresholds{WarnAfter: v.cfg.Trust.WarnAfter, FailAfter: v.cfg.Trust.FailAfter, FailureThreshold: v.cfg.Trust.FailureThreshold,
		WithdrawalWindow: v.cfg.Trust.WithdrawalWindow}
}

// TrustStatus evaluates the current snapshot at now.
func (v *Validator) TrustStatus(now time.Time) verdict.TrustData {
	return verdict.NewTrustData(v.trust.Snapshot(), now, v.Thresholds())
}

// Health reports the roll-up for the probe. The control database, when
// configured, must answer; an empty trust store fails it only with
// health-down-when-never-loaded (§3). Staleness never does.
func (v *Validator) Health(ctx context.Context) control.Health {
	if v.cfg.Trust.HealthDownWhenNeverLoaded && !v.anyAnchors() {
		return control.Down
	}
	return control.Probe(ctx, v.db, v.logger)
}

func (v *Validator) anyAnchors() bool {
	snap := v.trust.Snapshot()
	for _, l := range snap.Lists {
		if l.Anchors() > 0 {
			return true
		}
	}
	return false
}

// Close stops the scheduler and releases the service's resources.
func (v *Validator) Close() error {
	if v.scheduler != nil {
		_ = v.scheduler.Shutdown()
	}
	if v.db != nil {
		return v.db.Close()
	}
	return nil
}
