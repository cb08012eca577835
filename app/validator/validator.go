package validator

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/svc-dss/dss/adapters/catalog"
	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/metrics"
	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/adapters/redisconn"
	"github.com/svc-dss/dss/adapters/session"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/control"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator/configured"
	"github.com/svc-dss/dss/ports"
)

// Validator is the validation service's application.
type Validator struct {
	cfg        config.Validator
	db         *sqlx.DB
	logger     *slog.Logger
	clock      func() time.Time
	scheduler  gocron.Scheduler
	validation *validation.Validator
	// policies are the validation policies requests and tenants name.
	policies configured.Policies
	// auth is nil under permit-all.
	auth *authenticator
	// sessions and login serve the browser UI (ui.go, login.go).
	sessions ports.SessionStore
	login    login
	// redis holds the sessions when the replicas share them; nil keeps
	// them in the process.
	redis *redis.Client
	// metrics are served on GET /actuator/prometheus (metrics.go).
	metrics *metrics.Validator
	// jitter draws the wait before a refresh (WithJitter).
	jitter func(max time.Duration) time.Duration
	// seal signs the PDF reports and tokens; nil when none is configured.
	seal ports.ReportSeal
	// catalog words the verdicts and pages in the languages it speaks.
	catalog *catalog.Catalog
}

// An Option changes how New wires the service.
type Option func(*options)

type options struct {
	lookupEnv  func(string) (string, bool)
	jitter     func(max time.Duration) time.Duration
	validation []validation.Option
	policies   *configured.Policies
}

// WithPolicies validates under ps instead of the policies the
// configuration names (LoadPolicies): the command loads them first, to
// stop on an unusable file before anything starts.
func WithPolicies(ps configured.Policies) Option {
	return func(o *options) { o.policies = &ps }
}

// WithJitter draws the random wait before each refresh with jitter,
// which must return a duration from 0 up to, not including, max (max is
// svc.dss.validator.refresh-jitter, never zero): for tests that pin it.
// The default draws uniformly with math/rand/v2.
func WithJitter(jitter func(max time.Duration) time.Duration) Option {
	return func(o *options) { o.jitter = jitter }
}

// WithFormats reads the formats of reg instead of those of
// formats.Default (validation.WithRegistry): for tests that register a
// format of their own.
func WithFormats(reg *formats.Registry) Option {
	opt := validation.WithRegistry(reg)
	return func(o *options) { o.validation = append(o.validation, opt) }
}

// WithReaders replaces the document readers with readers
// (validation.WithReaders): for tests that need a reader of their own,
// one that fails or panics.
func WithReaders(readers ...ports.DocumentReader) Option {
	opt := validation.WithReaders(readers...)
	return func(o *options) { o.validation = append(o.validation, opt) }
}

// WithLookupEnv reads the environment variables that client secret
// references name ("env:NAME", docs/decisions/0024) with lookup instead
// of os.LookupEnv: the server passes the environment it was started with.
func WithLookupEnv(lookup func(string) (string, bool)) Option {
	return func(o *options) { o.lookupEnv = lookup }
}

// New wires the service for cfg around the validation front door
// (validation.New with ValidationOptions), which loads the trusted lists
// from the cache. It logs the warnings the spec asks for at start-up
// (permit-all, development mode, missing trust-list authentication
// assets) and never fails for trust configuration: a missing keystore is
// a warning and a banner, not a refusal (§1).
func New(ctx context.Context, cfg config.Validator, logger *slog.Logger, clock func() time.Time, opts ...Option) (*Validator, error) {
	o := options{lookupEnv: os.LookupEnv, jitter: rand.N[time.Duration]}
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
	if !cfg.PermitAll && cfg.Metrics.Token == "" {
		logger.Info("no metrics token is configured (svc.dss.validator.metrics.token): GET /actuator/prometheus refuses every scrape")
	}
	// The seal first: a key that cannot be read is the operator's to fix
	// before anything starts.
	rs, err := openSeal(ctx, cfg, clock)
	if err != nil {
		return nil, err
	}
	db, err := control.Open(cfg.ControlDB)
	if err != nil {
		return nil, fmt.Errorf("app: control database: %w", err)
	}
	var auth *authenticator
	if !cfg.PermitAll && db != nil {
		auth = newAuthenticator(db, clock)
	}
	vopts, err := configured.ValidationOptions(cfg, logger, clock)
	if err != nil {
		return nil, err
	}
	var ps configured.Policies
	if o.policies != nil {
		ps = *o.policies
	} else if ps, err = configured.LoadPolicies(cfg); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	vopts = append(vopts, validation.WithPolicy(ps.Default))
	cat, err := catalog.New()
	if err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	v := &Validator{cfg: cfg, db: db, logger: logger, clock: clock, auth: auth, catalog: cat,
		login:    newLogin(oidc.NewRelyingParties(clock), o.lookupEnv, cfg.Session.LoginKey),
		seal:     rs,
		jitter:   o.jitter,
		policies: ps,
	}
	if v.sessions, err = v.sessionStore(); err != nil {
		return nil, errors.Join(err, v.Close())
	}
	v.logSeal()
	// The list gauges read v.validation at each scrape, once it is set.
	v.metrics = metrics.NewValidator(v.listMetrics)
	vopts = append(vopts, validation.WithObserver(observer{v.metrics}))
	if v.validation, err = validation.New(ctx, append(vopts, o.validation...)...); err != nil {
		return nil, fmt.Errorf("app: %w", err)
	}
	return v, nil
}

