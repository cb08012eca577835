//go:debug x509negativeserial=1

// Command validator is the signature validation service: REST API, browser
// UI and health probe over the validation library.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Environ(), os.Stdout, os.Stderr, nil)
	stop()
	os.Exit(code)
}
