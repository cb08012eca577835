package egress_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/ports"
)

// The tests in this file go through the whole guarded path of
// NewCertClient with the guard on (no AllowPrivateNetworksUnsafe): URL
// check, resolution by a test resolver, vetting, dial, redirects. The one
// server they reach is a loopback backend the guard is told to exempt
// (egress.Exempt), and only when a name resolves to its exact address and
// port; every refused address is either never dialled or, for loopback,
// would show up in the backend's count. No real DNS is consulted.

// guardedBackend is backend with a denying client that reaches it, and
// only it, through names dns resolves to 127.0.0.1.
func guardedBackend(t *testing.T, dns egress.Resolver, allowed ...string) (c *http.Client, hits *atomic.Int32, port string) {
	t.Helper()
	srv, hits, port := backend(t)
	o := egress.Exempt(egress.Options{Resolver: dns, AllowedHosts: allowed}, srv.Listener.Addr().String())
	return newCertClient(t, o), hits, port
}

// wantBlocked checks that err is a refusal for reason, of the URL u, and
// of the address addr when addr is not empty.
func wantBlocked(t *testing.T, err error, u string, reason egress.BlockReason, addr string) {
	t.Helper()
	is := is.NewRelaxed(t)
	be, ok := errors.AsType[*egress.BlockedError](err)
	if !ok {
		t.Fatalf("got %v, want a *BlockedError", err)
	}
	is.Equal(be.Reason, reason)
	is.Equal(be.URL, u)
	if addr != "" {
		is.Equal(be.Addr, netip.MustParseAddr(addr))
	}
}

// refusedAddrs are addresses of every class the guard refuses, one or
// more of each.
var refusedAddrs = []struct{ class, addr string }{
	{"loopback", "127.0.0.1"},
	{"loopback", "127.1.2.3"},
	{"loopback", "::1"},
	{"any", "0.0.0.0"},
	{"any", "::"},
	{"link-local", "169.254.169.254"},
	{"link-local", "169.254.0.1"},
	{"link-local", "fe80::1"},
	{"private", "10.0.0.1"},
	{"private", "172.16.0.1"},
	{"private", "172.31.255.254"},
	{"private", "192.168.1.1"},
	{"CGNAT", "100.64.0.1"},
	{"CGNAT", "100.127.255.254"},
	{"unique-local", "fc00::1"},
	{"unique-local", "fd12:3456::1"},
	{"multicast", "224.0.0.1"},
	{"multicast", "239.255.255.250"},
	{"multicast", "ff02::1"},
	{"IPv4-mapped", "::ffff:127.0.0.1"},
	{"IPv4-mapped", "::ffff:10.0.0.1"},
	{"NAT64", "64:ff9b::7f00:1"},    // 127.0.0.1
	{"NAT64", "64:ff9b::a9fe:a9fe"}, // 169.254.169.254
	{"local-use NAT64", "64:ff9b:1::a00:1"},
	{"6to4", "2002:a00:1::1"},    // 10.0.0.1
	{"6to4", "2002:c0a8:101::1"}, // 192.168.1.1
	{"Teredo", "2001:0:4136:e378:8000:63bf:80ff:fffe"},
	{"benchmarking", "198.18.0.1"},
	{"documentation", "192.0.2.1"},
	{"documentation", "2001:db8::1"},
}

// TestGuardRefusesEveryClass: each refused address, as a URL's IP
// literal and as the answer for a name, is refused with the address
// named, and the backend is never reached.
func TestGuardRefusesEveryClass(t *testing.T) {
	t.Parallel()
	dns := newDNS("ca.example.test", "127.0.0.1")
	names := make(map[string]string)
	for i, r := range refusedAddrs {
		name := fmt.Sprintf("n%d.example.test", i)
		names[r.addr] = name
		dns.answers[name] = []netip.Addr{netip.MustParseAddr(r.addr)}
	}
	client, hits, port := guardedBackend(t, dns)

	// The path works: a name resolving to the exempt backend is fetched.
	is := is.New(t)
	body, err := get(t, client, "http://ca.example.test:"+port+"/ok")
	is.NoErr(err)
	is.Equal(body, "ok")
	is.Equal(hits.Load(), int32(1))

	for _, r := range refusedAddrs {
		hostport := net.JoinHostPort(r.addr, port)
		t.Run(r.class+"/literal/"+r.addr, func(t *testing.T) {
			u := "http://" + hostport + "/ok"
			_, err := get(t, client, u)
			wantBlocked(t, err, u, egress.BlockedAddress, r.addr)
		})
		t.Run(r.class+"/name/"+r.addr, func(t *testing.T) {
			u := "http://" + names[r.addr] + ":" + port + "/ok"
			if r.addr == "127.0.0.1" {
				// The backend's address and port are the exemption
				// itself: ask for another port.
				u = "http://" + names[r.addr] + "/ok"
			}
			_, err := get(t, client, u)
			wantBlocked(t, err, u, egress.BlockedAddress, r.addr)
		})
	}
	is.Equal(hits.Load(), int32(1)) // only the first request
}

