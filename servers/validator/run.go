package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"

	"github.com/svc-dss/dss/app"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/servers/internal/shell"
)

// run loads the configuration, wires the application and serves until ctx
// is done. It returns the process exit code: 0 after a clean shutdown, 2
// for unusable configuration, 1 for any other failure. ready, if not nil,
// receives the bound address (tests start on port 0).
func run(ctx context.Context, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int {
	cfg, err := config.LoadValidator(args, environ, stderr)
	if errors.Is(err, config.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	logger := shell.NewLogger(stdout, slog.LevelInfo)
	a, err := app.NewValidator(cfg, logger)
	if err != nil {
		logger.Error("start-up failed", slog.String("error", err.Error()))
		return 1
	}
	defer a.Close()
	e := newServer(a, logger)
	if err := shell.Serve(ctx, e, net.JoinHostPort("", strconv.Itoa(cfg.Port)), logger, ready); err != nil {
		logger.Error("server failed", slog.String("error", err.Error()))
		return 1
	}
	return 0
}
