package egress_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
)

// fakeDNS answers from a table and counts questions. No real DNS is
// consulted by any test; names under .test and .example.com that are not
// in the table do not resolve.
type fakeDNS struct {
	answers map[string][]netip.Addr
	asked   atomic.Int32
}

func newDNS(pairs ...string) *fakeDNS {
	d := &fakeDNS{answers: make(map[string][]netip.Addr)}
	for i := 0; i < len(pairs); i += 2 {
		d.answers[pairs[i]] = append(d.answers[pairs[i]], netip.MustParseAddr(pairs[i+1]))
	}
	return d
}

func (d *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	d.asked.Add(1)
	if a, ok := d.answers[strings.TrimSuffix(strings.ToLower(host), ".")]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// backend serves /ok, /redirect?to=URL[&code=30x] and /loop, counting
// requests.
func backend(t *testing.T) (*httptest.Server, *atomic.Int32, string) {
	t.Helper()
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/ok":
			io.WriteString(w, "ok")
		case "/redirect":
			code, err := strconv.Atoi(r.URL.Query().Get("code"))
			if err != nil {
				code = http.StatusFound
			}
			http.Redirect(w, r, r.URL.Query().Get("to"), code)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	return srv, &hits, port
}

func get(t *testing.T, c *http.Client, u string) (string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Do(req)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return string(b), err
}

func newCertClient(t *testing.T, o egress.Options) *http.Client {
	t.Helper()
	c, err := egress.NewCertClient(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPrivateNetworksDeniedByDefault: with the guard on, no request reaches the
// loopback backend, whatever the URL says and whatever DNS answers.
// Refusals of IP literals happen before any connection, so the private
// addresses in the table are never contacted.
func TestPrivateNetworksDeniedByDefault(t *testing.T) {
	t.Parallel()
	_, hits, port := backend(t)
	dns := newDNS(
		"loopback.example.test", "127.0.0.1",
		"v6loopback.example.test", "::1",
		"rebind.example.com", "10.0.0.1", // a public-looking name rebound to a private address
		"metadata.example.com", "169.254.169.254",
		"mixed.example.com", "93.184.215.14", "mixed.example.com", "127.0.0.1",
	)
	client := newCertClient(t, egress.Options{Resolver: dns})
	tests := []struct {
		url    string
		reason egress.BlockReason
		addr   string // the refused address, when one is known
	}{
		{"http://127.0.0.1:" + port + "/ok", egress.BlockedAddress, "127.0.0.1"},
		{"http://[::1]:" + port + "/ok", egress.BlockedAddress, "::1"},
		{"http://[::ffff:127.0.0.1]:" + port + "/ok", egress.BlockedAddress, "::ffff:127.0.0.1"},
		{"http://10.1.2.3/", egress.BlockedAddress, "10.1.2.3"},
		{"http://172.16.0.1/", egress.BlockedAddress, "172.16.0.1"},
		{"http://192.168.0.1/", egress.BlockedAddress, "192.168.0.1"},
		{"http://169.254.169.254/latest/meta-data/", egress.BlockedAddress, "169.254.169.254"},
		{"http://[fd00::1]/", egress.BlockedAddress, "fd00::1"},
		{"http://[fe80::1%25eth0]/", egress.BlockedAddress, "fe80::1%eth0"},
		{"http://0.0.0.0:" + port + "/ok", egress.BlockedAddress, "0.0.0.0"},
		{"http://[::]:" + port + "/ok", egress.BlockedAddress, "::"},
		{"http://224.0.0.1/", egress.BlockedAddress, "224.0.0.1"},
		{"http://[ff02::1]/", egress.BlockedAddress, "ff02::1"},
		{"http://localhost:" + port + "/ok", egress.BlockedAddress, ""},
		{"http://LocalHost.:" + port + "/ok", egress.BlockedAddress, ""},
		{"http://ocsp.localhost:" + port + "/ok", egress.BlockedAddress, ""},
		{"http://2130706433:" + port + "/ok", egress.BlockedAddress, ""}, // 127.0.0.1 to inet_aton
		{"http://0x7f000001:" + port + "/ok", egress.BlockedAddress, ""},
		{"http://127.1:" + port + "/ok", egress.BlockedAddress, ""},
		// Refused at dial time, after resolution, before connecting.
		{"http://loopback.example.test:" + port + "/ok", egress.BlockedAddress, "127.0.0.1"},
		{"http://v6loopback.example.test:" + port + "/ok", egress.BlockedAddress, "::1"},
		{"http://rebind.example.com/", egress.BlockedAddress, "10.0.0.1"},
		{"http://metadata.example.com/latest/meta-data/", egress.BlockedAddress, "169.254.169.254"},
		{"http://mixed.example.com:" + port + "/ok", egress.BlockedAddress, "127.0.0.1"},
		// Schemes.
		{"ldap://ldap.example.test/cn=CA?certificateRevocationList", egress.BlockedScheme, ""},
		{"file:///etc/passwd", egress.BlockedScheme, ""},
		{"ftp://ftp.example.test/ca.crl", egress.BlockedScheme, ""},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			_, err := get(t, client, tt.url)
			be, ok := errors.AsType[*egress.BlockedError](err)
			is.True(ok) // a *BlockedError
			is.Equal(be.Reason, tt.reason)
			is.Equal(be.URL, tt.url)
			if tt.addr != "" {
				is.Equal(be.Addr, netip.MustParseAddr(tt.addr))
			}
			is.True(egress.IsBlocked(err))
		})
	}
	t.Cleanup(func() {
		if n := hits.Load(); n != 0 {
			t.Errorf("the backend was reached %d times", n)
		}
	})
}

// TestDialUsesTheVettedAddress: the dialer connects to the address the
// resolver gave, not to a second resolution of the name (no real DNS
// knows the name).
func TestDialUsesTheVettedAddress(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	_, hits, port := backend(t)
	dns := newDNS("pki.example.test", "127.0.0.1")
	client := newCertClient(t, egress.Options{AllowPrivateNetworksUnsafe: true, Resolver: dns})
	body, err := get(t, client, "http://pki.example.test:"+port+"/ok")
	is.NoErr(err)
	is.Equal(body, "ok")
	is.Equal(hits.Load(), int32(1))
	is.Equal(dns.asked.Load(), int32(1))

	_, err = get(t, client, "http://unknown.example.test:"+port+"/ok")
	is.True(err != nil)
	is.True(!egress.IsBlocked(err)) // unresolvable is not blocked
}

func TestSocketLevelCheck(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr    string
		blocked bool
	}{
		{"127.0.0.1:80", true},
		{"[::1]:443", true},
		{"[fe80::1%eth0]:80", true},
		{"169.254.169.254:80", true},
		{"not an address", true},
		{"8.8.8.8:80", false},
		{"[2001:4860:4860::8888]:443", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			err := egress.CheckDialAddress(tt.addr)
			is.New(t).Equal(egress.IsBlocked(err), tt.blocked)
		})
	}
}

