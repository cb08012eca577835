//go:debug x509negativeserial=1

// Command signproxy is the reference on-premises proxy of the hash-only
// remote signer (docs/decisions/0043): `signproxy sign` builds a PAdES or
// CAdES signature around a document and sends the signing server only the
// digest of the signed attributes. It is a program of its own so that the
// signing server links no document reader (servers/signer's
// TestLinksNoValidation).
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// usage names the program's commands.
const usage = `usage: signproxy sign FILE --url URL ... (signproxy sign --help for the options)`

// run runs the command named by args[0]. Exit codes: 0 done, 2 for a
// command line it cannot run, 1 for any other failure.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "signproxy: no command")
		fmt.Fprintln(stderr, usage)
		return 2
	}
	switch args[0] {
	case "sign":
		return runSign(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprintln(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "signproxy: unknown command %q\n", args[0])
	fmt.Fprintln(stderr, usage)
	return 2
}
