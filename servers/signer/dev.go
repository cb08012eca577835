//go:build dev

package main

import (
	"context"
	"crypto/rand"
	"crypto/x509"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/signsetup"
	"github.com/svc-dss/dss/fixtures/softhsm"
)

// The development mode's client key registration and signing keys.
const (
	devKID      = "dev-proxy"
	devRSALabel = "sign-rsa"
	devECLabel  = "sign-p256"
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

	url, drop, err := pgtest.CreateDatabase(ctx)
	if err != nil {
		return fail(fmt.Errorf("throwaway control database: %w", err))
	}
	undo = append(undo, pgtest.Shutdown, drop)
	db, err := postgres.OpenWritable(postgres.Options{URL: url})
	if err != nil {
		return fail(err)
	}
	defer db.Close()
	if err := signsetup.Prepare(ctx, db); err != nil {
		return fail(err)
	}
	tok, err := softhsm.Open()
	if err != nil {
		return fail(fmt.Errorf("throwaway SoftHSM2 token: %w", err))
	}
	undo = append(undo, tok.Close)
	part, err := signsetup.NewPartition(ctx, db, tok, signsetup.TenantA,
		append(signsetup.SigningKeys(devRSALabel, true), signsetup.SigningKeys(devECLabel, false)...)...)
	if err != nil {
		return fail(err)
	}
	clientKey, err := signsetup.Register(ctx, db, signsetup.TenantA, signsetup.ModuleA, devKID)
	if err != nil {
		return fail(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(clientKey)
	if err != nil {
		return fail(err)
	}
	keyPath := filepath.Join(dir, "client-key.pem")
	if err := os.WriteFile(keyPath, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		return fail(err)
	}
	// The keys' certificates: Swiss qualified signatures, like the
	// branch's SignerCHQES, with serials of their own (random, so that no
	// two runs issue different certificates under one issuer and serial).
	chains := map[string]string{}
	for _, k := range []struct{ label, cn string }{{devRSALabel, "SVC DSS Dev Signer RSA"}, {devECLabel, "SVC DSS Dev Signer P-256"}} {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fail(err)
		}
		serial := int64(binary.BigEndian.Uint64(b[:]) >> 2)
		cert, err := p.IssueLike(p.SignerCHQES, k.cn, serial, part.Public[k.label])
		if err != nil {
			return fail(err)
		}
		var chain []byte
		for _, c := range []*x509.Certificate{cert, p.IntermediateCH.Certificate} {
			chain = append(chain, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})...)
		}
		chains[k.label] = filepath.Join(dir, k.label+".pem")
		if err := os.WriteFile(chains[k.label], chain, 0o644); err != nil {
			return fail(err)
		}
	}
	cfg.ControlDB.URL = url
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
