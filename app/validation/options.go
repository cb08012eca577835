package validation

import (
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/svc-dss/dss/adapters/formats"
	"github.com/svc-dss/dss/adapters/policy"
	"github.com/svc-dss/dss/domain/algorithm"
	"github.com/svc-dss/dss/domain/freshness"
	"github.com/svc-dss/dss/ports"
)

// An Option is one setting of [New]: the trust material a validation is
// decided against, how revocation data is found, the validation time,
// the logger, the formats read. Options are values: the same option may
// be given to several validators. An option that cannot be used makes
// New fail with an error that names it.
type Option struct {
	name  string
	apply func(*settings) error
}

// String names the option, as New's errors do.
func (o Option) String() string { return o.name }

// OptionError is New's error for an option that cannot be used: a file
// it names that cannot be read, a value out of range. Option is the
// option's name (Option.String), Err what is wrong with it.
type OptionError struct {
	Option string
	Err    error
}

func (e *OptionError) Error() string { return "validation: " + e.Option + ": " + e.Err.Error() }

func (e *OptionError) Unwrap() error { return e.Err }

// settings are what the options set, before New wires them.
type settings struct {
	logger *slog.Logger
	clock  func() time.Time
	at     time.Time // WithTime

	lotl, swiss *TrustedList
	// listCache is the on-disk cache read only (WithListCache); listStore
	// the cache refreshes write (WithListStore).
	listCache string
	listStore ports.TrustListCache
	files     *listFiles // WithTrustedListFiles

	privateDir   *string // WithPrivateCADirectory
	anchors      []*x509.Certificate
	certificates []*x509.Certificate

	offline bool
	egress  Egress

	thresholds freshness.Thresholds

	algorithms    *algorithm.Catalogue // WithCryptographicSuite
	expiryWarning time.Duration        // WithExpiryWarning

	registry    *formats.Registry
	formatNames []string
	readers     []ports.DocumentReader // WithReaders
	observer    Observer               // WithObserver
	policy      *policy.Policy         // WithPolicy
	// set names the options given, for those that exclude each other.
	set map[string]bool
}

// A TrustedList is where a trusted list is published and the certificates
// that may sign it.
type TrustedList struct {
	// URL is where the list is published: refreshes download it from
	// there, and the cache keeps it under that name.
	URL string
	// Signers are the certificates that may sign the list. None: the
	// list is held unauthenticated (NOT_CHECKED), as the service holds
	// it when its keystore is missing.
	Signers []*x509.Certificate
	// SignersFrom names where Signers come from (a keystore file), for
	// the trust status; empty means "the given certificates".
	SignersFrom string
}

// Egress is how the validator reaches the network for what the
// certificates of a document point to (revocation data, issuers): the
// egress guard's settings (validation-service.md, "Egress control").
type Egress struct {
	// ProxyHost and ProxyPort name an HTTP proxy; empty: none.
	ProxyHost string
	ProxyPort int
	// AllowedHosts, when not empty, are the only hosts fetched from.
	AllowedHosts []string
	// AllowPrivateNetworks lets fetches reach private and loopback
	// addresses (a test PKI on 127.0.0.1). Off by default: a document
	// must not make the validator probe the network it runs in.
	AllowPrivateNetworks bool
}

// DefaultThresholds are the freshness thresholds of the validation
// service's defaults: stale after 7 days without confirmation, expired
// after 30, failing after 3 refreshes failed in a row, and a withdrawal
// window of 30 days.
func DefaultThresholds() freshness.Thresholds {
	return freshness.Thresholds{WarnAfter: 7 * 24 * time.Hour, FailAfter: 30 * 24 * time.Hour, FailureThreshold: 3, WithdrawalWindow: 30 * 24 * time.Hour}
}

