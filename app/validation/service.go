package validation

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/adapters/privateca"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/ports"
)

// A Validator validates signed documents: it reads their signatures with
// the readers of the formats it reads, and decides each with the ETSI EN
// 319 102-1 process against one snapshot of its trust store (the EU and
// Swiss trusted lists and the private anchors it was given), fetching
// the revocation data and issuers the documents point to unless it is
// offline. Build one with [New]; it is safe for concurrent use, and
// [Validator.Refresh] swaps its trust snapshot atomically under running
// validations.
//
// It knows no tenant, session nor schedule: the validation service
// (app/validator) authenticates the caller and refreshes the trust store
// on its schedule, through this front door.
type Validator struct {
	*core
	// at is the validation time of this view; zero: the clock's now.
	at time.Time
	// anchors are the private anchors of this view (WithPrivateAnchors,
	// Trusting).
	anchors []*x509.Certificate
	// algorithms are the cryptographic constraints of this view
	// (Judging); nil: the core's.
	algorithms *algorithm.Catalogue
}

// core is what the views of a validator share.
type core struct {
	logger     *slog.Logger
	clock      func() time.Time
	trust      *TrustStore
	thresholds freshness.Thresholds
	anchorSets *anchorCache
	// formats are the formats the validator reads; readers their
	// readers, each behind its format's detector, tried in order.
	formats    *formats.Registry
	readers    []ports.DocumentReader
	revocation ports.RevocationSource
	issuers    ports.CertificateSource
	// importable: the list cache is the service's (WithListStore), which
	// Import may write.
	importable bool
	// certificates are the untrusted certificates of WithCertificates.
	certificates []*x509.Certificate
	// algorithms are the cryptographic constraints every validation
	// applies, built once.
	algorithms algorithm.Catalogue
	// policy is the validation policy of a document that names none
	// (WithPolicy).
	policy policy.Policy
	// expiryWarning is the window of WithExpiryWarning.
	expiryWarning time.Duration
	// observer learns of validations, refreshes and fetches
	// (WithObserver).
	observer Observer
}

// New builds a validator from opts. Without options it reads every
// registered format, trusts no list and no anchor (a signature comes out
// INDETERMINATE/NO_CERTIFICATE_CHAIN_FOUND at best), validates at the
// time of the call and fetches revocation data online, never from a
// private address. Trust from a cache (WithListCache, WithListStore) is
// loaded, and trust from files (WithTrustedListFiles) checked, before
// New returns; New downloads nothing and starts no goroutine, timer or
// listener that outlives it. An option that cannot be used is an error
// that names it.
func New(ctx context.Context, opts ...Option) (*Validator, error) {
	s := settings{logger: slog.New(slog.DiscardHandler), clock: time.Now, thresholds: DefaultThresholds(), registry: formats.Default(), observer: nopObserver{}, set: map[string]bool{}}
	for _, o := range opts {
		if o.apply == nil {
			return nil, errors.New("validation: the zero Option")
		}
		if err := o.apply(&s); err != nil {
			return nil, &OptionError{Option: o.name, Err: err}
		}
	}
	if err := s.exclusive(
		[]string{"WithListCache", "WithListStore", "WithTrustedListFiles"},
		[]string{"WithEULOTL", "WithTrustedListFiles"},
		[]string{"WithSwissList", "WithTrustedListFiles"},
		[]string{"WithFormats", "WithReaders"},
	); err != nil {
		return nil, err
	}
	if (s.listCache != "" || s.listStore != nil) && s.lotl == nil && s.swiss == nil {
		name := "WithListCache"
		if s.listStore != nil {
			name = "WithListStore"
		}
		return nil, fmt.Errorf("validation: %s: names no list to read: give WithEULOTL or WithSwissList", name)
	}
	reg := s.registry
	if s.formatNames != nil {
		var err error
		if reg, err = reg.Only(s.formatNames...); err != nil {
			return nil, fmt.Errorf("validation: WithFormats: %w", err)
		}
	}
	ts, err := s.trustStore(ctx)
	if err != nil {
		return nil, err
	}
	client, err := egress.NewCertClient(egress.Options{
		ProxyHost: s.egress.ProxyHost, ProxyPort: s.egress.ProxyPort,
		AllowPrivateNetworksUnsafe: s.egress.AllowPrivateNetworks,
		AllowedHosts:               s.egress.AllowedHosts,
	})
	if err != nil {
		return nil, fmt.Errorf("validation: WithEgress: %w", err)
	}
	c := &core{
		logger:       s.logger,
		clock:        s.clock,
		trust:        ts,
		thresholds:   s.thresholds,
		anchorSets:   &anchorCache{},
		algorithms:   algorithm.Default(),
		formats:      reg,
		readers:      reg.Readers(),
		revocation:   egress.NewRevocationSource(client, egress.NewRevocationCache(s.clock, egress.CacheOptions{}), s.logger, s.offline).Observe(s.observer),
		issuers:      egress.NewIssuerSource(client, s.logger, s.offline),
		certificates: s.certificates,
		importable:   s.listStore != nil,
		observer:     s.observer,
	}
	if s.readers != nil {
		c.readers = s.readers
	}
	// The embedded default is parsed only when no policy was given (the
	// validate command gives the one it has read already).
	if s.policy != nil {
		c.policy = *s.policy
	} else {
		c.policy = policy.Default()
	}
	if s.algorithms != nil {
		c.algorithms = *s.algorithms
	}
	c.expiryWarning = s.expiryWarning
	switch {
	case s.files != nil:
		ts.Refresh(ctx)
	case s.listCache != "" || s.listStore != nil:
		ts.LoadCache(ctx)
	}
	return &Validator{core: c, at: s.at, anchors: s.anchors}, nil
}

