package signjwt

import (
	"crypto"

	jose "github.com/go-jose/go-jose/v4"
)

// standIn returns the key a token's signature is verified with when no
// registered key may verify it: its kid is unknown, or registered with
// another algorithm. Verifying against it costs what verifying against a
// registered key of that algorithm costs, so a refusal takes as long
// whether or not the kid exists. The result is thrown away: the token is
// refused either way.
//
// RSA stand-ins have 2048 bits: a registered RSA key of 3072 or 4096 bits
// takes a few tens of microseconds longer to verify with.
func standIn(alg jose.SignatureAlgorithm) crypto.PublicKey {
	switch alg {
	case jose.ES256:
		return standIns.p256
	case jose.ES384:
		return standIns.p384
	case jose.ES512:
		return standIns.p521
	}
	// RS and PS: the parser admits nothing else (algorithms).
	return standIns.rsa
}

// standIns are public keys generated for this purpose with openssl
// genpkey, their private halves discarded. Were one held after all, a
// token it signs would still be refused.
var standIns = struct {
	rsa, p256, p384, p521 crypto.PublicKey
}{
	rsa: mustParsePEM(`-----BEGIN PUBLIC KEY-----
MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEApH32UuLbWI6LHxxR7GOY
OLIvQSd+CK3yuSn2rqCPri4jzIhgVbzJHCJAZU0hHV0Nxw3t4BXLu8TFZ8VDczMT
G1CHtDzpDz5qYHrd3Ew64ZBcrCJpFZK8Q46dq8xdQzM7RHYq4mjZn0YrOfU61arf
cqCTmVnhbXmcNOpA2NH0GOKytAtDQNQqt3nuCSNn2s+tUPLfS2RXXV4kUGIT9Bgc
h1mFChCCl3wSAYG0CCw3eGY66O64gCFU3x0dxwgsQUFgc6DyopsY3SN0IhvPyw6D
fJkaae636EDmy35MyCXM7lMn/aNuDUCaatdHYOqq8SxwkBZTRQcMkyCresrn/46M
MQIDAQAB
-----END PUBLIC KEY-----`),
	p256: mustParsePEM(`-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEalsN/lO2vhJC1h1gK6Gvk27F02j/
6zTJBMtfkLrPCpGXR/mOl4OAkG9psYTXIOFW6kdrIyUisbk6Mwdn6+VwMw==
-----END PUBLIC KEY-----`),
	p384: mustParsePEM(`-----BEGIN PUBLIC KEY-----
MHYwEAYHKoZIzj0CAQYFK4EEACIDYgAEWQNlPRLPISf0jwWy61Fk9V7cxRD3PHoY
RSGHeHKPNkAwih2RgS+dPkcEkh3V/ZmQ/c9dSzpo4u00cVrmLnmZSQyslq4y5OyY
vvg1RdJUPtDOxaqKtd12pq75Y7OimT3s
-----END PUBLIC KEY-----`),
	p521: mustParsePEM(`-----BEGIN PUBLIC KEY-----
MIGbMBAGByqGSM49AgEGBSuBBAAjA4GGAAQA9+14mRRQOqVy48QLaHxGN5iSnkP9
JVjdBQqeo3v6WbLV3vy5vd6jfLOukj/238T23nzUV5AodrB2UGLXQQhs+7kAe3w7
xmz4k5F1whRA7fbqElAYhL+gJpZmsNLx8den6c5Gh/fbbVgiiGKGeVTY0bndgCVh
u70Qbe5b8S831hi3cnc=
-----END PUBLIC KEY-----`),
}

func mustParsePEM(text string) crypto.PublicKey {
	pub, err := parsePEM(text)
	if err != nil {
		panic("signjwt: stand-in key: " + err.Error())
	}
	return pub
}
