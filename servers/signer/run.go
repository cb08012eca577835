package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/servers/internal/shell"
)

// run loads the configuration, wires the application and serves until ctx
// is done. Exit codes: 0 after a clean shutdown, 2 for unusable
// configuration, 1 for any other failure.
func run(ctx context.Context, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int {
	cfg, err := config.LoadSigner(args, environ, stderr)
	if errors.Is(err, config.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	logger := shell.NewLogger(stdout, slog.LevelInfo)
	a, err := signer.New(cfg, logger)
	if err != nil {
		logger.Error("start-up failed", slog.String("error", err.Error()))
		return 1
	}
	defer a.Close()
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
