// Package algorithm holds the cryptographic constraints of the validation
// process: until when each digest algorithm, and each signature algorithm
// with its key size, is acceptable (ETSI EN 319 102-1, 5.2.8 and 5.6.2.5;
// the dates of ETSI TS 119 312 and its predecessor TS 102 176-1).
//
// A Catalogue answers with a Limit: acceptable with no end known,
// acceptable before a date (after it only with a proof of existence
// before the date), or never acceptable (an algorithm the catalogue does
// not know, a key below the smallest size it lists, a pairing the
// algorithm's own standard forbids). The process decides what a Limit
// means for a signature, a certificate, a time-stamp or revocation data.
package algorithm

import (
	"crypto/dsa" //lint:ignore SA1019 DSA keys are judged, never used
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"strconv"
	"strings"
	"time"
)

// Digest names a digest algorithm as crypto.Hash spells it: MD5, SHA-1,
// SHA-256, SHA3-256, SHA-512/256; and SHAKE256.
type Digest string

// Key names the family of a signature key.
type Key string

// Key families. RSASSA-PSS is a family of its own: a suite document may
// date it apart from RSA PKCS #1 v1.5 (ETSI TS 119 312 does), though its
// keys are RSA keys (Key.PublicKey).
const (
	RSA     Key = "RSA"
	RSAPSS  Key = "RSASSA-PSS"
	EC      Key = "EC" // ECDSA, plain ECDSA
	DSA     Key = "DSA"
	Ed25519 Key = "Ed25519"
	Ed448   Key = "Ed448"
)

// PublicKey is the family of the public keys that make signatures of
// family k: RSA for RSASSA-PSS, k itself otherwise.
func (k Key) PublicKey() Key {
	if k == RSAPSS {
		return RSA
	}
	return k
}

// A Use is one use of cryptography to judge: a digest alone (Key empty),
// or a signature: its key family and size in bits, and the digest it
// signs (empty for a pure EdDSA signature, whose digest is its own).
type Use struct {
	Digest Digest
	Key    Key
	Bits   int
}

// String names the use for messages: "RSA 2048 with SHA-256", "SHA-1".
func (u Use) String() string {
	if u.Key == "" {
		return string(u.Digest)
	}
	s := string(u.Key)
	if u.Bits > 0 && u.Key != Ed25519 && u.Key != Ed448 {
		s += " " + itoa(u.Bits)
	}
	if u.Digest != "" {
		s += " with " + string(u.Digest)
	}
	return s
}

// A Limit is how long a use is acceptable.
type Limit struct {
	// Never: the use is not acceptable at any time; Reason says why.
	Never  bool
	Reason string
	// Until: acceptable strictly before it; zero when no end is known.
	Until time.Time
	// Source is where the date comes from.
	Source string
}

// AcceptableAt reports whether the use is acceptable at t.
func (l Limit) AcceptableAt(t time.Time) bool {
	return !l.Never && (l.Until.IsZero() || t.Before(l.Until))
}

// earlier is the stricter of two limits.
func earlier(a, b Limit) Limit {
	switch {
	case a.Never:
		return a
	case b.Never:
		return b
	case a.Until.IsZero():
		return b
	case b.Until.IsZero() || a.Until.Before(b.Until):
		return a
	}
	return b
}

// laxer is the laxer of two limits: what a suite document means when two
// of its evaluations both cover a use.
func laxer(a, b Limit) Limit {
	switch {
	case a.Never:
		return b
	case b.Never:
		return a
	case a.Until.IsZero():
		return a
	case b.Until.IsZero() || b.Until.After(a.Until):
		return b
	}
	return a
}

// A Catalogue is a set of constraints. The zero Catalogue accepts
// nothing; Default and a Builder make others.
type Catalogue struct {
	digests map[Digest]Limit
	// keys are, per family, limits by key size (an EC key's size names
	// its curve): the family's own constraints, whatever it signs.
	keys map[Key][]sized
	// signatures are limits by key size of a family paired with one
	// digest (sha256WithRSAEncryption), or with any (rsassa-pss, digest
	// empty). A family with any entry here signs only what they list.
	signatures map[pair][]sized
	// paired are the families with entries in signatures.
	paired map[Key]bool
	// pure are the families that sign a message with their own digest
	// (RFC 8419): the only digest each may be paired with.
	pure map[Key]Digest
}

type pair struct {
	key    Key
	digest Digest
}

// sized is a limit for keys of Min bits and more, and at most Max when
// Max is not 0.
type sized struct {
	Min, Max int
	Limit
}

func (s sized) fits(bits int) bool { return bits >= s.Min && (s.Max == 0 || bits <= s.Max) }

