package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/hsm"
	"github.com/svc-dss/dss/adapters/oidc"
	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/adapters/signjwt"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/ports"
)

// ErrNoControlDatabase is returned by signing when no control database is
// configured: the caller's key, licence, permission and partition all live
// there (signing-server.md §4 rule 2: 503).
var ErrNoControlDatabase = errors.New("signing is unavailable: no control database is configured (svc.dss.control-db.url)")

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
	resource *oidc.ResourceServer
}

// A SignerOption changes how NewSigner wires the server.
type SignerOption func(*signerOptions)

type signerOptions struct {
	hsm ports.HSM
}

// WithHSM signs on h instead of the PKCS#11 adapter: for tests that need
// an HSM that misbehaves (a slow one, to prove the signing timeout).
func WithHSM(h ports.HSM) SignerOption {
	return func(o *signerOptions) { o.hsm = h }
}

// NewSigner wires the server for cfg and logs the start-up warnings of
// signing-server.md §5.
func NewSigner(cfg config.Signer, logger *slog.Logger, opts ...SignerOption) (*Signer, error) {
	var o signerOptions
	for _, opt := range opts {
		opt(&o)
	}
	if cfg.PermitAll {
		logger.Warn("svc.dss.security.permit-all is true: the resource-server filter is off; /api/server-signing/sign-ska still verifies its own JWT; development only")
	} else if !cfg.JWT.Configured() {
		logger.Warn("no JWT key source is configured (fw.security.oauth2.resourceserver.jwt.*) and permit-all is false: every non-public path other than /api/server-signing/sign-ska is denied")
	}
	if cfg.ControlDB.URL == "" {
		logger.Warn("no control database is configured (svc.dss.control-db.url): /api/server-signing/sign-ska answers 503")
	}
	resource, err := newResourceServer(cfg.JWT)
	if err != nil {
		return nil, err
	}
	db, err := openControlDB(cfg.ControlDB.URL, cfg.ControlDB.Username, cfg.ControlDB.Password, cfg.ControlDB.Schema, cfg.ControlDB.MaximumPoolSize)
	if err != nil {
		return nil, fmt.Errorf("app: control database: %w", err)
	}
	sg := &Signer{cfg: cfg, db: db, logger: logger, clock: time.Now, resource: resource}
	if db != nil {
		h := o.hsm
		if h == nil {
			h = hsm.New(hsm.Options{Timeout: cfg.SigningTimeout, AuthorizationKey: authorizationKey})
		}
		sg.flow = newSignFlow(db, h, replay.New(replayCapacity, time.Now))
	}
	return sg, nil
}

// newResourceServer builds the verifier of the configured JWT key source,
// or nil when none is configured. A public-key file is read here, once: a
// file that does not read stops the start-up.
func newResourceServer(src config.JWTKeySource) (*oidc.ResourceServer, error) {
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
	token, ok := bearerToken(header)
	if !ok {
		return &RefusalError{Kind: ErrUnauthenticated, Detail: oidc.ReasonMissing.String()}
	}
	_, err := s.resource.Verify(ctx, token)
	switch {
	case errors.Is(err, oidc.ErrUnauthenticated):
		// A TokenError's Reason is a fixed sentence; any other text may
		// name the key source or repeat what the token claimed.
		detail := "the bearer token is not valid here"
		if e, ok := errors.AsType[*oidc.TokenError](err); ok {
			detail = e.Reason.String()
		}
		return &RefusalError{Kind: ErrUnauthenticated, Detail: detail, Err: err}
	case err != nil:
		return fmt.Errorf("%w: %w", ErrAuthUnavailable, err)
	}
	return nil
}

// replayCapacity bounds the token IDs remembered: a token lives at most
// 5 minutes plus skew, so this covers about 200 signing calls a second on
// one replica (docs/decisions/0023).
const replayCapacity = 100_000

// newSignFlow wires signing on the control database db, the HSM h and the
// replay store r.
func newSignFlow(db *sqlx.DB, h ports.HSM, r ports.ReplayStore) *signFlow {
	control := postgres.NewControl(db)
	lookup := func(ctx context.Context, tenant, kid string) (signjwt.Key, error) {
		k, err := control.ClientKey(ctx, tenant, kid)
		switch {
		case errors.Is(err, postgres.ErrNotFound):
			return signjwt.Key{}, fmt.Errorf("%w: %w", signjwt.ErrUnknownKey, err)
		case err != nil:
			return signjwt.Key{}, err
		}
		return signjwt.Key{Tenant: k.Tenant, Module: k.Module, Kid: k.Kid, Algorithm: k.Algorithm, PublicKey: k.PublicKey}, nil
	}
	return &signFlow{
		jwt:     signjwt.NewVerifier(lookup, r, signjwt.Options{}),
		control: control,
		cached:  postgres.NewCachedControl(control, postgres.DefaultCacheTTL, postgres.DefaultCacheEntries, time.Now),
		hsm:     h,
	}
}

// Config returns the configuration the server was built with.
func (s *Signer) Config() config.Signer { return s.cfg }

// Health reports the roll-up for the probe.
func (s *Signer) Health(ctx context.Context) Health {
	return dbHealth(ctx, s.db, s.logger)
}

// Close releases the server's resources.
func (s *Signer) Close() error {
	if s.db != nil {
		return s.db.Close()
	}
	return nil
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
