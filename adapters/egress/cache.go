package egress

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/binary"
	"math/big"
	"sync"
	"time"

	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
)

// Default bounds of a RevocationCache.
const (
	// DefaultMaxOCSPResponses bounds the cached OCSP responses. A
	// parsed response takes a few kilobytes, so the default stays under
	// about 50 MB.
	DefaultMaxOCSPResponses = 10_000

	// DefaultMaxCRLBytes bounds the sum of the encoded sizes of the
	// cached CRLs. The parsed form takes about four times the encoded
	// size for CRLs made mostly of entries, so the default stays near
	// 256 MB at worst. A CRL larger than the bound is not cached.
	DefaultMaxCRLBytes = 64 << 20

	// DefaultRevocationTTL is how long data without a nextUpdate is kept.
	// An OCSP response without nextUpdate says newer information is
	// always available (RFC 6960, section 4.2.2.1); keeping it a few
	// minutes only spares a responder repeated questions within one
	// burst of validations.
	DefaultRevocationTTL = 5 * time.Minute
)

// CacheOptions bound a RevocationCache; zero fields take the defaults.
type CacheOptions struct {
	MaxOCSPResponses int
	MaxCRLBytes      int64
	DefaultTTL       time.Duration
}

// A RevocationCache keeps OCSP responses and CRLs in memory until their
// nextUpdate, or DefaultTTL when they have none. OCSP responses are keyed
// on the issuer's public key and the serial number, CRLs on the issuer
// (name and key) and the distribution point URL. Both parts are bounded
// (CacheOptions) and evict the least recently used entry first. Time comes
// only from the clock given to NewRevocationCache. It is safe for
// concurrent use.
//
// The cache stores what it is given: put only data that parsed and whose
// signature verified. Cached values are shared and must not be modified.
type RevocationCache struct {
	now func() time.Time
	ttl time.Duration

	mu   sync.Mutex
	ocsp *lru[ocspKey, *ocsp.Response]
	crls *lru[crlKey, *crl.CRL]
}

type ocspKey struct {
	issuerKey [sha256.Size]byte
	serial    string
}

type crlKey struct {
	issuer [sha256.Size]byte
	url    string
}

// NewRevocationCache returns an empty cache that reads the time from now,
// which must not be nil.
func NewRevocationCache(now func() time.Time, o CacheOptions) *RevocationCache {
	if now == nil {
		panic("egress: NewRevocationCache without a clock")
	}
	if o.MaxOCSPResponses <= 0 {
		o.MaxOCSPResponses = DefaultMaxOCSPResponses
	}
	if o.MaxCRLBytes <= 0 {
		o.MaxCRLBytes = DefaultMaxCRLBytes
	}
	if o.DefaultTTL <= 0 {
		o.DefaultTTL = DefaultRevocationTTL
	}
	return &RevocationCache{
		now:  now,
		ttl:  o.DefaultTTL,
		ocsp: newLRU[ocspKey, *ocsp.Response](int64(o.MaxOCSPResponses)),
		crls: newLRU[crlKey, *crl.CRL](o.MaxCRLBytes),
	}
}

func newOCSPKey(issuer *x509.Certificate, serial *big.Int) ocspKey {
	return ocspKey{issuerKey: sha256.Sum256(issuer.RawSubjectPublicKeyInfo), serial: serial.Text(16)}
}

func newCRLKey(issuer *x509.Certificate, url string) crlKey {
	h := sha256.New()
	// The length prefix keeps two (name, key) pairs from colliding by
	// moving bytes from one to the other.
	h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(issuer.RawSubject))))
	h.Write(issuer.RawSubject)
	h.Write(issuer.RawSubjectPublicKeyInfo)
	var k crlKey
	h.Sum(k.issuer[:0])
	k.url = url
	return k
}

// expiry is when data with the given nextUpdate leaves the cache.
func (c *RevocationCache) expiry(now, nextUpdate time.Time) time.Time {
	if nextUpdate.IsZero() {
		return now.Add(c.ttl)
	}
	return nextUpdate
}

// OCSP returns the cached response about serial, issued by issuer, if it
// has not reached its nextUpdate.
func (c *RevocationCache) OCSP(issuer *x509.Certificate, serial *big.Int) (*ocsp.Response, bool) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ocsp.get(newOCSPKey(issuer, serial), now)
}

// PutOCSP caches r as the answer about serial, issued by issuer, until
// nextUpdate (that of r's SingleResponse for serial; zero for none).
// A response already past nextUpdate is not stored.
func (c *RevocationCache) PutOCSP(issuer *x509.Certificate, serial *big.Int, r *ocsp.Response, nextUpdate time.Time) {
	now := c.now()
	exp := c.expiry(now, nextUpdate)
	if !now.Before(exp) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ocsp.put(newOCSPKey(issuer, serial), r, exp, 1)
}

// CRL returns the cached CRL of issuer from url, if it has not reached its
// nextUpdate.
func (c *RevocationCache) CRL(issuer *x509.Certificate, url string) (*crl.CRL, bool) {
	now := c.now()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.crls.get(newCRLKey(issuer, url), now)
}

// PutCRL caches l, issued by issuer and fetched from url, until its
// nextUpdate. A CRL already past its nextUpdate, or larger than the
// cache's CRL bound, is not stored.
func (c *RevocationCache) PutCRL(issuer *x509.Certificate, url string, l *crl.CRL) {
	now := c.now()
	exp := c.expiry(now, l.NextUpdate)
	if !now.Before(exp) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.crls.put(newCRLKey(issuer, url), l, exp, int64(len(l.Raw)))
}

// Len returns the number of cached OCSP responses and CRLs, expired ones
// not yet dropped included.
func (c *RevocationCache) Len() (responses, crls int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.ocsp.len(), c.crls.len()
}
