package egress

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
)

// A Resolver looks up the addresses of a host name. *net.Resolver is one.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// A BlockReason says why the guard refused a certificate-driven fetch.
type BlockReason int

// Reasons for refusing a fetch.
const (
	// BlockedScheme: the URL's scheme is not http or https.
	BlockedScheme BlockReason = iota + 1
	// BlockedHost: the host is not on the allow-list.
	BlockedHost
	// BlockedAddress: the host is, names or resolves to an address in a
	// range BlockedAddr refuses.
	BlockedAddress
	// BlockedHostName: the host is neither an IP address nor an ASCII
	// host name of non-empty labels.
	BlockedHostName
)

func (r BlockReason) String() string {
	switch r {
	case BlockedScheme:
		return "scheme not allowed"
	case BlockedHost:
		return "host not on the allow-list"
	case BlockedAddress:
		return "private or special-purpose address"
	case BlockedHostName:
		return "malformed host name"
	}
	return fmt.Sprintf("BlockReason(%d)", int(r))
}

// A BlockedError reports a certificate-driven fetch the guard refused. No
// connection to the refused host or address was made. Callers treat it as
// "revocation data unavailable from this source".
type BlockedError struct {
	// URL is the URL refused, password redacted (a redirect target
	// when the redirect was refused).
	URL  string
	Host string
	// Addr is the refused address when Reason is BlockedAddress and the
	// host was an address or resolved to one; invalid otherwise.
	Addr   netip.Addr
	Reason BlockReason
}

func (e *BlockedError) Error() string {
	var b strings.Builder
	b.WriteString("egress: blocked")
	if e.URL != "" {
		b.WriteString(" " + e.URL)
	}
	b.WriteString(": " + e.Reason.String())
	if e.Addr.IsValid() && e.Addr.String() != e.Host {
		fmt.Fprintf(&b, " (%s resolves to %s)", e.Host, e.Addr)
	} else if e.Host != "" {
		fmt.Fprintf(&b, " (%s)", e.Host)
	}
	return b.String()
}

// IsBlocked reports whether err is, or wraps, a *BlockedError.
func IsBlocked(err error) bool {
	_, ok := errors.AsType[*BlockedError](err)
	return ok
}

// blockReason is the log attribute "blockReason" of a failed fetch: the
// reason of the guard's refusal in the stable words of BlockReason.String,
// or nothing (an empty Attr, which handlers drop) when err is not one.
func blockReason(err error) slog.Attr {
	be, ok := errors.AsType[*BlockedError](err)
	if !ok {
		return slog.Attr{}
	}
	return slog.String("blockReason", be.Reason.String())
}

// blockedPrefixes are the ranges the guard refuses unless
// AllowPrivateNetworksUnsafe. The spec
// names loopback, link-local (the cloud metadata address 169.254.169.254
// included), site-local, IPv6 unique-local, any and multicast; the
// shared address space, the reserved range and the other special-purpose
// ranges of RFC 6890 that hold no public host (benchmarking,
// documentation, protocol assignments, discard) are added because they are
// not reachable public hosts either (some clouds put metadata services in
// 100.64.0.0/10, some networks use 198.18.0.0/15 inside), and the
// deprecated IPv6 site-local and IPv4-compatible ranges because operating
// systems still route some of them locally.
var blockedPrefixes = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network", 0.0.0.0 = any
	netip.MustParsePrefix("10.0.0.0/8"),      // site-local (RFC 1918)
	netip.MustParsePrefix("100.64.0.0/10"),   // shared address space (RFC 6598)
	netip.MustParsePrefix("127.0.0.0/8"),     // loopback
	netip.MustParsePrefix("169.254.0.0/16"),  // link-local, cloud metadata
	netip.MustParsePrefix("172.16.0.0/12"),   // site-local (RFC 1918)
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments (NAT64 discovery, DS-Lite)
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation (TEST-NET-1)
	netip.MustParsePrefix("192.168.0.0/16"),  // site-local (RFC 1918)
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking, used inside networks
	netip.MustParsePrefix("198.51.100.0/24"), // documentation (TEST-NET-2)
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation (TEST-NET-3)
	netip.MustParsePrefix("224.0.0.0/4"),     // multicast
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, broadcast
	netip.MustParsePrefix("::/96"),           // any (::), loopback (::1), IPv4-compatible
	netip.MustParsePrefix("64:ff9b:1::/48"),  // local-use NAT64 (RFC 8215): a translator inside the network
	netip.MustParsePrefix("100::/64"),        // discard-only
	netip.MustParsePrefix("2001::/32"),       // Teredo: tunnels to the IPv4 address it carries
	netip.MustParsePrefix("2001:db8::/32"),   // documentation
	netip.MustParsePrefix("fc00::/7"),        // unique-local
	netip.MustParsePrefix("fe80::/10"),       // link-local
	netip.MustParsePrefix("fec0::/10"),       // site-local (deprecated)
	netip.MustParsePrefix("ff00::/8"),        // multicast
}

// Prefixes that embed an IPv4 address, which is then judged instead.
var (
	nat64Prefix = netip.MustParsePrefix("64:ff9b::/96") // RFC 6052
	sixToFour   = netip.MustParsePrefix("2002::/16")    // RFC 3056
)

