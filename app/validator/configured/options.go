package configured

import (
	"crypto/x509"
	"fmt"
	"log/slog"
	"time"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/freshness"
)

// ValidationOptions are the options of the validation front door
// (validation.New) that cfg describes: the EU LOTL and the Swiss list
// with their signers' keystore and certificate, the service's cache (its
// refreshes write it), the private CA directory, the egress guard,
// offline validation, the freshness thresholds, the logger and the clock.
// The validation service and its validate and trust commands build their
// validator from them. It logs the start-up warnings of trust and egress
// configuration and never fails for trust configuration: a missing
// keystore is a warning and a banner, not a refusal (§1).
func ValidationOptions(cfg config.Validator, logger *slog.Logger, clock func() time.Time) ([]validation.Option, error) {
	cache, err := tlcache.Open(cfg.TLCacheDir, logger)
	if err != nil {
		return nil, fmt.Errorf("app: trusted-list cache: %w", err)
	}
	lotl := validation.TrustedList{URL: cfg.EU.LOTLURL, SignersFrom: cfg.EU.OJKeystore.Path}
	if certs, err := keystore.ReadTrustStore(cfg.EU.OJKeystore.Path, cfg.EU.OJKeystoreType, cfg.EU.OJKeystorePassword); err != nil {
		logger.Warn("EU LOTL signer keystore unusable: the LOTL and every member-state list are held unauthenticated until it is supplied",
			slog.String("key", "svc.dss.validator.eu.oj-keystore"), slog.String("file", cfg.EU.OJKeystore.Path), slog.String("error", err.Error()))
	} else {
		lotl.Signers = certs
	}
	opts := []validation.Option{
		validation.WithListStore(cache),
		validation.WithEULOTL(lotl),
	}
	if cfg.Swiss.Enabled {
		swiss := validation.TrustedList{URL: cfg.Swiss.TLURL, SignersFrom: cfg.Swiss.TLSignerCert.Path}
		if certs, err := keystore.ReadCertificateFile(cfg.Swiss.TLSignerCert.Path); err != nil {
			logger.Warn("Swiss trusted-list signer certificate unusable: the Swiss list is held unauthenticated until it is supplied",
				slog.String("key", "svc.dss.validator.swiss.ch-tl-signer-cert"), slog.String("file", cfg.Swiss.TLSignerCert.Path), slog.String("error", err.Error()))
		} else {
			swiss.Signers = certs
		}
		opts = append(opts, validation.WithSwissList(swiss))
	}
	return append(opts, listlessOptions(cfg, logger, clock)...), nil
}

// ValidationOptionsWithListFiles are ValidationOptions with the trusted
// lists of the given files (validation.WithTrustedListFiles, signers
// authenticating the LOTL and the Swiss list) in place of the configured
// lists and their cache: the cache is neither opened, read nor written,
// and the configured signers are not read. The private CA directory,
// egress, offline validation, the freshness thresholds, the logger and
// the clock are cfg's. The validate command's --trusted-list builds its
// validator from them; New reports a file it cannot use as a
// *validation.OptionError for WithTrustedListFiles.
func ValidationOptionsWithListFiles(cfg config.Validator, logger *slog.Logger, clock func() time.Time, signers []*x509.Certificate, files ...string) []validation.Option {
	return append([]validation.Option{validation.WithTrustedListFiles(signers, files...)}, listlessOptions(cfg, logger, clock)...)
}

// listlessOptions are the options of cfg that do not concern the
// trusted lists.
func listlessOptions(cfg config.Validator, logger *slog.Logger, clock func() time.Time) []validation.Option {
	opts := []validation.Option{
		validation.WithLogger(logger),
		validation.WithClock(clock),
		validation.WithFreshness(freshness.Thresholds{WarnAfter: cfg.Trust.WarnAfter, FailAfter: cfg.Trust.FailAfter,
			FailureThreshold: cfg.Trust.FailureThreshold, WithdrawalWindow: cfg.Trust.WithdrawalWindow}),
		validation.WithEgress(validation.Egress{ProxyHost: cfg.Egress.ProxyHost, ProxyPort: cfg.Egress.ProxyPort,
			AllowedHosts: cfg.Egress.AllowedHosts, AllowPrivateNetworks: !cfg.Egress.DenyPrivateNetworks}),
	}
	if cfg.PrivateCA.Enabled {
		opts = append(opts, validation.WithPrivateCADirectory(cfg.PrivateCA.Directory.Path))
	}
	if !cfg.Egress.DenyPrivateNetworks {
		logger.Warn("svc.dss.validator.egress.deny-private-networks is false: certificate-driven fetches may reach private and loopback addresses")
	}
	if cfg.Offline {
		opts = append(opts, validation.Offline())
	}
	return opts
}
