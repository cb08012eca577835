//go:build !dev

package main

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"

	"github.com/svc-dss/dss/app/config"
)

// errNoDevMode is what a production build answers to --dev.
var errNoDevMode = errors.New("this signer is a production build, without development mode: run `go tool task run-signer`, or build it with `go build -tags dev ./servers/signer`")

// devSigner refuses development mode in a production build, which links
// no fixture PKI, SoftHSM2 token or throwaway database.
func devSigner(context.Context, config.Signer, devOptions, *slog.Logger, io.Writer, func(net.Addr)) (config.Signer, func(net.Addr), func(), error) {
	return config.Signer{}, nil, nil, errNoDevMode
}
