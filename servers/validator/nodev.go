//go:build !dev

package main

import (
	"errors"
	"log/slog"

	"github.com/svc-dss/dss/app/config"
)

// devBuild reports that this binary has development mode; a production
// build carries no fixture keys, trusted lists or samples.
const devBuild = false

// errNoDevMode is what a production build answers to --dev.
var errNoDevMode = errors.New("this validator is a production build, without development mode: run `go tool task run`, or build it with `go build -tags dev ./servers/validator`")

// devTrust refuses development mode in a production build.
func devTrust(cfg config.Validator, _ *slog.Logger) (config.Validator, func(), error) {
	return cfg, nil, errNoDevMode
}
