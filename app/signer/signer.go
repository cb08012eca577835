package signer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/redis/go-redis/v9"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/adapters/metrics"
	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/adapters/redisconn"
	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/control"
	"github.com/svc-dss/dss/ports"
)

// ErrNoControlDatabase is returned by signing when no control database is
// configured: the caller's key, licence, permission and partition all live
// there (signing-server.md §4 rule 2: 503).
var ErrNoControlDatabase = errors.New("signing is unavailable: no control database is configured (svc.dss.control-db.url)")

// The outcomes of Authenticate a server turns into statuses
// (signing-server.md §5 rule 4): 401 and 502.
var (
	// ErrUnauthenticated: no usable bearer token on a non-public path
	// other than /sign-ska.
	ErrUnauthenticated = errors.New("app: not authenticated")
	// ErrAuthUnavailable: the JWT key source did not answer.
	ErrAuthUnavailable = errors.New("app: control database or identity provider unavailable")
)

// Signer is the signing server's application.
type Signer struct {
	cfg    config.Signer
	db     *sqlx.DB
	logger *slog.Logger
	clock  func() time.Time
	// flow is nil without a control database: signing answers 503.
	flow *signFlow
	// resource verifies the bearer tokens of the other non-public paths;
	// nil without a configured key source (they are then denied).
	resource ports.BearerVerifier
	// metrics are served on GET /actuator/prometheus; observer is the
	// same, as the port the flow reports through (observe.go).
	metrics  *metrics.Signer
	observer ports.SignObserver
	// redis holds the used token IDs when the replicas share them;
	// nil keeps them in the process.
	redis *redis.Client
}

// An Option changes how New wires the server.
type Option func(*options)

type options struct {
	hsm     ports.HSM
	control SignControl
}

// WithHSM signs on h instead of the PKCS#11 adapter: for tests that need
// an HSM that misbehaves (a slow one, to prove the signing timeout).
func WithHSM(h ports.HSM) Option {
	return func(o *options) { o.hsm = h }
}

// SignControl is what signing reads from the control database: the
// caller's registered key, the dss licence, the dss.sign permission and
// the tenant's HSM partition.
type SignControl interface {
	ports.ClientKeys
	ports.Licenses
	ports.Permissions
	ports.Partitions
}

// WithControl signs with the control data c instead of the control
// database: for tests of the signing use case, which then need no
// database (adapters/memcontrol). Signing is then available whether or
// not svc.dss.control-db.url is set; the health probe still reports on
// the database alone. c must be safe for concurrent use.
func WithControl(c SignControl) Option {
	return func(o *options) { o.control = c }
}

// New wires the server for cfg and logs the start-up warnings of
// signing-server.md §5.
func New(cfg config.Signer, logger *slog.Logger, opts ...Option) (*Signer, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if cfg.PermitAll {
		logger.Warn("svc.dss.security.permit-all is true: the resource-server filter is off; /api/server-signing/sign-ska still verifies its own JWT; development only")
	} else if !cfg.JWT.Configured() {
		logger.Warn("no JWT key source is configured (fw.security.oauth2.resourceserver.jwt.*) and permit-all is false: every non-public path other than /api/server-signing/sign-ska is denied")
	}
	if cfg.ControlDB.URL == "" && o.control == nil {
		logger.Warn("no control database is configured (svc.dss.control-db.url): /api/server-signing/sign-ska answers 503")
	}
	resource, err := newResourceServer(cfg.JWT)
	if err != nil {
		return nil, err
	}
	if !cfg.PermitAll && cfg.Metrics.Token == "" {
		logger.Info("no metrics token is configured (svc.dss.signer.metrics.token): GET /actuator/prometheus refuses every scrape")
	}
	// The HSM adapter is made before the metrics, which read its
	// sessions; a test's HSM (WithHSM) has none to report.
	h, sessions := o.hsm, func() []metrics.Sessions { return nil }
	if h == nil {
		p11 := hsm.New(hsm.Options{Timeout: cfg.SigningTimeout, AuthorizationKey: authorizationKey})
		h, sessions = p11, sessionsOf(p11)
	}
	m := metrics.NewSigner(sessions)
	db, err := control.OpenTimed(cfg.ControlDB, func(took time.Duration, err error) { m.ControlQuery(took, err != nil) })
	if err != nil {
		return nil, fmt.Errorf("app: control database: %w", err)
	}
	sg := &Signer{cfg: cfg, db: db, logger: logger, clock: time.Now, resource: resource, metrics: m, observer: m}
	used, err := sg.replayStore()
	if err != nil {
		return nil, errors.Join(err, sg.Close())
	}
	data := o.control
	if data == nil && db != nil {
		data = control.Cached(db, sg.clock)
	}
	if data != nil {
		sg.flow = newSignFlow(data, observedHSM{h, m}, observedReplay{used, m})
	}
	return sg, nil
}