// WithPolicy validates the documents that name no policy
// (Document.Policy) under p instead of the embedded default
// (policy.Default).
func WithPolicy(p policy.Policy) Option {
	return option("WithPolicy", func(s *settings) error {
		if p.Name == "" {
			return errors.New("a policy without a name")
		}
		s.policy = &p
		return nil
	})
}

// errNilObserver is WithObserver's error for a nil observer.
var errNilObserver = errors.New("nil observer")

func option(name string, apply func(*settings) error) Option {
	return Option{name: name, apply: func(s *settings) error {
		s.set[name] = true
		return apply(s)
	}}
}

// WithLogger logs through l: trust passes, refused lists, fetches that
// failed, panics recovered. Without it nothing is logged.
func WithLogger(l *slog.Logger) Option {
	return option("WithLogger", func(s *settings) error {
		if l == nil {
			return errors.New("nil logger")
		}
		s.logger = l
		return nil
	})
}

// WithClock reads the time from now instead of time.Now: the validation
// time when WithTime does not fix one, and the time of trust passes.
func WithClock(now func() time.Time) Option {
	return option("WithClock", func(s *settings) error {
		if now == nil {
			return errors.New("nil clock")
		}
		s.clock = now
		return nil
	})
}

// WithTime validates at t instead of the clock's now (Validator.At does
// so for one view).
func WithTime(t time.Time) Option {
	return option("WithTime", func(s *settings) error {
		if t.IsZero() {
			return errors.New("zero time")
		}
		s.at = t
		return nil
	})
}

// WithEULOTL trusts what the EU list of trusted lists at l.URL and the
// member-state lists it points to say, each list authenticated as a
// refresh authenticates it: the LOTL by l.Signers (and the pivot LOTLs
// they authenticate), each member list by the certificates of the LOTL's
// pointer, under the territory that pointer names. The lists come from
// the cache (WithListCache, WithListStore) and from Refresh.
func WithEULOTL(l TrustedList) Option {
	return option("WithEULOTL", func(s *settings) error {
		if l.URL == "" {
			return errors.New("no URL")
		}
		s.lotl = &l
		return nil
	})
}

// WithSwissList trusts what the Swiss trusted list at l.URL says, read
// in ZertES terms and authenticated by l.Signers.
func WithSwissList(l TrustedList) Option {
	return option("WithSwissList", func(s *settings) error {
		if l.URL == "" {
			return errors.New("no URL")
		}
		s.swiss = &l
		return nil
	})
}

// WithListCache reads the trusted lists from the on-disk cache the
// validation service keeps in dir (svc.dss.validator.tl-cache-dir),
// without ever writing to it: what Refresh downloads is kept in memory.
// New loads the cached lists that WithEULOTL and WithSwissList name.
func WithListCache(dir string) Option {
	return option("WithListCache", func(s *settings) error {
		fi, err := os.Stat(dir)
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		s.listCache = dir
		return nil
	})
}

// WithListStore keeps the trusted lists in c, which refreshes write: the
// validation service's own cache (adapters/tlcache).
func WithListStore(c ports.TrustListCache) Option {
	return option("WithListStore", func(s *settings) error {
		if c == nil {
			return errors.New("nil cache")
		}
		s.listStore = c
		return nil
	})
}

// WithPrivateAnchors trusts certs as private anchors: a path that ends
// at one of them is trusted, under no trust framework (UNKNOWN), never
// qualified. They are the validator's own and are not part of the trust
// status.
func WithPrivateAnchors(certs ...*x509.Certificate) Option {
	return option("WithPrivateAnchors", func(s *settings) error {
		if slices.Contains(certs, nil) {
			return errors.New("nil certificate")
		}
		s.anchors = append(s.anchors, certs...)
		return nil
	})
}

// WithPrivateCADirectory trusts the certificates of the files in dir as
// private anchors, as the service's svc.dss.validator.private-ca does:
// the trust status names the directory, the anchors and the files that
// could not be read. A directory that cannot be read is reported there,
// not refused.
func WithPrivateCADirectory(dir string) Option {
	return option("WithPrivateCADirectory", func(s *settings) error {
		if dir == "" {
			return errors.New("no directory")
		}
		s.privateDir = &dir
		return nil
	})
}

