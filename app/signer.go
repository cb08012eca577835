package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/app/config"
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
}

// NewSigner wires the server for cfg and logs the start-up warnings of
// signing-server.md §5.
func NewSigner(cfg config.Signer, logger *slog.Logger) (*Signer, error) {
	if cfg.PermitAll {
		logger.Warn("svc.dss.security.permit-all is true: the resource-server filter is off; /api/server-signing/sign-ska still verifies its own JWT; development only")
	} else if !cfg.JWT.Configured() {
		logger.Warn("no JWT key source is configured (fw.security.oauth2.resourceserver.jwt.*) and permit-all is false: every non-public path other than /api/server-signing/sign-ska is denied")
	}
	if cfg.ControlDB.URL == "" {
		logger.Warn("no control database is configured (svc.dss.control-db.url): /api/server-signing/sign-ska answers 503")
	}
	db, err := openControlDB(cfg.ControlDB.URL, cfg.ControlDB.Username, cfg.ControlDB.Password, cfg.ControlDB.Schema, cfg.ControlDB.MaximumPoolSize)
	if err != nil {
		return nil, fmt.Errorf("app: control database: %w", err)
	}
	return &Signer{cfg: cfg, db: db, logger: logger}, nil
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

// ErrSigningNotBuilt is returned by signing while the server has a control
// database but this build has no signing flow to run on it; the flow
// (JWT, licence, partition, HSM) is tracked separately. Mapped to 503, the
// status of a service that cannot sign now.
var ErrSigningNotBuilt = errors.New("signing is unavailable: this build has no signing flow")

// Available reports why signing cannot run, or nil.
func (s *Signer) Available() error {
	if s.db == nil {
		return ErrNoControlDatabase
	}
	return ErrSigningNotBuilt
}