// replayStore is where the used token IDs are kept: in Redis, shared by
// the replicas, when svc.dss.redis.url is set (docs/decisions/0040);
// else in the process, which is right for one instance only.
func (s *Signer) replayStore() (ports.ReplayStore, error) {
	r := s.cfg.Redis
	if r.URL == "" {
		return replay.New(replayCapacity, s.clock), nil
	}
	c, err := redisconn.Open(redisconn.Options{URL: r.URL, Password: r.Password, CAFile: r.CAFile.Path})
	if err != nil {
		return nil, fmt.Errorf("app: svc.dss.redis: %w", err)
	}
	redisconn.LogTo(s.logger)
	s.redis = c
	s.logger.Info("used sign-ska token IDs are kept in Redis, shared by the replicas", slog.String("redis", redisconn.Redacted(r.URL)))
	return replay.NewRedis(c, r.KeyPrefix+"signer:", s.clock), nil
}

// newResourceServer builds the verifier of the configured JWT key source,
// or nil when none is configured. A public-key file is read here, once: a
// file that does not read stops the start-up.
func newResourceServer(src config.JWTKeySource) (ports.BearerVerifier, error) {
	if !src.Configured() {
		return nil, nil
	}
	ks := oidc.KeySource{JWKSetURI: src.JWKSetURI, IssuerURI: src.IssuerURI}
	if src.PublicKeyLocation.Raw != "" {
		keys, err := oidc.ReadPublicKeys(src.PublicKeyLocation.Path)
		if err != nil {
			return nil, fmt.Errorf("app: fw.security.oauth2.resourceserver.jwt.public-key-location %s: %w", src.PublicKeyLocation.Raw, err)
		}
		ks.PublicKeys = keys
	}
	rs, err := oidc.NewResourceServer(ks, oidc.Options{})
	if err != nil {
		return nil, fmt.Errorf("app: fw.security.oauth2.resourceserver.jwt: %w", err)
	}
	return rs, nil
}

// Authenticate runs the resource-server filter of the non-public paths
// other than /sign-ska on an Authorization header value (§5 rule 4).
// Under permit-all it lets everything through. Errors are a
// [*RefusalError] of ErrUnauthenticated (no key source, or a token that
// does not verify) or wrap ErrAuthUnavailable (the key source did not
// answer).
func (s *Signer) Authenticate(ctx context.Context, header string) error {
	switch {
	case s.cfg.PermitAll:
		return nil
	case s.resource == nil:
		return &RefusalError{Kind: ErrUnauthenticated, Detail: "this path needs a bearer token and no JWT key source is configured"}
	}
	token, ok := control.BearerToken(header)
	if !ok {
		return &RefusalError{Kind: ErrUnauthenticated, Detail: oidc.ReasonMissing.String()}
	}
	_, err := s.resource.VerifyBearer(ctx, token)
	if err != nil {
		if r, ok := errors.AsType[*ports.TokenRefusedError](err); ok {
			// A refusal's Reason is a fixed sentence; any other text may
			// name the key source or repeat what the token claimed.
			detail := r.Reason
			if detail == "" {
				detail = "the bearer token is not valid here"
			}
			return &RefusalError{Kind: ErrUnauthenticated, Detail: detail, Err: err}
		}
		return fmt.Errorf("%w: %w", ErrAuthUnavailable, err)
	}
	return nil
}

// replayCapacity bounds the token IDs remembered: a token lives at most
// 5 minutes plus skew, so this covers about 200 signing calls a second on
// one replica (docs/decisions/0023).
const replayCapacity = 100_000

// newSignFlow wires signing on the control data c, the HSM h and the
// replay store r: the proxies' tokens are verified with the keys c holds.
func newSignFlow(c SignControl, h ports.HSM, r ports.ReplayStore) *signFlow {
	lookup := func(ctx context.Context, tenant, kid string) (signjwt.Key, error) {
		k, err := c.ClientKey(ctx, tenant, kid)
		switch {
		case errors.Is(err, ports.ErrNotFound):
			return signjwt.Key{}, fmt.Errorf("%w: %w", signjwt.ErrUnknownKey, err)
		case err != nil:
			return signjwt.Key{}, err
		}
		return signjwt.Key{Tenant: k.Tenant, Module: k.Module, Kid: k.Kid, Algorithm: k.Algorithm, PublicKey: k.PublicKey}, nil
	}
	return &signFlow{
		tokens:      signjwt.NewVerifier(lookup, r, signjwt.Options{}),
		licenses:    c,
		permissions: c,
		partitions:  c,
		hsm:         h,
	}
}

// Config returns the configuration the server was built with.
func (s *Signer) Config() config.Signer { return s.cfg }

// Health reports the roll-up for the probe.
func (s *Signer) Health(ctx context.Context) control.Health {
	return control.Probe(ctx, s.db, s.logger)
}

// Close releases the server's resources.
func (s *Signer) Close() error {
	var errs []error
	if s.db != nil {
		errs = append(errs, s.db.Close())
	}
	if s.redis != nil {
		errs = append(errs, s.redis.Close())
	}
	return errors.Join(errs...)
}

// Available reports why signing cannot run (no control database), or nil.
func (s *Signer) Available() error {
	if s.flow == nil {
		return ErrNoControlDatabase
	}
	return nil
}

// authorizationKey is the key profile's authorization key of a signing
// key: its label with "-ska" (docs/decisions/0023). The HSM refuses an
// approval by any other key.
func authorizationKey(_ context.Context, _ ports.Partition, signing ports.KeyRef) (ports.KeyRef, error) {
	return ports.KeyRef{Label: signing.Label + approvalSuffix}, nil
}
