// Package postgres is the control-database adapter: a read-only
// PostgreSQL connection pool through sqlx and lib/pq.
//
// # Scope
//
// This file opens and checks the pool. The queries for tenants, licences,
// keys and partitions live beside it as the use cases need them.
//
// # Read-only
//
// Both programs only read the control database. Every connection is opened
// with default_transaction_read_only=on, so a write fails in the database
// even if a bug tried one.
package postgres

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq" // registers the "postgres" driver
)

// Options locate the database. URL may be postgres://, postgresql:// or the
// JDBC form jdbc:postgresql://; Username and Password, when set, replace
// those in the URL; Schema, when set, becomes the search path.
type Options struct {
	URL      string
	Username string
	Password string
	Schema   string
	// MaxConns is the pool size; connections are kept idle up to it.
	MaxConns int
}

// connMaxIdle retires idle connections so that a database restart or a
// password rotation is picked up without restarting the service.
const connMaxIdle = 5 * time.Minute

// Open returns a pool for o. It does not connect: a database that is down
// at start-up makes the health probe report DOWN rather than stopping the
// service, and the pool connects once the database answers.
func Open(o Options) (*sqlx.DB, error) {
	dsn, err := DSN(o)
	if err != nil {
		return nil, err
	}
	db, err := sqlx.Open("postgres", dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	if o.MaxConns > 0 {
		db.SetMaxOpenConns(o.MaxConns)
		db.SetMaxIdleConns(o.MaxConns)
	}
	db.SetConnMaxIdleTime(connMaxIdle)
	return db, nil
}

// DSN builds the lib/pq connection URL for o.
func DSN(o Options) (string, error) {
	u, err := url.Parse(strings.TrimPrefix(o.URL, "jdbc:"))
	if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return "", fmt.Errorf("postgres: %q is not a PostgreSQL URL", redacted(o.URL))
	}
	u.Scheme = "postgres"
	if o.Username != "" || o.Password != "" {
		user := o.Username
		if user == "" && u.User != nil {
			user = u.User.Username()
		}
		if o.Password != "" {
			u.User = url.UserPassword(user, o.Password)
		} else {
			u.User = url.User(user)
		}
	}
	q := u.Query()
	// JDBC URLs carry user and password as parameters, lib/pq wants them
	// in the authority; sslmode has no JDBC default of "require" either.
	for _, p := range []string{"user", "password"} {
		if v := q.Get(p); v != "" && u.User == nil {
			u.User = url.User(v)
		}
	}
	if v := q.Get("password"); v != "" {
		u.User = url.UserPassword(u.User.Username(), v)
	}
	q.Del("user")
	q.Del("password")
	if q.Get("sslmode") == "" {
		q.Set("sslmode", "prefer")
	}
	if o.Schema != "" {
		q.Set("search_path", o.Schema)
	}
	q.Set("default_transaction_read_only", "on")
	u.RawQuery = q.Encode()
	return u.String(), nil
}

// Ping checks that the database answers a query within ctx.
func Ping(ctx context.Context, db *sqlx.DB) error {
	var one int
	if err := db.GetContext(ctx, &one, "SELECT 1"); err != nil {
		return fmt.Errorf("postgres: ping: %w", err)
	}
	return nil
}

func redacted(raw string) string {
	u, err := url.Parse(strings.TrimPrefix(raw, "jdbc:"))
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "******")
	}
	return u.Redacted()
}