// bySize is the laxest limit of the entries a key of bits fits; ok is
// false when it fits none.
func bySize(entries []sized, bits int) (Limit, bool) {
	var out Limit
	ok := false
	for _, e := range entries {
		if !e.fits(bits) {
			continue
		}
		if !ok {
			out, ok = e.Limit, true
			continue
		}
		out = laxer(out, e.Limit)
	}
	return out, ok
}

func smallest(entries []sized) int {
	m := 0
	for i, e := range entries {
		if i == 0 || e.Min < m {
			m = e.Min
		}
	}
	return m
}

// WithDigest is c with the limit of digest d set to l: how a validation
// policy moves a date (and how tests place one).
func (c Catalogue) WithDigest(d Digest, l Limit) Catalogue {
	digests := make(map[Digest]Limit, len(c.digests)+1)
	for k, v := range c.digests {
		digests[k] = v
	}
	digests[d] = l
	c.digests = digests
	return c
}

// Digest is the limit of a digest algorithm.
func (c Catalogue) Digest(d Digest) Limit {
	if l, ok := c.digests[d]; ok {
		return l
	}
	return Limit{Never: true, Reason: "digest algorithm " + orUnknown(string(d)) + " is not among the acceptable ones"}
}

// Judge is the limit of a use: the stricter of its digest's and its
// key's, or never for a pairing the algorithm forbids.
func (c Catalogue) Judge(u Use) Limit {
	if u.Key == "" {
		return c.Digest(u.Digest)
	}
	own, pure := c.pure[u.Key]
	if pure && u.Digest != "" && u.Digest != own {
		return Limit{Never: true, Reason: u.String() + ": " + string(u.Key) + " signs with " + string(own) + " only (RFC 8419)"}
	}
	key := c.keyLimit(u)
	if pure || key.Never {
		return key
	}
	return earlier(c.Digest(u.Digest), key)
}

// keyLimit is the limit of u's signature algorithm and key size, leaving
// its digest's own limit aside: the stricter of the family's constraints
// and those of its pairing with u's digest, where the catalogue lists
// either.
func (c Catalogue) keyLimit(u Use) Limit {
	family, listed := c.keys[u.Key]
	if !listed && !c.paired[u.Key] {
		return Limit{Never: true, Reason: "signature algorithm " + orUnknown(string(u.Key)) + " is not among the acceptable ones"}
	}
	tooShort := func(entries []sized) Limit {
		if m := smallest(entries); u.Bits < m {
			return Limit{Never: true, Reason: u.String() + ": the key is shorter than the shortest acceptable, " + itoa(m) + " bits"}
		}
		return Limit{Never: true, Reason: u.String() + ": the key size is not among the acceptable ones"}
	}
	out := Limit{}
	if listed {
		l, ok := bySize(family, u.Bits)
		if !ok {
			return tooShort(family)
		}
		out = l
	}
	if c.paired[u.Key] {
		entries := append(append([]sized(nil), c.signatures[pair{u.Key, u.Digest}]...), c.signatures[pair{u.Key, ""}]...)
		if len(entries) == 0 {
			return Limit{Never: true, Reason: string(u.Key) + " with " + orUnknown(string(u.Digest)) + " is not among the acceptable signature algorithms"}
		}
		l, ok := bySize(entries, u.Bits)
		if !ok {
			return tooShort(entries)
		}
		if listed {
			return earlier(out, l)
		}
		out = l
	}
	return out
}

// A Builder makes a Catalogue from the entries of a suite document. Two
// entries for the same use keep the laxer limit: a document's
// evaluations each say when a use is suitable. The pairings RFC 8419
// fixes for EdDSA are always in force.
type Builder struct {
	c Catalogue
}

func (b *Builder) init() {
	if b.c.digests == nil {
		b.c = Catalogue{
			digests:    map[Digest]Limit{},
			keys:       map[Key][]sized{},
			signatures: map[pair][]sized{},
			paired:     map[Key]bool{},
			pure:       map[Key]Digest{Ed25519: "SHA-512", Ed448: "SHAKE256"},
		}
	}
}

// Digest adds a limit of digest d.
func (b *Builder) Digest(d Digest, l Limit) {
	b.init()
	if old, ok := b.c.digests[d]; ok {
		l = laxer(old, l)
	}
	b.c.digests[d] = l
}

// Key adds a limit of family k's keys of min bits and more (at most max
// when max is not 0), whatever they sign.
func (b *Builder) Key(k Key, minBits, maxBits int, l Limit) {
	b.init()
	b.c.keys[k] = append(b.c.keys[k], sized{minBits, maxBits, l})
}