// WithCertificates gives certificates that may serve as intermediates of
// a path, or identify a signer whose document does not carry its
// certificate. They are trusted for nothing.
func WithCertificates(certs ...*x509.Certificate) Option {
	return option("WithCertificates", func(s *settings) error {
		if slices.Contains(certs, nil) {
			return errors.New("nil certificate")
		}
		s.certificates = append(s.certificates, certs...)
		return nil
	})
}

// Offline fetches nothing while validating: the revocation data and
// certificates a document carries, and WithCertificates, are all there
// is. Trusted lists are fetched by Refresh only, whatever this says.
func Offline() Option {
	return option("Offline", func(s *settings) error {
		s.offline = true
		return nil
	})
}

// WithEgress fetches revocation data and issuers through e's guard.
// Without it, fetches go out directly and never reach a private or
// loopback address.
func WithEgress(e Egress) Option {
	return option("WithEgress", func(s *settings) error {
		if (e.ProxyHost == "") != (e.ProxyPort == 0) {
			return errors.New("a proxy needs both a host and a port")
		}
		if e.ProxyPort < 0 || e.ProxyPort > 65535 {
			return fmt.Errorf("proxy port %d out of range", e.ProxyPort)
		}
		e.AllowedHosts = slices.Clone(e.AllowedHosts)
		s.egress = e
		return nil
	})
}

// WithFreshness judges the trusted lists' freshness by th instead of
// DefaultThresholds.
func WithFreshness(th freshness.Thresholds) Option {
	return option("WithFreshness", func(s *settings) error {
		if th.WarnAfter <= 0 || th.FailAfter <= th.WarnAfter || th.FailureThreshold < 1 || th.WithdrawalWindow < 0 {
			return fmt.Errorf("want 0 < warn-after < fail-after, a failure threshold of at least 1 and a withdrawal window not negative, got %s, %s, %d, %s",
				th.WarnAfter, th.FailAfter, th.FailureThreshold, th.WithdrawalWindow)
		}
		s.thresholds = th
		return nil
	})
}

// WithFormats reads only the named formats of the registry ("CAdES",
// "PAdES"), in the registry's order; by default every registered format
// is read. A document of another format is unreadable.
func WithFormats(names ...string) Option {
	return option("WithFormats", func(s *settings) error {
		if len(names) == 0 {
			return errors.New("no format named")
		}
		s.formatNames = append(s.formatNames, names...)
		return nil
	})
}

// WithRegistry reads the formats of reg instead of those of
// formats.Default: for a format of the caller's own. The error for a
// document of no format reg reads names reg's formats.
func WithRegistry(reg *formats.Registry) Option {
	return option("WithRegistry", func(s *settings) error {
		if reg == nil {
			return errors.New("nil registry")
		}
		s.registry = reg
		return nil
	})
}

// WithReaders replaces the document readers with readers, tried in this
// order, bypassing the registry's detectors: for tests that need a
// reader of their own, one that fails or panics.
func WithReaders(readers ...ports.DocumentReader) Option {
	return option("WithReaders", func(s *settings) error {
		if len(readers) == 0 || slices.Contains(readers, nil) {
			return errors.New("want at least one reader, none nil")
		}
		s.readers = readers
		return nil
	})
}

// exclusive is the error for options that cannot be given together.
func (s *settings) exclusive(groups ...[]string) error {
	for _, g := range groups {
		var given []string
		for _, name := range g {
			if s.set[name] {
				given = append(given, name)
			}
		}
		if len(given) > 1 {
			return fmt.Errorf("validation: %s: cannot be given together", strings.Join(given, " and "))
		}
	}
	return nil
}