// TestGuardRefusesHostForms: spellings of private addresses that are not
// plain IP literals.
func TestGuardRefusesHostForms(t *testing.T) {
	t.Parallel()
	client, hits, port := guardedBackend(t, newDNS("ca.example.test", "127.0.0.1"))
	tests := []struct {
		name   string
		url    string
		reason egress.BlockReason // 0: BlockedAddress
		addr   string             // the refused address, when the host is a literal
	}{
		{name: "decimal", url: "http://2130706433:" + port + "/ok"},
		{name: "octal", url: "http://0177.0.0.1:" + port + "/ok"},
		{name: "octal, one number", url: "http://017700000001:" + port + "/ok"},
		{name: "hex, short", url: "http://0x7f.1:" + port + "/ok"},
		{name: "hex", url: "http://0x7F000001:" + port + "/ok"},
		{name: "hex, dotted", url: "http://0x7f.0x0.0x0.0x1:" + port + "/ok"},
		{name: "short", url: "http://127.1:" + port + "/ok"},
		{name: "decimal metadata", url: "http://2852039166/latest/meta-data/"},
		{name: "octal private", url: "http://012.0.0.1/"},
		{name: "trailing dot", url: "http://127.0.0.1.:" + port + "/ok", addr: "127.0.0.1"},
		{name: "user info", url: "http://ca.example.test@127.0.0.1:" + port + "/ok", addr: "127.0.0.1"},
		{name: "IPv4-mapped in hex", url: "http://[::ffff:7f00:1]:" + port + "/ok", addr: "::ffff:7f00:1"},
		{name: "IPv6 long form", url: "http://[0:0:0:0:0:0:0:1]:" + port + "/ok", addr: "::1"},
		{name: "zoned link-local", url: "http://[fe80::1%25lo]:" + port + "/ok", addr: "fe80::1%lo"},
		{name: "localhost", url: "http://LOCALHOST:" + port + "/ok"},
		// Not names: refused whatever they would map to.
		{name: "full-width digits", url: "http://１２７.０.０.１:" + port + "/ok", reason: egress.BlockedHostName},
		{name: "full-width localhost", url: "http://ｌｏｃａｌｈｏｓｔ:" + port + "/ok", reason: egress.BlockedHostName},
		{name: "full-width name", url: "http://ｃａ.example.test:" + port + "/ok", reason: egress.BlockedHostName},
		{name: "Kelvin sign", url: "http://\u212Aa.example.test:" + port + "/ok", reason: egress.BlockedHostName}, // lower-cases to "ka"
		{name: "two trailing dots", url: "http://127.0.0.1..:" + port + "/ok", reason: egress.BlockedHostName},
		{name: "empty label", url: "http://ca..example.test:" + port + "/ok", reason: egress.BlockedHostName},
		{name: "leading dot", url: "http://.ca.example.test:" + port + "/ok", reason: egress.BlockedHostName},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := get(t, client, tt.url)
			reason := tt.reason
			if reason == 0 {
				reason = egress.BlockedAddress
			}
			u, perr := url.Parse(tt.url)
			if perr != nil {
				t.Fatal(perr)
			}
			wantBlocked(t, err, u.Redacted(), reason, tt.addr) // Unicode escaped
		})
	}
	t.Cleanup(func() {
		if n := hits.Load(); n != 0 {
			t.Errorf("the backend was reached %d times", n)
		}
	})
}

