//go:debug x509negativeserial=1

// Command validator is the signature validation service: REST API, browser
// UI and health probe over the validation library.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/svc-dss/dss/servers/internal/validatecmd"
)

func main() {
	ctx, stop := context.Background(), func() {}
	if stopsOnSignal(os.Args[1:]) {
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	}
	code := run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}

// stopsOnSignal reports whether the run that args ask for ends on SIGINT
// and SIGTERM through its context: the server, to drain its requests, and
// the trust and db commands, to finish a write. The validate command
// keeps the default, an interrupt ends the process: it writes nothing
// but its report at the end, and watching for signals (os/signal starts
// a goroutine locked to a thread of its own) was a measurable share of
// its start-up (docs/decisions/0044).
func stopsOnSignal(args []string) bool {
	_, command := validatecmd.Split(args)
	return len(command) == 0 || command[0] != "validate"
}
