package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jmoiron/sqlx"
)

// ErrReadOnly is returned, wrapped, by [Migrate] and [Seed] on a connection
// that cannot write, such as a pool from [Open].
var ErrReadOnly = errors.New("connection is read-only; use OpenWritable")

//go:embed migrations/*.sql
var migrationFiles embed.FS

//go:embed seed/dev.sql
var devSeed string

// migrateLockKey is the pg_advisory_xact_lock key that serialises
// concurrent Migrate calls on one database. Any fixed number works as
// long as nothing else in the database uses it.
const migrateLockKey = 0x5dc_c0a7_0001

// createMigrations is run before every version, under the lock, so that a
// fresh database needs no bootstrap step and two first starts do not race
// to create the table.
const createMigrations = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version    integer     PRIMARY KEY,
	name       text        NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now()
)`

// A migration is one embedded file, migrations/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the embedded migrations in version order.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("postgres: migrations: %w", err)
	}
	var ms []migration
	for _, e := range entries {
		prefix, _, ok := strings.Cut(e.Name(), "_")
		version, err := strconv.Atoi(prefix)
		if !ok || err != nil || version < 1 {
			return nil, fmt.Errorf("postgres: migration %s is not named NNNN_name.sql", e.Name())
		}
		b, err := fs.ReadFile(migrationFiles, path.Join("migrations", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("postgres: migration %s: %w", e.Name(), err)
		}
		ms = append(ms, migration{version: version, name: e.Name(), sql: string(b)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return a.version - b.version })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("postgres: migrations %s and %s share version %d", ms[i-1].name, ms[i].name, ms[i].version)
		}
	}
	return ms, nil
}

// Migrate brings the schema in db's search path up to the newest embedded
// version. Each missing version is applied in its own transaction together
// with its schema_migrations row, so a failure leaves the database at the
// last complete version and the next call resumes there. Calling it again,
// or from several processes at once, is safe.
//
// db must be able to write (see [OpenWritable]); on a read-only connection
// Migrate returns an error wrapping [ErrReadOnly]. Migrate does not create
// the schema itself, and leaves versions it does not know (applied by a
// newer release) alone.
func Migrate(ctx context.Context, db *sqlx.DB) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	for _, m := range ms {
		if err := apply(ctx, db, m); err != nil {
			return err
		}
	}
	return nil
}

// apply runs m unless it has already been applied.
func apply(ctx context.Context, db *sqlx.DB, m migration) (err error) {
	tx, err := begin(ctx, db)
	if err != nil {
		return fmt.Errorf("postgres: migrate %s: %w", m.name, err)
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock($1)", int64(migrateLockKey)); err != nil {
		return fmt.Errorf("postgres: migrate %s: lock: %w", m.name, err)
	}
	if _, err := tx.ExecContext(ctx, createMigrations); err != nil {
		return fmt.Errorf("postgres: migrate %s: create schema_migrations: %w", m.name, err)
	}
	var applied bool
	if err := tx.GetContext(ctx, &applied, "SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)", m.version); err != nil {
		return fmt.Errorf("postgres: migrate %s: %w", m.name, err)
	}
	if !applied {
		// No arguments: lib/pq sends the file as one simple query, which
		// may hold several statements.
		if _, err := tx.ExecContext(ctx, m.sql); err != nil {
			return fmt.Errorf("postgres: migrate %s: %w", m.name, err)
		}
		if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", m.version, m.name); err != nil {
			return fmt.Errorf("postgres: migrate %s: record version: %w", m.name, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("postgres: migrate %s: commit: %w", m.name, err)
	}
	return nil
}

// Seed inserts the development data (see the package documentation) into
// a database that [Migrate] has brought up to date. Rows that already
// exist, including ones a test changed, are left as they are, so Seed may
// be called again. It is for development and tests only: it registers
// published keys and placeholder providers.
//
// db must be able to write; on a read-only connection Seed returns an
// error wrapping [ErrReadOnly].
func Seed(ctx context.Context, db *sqlx.DB) error {
	tx, err := begin(ctx, db)
	if err != nil {
		return fmt.Errorf("postgres: seed: %w", err)
	}
	if _, err := tx.ExecContext(ctx, devSeed); err != nil {
		_ = tx.Rollback()
		return fmt.Errorf("postgres: seed: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("postgres: seed: commit: %w", err)
	}
	return nil
}

// begin starts a transaction that can write. It checks up front so that a
// read-only pool gives ErrReadOnly rather than a failure halfway through a
// migration file.
func begin(ctx context.Context, db *sqlx.DB) (*sqlx.Tx, error) {
	tx, err := db.BeginTxx(ctx, nil)
	if err != nil {
		return nil, err
	}
	var readOnly string
	if err := tx.GetContext(ctx, &readOnly, "SELECT current_setting('transaction_read_only')"); err != nil {
		_ = tx.Rollback()
		return nil, err
	}
	if readOnly == "on" {
		_ = tx.Rollback()
		return nil, ErrReadOnly
	}
	return tx, nil
}
