package brainpool

// The curves by the names the tests use; the package builds them on first
// use (curves).
var (
	p256r1, p256t1 = ByName("brainpoolP256r1"), ByName("brainpoolP256t1")
	p384r1, p384t1 = ByName("brainpoolP384r1"), ByName("brainpoolP384t1")
	p512r1, p512t1 = ByName("brainpoolP512r1"), ByName("brainpoolP512t1")
)