// Signature adds a limit of family k's keys of min bits and more (at
// most max when max is not 0) signing digest d, or any digest when d is
// empty. Once a family has one, it signs only the digests so listed.
func (b *Builder) Signature(k Key, d Digest, minBits, maxBits int, l Limit) {
	b.init()
	b.c.signatures[pair{k, d}] = append(b.c.signatures[pair{k, d}], sized{minBits, maxBits, l})
	b.c.paired[k] = true
}

// Catalogue is the catalogue built; the Builder starts afresh.
func (b *Builder) Catalogue() Catalogue {
	b.init()
	c := b.c
	b.c = Catalogue{}
	return c
}

// Empty reports whether c judges nothing acceptable: no digest and no
// signature algorithm listed.
func (c Catalogue) Empty() bool {
	return len(c.digests) == 0 && len(c.keys) == 0 && len(c.signatures) == 0
}

// Sources of the default catalogue's dates.
const (
	sourceTS119312 = "ETSI TS 119 312"
	sourceTS102176 = "ETSI TS 102 176-1 (the predecessor of TS 119 312, which no longer lists it)"
	sourceMD5      = "not in ETSI TS 119 312 or TS 102 176-1; the date of the first published MD5 collision"
	sourceRFC8419  = "RFC 8419"
	// sourceSHA224 is the one end date TS 119 312 gives that the
	// default follows (docs/decisions/0041): "legacy until 2028" in
	// V1.5.1 and V2.1.1 alike.
	sourceSHA224 = "ETSI TS 119 312 (V1.5.1, V2.1.1: legacy, not after 2028)"
)

func day(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// Default is the catalogue the validator applies unless a validation
// policy says otherwise (docs/decisions/0027-cryptographic-constraints.md
// gives each date and why): the digests and key sizes of ETSI TS 119 312
// with no end date, those it dropped until the date its predecessor or
// the published attacks put on them, and every other one never.
func Default() Catalogue {
	// Each size's entry holds from its size up, until a larger one's
	// later date takes over (the laxest entry a key fits applies).
	rsa := []sized{
		{1024, 0, Limit{Until: day(2010, time.January, 1), Source: sourceTS102176}},
		{1536, 0, Limit{Until: day(2017, time.January, 1), Source: sourceTS102176}},
		{1900, 0, Limit{Source: sourceTS119312}},
	}
	return Catalogue{
		digests: map[Digest]Limit{
			"MD2":         {Never: true, Reason: "MD2 is not acceptable for signatures", Source: sourceMD5},
			"MD4":         {Never: true, Reason: "MD4 is not acceptable for signatures", Source: sourceMD5},
			"MD5":         {Until: day(2004, time.August, 17), Source: sourceMD5},
			"SHA-1":       {Until: day(2010, time.January, 1), Source: sourceTS102176},
			"RIPEMD-160":  {Until: day(2011, time.January, 1), Source: sourceTS102176},
			"SHA-224":     {Until: day(2029, time.January, 1), Source: sourceSHA224},
			"SHA-256":     {Source: sourceTS119312},
			"SHA-384":     {Source: sourceTS119312},
			"SHA-512":     {Source: sourceTS119312},
			"SHA-512/224": {Source: sourceTS119312},
			"SHA-512/256": {Source: sourceTS119312},
			"SHA3-224":    {Source: sourceTS119312},
			"SHA3-256":    {Source: sourceTS119312},
			"SHA3-384":    {Source: sourceTS119312},
			"SHA3-512":    {Source: sourceTS119312},
			"SHAKE256":    {Source: sourceTS119312},
		},
		keys: map[Key][]sized{
			RSA:    rsa,
			RSAPSS: rsa,
			DSA: {
				{1024, 0, Limit{Until: day(2010, time.January, 1), Source: sourceTS102176}},
				{2048, 0, Limit{Source: sourceTS119312}},
			},
			EC: {
				{160, 0, Limit{Until: day(2013, time.January, 1), Source: sourceTS102176}},
				{224, 0, Limit{Until: day(2017, time.January, 1), Source: sourceTS102176}},
				{256, 0, Limit{Source: sourceTS119312}},
			},
			Ed25519: {{256, 0, Limit{Source: sourceTS119312}}},
			Ed448:   {{448, 0, Limit{Source: sourceTS119312}}},
		},
		pure: map[Key]Digest{Ed25519: "SHA-512", Ed448: "SHAKE256"},
	}
}

// ParseSignature splits the name readers give a signature algorithm
// (ades.Check.Algorithm: RSA-SHA256, RSASSA-PSS-SHA256, ECDSA-SHA1,
// PLAIN-ECDSA-SHA256, Ed25519, Ed448) into its key family and digest; ok
// is false for a name it does not know.
func ParseSignature(name string) (key Key, digest Digest, ok bool) {
	switch name {
	case "Ed25519":
		return Ed25519, "", true
	case "Ed448":
		return Ed448, "", true
	}
	for _, p := range []struct {
		prefix string
		key    Key
	}{{"RSASSA-PSS-", RSAPSS}, {"RSA-", RSA}, {"PLAIN-ECDSA-", EC}, {"ECDSA-", EC}, {"DSA-", DSA}, {"Ed25519-", Ed25519}, {"Ed448-", Ed448}} {
		if rest, found := strings.CutPrefix(name, p.prefix); found {
			return p.key, NormalizeDigest(rest), true
		}
	}
	return "", "", false
}

// NormalizeDigest spells a digest name as crypto.Hash does: SHA256 and
// sha-256 are SHA-256, SHA3256 stays unknown.
func NormalizeDigest(name string) Digest {
	n := strings.ToUpper(strings.TrimSpace(name))
	switch n {
	case "SHA1", "SHA-1":
		return "SHA-1"
	case "SHA224", "SHA256", "SHA384", "SHA512":
		return Digest("SHA-" + n[3:])
	case "RIPEMD160", "RIPEMD-160":
		return "RIPEMD-160"
	case "SHA512/224", "SHA512/256":
		return Digest("SHA-" + n[3:])
	}
	return Digest(n)
}

// KeyOf is the family and size of a public key; ok is false for a key of
// another kind.
func KeyOf(pub any) (key Key, bits int, ok bool) {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		return RSA, k.N.BitLen(), true
	case *ecdsa.PublicKey:
		return EC, k.Curve.Params().BitSize, true
	case ed25519.PublicKey:
		return Ed25519, 256, true
	case *dsa.PublicKey:
		return DSA, k.P.BitLen(), true
	}
	return "", 0, false
}