// TestGuardRefusesSchemes: only http and https are fetched, whatever
// the host.
func TestGuardRefusesSchemes(t *testing.T) {
	t.Parallel()
	client, hits, port := guardedBackend(t, newDNS("ca.example.test", "127.0.0.1"))
	for _, u := range []string{
		"ldap://ca.example.test:" + port + "/cn=CA?certificateRevocationList;binary",
		"ldaps://ca.example.test/cn=CA",
		"file:///etc/passwd",
		"file://ca.example.test/etc/passwd",
		"ftp://ca.example.test:" + port + "/ca.crl",
		"gopher://ca.example.test:" + port + "/_GET%20/ok",
		"dict://ca.example.test:" + port + "/",
		"//ca.example.test:" + port + "/ok",
	} {
		t.Run(u, func(t *testing.T) {
			_, err := get(t, client, u)
			wantBlocked(t, err, u, egress.BlockedScheme, "")
		})
	}
	is.New(t).Equal(hits.Load(), int32(0))
}

// TestGuardRefusesRedirects: a server the guard lets through redirects
// to refused places; only its own answer is fetched.
func TestGuardRefusesRedirects(t *testing.T) {
	t.Parallel()
	dns := newDNS(
		"ca.example.test", "127.0.0.1",
		"internal.example.test", "192.168.1.1",
		"loopback.example.test", "::1",
	)
	client, hits, port := guardedBackend(t, dns)
	start := "http://ca.example.test:" + port
	tests := []struct {
		name   string
		to     string
		want   string // the URL refused, when not to
		reason egress.BlockReason
		addr   string
	}{
		{name: "metadata", to: "http://169.254.169.254/latest/meta-data/", reason: egress.BlockedAddress, addr: "169.254.169.254"},
		{name: "private", to: "http://10.0.0.1/", reason: egress.BlockedAddress, addr: "10.0.0.1"},
		{name: "CGNAT", to: "http://100.100.100.200/", reason: egress.BlockedAddress, addr: "100.100.100.200"},
		{name: "the server itself by address", to: "http://127.0.0.1:" + port + "/ok", reason: egress.BlockedAddress, addr: "127.0.0.1"},
		{name: "IPv4-mapped", to: "http://[::ffff:127.0.0.1]:" + port + "/ok", reason: egress.BlockedAddress, addr: "::ffff:127.0.0.1"},
		{name: "NAT64", to: "http://[64:ff9b::a00:1]/", reason: egress.BlockedAddress, addr: "64:ff9b::a00:1"},
		{name: "decimal", to: "http://2130706433:" + port + "/ok", reason: egress.BlockedAddress},
		{name: "a name resolving to a private address", to: "http://internal.example.test/", reason: egress.BlockedAddress, addr: "192.168.1.1"},
		{name: "a name resolving to loopback", to: "http://loopback.example.test:" + port + "/ok", reason: egress.BlockedAddress, addr: "::1"},
		{name: "scheme-relative", to: "//10.0.0.1/", want: "http://10.0.0.1/", reason: egress.BlockedAddress, addr: "10.0.0.1"},
		{name: "ldap", to: "ldap://ca.example.test/cn=CA", reason: egress.BlockedScheme},
		{name: "file", to: "file:///etc/passwd", reason: egress.BlockedScheme},
		{name: "ftp", to: "ftp://ca.example.test/ca.crl", reason: egress.BlockedScheme},
		{name: "gopher", to: "gopher://ca.example.test:" + port + "/_x", reason: egress.BlockedScheme},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			before := hits.Load()
			_, err := get(t, client, start+"/redirect?to="+url.QueryEscape(tt.to))
			is.Equal(hits.Load()-before, int32(1)) // the redirecting server only
			want := tt.want
			if want == "" {
				want = tt.to
			}
			wantBlocked(t, err, want, tt.reason, tt.addr)
		})
	}
	for _, code := range []int{301, 302, 303, 307, 308} {
		t.Run(fmt.Sprintf("status %d, POST", code), func(t *testing.T) {
			is := is.New(t)
			before := hits.Load()
			to := "http://169.254.169.254/latest/meta-data/"
			u := fmt.Sprintf("%s/redirect?code=%d&to=%s", start, code, url.QueryEscape(to))
			req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, u, strings.NewReader("request"))
			is.NoErr(err)
			res, err := client.Do(req)
			if err == nil {
				res.Body.Close()
			}
			is.Equal(hits.Load()-before, int32(1))
			wantBlocked(t, err, to, egress.BlockedAddress, "169.254.169.254")
		})
	}
	t.Run("on the second hop", func(t *testing.T) {
		is := is.New(t)
		before := hits.Load()
		to := "http://10.0.0.1/"
		hop := start + "/redirect?to=" + url.QueryEscape(to)
		_, err := get(t, client, start+"/redirect?to="+url.QueryEscape(hop))
		is.Equal(hits.Load()-before, int32(2))
		wantBlocked(t, err, to, egress.BlockedAddress, "10.0.0.1")
	})
	t.Run("followed to the same server", func(t *testing.T) {
		is := is.New(t)
		before := hits.Load()
		body, err := get(t, client, start+"/redirect?to="+url.QueryEscape(start+"/ok"))
		is.NoErr(err)
		is.Equal(body, "ok")
		is.Equal(hits.Load()-before, int32(2))
	})
}