// trustStore builds the trust store the options describe.
func (s *settings) trustStore(ctx context.Context) (*TrustStore, error) {
	var src TrustSources
	if s.lotl != nil {
		src.LOTLURL, src.OJCerts, src.OJSource = s.lotl.URL, s.lotl.Signers, s.lotl.SignersFrom
	}
	if s.swiss != nil {
		src.SwissURL, src.SwissCerts, src.SwissSource = s.swiss.URL, s.swiss.Signers, s.swiss.SignersFrom
	}
	var cache ports.TrustListCache = tlcache.NewMemory()
	var source ports.TrustListSource
	switch {
	case s.files != nil:
		f := s.files
		if f.lotl != "" {
			src.LOTLURL, src.OJCerts = f.lotl, f.signers
		}
		if f.swiss != "" {
			src.SwissURL, src.SwissCerts = f.swiss, f.signers
		}
		source = f
	default:
		client, err := egress.NewClient(egress.Options{ProxyHost: s.egress.ProxyHost, ProxyPort: s.egress.ProxyPort})
		if err != nil {
			return nil, fmt.Errorf("validation: WithEgress: %w", err)
		}
		source = egress.NewListSource(client)
	}
	switch {
	case s.listStore != nil:
		cache = s.listStore
	case s.listCache != "":
		disk, err := tlcache.Open(s.listCache, s.logger)
		if err != nil {
			return nil, fmt.Errorf("validation: WithListCache: %w", err)
		}
		cache = tlcache.Over(disk)
	}
	var private trust.PrivateCA
	if s.privateDir != nil {
		private = loadPrivateCA(ctx, *s.privateDir, s.logger)
	}
	return NewTrustStore(src, cache, source, private, s.clock, s.logger), nil
}

// loadPrivateCA reads the private anchors of dir (WithPrivateCADirectory).
func loadPrivateCA(ctx context.Context, dir string, logger *slog.Logger) trust.PrivateCA {
	p := trust.PrivateCA{Enabled: true, Directory: dir}
	anchors, skipped, err := privateca.Load(ctx, p.Directory, logger)
	if err != nil {
		p.Problem = "the directory cannot be read"
		logger.Warn("private CA anchors enabled but the directory cannot be read", slog.String("directory", p.Directory), slog.String("error", err.Error()))
		return p
	}
	p.Anchors, p.Skipped = anchors, skipped
	if len(anchors) == 0 {
		logger.Warn("private CA anchors enabled but none was loaded", slog.String("directory", p.Directory))
	} else {
		logger.Info("private CA anchors loaded", slog.Int("count", len(anchors)), slog.String("directory", p.Directory))
	}
	return p
}

// At returns a view of v that validates at t: it shares v's trust store,
// readers and caches.
func (v *Validator) At(t time.Time) *Validator {
	w := *v
	w.at = t
	return &w
}

// Trusting returns a view of v that also trusts certs as private anchors,
// as WithPrivateAnchors does: for one validation's anchors (the validate
// command's --trust-anchor), without building a validator again.
func (v *Validator) Trusting(certs ...*x509.Certificate) *Validator {
	w := *v
	w.anchors = slices.Concat(v.anchors, certs)
	return &w
}

// Refresh runs one online pass over the trusted lists: each is
// downloaded (or confirmed unchanged) and authenticated, and the new
// snapshot is swapped in for the validations that start after it. A list
// that fails keeps its last good copy. It returns the new snapshot.
func (v *Validator) Refresh(ctx context.Context) *trust.Snapshot {
	began := time.Now()
	snap := v.trust.Refresh(ctx)
	v.observer.TrustRefreshed(snap, time.Since(began))
	return snap
}

// Snapshot returns the trust snapshot validations read now.
func (v *Validator) Snapshot() *trust.Snapshot { return v.trust.Snapshot() }

// Thresholds are the freshness thresholds of the configuration.
func (v *Validator) Thresholds() freshness.Thresholds { return v.thresholds }

// Formats names the formats the validator reads, in the order they are
// tried ("CAdES, PAdES, XAdES"): from its registry, for the pages that say what
// may be uploaded.
func (v *Validator) Formats() string { return v.formats.List() }

// TrustStatus evaluates the current snapshot at now, and names it by
// its digests as a verdict does (trustData.snapshot).
func (v *Validator) TrustStatus(now time.Time) verdict.TrustData {
	snap := v.trust.Snapshot()
	td := verdict.NewTrustData(snap, now, v.thresholds)
	td.Snapshot = trustSnapshot(snap, v.anchors)
	return td
}