// CertificateUse is the use of cryptography in c's signature, made with
// the key of issuer; ok is false when c's signature algorithm is one
// crypto/x509 does not name (the certificate is then not judged here).
func CertificateUse(c, issuer *x509.Certificate) (Use, bool) {
	return SignedBy(c.SignatureAlgorithm, issuer)
}

// SignedBy is the use of a signature of algorithm alg made with the key
// of signer (a certificate's, a CRL's, an OCSP response's); ok is false
// when crypto/x509 does not name alg or signer's key is not of its
// family.
func SignedBy(alg x509.SignatureAlgorithm, signer *x509.Certificate) (Use, bool) {
	var u Use
	switch alg {
	case x509.MD2WithRSA:
		u = Use{Key: RSA, Digest: "MD2"}
	case x509.MD5WithRSA:
		u = Use{Key: RSA, Digest: "MD5"}
	case x509.SHA1WithRSA:
		u = Use{Key: RSA, Digest: "SHA-1"}
	case x509.SHA256WithRSA:
		u = Use{Key: RSA, Digest: "SHA-256"}
	case x509.SHA384WithRSA:
		u = Use{Key: RSA, Digest: "SHA-384"}
	case x509.SHA512WithRSA:
		u = Use{Key: RSA, Digest: "SHA-512"}
	case x509.SHA256WithRSAPSS:
		u = Use{Key: RSAPSS, Digest: "SHA-256"}
	case x509.SHA384WithRSAPSS:
		u = Use{Key: RSAPSS, Digest: "SHA-384"}
	case x509.SHA512WithRSAPSS:
		u = Use{Key: RSAPSS, Digest: "SHA-512"}
	case x509.DSAWithSHA1:
		u = Use{Key: DSA, Digest: "SHA-1"}
	case x509.DSAWithSHA256:
		u = Use{Key: DSA, Digest: "SHA-256"}
	case x509.ECDSAWithSHA1:
		u = Use{Key: EC, Digest: "SHA-1"}
	case x509.ECDSAWithSHA256:
		u = Use{Key: EC, Digest: "SHA-256"}
	case x509.ECDSAWithSHA384:
		u = Use{Key: EC, Digest: "SHA-384"}
	case x509.ECDSAWithSHA512:
		u = Use{Key: EC, Digest: "SHA-512"}
	case x509.PureEd25519:
		u = Use{Key: Ed25519}
	default:
		return Use{}, false
	}
	if signer != nil {
		if k, bits, ok := KeyOf(signer.PublicKey); ok && k == u.Key.PublicKey() {
			u.Bits = bits
			return u, true
		}
	}
	return Use{}, false
}

func orUnknown(s string) string {
	if s == "" {
		return "(unknown)"
	}
	return s
}

func itoa(n int) string { return strconv.Itoa(n) }
