//go:build dev

package main

import (
	"encoding/pem"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"software.sslmate.com/src/go-pkcs12"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/sampleset"
	"github.com/svc-dss/dss/fixtures/tl"
)

// devBuild reports that this binary has development mode: built with
// the tag dev, which go tool task run and the test task set.
const devBuild = true

// devKeystorePassword protects the generated fixture keystore; it guards
// nothing of value.
const devKeystorePassword = "dev"

// devTrust replaces the trust configuration with fixture trust data, for
// --dev only: a fixture PKI (with OCSP, CRL and TSA) at
// svc.dss.validator.dev.pki-address, the private root of the samples of
// fixtures/samples as a private anchor, and a LOTL, two
// member lists and a Swiss list issued now, signed by fixture keys and
// served on 127.0.0.1. The configuration points at them and at a
// generated OJ keystore and Swiss signer certificate, so the real
// download, authentication, cache and refresh paths run without internet.
// Unless a report seal is configured, a fixture seal key of the Swiss
// branch, time-stamped by the fixture TSA, seals the PDF reports and
// tokens.
// The returned function stops the servers and removes the files.
func devTrust(cfg config.Validator, logger *slog.Logger) (config.Validator, func(), error) {
	srv, err := pki.NewServerAt(cfg.DevPKIAddress)
	if err != nil {
		return cfg, nil, fmt.Errorf("fixture PKI (svc.dss.validator.dev.pki-address; the samples of fixtures/samples need the default %s, port 0 picks a free one): %w", pki.DevAddress, err)
	}
	// With the EU and Swiss branches, so that every qualification outcome
	// of fixtures/samples shows in development mode.
	eco, err := tl.NewEcosystemWith(srv.PKI, time.Now(), tl.EcosystemOptions{Branches: true})
	if err != nil {
		srv.Close()
		return cfg, nil, fmt.Errorf("fixture trusted lists: %w", err)
	}
	dir, err := os.MkdirTemp("", "svc-dss-dev-")
	stop := func() {
		eco.Close()
		srv.Close()
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	if err != nil {
		stop()
		return cfg, nil, err
	}
	ks, err := eco.OJKeystore(devKeystorePassword)
	if err != nil {
		stop()
		return cfg, nil, err
	}
	ksPath, chPath := filepath.Join(dir, "eu-oj-keystore.p12"), filepath.Join(dir, "CH-TL-cert-DER.cer")
	if err := os.WriteFile(ksPath, ks, 0o600); err != nil {
		stop()
		return cfg, nil, err
	}
	if err := os.WriteFile(chPath, eco.SwissSignerDER(), 0o600); err != nil {
		stop()
		return cfg, nil, err
	}
	// The samples' private CA is a private anchor, as an operator's own
	// CA would be; it replaces any configured private-CA directory.
	root, err := sampleset.PrivateRoot(srv.PKI)
	if err != nil {
		stop()
		return cfg, nil, err
	}
	anchors := filepath.Join(dir, "private-ca")
	if err := os.Mkdir(anchors, 0o700); err != nil {
		stop()
		return cfg, nil, err
	}
	if err := os.WriteFile(filepath.Join(anchors, sampleset.PrivateAnchorName), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: root.Raw}), 0o600); err != nil {
		stop()
		return cfg, nil, err
	}
	cfg.PrivateCA = config.PrivateCA{Enabled: true, Directory: config.Location{Raw: "file:" + anchors, Path: anchors}}
	// The reports are sealed by a fixture seal of the Swiss branch,
	// time-stamped by the fixture TSA, unless the operator brought a seal.
	if !cfg.ReportSeal.Configured() {
		seal := srv.PKI.SealCHRegulated
		p12, err := pkcs12.Modern.Encode(seal.Key, seal.Certificate, seal.Chain()[1:], devKeystorePassword)
		if err != nil {
			stop()
			return cfg, nil, fmt.Errorf("fixture report seal: %w", err)
		}
		sealPath := filepath.Join(dir, "report-seal.p12")
		if err := os.WriteFile(sealPath, p12, 0o600); err != nil {
			stop()
			return cfg, nil, err
		}
		cfg.ReportSeal = config.ReportSeal{PKCS12File: config.Location{Raw: "file:" + sealPath, Path: sealPath},
			PKCS12Password: devKeystorePassword, TSAURL: srv.PKI.TSAURL()}
	}
	cfg.EU.LOTLURL = eco.LOTLURL
	cfg.EU.OJKeystore = config.Location{Raw: "file:" + ksPath, Path: ksPath}
	cfg.EU.OJKeystoreType = "PKCS12"
	cfg.EU.OJKeystorePassword = devKeystorePassword
	cfg.Swiss.Enabled = true
	cfg.Swiss.TLURL = eco.SwissURL
	cfg.Swiss.TLSignerCert = config.Location{Raw: "file:" + chPath, Path: chPath}
	cfg.TLCacheDir = filepath.Join(dir, "tl-cache")
	cfg.Trust.StartupCatchUpDelay = 0 // show a healthy store at once
	cfg.RefreshJitter = 0             // one instance: no replicas to spread
	// The fixture PKI's OCSP, CRL and CA-issuer servers are on 127.0.0.1,
	// which the private-network guard refuses.
	cfg.Egress.DenyPrivateNetworks = false
	logger.Warn("DEVELOPMENT MODE: fixture trust data in use (test PKI and fixture trusted lists on 127.0.0.1); verdicts are meaningless for real documents; private-network egress allowed for the fixture PKI",
		slog.String("lotl", eco.LOTLURL), slog.String("swiss", eco.SwissURL), slog.String("pki", srv.URL))
	return cfg, stop, nil
}