func TestAllowList(t *testing.T) {
	t.Parallel()
	_, _, port := backend(t)
	dns := newDNS(
		"pki.example.test", "127.0.0.1",
		"crl.example.test", "127.0.0.1",
		"sub.pki.example.test", "127.0.0.1",
		"example.test", "127.0.0.1",
		"pki.example.test.evil.test", "127.0.0.1",
	)
	client := newCertClient(t, egress.Options{AllowPrivateNetworksUnsafe: true, AllowedHosts: []string{"PKI.Example.Test", " crl.example.test. ", ""}, Resolver: dns})
	tests := []struct {
		host    string
		allowed bool
	}{
		{"pki.example.test", true},
		{"PKI.EXAMPLE.TEST", true},
		{"pki.example.test.", true},
		{"crl.example.test", true},
		{"sub.pki.example.test", false},
		{"example.test", false},
		{"pki.example.test.evil.test", false},
		{"127.0.0.1", false}, // the allow-list holds names; this is not one of them
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			body, err := get(t, client, "http://"+net.JoinHostPort(tt.host, port)+"/ok")
			if tt.allowed {
				is.NoErr(err)
				is.Equal(body, "ok")
				return
			}
			be, ok := errors.AsType[*egress.BlockedError](err)
			is.True(ok)
			is.Equal(be.Reason, egress.BlockedHost)
		})
	}
}

// TestRedirects: every redirect target is checked like the first URL.
func TestRedirects(t *testing.T) {
	t.Parallel()
	srv, hits, port := backend(t)
	dns := newDNS("pki.example.test", "127.0.0.1", "other.example.test", "127.0.0.1")
	client := newCertClient(t, egress.Options{AllowPrivateNetworksUnsafe: true, AllowedHosts: []string{"pki.example.test"}, Resolver: dns})
	start := "http://pki.example.test:" + port
	tests := []struct {
		name   string
		to     string
		reason egress.BlockReason // 0: followed
		hits   int32
	}{
		{name: "to an allowed host", to: start + "/ok", hits: 2},
		{name: "to a host off the allow-list", to: "http://other.example.test:" + port + "/ok", reason: egress.BlockedHost, hits: 1},
		{name: "to an address off the allow-list", to: srv.URL + "/ok", reason: egress.BlockedHost, hits: 1},
		{name: "to LDAP", to: "ldap://pki.example.test/cn=CA", reason: egress.BlockedScheme, hits: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			before := hits.Load()
			u := start + "/redirect?to=" + url.QueryEscape(tt.to)
			body, err := get(t, client, u)
			is.Equal(hits.Load()-before, tt.hits)
			if tt.reason == 0 {
				is.NoErr(err)
				is.Equal(body, "ok")
				return
			}
			be, ok := errors.AsType[*egress.BlockedError](err)
			is.True(ok)
			is.Equal(be.Reason, tt.reason)
			is.Equal(be.URL, tt.to)
		})
	}
	t.Run("loop", func(t *testing.T) {
		is := is.New(t)
		before := hits.Load()
		_, err := get(t, client, start+"/loop")
		is.True(err != nil)
		is.True(!egress.IsBlocked(err))
		is.Equal(hits.Load()-before, int32(egress.MaxRedirects+1))
	})
}

