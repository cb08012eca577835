package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/app/validator/configured"
	"github.com/svc-dss/dss/servers/internal/shell"
	"github.com/svc-dss/dss/servers/internal/validatecmd"
)

// run loads the configuration, wires the application and either runs a
// command (trust status, trust refresh) or serves until ctx is done. It
// returns the process exit code: 0 on success, 2 for unusable
// configuration or usage, 1 for any other failure. ready, if not nil,
// receives the bound address (tests start on port 0). The service reads
// the formats of formats.Default.
func run(ctx context.Context, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int {
	return runFormats(ctx, formats.Default(), args, environ, stdout, stderr, ready)
}

// runFormats is run reading the formats of reg: tests register a format
// of their own, which the API, the browser UI and the validate command
// then read.
func runFormats(ctx context.Context, reg *formats.Registry, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int {
	flags, command := validatecmd.Split(args)
	if len(command) > 0 && command[0] == "validate" {
		return validatecmd.Main(ctx, reg, flags, command[1:], environ, stdout, stderr, devTrust)
	}
	cfg, err := config.LoadValidator(flags, environ, stderr)
	if errors.Is(err, config.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if len(command) > 0 && command[0] == "db" {
		return runDB(ctx, cfg, command, stdout, stderr)
	}
	// An unusable policy file stops start-up in one line, as an
	// unusable setting does (docs/decisions/0042).
	policies, err := configured.LoadPolicies(cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	// A command prints its result on stdout; its logs go to stderr.
	logOut := stdout
	if command != nil {
		logOut = stderr
	}
	logger := shell.NewLogger(logOut, slog.LevelInfo)
	if cfg.Dev {
		var stop func()
		cfg, stop, err = devTrust(cfg, logger)
		if err != nil {
			logger.Error("development trust data failed", slog.String("error", err.Error()))
			return 1
		}
		defer stop()
	}
	if command != nil {
		// The trust commands read the trust store through the front door
		// alone: no control database, session nor schedule. (So does
		// validate, validatecmd.Main.)
		opts, err := configured.ValidationOptions(cfg, logger, time.Now)
		if err != nil {
			logger.Error("start-up failed", slog.String("error", err.Error()))
			return 1
		}
		opts = append(opts, validation.WithRegistry(reg))
		v, err := validation.New(ctx, opts...)
		if err != nil {
			logger.Error("start-up failed", slog.String("error", err.Error()))
			return 1
		}
		return runCommand(ctx, v, command, stdout, stderr)
	}
	// Client secret references (env:NAME) read the environment the
	// service was started with.
	a, err := validator.New(ctx, cfg, logger, time.Now, validator.WithLookupEnv(lookupIn(environ)), validator.WithFormats(reg), validator.WithPolicies(policies))
	if err != nil {
		logger.Error("start-up failed", slog.String("error", err.Error()))
		return 1
	}
	defer a.Close()
	if err := a.CheckServing(); err != nil {
		logger.Error("start-up refused", slog.String("error", err.Error()))
		return 1
	}
	if err := a.Start(ctx); err != nil {
		logger.Error("start-up failed", slog.String("error", err.Error()))
		return 1
	}
	e, err := newServer(a, logger)
	if err != nil {
		logger.Error("start-up failed", slog.String("error", err.Error()))
		return 1
	}
	if err := shell.Serve(ctx, e, net.JoinHostPort("", strconv.Itoa(cfg.Port)), logger, ready); err != nil {
		logger.Error("server failed", slog.String("error", err.Error()))
		return 1
	}
	return 0
}

// lookupIn looks variables up in environ, as os.LookupEnv does in the
// process's environment; the last definition wins, as in os/exec.
func lookupIn(environ []string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		for _, kv := range slices.Backward(environ) {
			if k, v, ok := strings.Cut(kv, "="); ok && k == name {
				return v, true
			}
		}
		return "", false
	}
}
