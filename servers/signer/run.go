package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/signer"
	"github.com/svc-dss/dss/servers/internal/shell"
)

// run loads the configuration, wires the application and serves until ctx
// is done. Exit codes: 0 after a clean shutdown, 2 for unusable
// configuration, 1 for any other failure.
func run(ctx context.Context, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int {
	args, dev, err := devFlags(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	cfg, err := config.LoadSigner(args, environ, stderr)
	if errors.Is(err, config.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	logger := shell.NewLogger(stdout, slog.LevelInfo)
	if dev.on {
		var stop func()
		cfg, ready, stop, err = devSigner(ctx, cfg, dev, logger, stdout, ready)
		if err != nil {
			logger.Error("development set-up failed", slog.String("error", err.Error()))
			return 1
		}
		defer stop()
	}
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

// devPKIAddress is the development validator's default PKI address,
// pki.DevAddress, written out so that a production build links no
// fixture (dev.go checks that they agree).
const devPKIAddress = "127.0.0.1:8098"

// devOptions are the command line's development-mode flags.
type devOptions struct {
	on bool
	// pkiAddress is where the development validator serves the fixture
	// PKI whose certificates the development mode issues.
	pkiAddress string
}

// devFlags takes --dev and --dev-pki-address out of args, which the
// configuration loader reads, and returns the rest.
func devFlags(args []string) ([]string, devOptions, error) {
	dev := devOptions{pkiAddress: devPKIAddress}
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--dev" || a == "-dev":
			dev.on = true
		case a == "--dev-pki-address" || a == "-dev-pki-address":
			if i+1 == len(args) {
				return nil, dev, errors.New("--dev-pki-address: missing: the development validator's PKI address, host:port (default " + devPKIAddress + ")")
			}
			i++
			dev.pkiAddress = args[i]
		case strings.HasPrefix(a, "--dev-pki-address=") || strings.HasPrefix(a, "-dev-pki-address="):
			dev.pkiAddress = a[strings.Index(a, "=")+1:]
		default:
			rest = append(rest, a)
		}
	}
	if dev.pkiAddress != devPKIAddress && !dev.on {
		return nil, dev, errors.New("--dev-pki-address: only with --dev")
	}
	return rest, dev, nil
}
