package cryptosuite

import (
	"strings"
	"sync"

	"github.com/svc-dss/dss/domain/algorithm"
)

// A kind is what an algorithm of a document constrains.
type kind int

const (
	kindDigest    kind = iota + 1 // a digest algorithm
	kindSignature                 // a signature algorithm with its digest (any when empty)
	kindKey                       // a key family, whatever it signs
	kindCurve                     // a named curve: an EC key of Bits bits
)

// An identity is what the validator makes of one algorithm of a document.
type identity struct {
	kind   kind
	digest algorithm.Digest
	key    algorithm.Key
	bits   int // for kindCurve
	// size is the parameter that gives a key's size in bits for this
	// algorithm ("" when it takes none); others lists the parameters
	// read and checked but not applied.
	size   string
	others []string
}

func digest(d algorithm.Digest) identity { return identity{kind: kindDigest, digest: d} }

func signature(k algorithm.Key, d algorithm.Digest) identity {
	return identity{kind: kindSignature, key: k, digest: d, size: sizeParameter(k), others: otherParameters(k)}
}

func key(k algorithm.Key) identity {
	return identity{kind: kindKey, key: k, size: sizeParameter(k), others: otherParameters(k)}
}

func curve(bits int) identity { return identity{kind: kindCurve, key: algorithm.EC, bits: bits} }

// sizeParameter is the TS 119 312 parameter that gives the size of a
// family's keys: the modulus of RSA, the prime p of DSA. An EC key's size
// is its curve, listed on its own; EdDSA has one size.
func sizeParameter(k algorithm.Key) string {
	switch k {
	case algorithm.RSA, algorithm.RSAPSS:
		return "moduluslength"
	case algorithm.DSA:
		return "plength"
	}
	return ""
}

// otherParameters are the parameters of a family read but not applied:
// the size of DSA's q, which no use carries (algorithm.Use has one size).
func otherParameters(k algorithm.Key) []string {
	if k == algorithm.DSA {
		return []string{"qlength"}
	}
	return nil
}

// byName are the algorithms by their names as TS 119 312 and RFC 5698
// documents spell them, normalised by normalName. It and the tables
// after it are built on first use, when a suite document is read, not at
// package initialisation, which every process start pays for
// (docs/decisions/0044).
var byName = sync.OnceValue(func() map[string]identity {
	return map[string]identity{
		"MD2": digest("MD2"), "MD4": digest("MD4"), "MD5": digest("MD5"),
		"SHA1": digest("SHA-1"), "SHA224": digest("SHA-224"), "SHA256": digest("SHA-256"),
		"SHA384": digest("SHA-384"), "SHA512": digest("SHA-512"),
		"SHA512/224": digest("SHA-512/224"), "SHA512/256": digest("SHA-512/256"),
		"SHA3224": digest("SHA3-224"), "SHA3256": digest("SHA3-256"), "SHA3384": digest("SHA3-384"), "SHA3512": digest("SHA3-512"),
		"SHAKE256": digest("SHAKE256"), "IDSHAKE256": digest("SHAKE256"),
		"RIPEMD160": digest("RIPEMD-160"),

		"MD2WITHRSAENCRYPTION": signature(algorithm.RSA, "MD2"), "MD5WITHRSAENCRYPTION": signature(algorithm.RSA, "MD5"),
		"SHA1WITHRSAENCRYPTION": signature(algorithm.RSA, "SHA-1"), "SHA224WITHRSAENCRYPTION": signature(algorithm.RSA, "SHA-224"),
		"SHA256WITHRSAENCRYPTION": signature(algorithm.RSA, "SHA-256"), "SHA384WITHRSAENCRYPTION": signature(algorithm.RSA, "SHA-384"),
		"SHA512WITHRSAENCRYPTION":     signature(algorithm.RSA, "SHA-512"),
		"IDRSASSAPKCS1V15WITHSHA3224": signature(algorithm.RSA, "SHA3-224"), "IDRSASSAPKCS1V15WITHSHA3256": signature(algorithm.RSA, "SHA3-256"),
		"IDRSASSAPKCS1V15WITHSHA3384": signature(algorithm.RSA, "SHA3-384"), "IDRSASSAPKCS1V15WITHSHA3512": signature(algorithm.RSA, "SHA3-512"),
		"RSASSAPSS": signature(algorithm.RSAPSS, ""), "IDRSASSAPSS": signature(algorithm.RSAPSS, ""),
		"RSAENCRYPTION": key(algorithm.RSA), "RSA": key(algorithm.RSA),

		"DSA": key(algorithm.DSA), "IDDSA": key(algorithm.DSA),
		"DSAWITHSHA1": signature(algorithm.DSA, "SHA-1"), "IDDSAWITHSHA1": signature(algorithm.DSA, "SHA-1"),
		"IDDSAWITHSHA224": signature(algorithm.DSA, "SHA-224"), "IDDSAWITHSHA256": signature(algorithm.DSA, "SHA-256"),

		"ECDSAWITHSHA1": signature(algorithm.EC, "SHA-1"), "ECDSAWITHSHA224": signature(algorithm.EC, "SHA-224"),
		"ECDSAWITHSHA256": signature(algorithm.EC, "SHA-256"), "ECDSAWITHSHA384": signature(algorithm.EC, "SHA-384"),
		"ECDSAWITHSHA512":  signature(algorithm.EC, "SHA-512"),
		"ECDSAWITHSHA3224": signature(algorithm.EC, "SHA3-224"), "ECDSAWITHSHA3256": signature(algorithm.EC, "SHA3-256"),
		"ECDSAWITHSHA3384": signature(algorithm.EC, "SHA3-384"), "ECDSAWITHSHA3512": signature(algorithm.EC, "SHA3-512"),
		"IDECDSAWITHSHA3224": signature(algorithm.EC, "SHA3-224"), "IDECDSAWITHSHA3256": signature(algorithm.EC, "SHA3-256"),
		"IDECDSAWITHSHA3384": signature(algorithm.EC, "SHA3-384"), "IDECDSAWITHSHA3512": signature(algorithm.EC, "SHA3-512"),
		"IDECPUBLICKEY": key(algorithm.EC), "ECPUBLICKEY": key(algorithm.EC),
		"SECP224R1": curve(224), "SECP256R1": curve(256), "PRIME256V1": curve(256), "SECP384R1": curve(384), "SECP521R1": curve(521),

		"IDED25519": key(algorithm.Ed25519), "ED25519": key(algorithm.Ed25519),
		"IDED448": key(algorithm.Ed448), "ED448": key(algorithm.Ed448),
	}
})

