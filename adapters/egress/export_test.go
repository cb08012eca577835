package egress

// CheckDialAddress runs the socket-level check of a guard that denies
// private networks, for the address a dialer is about to connect to.
func CheckDialAddress(address string) error {
	return (&guard{deny: true}).control("tcp", address, nil)
}