// rebindDNS answers first with the first address, and then, for every
// later question, with the second: a DNS server rebinding a name between
// a check and a use.
type rebindDNS struct {
	first, then netip.Addr
	asked       atomic.Int32
}

func (d *rebindDNS) LookupNetIP(_ context.Context, _, _ string) ([]netip.Addr, error) {
	if d.asked.Add(1) == 1 {
		return []netip.Addr{d.first}, nil
	}
	return []netip.Addr{d.then}, nil
}

// TestGuardRebinding: the name is resolved once per connection and the
// connection goes to the address checked; a new connection resolves,
// and checks, again.
func TestGuardRebinding(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	dns := &rebindDNS{first: netip.MustParseAddr("127.0.0.1"), then: netip.MustParseAddr("169.254.169.254")}
	client, hits, port := guardedBackend(t, dns)
	u := "http://rebind.example.test:" + port + "/ok"

	body, err := get(t, client, u)
	is.NoErr(err)
	is.Equal(body, "ok")
	is.Equal(dns.asked.Load(), int32(1)) // checked and dialled on one answer
	is.Equal(hits.Load(), int32(1))

	client.CloseIdleConnections()
	_, err = get(t, client, u)
	wantBlocked(t, err, u, egress.BlockedAddress, "169.254.169.254")
	is.Equal(dns.asked.Load(), int32(2))
	is.Equal(hits.Load(), int32(1))
}

// TestGuardAllowList: with the guard on, the allow-list is exact and
// case-insensitive, and an allowed name is still refused when it
// resolves to a private address.
func TestGuardAllowList(t *testing.T) {
	t.Parallel()
	dns := newDNS(
		"ca.example.test", "127.0.0.1",
		"ca.example.test.evil.test", "127.0.0.1",
		"sub.ca.example.test", "127.0.0.1",
		"internal.example.test", "10.0.0.1",
	)
	client, hits, port := guardedBackend(t, dns, "CA.Example.Test", "Internal.Example.Test.")
	tests := []struct {
		host   string
		reason egress.BlockReason // 0: fetched
		addr   string
	}{
		{host: "ca.example.test"},
		{host: "CA.EXAMPLE.TEST"},
		{host: "ca.example.test."},
		{host: "ca.example.test.evil.test", reason: egress.BlockedHost},
		{host: "sub.ca.example.test", reason: egress.BlockedHost},
		{host: "example.test", reason: egress.BlockedHost},
		{host: "ca.example.tes", reason: egress.BlockedHost},
		{host: "xca.example.test", reason: egress.BlockedHost},
		{host: "ca-example.test", reason: egress.BlockedHost},
		{host: "127.0.0.1", reason: egress.BlockedHost}, // off the list comes first
		{host: "internal.example.test", reason: egress.BlockedAddress, addr: "10.0.0.1"},
	}
	for _, tt := range tests {
		t.Run(tt.host, func(t *testing.T) {
			is := is.New(t)
			before := hits.Load()
			u := "http://" + net.JoinHostPort(tt.host, port) + "/ok"
			body, err := get(t, client, u)
			if tt.reason == 0 {
				is.NoErr(err)
				is.Equal(body, "ok")
				is.Equal(hits.Load()-before, int32(1))
				return
			}
			wantBlocked(t, err, u, tt.reason, tt.addr)
			is.Equal(hits.Load()-before, int32(0))
		})
	}
}