// byOID are the algorithms by object identifier.
var byOID = sync.OnceValue(func() map[string]identity {
	return map[string]identity{
		"1.2.840.113549.2.2": digest("MD2"), "1.2.840.113549.2.4": digest("MD4"), "1.2.840.113549.2.5": digest("MD5"),
		"1.3.14.3.2.26": digest("SHA-1"), "1.3.36.3.2.1": digest("RIPEMD-160"),
		"2.16.840.1.101.3.4.2.4": digest("SHA-224"), "2.16.840.1.101.3.4.2.1": digest("SHA-256"),
		"2.16.840.1.101.3.4.2.2": digest("SHA-384"), "2.16.840.1.101.3.4.2.3": digest("SHA-512"),
		"2.16.840.1.101.3.4.2.5": digest("SHA-512/224"), "2.16.840.1.101.3.4.2.6": digest("SHA-512/256"),
		"2.16.840.1.101.3.4.2.7": digest("SHA3-224"), "2.16.840.1.101.3.4.2.8": digest("SHA3-256"),
		"2.16.840.1.101.3.4.2.9": digest("SHA3-384"), "2.16.840.1.101.3.4.2.10": digest("SHA3-512"),
		"2.16.840.1.101.3.4.2.12": digest("SHAKE256"),

		"1.2.840.113549.1.1.1": key(algorithm.RSA),
		"1.2.840.113549.1.1.2": signature(algorithm.RSA, "MD2"), "1.2.840.113549.1.1.4": signature(algorithm.RSA, "MD5"),
		"1.2.840.113549.1.1.5": signature(algorithm.RSA, "SHA-1"), "1.2.840.113549.1.1.14": signature(algorithm.RSA, "SHA-224"),
		"1.2.840.113549.1.1.11": signature(algorithm.RSA, "SHA-256"), "1.2.840.113549.1.1.12": signature(algorithm.RSA, "SHA-384"),
		"1.2.840.113549.1.1.13": signature(algorithm.RSA, "SHA-512"), "1.2.840.113549.1.1.10": signature(algorithm.RSAPSS, ""),
		"2.16.840.1.101.3.4.3.13": signature(algorithm.RSA, "SHA3-224"), "2.16.840.1.101.3.4.3.14": signature(algorithm.RSA, "SHA3-256"),
		"2.16.840.1.101.3.4.3.15": signature(algorithm.RSA, "SHA3-384"), "2.16.840.1.101.3.4.3.16": signature(algorithm.RSA, "SHA3-512"),

		"1.2.840.10040.4.1": key(algorithm.DSA), "1.2.840.10040.4.3": signature(algorithm.DSA, "SHA-1"),
		"2.16.840.1.101.3.4.3.1": signature(algorithm.DSA, "SHA-224"), "2.16.840.1.101.3.4.3.2": signature(algorithm.DSA, "SHA-256"),

		"1.2.840.10045.2.1":   key(algorithm.EC),
		"1.2.840.10045.4.1":   signature(algorithm.EC, "SHA-1"),
		"1.2.840.10045.4.3.1": signature(algorithm.EC, "SHA-224"), "1.2.840.10045.4.3.2": signature(algorithm.EC, "SHA-256"),
		"1.2.840.10045.4.3.3": signature(algorithm.EC, "SHA-384"), "1.2.840.10045.4.3.4": signature(algorithm.EC, "SHA-512"),
		"2.16.840.1.101.3.4.3.9": signature(algorithm.EC, "SHA3-224"), "2.16.840.1.101.3.4.3.10": signature(algorithm.EC, "SHA3-256"),
		"2.16.840.1.101.3.4.3.11": signature(algorithm.EC, "SHA3-384"), "2.16.840.1.101.3.4.3.12": signature(algorithm.EC, "SHA3-512"),
		"1.3.132.0.33": curve(224), "1.2.840.10045.3.1.7": curve(256), "1.3.132.0.34": curve(384), "1.3.132.0.35": curve(521),

		"1.3.101.112": key(algorithm.Ed25519), "1.3.101.113": key(algorithm.Ed448),
	}
})

