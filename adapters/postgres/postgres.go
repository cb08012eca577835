package postgres

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/lib/pq"
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
	// OnQuery, when set, is told the duration and error of each query
	// the read-only pool sends, for the operator's metrics: the one
	// point every query of the control data passes (Open only).
	OnQuery func(took time.Duration, err error)
}

// connMaxIdle retires idle connections so that a database restart or a
// password rotation is picked up without restarting the service.
const connMaxIdle = 5 * time.Minute

// Open returns a read-only pool for o. It does not connect: a database
// that is down at start-up makes the health probe report DOWN rather than
// stopping the service, and the pool connects once the database answers.
//
// Statements outside a transaction are read-only through the session
// default (see [DSN]); transactions are begun READ ONLY by the pool itself,
// because lib/pq begins every other transaction with an explicit READ
// WRITE that overrides the default.
func Open(o Options) (*sqlx.DB, error) {
	return open(o, true)
}

// OpenWritable returns a pool for o without the read-only guard, for
// [Migrate], [Seed] and tests only. The services never call it: they read
// through [Open]. Like Open it does not connect.
func OpenWritable(o Options) (*sqlx.DB, error) {
	return open(o, false)
}

func open(o Options, readOnly bool) (*sqlx.DB, error) {
	source, err := dsn(o, readOnly)
	if err != nil {
		return nil, err
	}
	pqc, err := pq.NewConnector(source)
	if err != nil {
		return nil, fmt.Errorf("postgres: open: %w", err)
	}
	var c driver.Connector = pqc
	if readOnly {
		c = readOnlyConnector{pqc, o.OnQuery}
	}
	db := sqlx.NewDb(sql.OpenDB(c), "postgres")
	if o.MaxConns > 0 {
		db.SetMaxOpenConns(o.MaxConns)
		db.SetMaxIdleConns(o.MaxConns)
	}
	db.SetConnMaxIdleTime(connMaxIdle)
	return db, nil
}

// readOnlyConnector opens lib/pq connections whose transactions are all
// READ ONLY, whatever the caller asked for.
type readOnlyConnector struct {
	*pq.Connector
	onQuery func(time.Duration, error) // Options.OnQuery
}

func (c readOnlyConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	pc, ok := conn.(pqConn)
	if !ok {
		// Only a lib/pq upgrade can get here; failing beats silently
		// losing the fast paths database/sql takes through these methods.
		_ = conn.Close()
		return nil, fmt.Errorf("postgres: lib/pq connection %T lacks an expected method", conn)
	}
	return &readOnlyConn{pc, c.onQuery}, nil
}

// pqConn is the method set of lib/pq's connection that database/sql
// looks for; readOnlyConn must pass all of it on.
type pqConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.QueryerContext
	driver.ExecerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
	driver.NamedValueChecker
}

type readOnlyConn struct {
	pqConn
	onQuery func(time.Duration, error)
}

// QueryContext times the query for Options.OnQuery. database/sql sends
// every query through it (lib/pq's connection is a QueryerContext);
// driver.ErrSkip, which asks database/sql to prepare instead, is no query.
func (c *readOnlyConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.onQuery == nil {
		return c.pqConn.QueryContext(ctx, query, args)
	}
	began := time.Now()
	rows, err := c.pqConn.QueryContext(ctx, query, args)
	if err != driver.ErrSkip {
		c.onQuery(time.Since(began), err)
	}
	return rows, err
}

func (c *readOnlyConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	opts.ReadOnly = true
	return c.pqConn.BeginTx(ctx, opts)
}

// Begin is the pre-context entry point; database/sql does not call it
// while BeginTx exists, but a caller of the raw driver.Conn could.
func (c *readOnlyConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

// DSN builds the lib/pq connection URL for o, with the read-only default
// that [Open] relies on.
func DSN(o Options) (string, error) {
	return dsn(o, true)
}

func dsn(o Options, readOnly bool) (string, error) {
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
	// A parameter in the URL must not override the caller's choice either
	// way.
	q.Del("default_transaction_read_only")
	if readOnly {
		q.Set("default_transaction_read_only", "on")
	}
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
