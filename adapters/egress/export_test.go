package egress

import "net/netip"

// CheckDialAddress runs the socket-level check of a guard that denies
// private networks, for the address a dialer is about to connect to.
func CheckDialAddress(address string) error {
	return (&guard{deny: true}).control("tcp", address, nil)
}

// Exempt returns o with the guard letting a resolved name connect to
// addr, a loopback test server's "ip:port", and nowhere else it refuses.
func Exempt(o Options, addr string) Options {
	o.exempt = netip.MustParseAddrPort(addr)
	return o
}
