package app

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/app/config"
)

// Validator is the validation service's application.
type Validator struct {
	cfg    config.Validator
	db     *sqlx.DB
	logger *slog.Logger
}

// NewValidator wires the service for cfg. It logs the warnings the spec
// asks for at start-up (permit-all, development mode).
func NewValidator(cfg config.Validator, logger *slog.Logger) (*Validator, error) {
	if cfg.Dev {
		logger.Warn("DEVELOPMENT MODE (--dev): permit-all, no control database; never run this in production")
	}
	if cfg.PermitAll {
		logger.Warn("svc.dss.validator.security.permit-all is true: tenant authentication and licensing are bypassed; development only")
	}
	db, err := openControlDB(cfg.ControlDB.URL, cfg.ControlDB.Username, cfg.ControlDB.Password, cfg.ControlDB.Schema, cfg.ControlDB.MaximumPoolSize)
	if err != nil {
		return nil, fmt.Errorf("app: control database: %w", err)
	}
	return &Validator{cfg: cfg, db: db, logger: logger}, nil
}

// Config returns the configuration the service was built with.
func (v *Validator) Config() config.Validator { return v.cfg }

// Health reports the roll-up for the probe. The control database, when
// configured, must answer.
func (v *Validator) Health(ctx context.Context) Health {
	return dbHealth(ctx, v.db, v.logger)
}

// Close releases the service's resources.
func (v *Validator) Close() error {
	if v.db != nil {
		return v.db.Close()
	}
	return nil
}