// sessionStore is where the browser UI's sessions are kept: in Redis,
// shared by the replicas, when svc.dss.redis.url is set
// (docs/decisions/0040); else in the process, which is right for one
// instance only.
func (v *Validator) sessionStore() (ports.SessionStore, error) {
	r := v.cfg.Redis
	if r.URL == "" {
		return session.New(v.cfg.Session.MaxSessions, v.clock), nil
	}
	c, err := redisconn.Open(redisconn.Options{URL: r.URL, Password: r.Password, CAFile: r.CAFile.Path})
	if err != nil {
		return nil, fmt.Errorf("app: svc.dss.redis: %w", err)
	}
	redisconn.LogTo(v.logger)
	v.redis = c
	v.logger.Info("browser UI sessions are kept in Redis, shared by the replicas", slog.String("redis", redisconn.Redacted(r.URL)))
	if v.cfg.Session.LoginKey == "" && !v.cfg.PermitAll {
		v.logger.Warn("no login key is configured (svc.dss.validator.session.login-key): a sign-in completes only on the replica that started it; set the same key on every replica, or make the balancer's sessions sticky")
	}
	return session.NewRedis(c, r.KeyPrefix+"validator:", 0, v.clock), nil
}

// Start schedules the daily refresh of the trusted lists (New loaded
// them from the cache) and, when the cached lists are behind, one
// catch-up refresh after the configured delay.
//
// Each refresh first waits a random time below
// svc.dss.validator.refresh-jitter: replicas run the same cron
// expression, and without it they would all fetch the lists from their
// publishers in the same second (docs/decisions/0040). Each replica keeps
// its own cache and trust store, so for that while their trust-status
// may differ.
func (v *Validator) Start(ctx context.Context) error {
	s, err := gocron.NewScheduler(gocron.WithLocation(time.UTC))
	if err != nil {
		return fmt.Errorf("app: scheduler: %w", err)
	}
	refresh := gocron.NewTask(v.refreshAfterJitter)
	// Reschedule: a refresh still running when the next is due is not
	// doubled; the next one waits for its own time.
	job, err := s.NewJob(gocron.CronJob(v.cfg.RefreshCron, true), refresh, gocron.WithSingletonMode(gocron.LimitModeReschedule), gocron.WithName("trusted-list refresh"))
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
	if next, err := job.NextRun(); err == nil {
		v.logger.Info("trusted-list refresh scheduled", slog.String("cron", v.cfg.RefreshCron), slog.Time("next", next),
			slog.Duration("jitter_max", v.cfg.RefreshJitter))
	}
	return nil
}

// refreshAfterJitter waits a random time below
// svc.dss.validator.refresh-jitter, then refreshes the lists. The wait
// is inside the task, since gocron runs a cron job on the expression's
// second, without a jitter of its own; the job's context ends it when
// the scheduler shuts down.
func (v *Validator) refreshAfterJitter(ctx context.Context) {
	if v.cfg.RefreshJitter > 0 {
		wait := v.jitter(v.cfg.RefreshJitter)
		v.logger.InfoContext(ctx, "trusted-list refresh due: waiting this replica's jitter", slog.Duration("wait", wait))
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
	v.validation.Refresh(ctx)
}

// behind reports whether some list was never confirmed online, or not
// within startup-catch-up-after.
func (v *Validator) behind(now time.Time) bool {
	for _, l := range v.validation.Snapshot().Lists {
		if l.LastOnlineConfirmation.IsZero() || now.Sub(l.LastOnlineConfirmation) >= v.cfg.Trust.StartupCatchUpAfter {
			return true
		}
	}
	return false
}

// Config returns the configuration the service was built with.
func (v *Validator) Config() config.Validator { return v.cfg }

// Validation returns the validation front door the service validates
// through: the API, the browser UI and the commands call it once
// Authorize let the caller in.
func (v *Validator) Validation() *validation.Validator { return v.validation }

// Catalog is the message catalogue the API and the pages speak from.
func (v *Validator) Catalog() *catalog.Catalog { return v.catalog }

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
	snap := v.validation.Snapshot()
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
	var errs []error
	if v.db != nil {
		errs = append(errs, v.db.Close())
	}
	if v.redis != nil {
		errs = append(errs, v.redis.Close())
	}
	return errors.Join(errs...)
}
