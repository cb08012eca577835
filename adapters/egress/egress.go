// Package egress is the service's outbound HTTP: one client configuration
// (proxy, timeouts) for everything that leaves the process, and the
// trusted-list download built on it.
//
// # What applies where
//
// The proxy applies to all outbound HTTP, the trusted-list refresh
// included. The private-network guard and the host allow-list apply only
// to certificate-driven fetches (AIA, OCSP, CRL), whose URLs come from
// untrusted uploads; trusted-list URLs are configured by the operator and
// are never subject to them (validation-service.md, "Egress control").
package egress

import (
	"fmt"
	"net"
	"net/http"
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
	// means DefaultTimeout.
	Timeout time.Duration
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
	if o.ProxyHost != "" {
		if o.ProxyPort < 1 || o.ProxyPort > 65535 {
			return nil, fmt.Errorf("egress: proxy %s needs a port from 1 to 65535, got %d", o.ProxyHost, o.ProxyPort)
		}
		proxy := &url.URL{Scheme: "http", Host: net.JoinHostPort(o.ProxyHost, strconv.Itoa(o.ProxyPort))}
		t.Proxy = http.ProxyURL(proxy)
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	return &http.Client{Transport: t, Timeout: timeout}, nil
}