// forwardProxy is a minimal HTTP forward proxy that sends every request to
// target, whatever host it names, and records the hosts asked for. It
// stands for the operator's proxy, which resolves names itself.
func forwardProxy(t *testing.T, target *httptest.Server) (host string, port int, asked func() []string) {
	t.Helper()
	var mu sync.Mutex
	var hosts []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.IsAbs() {
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		mu.Lock()
		hosts = append(hosts, r.URL.Host)
		mu.Unlock()
		out := *r.URL
		out.Host = target.Listener.Addr().String()
		req, _ := http.NewRequestWithContext(r.Context(), r.Method, out.String(), nil)
		res, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		for k, v := range res.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}))
	t.Cleanup(proxy.Close)
	h, p, _ := net.SplitHostPort(proxy.Listener.Addr().String())
	port, _ = strconv.Atoi(p)
	return h, port, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), hosts...)
	}
}

// TestProxy: behind the proxy, the proxy's own (private) address is
// allowed, names are passed to it unresolved, and everything decidable
// before connecting is still refused before the proxy sees it.
func TestProxy(t *testing.T) {
	t.Parallel()
	srv, _, _ := backend(t)
	dns := newDNS() // must not be asked: the proxy resolves
	tests := []struct {
		name    string
		allowed []string
		url     string
		reason  egress.BlockReason // 0: fetched
		asked   []string           // hosts the proxy was asked for
	}{
		{name: "a name is passed on", url: "http://ca.example.test/ok", asked: []string{"ca.example.test"}},
		{name: "a private literal is refused", url: "http://10.0.0.1/ok", reason: egress.BlockedAddress},
		{name: "the metadata address is refused", url: "http://169.254.169.254/latest/meta-data/", reason: egress.BlockedAddress},
		{name: "localhost is refused", url: "http://localhost/ok", reason: egress.BlockedAddress},
		// The transport maps Unicode hosts (UTS #46) before it dials but
		// sends the proxy their Punycode: the guard must not judge a
		// third spelling.
		{name: "a full-width address is refused", url: "http://１２７.０.０.１/ok", reason: egress.BlockedHostName},
		{name: "a full-width localhost is refused", url: "http://ｌｏｃａｌｈｏｓｔ/ok", reason: egress.BlockedHostName},
		{name: "empty labels are refused", url: "http://127.0.0.1../ok", reason: egress.BlockedHostName},
		{name: "a redirect to a private literal is refused",
			url:    "http://ca.example.test/redirect?to=" + url.QueryEscape("http://169.254.169.254/latest/meta-data/"),
			reason: egress.BlockedAddress, asked: []string{"ca.example.test"}},
		{name: "the allow-list applies", allowed: []string{"ca.example.test"}, url: "http://other.example.test/ok", reason: egress.BlockedHost},
		{name: "an allowed name is passed on", allowed: []string{"ca.example.test"}, url: "http://CA.example.test/ok", asked: []string{"CA.example.test"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			host, port, asked := forwardProxy(t, srv)
			client := newCertClient(t, egress.Options{AllowedHosts: tt.allowed, ProxyHost: host, ProxyPort: port, Resolver: dns})
			body, err := get(t, client, tt.url)
			if tt.reason == 0 {
				is.NoErr(err)
				is.Equal(body, "ok")
			} else {
				be, ok := errors.AsType[*egress.BlockedError](err)
				is.True(ok)
				is.Equal(be.Reason, tt.reason)
			}
			is.Equal(asked(), tt.asked)
			is.Equal(dns.asked.Load(), int32(0))
		})
	}
}

func TestNewCertClientRefusesAProxyWithoutPort(t *testing.T) {
	_, err := egress.NewCertClient(egress.Options{ProxyHost: "proxy"})
	is.New(t).Equal(err.Error(), "egress: proxy proxy needs a port from 1 to 65535, got 0")
}

func TestBlockedErrorText(t *testing.T) {
	is := is.New(t)
	e := &egress.BlockedError{URL: "http://rebind.example.com/", Host: "rebind.example.com", Addr: netip.MustParseAddr("10.0.0.1"), Reason: egress.BlockedAddress}
	is.Equal(e.Error(), "egress: blocked http://rebind.example.com/: private or special-purpose address (rebind.example.com resolves to 10.0.0.1)")
	e = &egress.BlockedError{URL: "http://x.test/", Host: "x.test", Reason: egress.BlockedHost}
	is.Equal(e.Error(), "egress: blocked http://x.test/: host not on the allow-list (x.test)")
	e = &egress.BlockedError{URL: "http://x..test/", Host: "x..test", Reason: egress.BlockedHostName}
	is.Equal(e.Error(), "egress: blocked http://x..test/: malformed host name (x..test)")
}