// BlockedAddr reports whether the guard refuses connections to
// a: loopback, link-local, site-local, unique-local, unspecified, multicast,
// shared (100.64.0.0/10), reserved, benchmarking, documentation and other
// special-purpose addresses that hold no public host, IPv4-mapped forms of
// them, NAT64 (64:ff9b::/96) or 6to4 addresses embedding them, and every
// local-use NAT64 (64:ff9b:1::/48) and Teredo (2001::/32) address. An
// invalid address is refused.
func BlockedAddr(a netip.Addr) bool {
	if !a.IsValid() {
		return true
	}
	// Prefix.Contains never matches a zoned address, so drop the zone;
	// an IPv4-mapped address is judged as the IPv4 address it maps.
	a = a.WithZone("").Unmap()
	for _, p := range blockedPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	if nat64Prefix.Contains(a) {
		b := a.As16()
		return BlockedAddr(netip.AddrFrom4([4]byte(b[12:16])))
	}
	if sixToFour.Contains(a) {
		b := a.As16()
		return BlockedAddr(netip.AddrFrom4([4]byte(b[2:6])))
	}
	return false
}

// guard is the policy of one certificate client.
type guard struct {
	deny     bool
	allowed  map[string]bool // nil: any host
	resolver Resolver
	exempt   netip.AddrPort // Options.exempt
}

func newGuard(o Options, r Resolver) *guard {
	g := &guard{deny: !o.AllowPrivateNetworksUnsafe, resolver: r, exempt: o.exempt}
	for _, h := range o.AllowedHosts {
		if h = normalizeHost(h); h != "" {
			if g.allowed == nil {
				g.allowed = make(map[string]bool)
			}
			g.allowed[h] = true
		}
	}
	return g
}

// normalizeHost lower-cases a host name and drops a trailing dot, the only
// two differences in spelling that name the same host in DNS.
func normalizeHost(h string) string {
	return strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), ".")
}

// checkURL applies everything that can be decided before a connection:
// scheme, host spelling, allow-list, and with deny, IP literals and names
// that denote local or numeric addresses. Behind a proxy it is all the guard can do.
func (g *guard) checkURL(u *url.URL) error {
	blocked := func(host string, addr netip.Addr, r BlockReason) error {
		return &BlockedError{URL: u.Redacted(), Host: host, Addr: addr, Reason: r}
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return blocked(u.Hostname(), netip.Addr{}, BlockedScheme)
	}
	host := normalizeHost(u.Hostname())
	if host == "" {
		return blocked(host, netip.Addr{}, BlockedHost)
	}
	if _, err := netip.ParseAddr(host); err != nil && !hostName(u.Hostname()) {
		return blocked(u.Hostname(), netip.Addr{}, BlockedHostName)
	}
	if g.allowed != nil && !g.allowed[host] {
		return blocked(host, netip.Addr{}, BlockedHost)
	}
	if !g.deny {
		return nil
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if BlockedAddr(a) {
			return blocked(host, a, BlockedAddress)
		}
		return nil
	}
	if host == "localhost" || strings.HasSuffix(host, ".localhost") || numericName(host) {
		return blocked(host, netip.Addr{}, BlockedAddress)
	}
	return nil
}

// hostName reports whether host, as the URL has it, is spelled as a DNS
// host name: dot-separated non-empty labels of ASCII letters, digits,
// hyphens and underscores, and at most one trailing dot. It is judged
// before normalizeHost, whose lower-casing maps some non-ASCII letters
// to ASCII (the Kelvin sign to k). URIs in certificates are IA5String (RFC 5280), so an
// internationalized name arrives in Punycode; anything else is judged
// differently by the guard, by the transport (which maps Unicode hosts,
// UTS #46, before it dials: "１２７.０.０.１" is 127.0.0.1 to it), by a
// proxy and by a resolver, and is refused.
func hostName(host string) bool {
	for label := range strings.SplitSeq(strings.TrimSuffix(host, "."), ".") {
		if label == "" || !onlyOf(label, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") {
			return false
		}
	}
	return true
}

// numericName reports a host name whose last label is all digits or
// 0x-hex. No top-level domain looks like that, but inet_aton-style parsers
// (some resolvers, most proxies) read such names as IPv4 addresses:
// "2130706433", "0x7f.1" and "127.1" are all 127.0.0.1 to them.
func numericName(host string) bool {
	label := host[strings.LastIndexByte(host, '.')+1:]
	if hex, ok := strings.CutPrefix(label, "0x"); ok {
		return onlyOf(hex, "0123456789abcdef")
	}
	return label != "" && onlyOf(label, "0123456789")
}

func onlyOf(s, chars string) bool {
	for _, c := range s {
		if !strings.ContainsRune(chars, c) {
			return false
		}
	}
	return true
}

// refused reports whether a denying guard refuses to connect to ap: its
// address is blocked and it is not the exempt test server.
func (g *guard) refused(ap netip.AddrPort) bool {
	if g.exempt.IsValid() && ap == g.exempt {
		return false
	}
	return BlockedAddr(ap.Addr())
}

// control runs on every socket just before connect, with the address
// actually dialled: the last check, whatever resolved the name.
func (g *guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &BlockedError{Host: address, Reason: BlockedAddress}
	}
	if g.refused(ap) {
		return &BlockedError{Host: ap.Addr().String(), Addr: ap.Addr(), Reason: BlockedAddress}
	}
	return nil
}
