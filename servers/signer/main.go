//go:debug x509negativeserial=1

// Command signer is the hash-only remote signing server: it signs digests
// sent by an on-premises proxy with the tenant's key in an HSM partition.
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
