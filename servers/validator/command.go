package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/servers/internal/validatecmd"
)

const commandUsage = `usage:
  validator [--config FILE] trust status [--at RFC3339]   trust status from the configured cache, as JSON
  validator [--config FILE] trust refresh                 one online refresh pass, then the status as JSON
  validator [--config FILE] trust import FILE...          seed the cache from list files, each checked as a refresh checks it`

// runCommand runs an operator command without serving HTTP, on the
// validation front door v (which loaded the cache). trust status reads
// the cache only; trust refresh goes online once and exits 1 when
// no list could be confirmed with its publisher; trust import stores the
// given list files that pass a refresh's checks and exits 1 when any
// was refused.
func runCommand(ctx context.Context, v *validation.Validator, args []string, stdout, stderr io.Writer) int {
	if len(args) < 2 {
		fmt.Fprintln(stderr, commandUsage)
		return 2
	}
	switch args[1] {
	case "status":
		fs := flag.NewFlagSet("trust status", flag.ContinueOnError)
		fs.SetOutput(stderr)
		fs.Usage = func() {
			fmt.Fprintln(stderr, commandUsage)
			fs.PrintDefaults()
		}
		at := fs.String("at", "", "evaluate freshness at this RFC 3339 instant instead of now")
		rest, err := validatecmd.ParseInterleaved(fs, args[2:])
		if err != nil {
			return 2
		}
		if len(rest) > 0 {
			fmt.Fprintf(stderr, "trust status: unexpected argument %q\n", rest[0])
			fmt.Fprintln(stderr, commandUsage)
			return 2
		}
		now := time.Now()
		if *at != "" {
			t, err := time.Parse(time.RFC3339, *at)
			if err != nil {
				fmt.Fprintf(stderr, "trust status: --at %q is not an RFC 3339 time (2026-11-21T12:00:00Z)\n", *at)
				return 2
			}
			now = t
		}
		return validatecmd.PrintJSON(stdout, stderr, v.TrustStatus(now))
	case "refresh":
		if len(args) > 2 {
			fmt.Fprintf(stderr, "trust refresh: unexpected argument %q\n", args[2])
			fmt.Fprintln(stderr, commandUsage)
			return 2
		}
		snap := v.Refresh(ctx)
		code := validatecmd.PrintJSON(stdout, stderr, v.TrustStatus(time.Now()))
		for _, l := range snap.Lists {
			if l.ConfirmedInThisProcess {
				return code
			}
		}
		fmt.Fprintln(stderr, "trust refresh: no list could be confirmed with its publisher")
		return 1
	case "import":
		return runImport(ctx, v, args[2:], stdout, stderr)
	default:
		fmt.Fprintln(stderr, commandUsage)
		return 2
	}
}

// runImport is `trust import FILE...`: the air-gapped installation's
// way to seed the cache with lists copied from a connected machine
// (validation.Validator.Import). It prints one line per file, in the
// order given: the territory the list was taken for, the authenticity of
// its own signature, and stored, or refused with the reason. Exit codes:
// 0 when every list was stored, 1 when any was refused or a file cannot
// be read, 2 for usage (no file, a flag).
func runImport(ctx context.Context, v *validation.Validator, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("trust import", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, commandUsage) }
	files, err := validatecmd.ParseInterleaved(fs, args)
	if err != nil {
		return 2
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "trust import: no file")
		fmt.Fprintln(stderr, commandUsage)
		return 2
	}
	results, err := v.Import(ctx, files...)
	if err != nil {
		fmt.Fprintf(stderr, "trust import: %v\n", err)
		return 1
	}
	code := 0
	for _, r := range results {
		territory, auth := r.Territory, r.Authenticity.String()
		if territory == "" {
			territory = "?"
		}
		if auth == "" {
			auth = "UNCHECKED"
		}
		outcome := "stored"
		if !r.Stored {
			outcome, code = "refused: "+r.Reason, 1
		}
		fmt.Fprintf(stdout, "%s\t%s\t%s\t%s\n", r.File, territory, auth, outcome)
	}
	return code
}
