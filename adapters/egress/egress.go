package egress

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"time"
)

// Options configure outbound HTTP.
type Options struct {
	// ProxyHost and ProxyPort name an HTTP proxy for all egress; empty
	// host means direct connections.
	ProxyHost string
	ProxyPort int
	// Timeout bounds one whole exchange (connect, headers, body). Zero
	// means DefaultTimeout for NewClient and DefaultCertTimeout for
	// NewCertClient.
	Timeout time.Duration

	// AllowPrivateNetworksUnsafe, AllowedHosts and Resolver concern
	// certificate-driven fetches only: NewCertClient applies them,
	// NewClient ignores them.
	//
	// AllowPrivateNetworksUnsafe lets certificate-driven fetches reach
	// addresses for which BlockedAddr is true. The zero value denies them,
	// so that a caller who forgets the option is safe; it is set only when
	// svc.dss.validator.egress.deny-private-networks is false.
	AllowPrivateNetworksUnsafe bool
	// AllowedHosts, when not empty, is the only hosts certificate-driven
	// fetches may reach: exact names, compared case-insensitively,
	// without a trailing dot. Empty means any host.
	AllowedHosts []string
	// Resolver resolves host names for direct connections; nil means
	// net.DefaultResolver. Tests use it to simulate DNS answers.
	Resolver Resolver

	// exempt is the one address and port a denying guard lets a resolved
	// name connect to: a loopback test server, so that tests can go
	// through the whole guarded path (resolve, vet, dial, redirect) with
	// the guard on. Only the package's tests set it (export_test.go);
	// every caller outside the package has the zero value, which exempts
	// nothing.
	exempt netip.AddrPort
}

// DefaultTimeout bounds one outbound exchange. Trusted lists are a few
// megabytes; a publisher slower than this is treated as unreachable for
// this pass, and the last good copy stays in use.
const DefaultTimeout = 60 * time.Second

// NewClient returns the HTTP client for o. The proxy comes from o only:
// the process environment (HTTPS_PROXY…) is deliberately not consulted, so
// that the configuration is the one place that decides.
func NewClient(o Options) (*http.Client, error) {
	t := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout:   15 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		ForceAttemptHTTP2:     true,
	}
	proxy, err := o.proxyURL()
	if err != nil {
		return nil, err
	}
	if proxy != nil {
		t.Proxy = http.ProxyURL(proxy)
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	return &http.Client{Transport: t, Timeout: timeout}, nil
}

// proxyURL returns the proxy of o, or nil for direct connections.
func (o Options) proxyURL() (*url.URL, error) {
	if o.ProxyHost == "" {
		return nil, nil
	}
	if o.ProxyPort < 1 || o.ProxyPort > 65535 {
		return nil, fmt.Errorf("egress: proxy %s needs a port from 1 to 65535, got %d", o.ProxyHost, o.ProxyPort)
	}
	return &url.URL{Scheme: "http", Host: net.JoinHostPort(o.ProxyHost, strconv.Itoa(o.ProxyPort))}, nil
}
