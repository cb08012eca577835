package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/app/config"
)

const dbUsage = `usage:
  validator [--config FILE] db migrate [--seed]   bring the control database's schema up to date (and, with --seed, add the development tenants)`

// runDB runs a control-database command. It is the one place that writes
// to the control database, with the credentials svc.dss.control-db.* name
// (an owner's, not the service's read-only role); the service itself
// never writes.
func runDB(ctx context.Context, cfg config.Validator, args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 || args[1] != "migrate" {
		fmt.Fprintln(stderr, dbUsage)
		return 2
	}
	fs := flag.NewFlagSet("db migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	seed := fs.Bool("seed", false, "also add the development seed (tenants A, B, C; never in production)")
	if err := fs.Parse(args[2:]); err != nil || fs.NArg() > 0 {
		if err == nil {
			fmt.Fprintln(stderr, dbUsage)
		}
		return 2
	}
	if cfg.ControlDB.URL == "" {
		fmt.Fprintln(stderr, "db migrate: svc.dss.control-db.url (env SVC_DSS_CONTROL_DB_URL) is blank: there is no database to migrate")
		return 2
	}
	db, err := postgres.OpenWritable(postgres.Options{URL: cfg.ControlDB.URL, Username: cfg.ControlDB.Username, Password: cfg.ControlDB.Password, Schema: cfg.ControlDB.Schema, MaxConns: 1})
	if err != nil {
		fmt.Fprintf(stderr, "db migrate: %v\n", err)
		return 1
	}
	defer db.Close()
	if err := postgres.Migrate(ctx, db); err != nil {
		fmt.Fprintf(stderr, "db migrate: %v\n", err)
		return 1
	}
	if *seed {
		if err := postgres.Seed(ctx, db); err != nil {
			fmt.Fprintf(stderr, "db migrate: seed: %v\n", err)
			return 1
		}
	}
	fmt.Fprintln(stdout, "control database schema is up to date")
	return 0
}
