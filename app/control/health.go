package control

import (
	"context"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/svc-dss/dss/adapters/postgres"
)

// Health is the roll-up a probe reports: UP or DOWN, no details.
type Health string

const (
	Up   Health = "UP"
	Down Health = "DOWN"
)

// healthTimeout bounds one probe: an orchestrator calls the probe with a
// short timeout of its own, and a hanging database must read as DOWN, not
// as a probe that never answers.
const healthTimeout = 2 * time.Second

// Probe reports DOWN when db is configured (not nil) and does not answer.
// The reason goes to logger only: the probe is anonymous.
func Probe(ctx context.Context, db *sqlx.DB, logger *slog.Logger) Health {
	if db == nil {
		return Up
	}
	ctx, cancel := context.WithTimeout(ctx, healthTimeout)
	defer cancel()
	if err := postgres.Ping(ctx, db); err != nil {
		logger.WarnContext(ctx, "health: control database does not answer", slog.String("error", err.Error()))
		return Down
	}
	return Up
}
