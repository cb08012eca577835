package redisconn

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// The bounds of one command (see the package doc).
const (
	DialTimeout = 2 * time.Second
	IOTimeout   = 2 * time.Second
)

// Options say where Redis is and how to authenticate to it.
type Options struct {
	// URL is redis://[[user]:password@]host[:port][/db], or rediss://
	// for TLS. The port defaults to 6379, the database to 0.
	URL string
	// Password, when not empty, replaces the URL's password.
	Password string
	// CAFile, when not empty, is a PEM file of the certificate
	// authorities that sign the server's certificate, instead of the
	// system's. Only a rediss:// URL may have one.
	CAFile string
}

// ErrNoURL is Options without a URL.
var ErrNoURL = errors.New("redisconn: no URL")

// Open returns a client for o. It does not connect: the first command
// does, so that a replica starts while Redis is down and answers 502 on
// what needs it, and recovers when Redis does.
func Open(o Options) (*redis.Client, error) {
	opts, err := ParseOptions(o)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(opts), nil
}

// ParseOptions turns o into the client's options, reading the CA file.
func ParseOptions(o Options) (*redis.Options, error) {
	if o.URL == "" {
		return nil, ErrNoURL
	}
	opts, err := redis.ParseURL(o.URL)
	if err != nil {
		// go-redis's messages name the part at fault and never the
		// password, but url.Parse's quote the whole URL.
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, fmt.Errorf("redisconn: %s: %w", Redacted(o.URL), err)
	}
	if o.Password != "" {
		opts.Password = o.Password
	}
	if o.CAFile != "" {
		if opts.TLSConfig == nil {
			return nil, fmt.Errorf("redisconn: a CA file (%s) is set for %s, which is not TLS: use rediss://", o.CAFile, Redacted(o.URL))
		}
		pool, err := readCAs(o.CAFile)
		if err != nil {
			return nil, err
		}
		opts.TLSConfig.RootCAs = pool
	}
	opts.DialTimeout = DialTimeout
	opts.ReadTimeout = IOTimeout
	opts.WriteTimeout = IOTimeout
	opts.PoolTimeout = IOTimeout
	opts.MaxRetries = 1
	// One dial, and one again for the retry: a refused connection is
	// not worth five.
	opts.DialerRetries = 1
	// No CLIENT SETINFO nor CLIENT MAINT_NOTIFICATIONS on connect: older
	// servers and proxies refuse them, and the library logs each refusal.
	opts.DisableIdentity = true
	opts.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	return opts, nil
}

// readCAs reads a PEM file that must hold at least one certificate.
func readCAs(path string) (*x509.CertPool, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("redisconn: CA file: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(raw) {
		return nil, fmt.Errorf("redisconn: CA file %s holds no PEM certificate", path)
	}
	return pool, nil
}

// Redacted is rawURL with its password, if any, replaced by "xxxxx".
func Redacted(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return u.Redacted()
}