// jsonLogs is a JSON slog logger writing to a buffer, read back as one
// map per record.
func jsonLogs() (*slog.Logger, func(t *testing.T) []map[string]any) {
	lb := &logBuffer{}
	logger := slog.New(slog.NewJSONHandler(lb, &slog.HandlerOptions{Level: slog.LevelDebug}))
	return logger, func(t *testing.T) []map[string]any {
		t.Helper()
		var recs []map[string]any
		for line := range strings.Lines(lb.String()) {
			var r map[string]any
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		return recs
	}
}

// TestGuardInValidation: certificate URLs (OCSP, CRL, CA issuers) that
// the guard refuses yield no revocation fact and no issuer, no error,
// and one WARN record each, naming the URL and the reason in stable
// words.
func TestGuardInValidation(t *testing.T) {
	t.Parallel()
	p, err := pki.New("http://pki.example.test")
	if err != nil {
		t.Fatal(err)
	}
	const (
		address = "private or special-purpose address"
		scheme  = "scheme not allowed"
		host    = "host not on the allow-list"
	)
	_, _, port := backend(t)
	redirect := "http://ca.example.test:" + port + "/redirect?to=" + url.QueryEscape("http://10.0.0.1/")
	tests := []struct {
		url     string
		allowed []string
		reason  string
	}{
		{url: "http://169.254.169.254/latest/meta-data/", reason: address},
		{url: "http://metadata.example.test/", reason: address},
		{url: "http://internal.example.test/ca.crl", reason: address},
		{url: "http://2130706433/", reason: address},
		{url: "http://0177.0.0.1/", reason: address},
		{url: "http://[::ffff:127.0.0.1]/", reason: address},
		{url: "http://[64:ff9b::a00:1]/", reason: address},
		{url: "http://[2002:a00:1::1]/", reason: address},
		{url: redirect, reason: address},
		{url: "ldap://ldap.example.test/cn=CA?certificateRevocationList;binary", reason: scheme},
		{url: "file:///etc/passwd", reason: scheme},
		{url: "ftp://ftp.example.test/ca.crl", reason: scheme},
		{url: "gopher://ca.example.test/_x", reason: scheme},
		{url: "http://other.example.test/", allowed: []string{"ca.example.test"}, reason: host},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			dns := newDNS(
				"ca.example.test", "127.0.0.1",
				"metadata.example.test", "169.254.169.254",
				"internal.example.test", "10.1.2.3",
				"other.example.test", "127.0.0.1",
			)
			o := egress.Options{Resolver: dns, AllowedHosts: tt.allowed}
			client := newCertClient(t, egress.Exempt(o, "127.0.0.1:"+port))
			cert := *p.SignerRSA.Certificate
			cert.OCSPServer = []string{tt.url}
			cert.CRLDistributionPoints = []string{tt.url}
			cert.IssuingCertificateURL = []string{tt.url}
			logger, records := jsonLogs()

			facts, err := egress.NewRevocationSource(client, nil, logger, false).
				Revocation(t.Context(), &cert, p.Intermediate.Certificate, ports.EmbeddedRevocation{}, beforeRevocation)
			is.NoErr(err)
			is.Equal(len(facts), 0) // unavailable
			issuers, err := egress.NewIssuerSource(client, logger, false).Issuers(t.Context(), &cert)
			is.NoErr(err)
			is.Equal(len(issuers), 0)

			recs := records(t)
			is.Equal(len(recs), 3) // OCSP, CRL, CA issuers
			for i, want := range []struct{ msg, source string }{
				{"revocation fetch failed", "OCSP"},
				{"revocation fetch failed", "CRL"},
				{"CA issuers fetch failed", ""},
			} {
				r := recs[i]
				is.Equal(r["level"], "WARN")
				is.Equal(r["msg"], want.msg)
				if want.source != "" {
					is.Equal(r["source"], want.source)
				}
				is.Equal(r["url"], tt.url)
				is.Equal(r["blocked"], true)
				is.Equal(r["blockReason"], tt.reason)
				is.True(strings.Contains(r["reason"].(string), ": "+tt.reason)) // the error says it too
			}
		})
	}
}
