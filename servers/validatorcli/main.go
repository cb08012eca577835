//go:debug x509negativeserial=1

// Command validatorcli is the validator executable of the deployed image:
// it runs `validator validate` itself and hands every other use, the
// service and the trust and db commands, to validator-server, the whole
// validation service (servers/validator), installed beside it.
//
// Go initialises every package an executable links before main runs, so
// a validate run inside the service's executable paid for the start of
// everything the service links and the command never uses: the HTTP
// framework, the control database and Redis clients, the OpenID client,
// the browser UI's templates. This executable links the validate command
// (servers/internal/validatecmd) and the validation library alone
// (docs/decisions/0044).
//
// Build it as the image does:
//
//	CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o validator-server ./servers/validator
//	CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o validator ./servers/validatorcli
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"

	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/servers/internal/validatecmd"
)

// Server is the file name of the service's executable, looked for in the
// directory of this one.
const Server = "validator-server"

func main() {
	os.Exit(run(os.Executable, os.Args, os.Environ(), os.Stdout, os.Stderr, replaceWith))
}

// run is main with its inputs: where this executable is (asked only
// when the run is handed over: validate does not need it), argv as
// os.Args gives it, and the way to hand the run over to the service's
// executable, which replaces this process and returns only on failure.
func run(self func() (string, error), argv, environ []string, stdout, stderr io.Writer, handOver func(path string, argv, environ []string) error) int {
	// handTo returns only when the hand-over failed, saying why.
	handTo := func() error {
		path, err := server(self)
		if err != nil {
			return err
		}
		return handOver(path, append([]string{path}, argv[1:]...), environ)
	}
	flags, command := validatecmd.Split(argv[1:])
	if len(command) == 0 || command[0] != "validate" {
		fmt.Fprintf(stderr, "validator: %v\n", handTo())
		return 1
	}
	// Development mode starts the fixture publisher and PKI, which only
	// the service's executable links: it is handed over too, as the
	// command line was given. Interrupts keep their default (an
	// interrupt ends the process), as the service's executable leaves
	// them for validate.
	dev := func(config.Validator, *slog.Logger) (config.Validator, func(), error) {
		return config.Validator{}, nil, handTo()
	}
	return validatecmd.Main(context.Background(), formats.Default(), flags, command[1:], environ, stdout, stderr, dev)
}

// server is the path of the service's executable: beside this one.
func server(executable func() (string, error)) (string, error) {
	self, err := executable()
	if err != nil {
		return "", fmt.Errorf("cannot find %s: %w", Server, err)
	}
	path := filepath.Join(filepath.Dir(self), Server)
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s is not beside %s: %w", Server, self, err)
	}
	return path, nil
}

// replaceWith replaces this process with path: the service keeps the process
// ID, so a container's init and signals reach it.
func replaceWith(path string, argv, environ []string) error {
	if err := syscall.Exec(path, argv, environ); err != nil {
		return fmt.Errorf("starting %s: %w", path, err)
	}
	return nil
}
