package postgres_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/fixtures/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func TestDSN(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   postgres.Options
		want string
	}{
		{"plain URL gets prefer and read-only", postgres.Options{URL: "postgres://db:5432/control"},
			"postgres://db:5432/control?default_transaction_read_only=on&sslmode=prefer"},
		{"JDBC URL with user parameters", postgres.Options{URL: "jdbc:postgresql://db/control?user=reader&password=pw&sslmode=require"},
			"postgres://reader:pw@db/control?default_transaction_read_only=on&sslmode=require"},
		{"separate credentials win", postgres.Options{URL: "postgresql://old:old@db/control", Username: "reader", Password: "p@ss"},
			"postgres://reader:p%40ss@db/control?default_transaction_read_only=on&sslmode=prefer"},
		{"schema becomes the search path", postgres.Options{URL: "postgres://db/control", Schema: "ctl"},
			"postgres://db/control?default_transaction_read_only=on&search_path=ctl&sslmode=prefer"},
	}
	for _, tt := range tests {
		got, err := postgres.DSN(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("%s: DSN = %q, %v; want %q", tt.name, got, err, tt.want)
		}
	}
	_, err := postgres.DSN(postgres.Options{URL: "mysql://u:secret@db/x"})
	is.New(t).Equal(err.Error(), `postgres: "mysql://u:xxxxx@db/x" is not a PostgreSQL URL`)
}

// TestOpenIsReadOnly proves on a real server that the pool honours the
// schema and refuses writes.
func TestOpenIsReadOnly(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	url := pgtest.NewDatabaseURL(t)
	admin, err := sqlx.Connect("postgres", url)
	is.NoErr(err)
	defer admin.Close()
	_, err = admin.ExecContext(ctx, `CREATE SCHEMA ctl; CREATE TABLE ctl.tenant (id text PRIMARY KEY); INSERT INTO ctl.tenant VALUES ('t1')`)
	is.NoErr(err)

	db, err := postgres.Open(postgres.Options{URL: url, Schema: "ctl", MaxConns: 2})
	is.NoErr(err)
	defer db.Close()
	is.NoErr(postgres.Ping(ctx, db))

	var id string
	is.NoErr(db.GetContext(ctx, &id, "SELECT id FROM tenant")) // found through the search path
	is.Equal(id, "t1")
	_, err = db.ExecContext(ctx, "INSERT INTO tenant VALUES ('t2')")
	is.True(err != nil)
	is.True(strings.Contains(err.Error(), "read-only transaction"))
}

// TestOnQuery: every query of the read-only pool is timed, with or
// without arguments, and a failed one is reported with its error.
func TestOnQuery(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	var mu sync.Mutex
	var got []error
	db, err := postgres.Open(postgres.Options{URL: pgtest.NewDatabaseURL(t), OnQuery: func(took time.Duration, err error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, err)
	}})
	is.NoErr(err)
	defer db.Close()
	var n int
	is.NoErr(db.GetContext(ctx, &n, "SELECT 1"))
	is.NoErr(db.GetContext(ctx, &n, "SELECT $1::int", 2))
	is.True(db.GetContext(ctx, &n, "SELECT * FROM no_such_table") != nil)
	mu.Lock()
	defer mu.Unlock()
	is.Equal(len(got), 3)
	is.NoErr(got[0])
	is.NoErr(got[1])
	is.True(got[2] != nil)
}
