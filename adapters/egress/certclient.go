package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"time"
)

// Limits of certificate-driven fetches. Response bodies are capped by the
// readers: ocsp.MaxResponseBytes, crl.MaxBytes and MaxCAIssuersBytes.
const (
	// DefaultCertTimeout bounds one certificate-driven exchange, body
	// included. It is shorter than DefaultTimeout because a validation
	// request waits for it; it still lets a CRL of a few tens of
	// megabytes arrive over a modest link.
	DefaultCertTimeout = 20 * time.Second

	// MaxRedirects bounds the redirects followed. Distribution points
	// redirect once or twice at most (to a CDN, to https); more is a
	// loop or a probe.
	MaxRedirects = 3

	certDialTimeout     = 5 * time.Second
	certHeaderTimeout   = 10 * time.Second
	certMaxHeaderBytes  = 64 << 10
	certIdleConnTimeout = 30 * time.Second
)

// NewCertClient returns the client for certificate-driven fetches (AIA CA
// issuers, OCSP, CRL), whose URLs come from untrusted certificates.
//
// Before any connection, for the first URL and every redirect, it refuses
// (with a *BlockedError, which http.Client wraps in a *url.Error) a scheme
// other than http and https, a host that is neither an IP address nor an
// ASCII host name (Unicode, empty labels), a host not on o.AllowedHosts
// when that is not empty, and, unless o.AllowPrivateNetworksUnsafe, an IP literal for which
// BlockedAddr is true, "localhost" and "*.localhost", and numeric host
// names that inet_aton-style parsers read as addresses.
//
// Direct connections (no proxy): the client resolves the host with
// o.Resolver, refuses the host if any of its addresses is blocked, and
// dials the vetted addresses themselves, never the name, so the answer
// checked is the answer used (no DNS rebinding). A socket-level check of
// the dialled address backs this up.
//
// Through a proxy (o.ProxyHost): the client connects only to the proxy,
// which is the operator's and may well be on a private network, so the
// proxy's address is not checked. The target's address is resolved by the
// proxy and cannot be seen: only the checks before connection apply.
// Deployments that need address checks behind a proxy must configure the
// proxy to refuse private destinations, or use the allow-list.
//
// The environment's proxy settings are not consulted, as for NewClient.
func NewCertClient(o Options) (*http.Client, error) {
	proxy, err := o.proxyURL()
	if err != nil {
		return nil, err
	}
	resolver := o.Resolver
	if resolver == nil {
		resolver = net.DefaultResolver
	}
	g := newGuard(o, resolver)
	dialer := &net.Dialer{Timeout: certDialTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		TLSHandshakeTimeout:    certDialTimeout,
		ResponseHeaderTimeout:  certHeaderTimeout,
		MaxResponseHeaderBytes: certMaxHeaderBytes,
		MaxIdleConnsPerHost:    2,
		IdleConnTimeout:        certIdleConnTimeout,
		ForceAttemptHTTP2:      true,
	}
	if proxy != nil {
		t.Proxy = http.ProxyURL(proxy)
		t.DialContext = dialer.DialContext
	} else {
		if g.deny {
			dialer.Control = g.control
		}
		t.DialContext = g.dial(dialer)
	}
	timeout := o.Timeout
	if timeout == 0 {
		timeout = DefaultCertTimeout
	}
	return &http.Client{
		Transport: &guardedTransport{guard: g, next: t},
		Timeout:   timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return fmt.Errorf("egress: more than %d redirects", MaxRedirects)
			}
			return g.checkURL(req.URL)
		},
	}, nil
}

// dial returns the DialContext of direct connections: resolve, vet every
// address, dial the addresses in order.
func (g *guard) dial(d *net.Dialer) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		var addrs []netip.Addr
		if a, err := netip.ParseAddr(host); err == nil {
			addrs = []netip.Addr{a}
		} else {
			ipNet := "ip"
			switch network {
			case "tcp4":
				ipNet = "ip4"
			case "tcp6":
				ipNet = "ip6"
			}
			if addrs, err = g.resolver.LookupNetIP(ctx, ipNet, host); err != nil {
				return nil, err
			}
			if len(addrs) == 0 {
				return nil, &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
			}
		}
		if g.deny {
			p, err := strconv.ParseUint(port, 10, 16)
			if err != nil {
				return nil, fmt.Errorf("egress: port %q: %w", port, err)
			}
			// One bad address refuses the host: a public name with a
			// private address among its answers is a probe, not a
			// CA.
			for _, a := range addrs {
				if g.refused(netip.AddrPortFrom(a, uint16(p))) {
					return nil, &BlockedError{Host: host, Addr: a, Reason: BlockedAddress}
				}
			}
		}
		var errs []error
		for _, a := range addrs {
			conn, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
			if err == nil {
				return conn, nil
			}
			errs = append(errs, err)
			if ctx.Err() != nil {
				break
			}
		}
		return nil, errors.Join(errs...)
	}
}

// guardedTransport checks every request, redirects included, before the
// transport may connect.
type guardedTransport struct {
	guard *guard
	next  *http.Transport
}

func (t *guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := t.guard.checkURL(req.URL); err != nil {
		if req.Body != nil {
			req.Body.Close() // RoundTrip must close the body, even on error
		}
		return nil, err
	}
	res, err := t.next.RoundTrip(req)
	if be, ok := errors.AsType[*BlockedError](err); ok && be.URL == "" {
		// Refused while dialling, where the URL is not known. A copy,
		// because a dial may be shared between requests.
		cp := *be
		cp.URL = req.URL.Redacted()
		return nil, &cp
	}
	return res, err
}

// CloseIdleConnections lets http.Client.CloseIdleConnections reach the
// transport.
func (t *guardedTransport) CloseIdleConnections() { t.next.CloseIdleConnections() }
