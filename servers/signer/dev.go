//go:build dev

package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/signsetup"
)

// The development mode's client key registration and signing keys.
const (
	devKID      = "dev-proxy"
	devRSALabel = signsetup.RSALabel
	devECLabel  = signsetup.ECLabel
)

// The default PKI address written out in run.go must be the fixture's.
var _ = map[bool]struct{}{false: {}, devPKIAddress == pki.DevAddress: {}}

// devSigner sets up a world to sign in, for --dev only
// (docs/decisions/0043): a throwaway control database on the test set-up's
// PostgreSQL (fixtures/pgtest: the local server or a throwaway cluster),
// migrated and seeded, whose tenant A holds the dss licence and dss.sign;
// a client key registered for A's module under kid dev-proxy, its
// private half written to a file; and A's pkcs11-ska partition on a
// throwaway SoftHSM2 token with an RSA-2048 and a P-256 signing key, each
// with its authorization key and a certificate of the Swiss branch of
// the fixture PKI at dev.pkiAddress, the one the development validator
// serves and trusts. cfg gets the database; the returned ready prints
// how to sign once the server listens, then calls ready. The returned
// stop removes everything it made.
func devSigner(ctx context.Context, cfg config.Signer, dev devOptions, logger *slog.Logger, stdout io.Writer, ready func(net.Addr)) (config.Signer, func(net.Addr), func(), error) {
	var undo []func() error
	stop := func() {
		for i := len(undo) - 1; i >= 0; i-- {
			if err := undo[i](); err != nil {
				logger.Warn("development set-up: cleaning up", slog.String("error", err.Error()))
			}
		}
	}
	fail := func(err error) (config.Signer, func(net.Addr), func(), error) {
		stop()
		return cfg, nil, nil, err
	}
	host, _, err := net.SplitHostPort(dev.pkiAddress)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		return fail(fmt.Errorf("--dev-pki-address %q: not a loopback host:port such as %s", dev.pkiAddress, pki.DevAddress))
	}
	p, err := pki.New("http://" + dev.pkiAddress)
	if err != nil {
		return fail(fmt.Errorf("--dev-pki-address: %w", err))
	}
	dir, err := os.MkdirTemp("", "svc-dss-signer-dev-")
	if err != nil {
		return fail(err)
	}
	undo = append(undo, func() error { return os.RemoveAll(dir) })

	w, err := signsetup.NewWorld(ctx, p, dir, devKID, "Dev")
	if err != nil {
		return fail(err)
	}
	undo = append(undo, w.Close)
	keyPath, chains := w.ClientKey, w.Chains
	cfg.ControlDB.URL = w.DatabaseURL
	logger.Warn("DEVELOPMENT MODE: throwaway control database, SoftHSM2 token and client key, certificates of the fixture PKI; nothing this signer signs is worth anything; everything is removed when it stops",
		slog.String("tenant", signsetup.TenantA), slog.String("module", signsetup.ModuleA), slog.String("kid", devKID),
		slog.String("client_key", keyPath), slog.String("pki", p.BaseURL), slog.String("files", dir))
	announce := func(addr net.Addr) {
		_, port, _ := net.SplitHostPort(addr.String())
		fmt.Fprint(stdout, devBanner(port, keyPath, chains, dev.pkiAddress))
		if ready != nil {
			ready(addr)
		}
	}
	return cfg, announce, stop, nil
}

// devBanner tells a newcomer what was made and how to sign with it.
func devBanner(port, keyPath string, chains map[string]string, pkiAddress string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nDevelopment signer on http://127.0.0.1:%s (for testing only)\n", port)
	fmt.Fprintf(&b, "  tenant      %s\n  module      %s\n  kid         %s\n  client key  %s\n", signsetup.TenantA, signsetup.ModuleA, devKID, keyPath)
	fmt.Fprintf(&b, "  keys        %s (RSA-2048, certificate %s)\n              %s (P-256, certificate %s)\n", devRSALabel, chains[devRSALabel], devECLabel, chains[devECLabel])
	fmt.Fprintf(&b, "Sign a PDF (PAdES-B; any other file gives a detached CAdES, FILE.p7s):\n")
	fmt.Fprintf(&b, "  go run ./servers/signproxy sign document.pdf --url http://127.0.0.1:%s --tenant %s --module %s --kid %s --client-key %s --key-label %s --certificate %s\n",
		port, signsetup.TenantA, signsetup.ModuleA, devKID, keyPath, devECLabel, chains[devECLabel])
	pkiFlag := ""
	if pkiAddress != pki.DevAddress {
		pkiFlag = "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS=" + pkiAddress + " "
	}
	fmt.Fprintf(&b, "Validate it:\n  %sgo run -tags dev ./servers/validator validate --dev document-signed.pdf\n\n", pkiFlag)
	return b.String()
}