// byURI are the algorithms by XML Signature URI (RFC 6931, RFC 9231).
var byURI = sync.OnceValue(func() map[string]identity {
	return map[string]identity{
		"http://www.w3.org/2001/04/xmldsig-more#md5":      digest("MD5"),
		"http://www.w3.org/2000/09/xmldsig#sha1":          digest("SHA-1"),
		"http://www.w3.org/2001/04/xmldsig-more#sha224":   digest("SHA-224"),
		"http://www.w3.org/2001/04/xmlenc#sha256":         digest("SHA-256"),
		"http://www.w3.org/2001/04/xmldsig-more#sha384":   digest("SHA-384"),
		"http://www.w3.org/2001/04/xmlenc#sha512":         digest("SHA-512"),
		"http://www.w3.org/2001/04/xmlenc#ripemd160":      digest("RIPEMD-160"),
		"http://www.w3.org/2007/05/xmldsig-more#sha3-224": digest("SHA3-224"), "http://www.w3.org/2007/05/xmldsig-more#sha3-256": digest("SHA3-256"),
		"http://www.w3.org/2007/05/xmldsig-more#sha3-384": digest("SHA3-384"), "http://www.w3.org/2007/05/xmldsig-more#sha3-512": digest("SHA3-512"),

		"http://www.w3.org/2001/04/xmldsig-more#rsa-md5":    signature(algorithm.RSA, "MD5"),
		"http://www.w3.org/2000/09/xmldsig#rsa-sha1":        signature(algorithm.RSA, "SHA-1"),
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha224": signature(algorithm.RSA, "SHA-224"),
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha256": signature(algorithm.RSA, "SHA-256"),
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha384": signature(algorithm.RSA, "SHA-384"),
		"http://www.w3.org/2001/04/xmldsig-more#rsa-sha512": signature(algorithm.RSA, "SHA-512"),
		"http://www.w3.org/2007/05/xmldsig-more#rsa-pss":    signature(algorithm.RSAPSS, ""),
		"http://www.w3.org/2000/09/xmldsig#dsa-sha1":        signature(algorithm.DSA, "SHA-1"),
		"http://www.w3.org/2009/xmldsig11#dsa-sha256":       signature(algorithm.DSA, "SHA-256"),

		"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha1":     signature(algorithm.EC, "SHA-1"),
		"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha224":   signature(algorithm.EC, "SHA-224"),
		"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256":   signature(algorithm.EC, "SHA-256"),
		"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384":   signature(algorithm.EC, "SHA-384"),
		"http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512":   signature(algorithm.EC, "SHA-512"),
		"http://www.w3.org/2021/04/xmldsig-more#ecdsa-sha3-224": signature(algorithm.EC, "SHA3-224"),
		"http://www.w3.org/2021/04/xmldsig-more#ecdsa-sha3-256": signature(algorithm.EC, "SHA3-256"),
		"http://www.w3.org/2021/04/xmldsig-more#ecdsa-sha3-384": signature(algorithm.EC, "SHA3-384"),
		"http://www.w3.org/2021/04/xmldsig-more#ecdsa-sha3-512": signature(algorithm.EC, "SHA3-512"),
		"http://www.w3.org/2021/04/xmldsig-more#eddsa-ed25519":  key(algorithm.Ed25519),
		"http://www.w3.org/2021/04/xmldsig-more#eddsa-ed448":    key(algorithm.Ed448),
	}
})

// normalName spells a name for byName: upper case, without the hyphens,
// underscores, dots and spaces documents disagree on.
func normalName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '_', ' ', '.', '\t', '\n', '\r':
			return -1
		}
		return r
	}, strings.ToUpper(strings.TrimSpace(s)))
}

// identify is what the validator makes of an algorithm named name, oids
// and uris: the name first (the documents in circulation carry wrong
// object identifiers more often than wrong names), then each identifier,
// then each URI. ok is false for an algorithm it cannot meet.
func identify(name string, oids, uris []string) (identity, bool) {
	if id, ok := byName()[normalName(name)]; ok {
		return id, true
	}
	for _, o := range oids {
		if id, ok := byOID()[strings.TrimPrefix(strings.TrimSpace(o), "urn:oid:")]; ok {
			return id, true
		}
	}
	for _, u := range uris {
		if id, ok := byURI()[strings.TrimSpace(u)]; ok {
			return id, true
		}
	}
	return identity{}, false
}
