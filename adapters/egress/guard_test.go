package egress_test

import (
	"net/netip"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
)

func TestBlockedAddr(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr    string
		blocked bool
	}{
		// Loopback.
		{"127.0.0.1", true},
		{"127.255.255.254", true},
		{"::1", true},
		{"::ffff:127.0.0.1", true}, // IPv4-mapped
		// Site-local (RFC 1918).
		{"10.0.0.1", true},
		{"10.255.255.255", true},
		{"172.16.0.1", true},
		{"172.31.255.255", true},
		{"192.168.1.1", true},
		// Link-local, the cloud metadata address.
		{"169.254.169.254", true},
		{"169.254.0.1", true},
		{"fe80::1", true},
		{"fe80::1%eth0", true}, // zoned
		{"febf::1", true},
		// IPv6 unique-local fc00::/7, and deprecated site-local.
		{"fc00::1", true},
		{"fd12:3456:789a::1", true},
		{"fec0::1", true},
		// Any / unspecified.
		{"0.0.0.0", true},
		{"0.1.2.3", true},
		{"::", true},
		// Multicast.
		{"224.0.0.1", true},
		{"239.255.255.250", true},
		{"ff02::1", true},
		{"ff0e::1", true},
		// Beyond the spec's list: shared, reserved, broadcast.
		{"100.64.0.1", true},
		{"100.100.100.200", true},
		{"240.0.0.1", true},
		{"255.255.255.255", true},
		// Other special-purpose ranges (RFC 6890) that hold no public host.
		{"192.0.0.1", true},      // IETF protocol assignments
		{"192.0.0.170", true},    // NAT64 discovery
		{"192.0.2.1", true},      // TEST-NET-1
		{"198.18.0.1", true},     // benchmarking
		{"198.19.255.254", true}, // benchmarking
		{"198.51.100.1", true},   // TEST-NET-2
		{"203.0.113.1", true},    // TEST-NET-3
		{"100::1", true},         // discard-only
		{"2001:db8::1", true},    // documentation
		// IPv4 embedded in IPv6.
		{"::127.0.0.1", true},                          // IPv4-compatible
		{"64:ff9b::a00:1", true},                       // NAT64 of 10.0.0.1
		{"64:ff9b::a9fe:a9fe", true},                   // NAT64 of 169.254.169.254
		{"2002:c0a8:101::1", true},                     // 6to4 of 192.168.1.1
		{"2002:7f00:1::1", true},                       // 6to4 of 127.0.0.1
		{"64:ff9b::7f00:1", true},                      // NAT64 of 127.0.0.1
		{"64:ff9b::c0a8:101", true},                    // NAT64 of 192.168.1.1
		{"64:ff9b::6440:1", true},                      // NAT64 of 100.64.0.1
		{"64:ff9b:1::a00:1", true},                     // local-use NAT64 (RFC 8215) of 10.0.0.1
		{"64:ff9b:1:ffff::1", true},                    // local-use NAT64, any
		{"2001:0:4136:e378:8000:63bf:80ff:fffe", true}, // Teredo of client 127.0.0.1
		{"2001::1", true},                              // Teredo, any
		// Public.
		{"8.8.8.8", false},
		{"172.15.255.255", false},
		{"172.32.0.1", false},
		{"100.63.255.255", false},
		{"100.128.0.1", false},
		{"169.253.255.255", false},
		{"192.169.0.1", false},
		{"192.0.1.1", false},
		{"192.0.3.1", false},
		{"198.17.255.255", false},
		{"198.20.0.1", false},
		{"198.51.101.1", false},
		{"203.0.112.1", false},
		{"100:0:0:1::1", false},
		{"223.255.255.255", false},
		{"2001:4860:4860::8888", false},
		{"2a00:1450:4001::1", false},
		{"64:ff9b::808:808", false}, // NAT64 of 8.8.8.8
		{"::ffff:8.8.8.8", false},
		{"2002:808:808::1", false},
		{"64:ff9b:2::a00:1", false}, // outside the local-use /48
		{"2001:1::1", false},        // next to Teredo's /32
		{"2001:db9::1", false},
		{"fbff::1", false},
	}
	for _, tt := range tests {
		t.Run(tt.addr, func(t *testing.T) {
			is.New(t).Equal(egress.BlockedAddr(netip.MustParseAddr(tt.addr)), tt.blocked)
		})
	}
	t.Run("invalid", func(t *testing.T) {
		is.New(t).True(egress.BlockedAddr(netip.Addr{}))
	})
}
