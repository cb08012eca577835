package egress_test

import (
	"crypto"
	"crypto/x509"
	"math/big"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/adapters/formats/crl"
	"github.com/svc-dss/dss/adapters/formats/ocsp"
	"github.com/svc-dss/dss/fixtures/pki"
)

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Set(t time.Time)         { c.mu.Lock(); defer c.mu.Unlock(); c.now = t }
func (c *clock) Advance(d time.Duration) { c.Set(c.Now().Add(d)) }

type cacheFixture struct {
	p      *pki.PKI
	resp   *ocsp.Response
	single ocsp.SingleResponse
	crl    *crl.CRL
}

func newCacheFixture(t *testing.T) cacheFixture {
	t.Helper()
	p, err := pki.New("http://cache.test")
	if err != nil {
		t.Fatal(err)
	}
	req, err := ocsp.Request(p.SignerRSA.Certificate, p.Intermediate.Certificate, crypto.SHA1)
	if err != nil {
		t.Fatal(err)
	}
	der, err := p.OCSPResponse(req, pki.ReferenceTime)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := ocsp.ParseResponse(der)
	if err != nil {
		t.Fatal(err)
	}
	single, err := resp.Basic.Find(p.SignerRSA.Certificate, p.Intermediate.Certificate)
	if err != nil {
		t.Fatal(err)
	}
	crlDER, err := p.CRL(p.Intermediate, pki.ReferenceTime)
	if err != nil {
		t.Fatal(err)
	}
	l, err := crl.Parse(crlDER)
	if err != nil {
		t.Fatal(err)
	}
	return cacheFixture{p: p, resp: resp, single: single, crl: l}
}

func TestCacheOCSPUntilNextUpdate(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newCacheFixture(t)
	clk := &clock{now: pki.ReferenceTime}
	c := egress.NewRevocationCache(clk.Now, egress.CacheOptions{})
	issuer, serial := f.p.Intermediate.Certificate, f.p.SignerRSA.Certificate.SerialNumber
	is.True(f.single.NextUpdate.Equal(pki.ReferenceTime.Add(12 * time.Hour)))

	_, ok := c.OCSP(issuer, serial)
	is.True(!ok) // empty
	c.PutOCSP(issuer, serial, f.resp, f.single.NextUpdate)

	got, ok := c.OCSP(issuer, serial)
	is.True(ok)
	is.True(got == f.resp)
	// The key is the issuer's key, not the certificate value.
	reparsed, err := x509.ParseCertificate(f.p.Intermediate.DER)
	is.NoErr(err)
	_, ok = c.OCSP(reparsed, new(big.Int).Set(serial))
	is.True(ok)
	_, ok = c.OCSP(issuer, big.NewInt(0x1002))
	is.True(!ok) // other serial
	_, ok = c.OCSP(f.p.Root.Certificate, serial)
	is.True(!ok) // other issuer

	clk.Set(f.single.NextUpdate.Add(-time.Second))
	_, ok = c.OCSP(issuer, serial)
	is.True(ok) // still before nextUpdate
	clk.Set(f.single.NextUpdate)
	_, ok = c.OCSP(issuer, serial)
	is.True(!ok) // at nextUpdate: newer information is due
	responses, _ := c.Len()
	is.Equal(responses, 0) // and the entry is gone
}

func TestCacheDefaultTTL(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newCacheFixture(t)
	clk := &clock{now: pki.ReferenceTime}
	c := egress.NewRevocationCache(clk.Now, egress.CacheOptions{DefaultTTL: time.Minute})
	issuer, serial := f.p.Intermediate.Certificate, f.p.SignerRSA.Certificate.SerialNumber

	c.PutOCSP(issuer, serial, f.resp, time.Time{}) // no nextUpdate
	clk.Advance(time.Minute - time.Nanosecond)
	_, ok := c.OCSP(issuer, serial)
	is.True(ok)
	clk.Advance(time.Nanosecond)
	_, ok = c.OCSP(issuer, serial)
	is.True(!ok)

	// Data already past its nextUpdate is not stored at all.
	c.PutOCSP(issuer, serial, f.resp, clk.Now().Add(-time.Second))
	c.PutOCSP(issuer, serial, f.resp, clk.Now())
	responses, _ := c.Len()
	is.Equal(responses, 0)
}

func TestCacheCRL(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	f := newCacheFixture(t)
	clk := &clock{now: pki.ReferenceTime}
	c := egress.NewRevocationCache(clk.Now, egress.CacheOptions{})
	issuer := f.p.Intermediate.Certificate
	url := f.p.CRLURL(f.p.Intermediate)

	c.PutCRL(issuer, url, f.crl)
	got, ok := c.CRL(issuer, url)
	is.True(ok)
	is.True(got == f.crl)
	_, ok = c.CRL(issuer, url+"?other")
	is.True(!ok) // another distribution point
	_, ok = c.CRL(f.p.Root.Certificate, url)
	is.True(!ok) // another issuer

	clk.Set(f.crl.NextUpdate.Add(-time.Second))
	_, ok = c.CRL(issuer, url)
	is.True(ok)
	clk.Set(f.crl.NextUpdate)
	_, ok = c.CRL(issuer, url)
	is.True(!ok)
}

func TestCacheEvictsLeastRecentlyUsed(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	issuer := f.p.Intermediate.Certificate
	t.Run("OCSP responses", func(t *testing.T) {
		is := is.New(t)
		clk := &clock{now: pki.ReferenceTime}
		c := egress.NewRevocationCache(clk.Now, egress.CacheOptions{MaxOCSPResponses: 3})
		next := clk.Now().Add(time.Hour)
		for s := int64(1); s <= 3; s++ {
			c.PutOCSP(issuer, big.NewInt(s), f.resp, next)
		}
		_, ok := c.OCSP(issuer, big.NewInt(1)) // 1 is now the most recently used
		is.True(ok)
		c.PutOCSP(issuer, big.NewInt(4), f.resp, next) // evicts 2
		for s, want := range map[int64]bool{1: true, 2: false, 3: true, 4: true} {
			_, ok := c.OCSP(issuer, big.NewInt(s))
			is.Equal(ok, want) // serial s
		}
		responses, _ := c.Len()
		is.Equal(responses, 3)
	})
	t.Run("CRL bytes", func(t *testing.T) {
		is := is.New(t)
		clk := &clock{now: pki.ReferenceTime}
		size := int64(len(f.crl.Raw))
		c := egress.NewRevocationCache(clk.Now, egress.CacheOptions{MaxCRLBytes: 2*size + size/2})
		c.PutCRL(issuer, "http://a.test/ca.crl", f.crl)
		c.PutCRL(issuer, "http://b.test/ca.crl", f.crl)
		c.PutCRL(issuer, "http://c.test/ca.crl", f.crl) // over 2.5 CRLs: evicts a
		_, ok := c.CRL(issuer, "http://a.test/ca.crl")
		is.True(!ok)
		_, ok = c.CRL(issuer, "http://b.test/ca.crl")
		is.True(ok)
		_, crls := c.Len()
		is.Equal(crls, 2)

		small := egress.NewRevocationCache(clk.Now, egress.CacheOptions{MaxCRLBytes: size - 1})
		small.PutCRL(issuer, "http://a.test/ca.crl", f.crl) // larger than the whole bound
		_, crls = small.Len()
		is.Equal(crls, 0)
	})
}

// TestCacheConcurrentUse is meant for -race.
func TestCacheConcurrentUse(t *testing.T) {
	t.Parallel()
	f := newCacheFixture(t)
	clk := &clock{now: pki.ReferenceTime}
	c := egress.NewRevocationCache(clk.Now, egress.CacheOptions{MaxOCSPResponses: 50, MaxCRLBytes: int64(len(f.crl.Raw)) * 5})
	issuer := f.p.Intermediate.Certificate
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 500 {
				s := big.NewInt(int64(g*1000 + i%100))
				c.PutOCSP(issuer, s, f.resp, clk.Now().Add(time.Hour))
				c.OCSP(issuer, s)
				url := "http://crl.test/" + s.String()
				c.PutCRL(issuer, url, f.crl)
				c.CRL(issuer, url)
				if i%100 == 0 {
					clk.Advance(time.Minute)
				}
			}
		})
	}
	wg.Wait()
	responses, crls := c.Len()
	if responses > 50 || crls > 5 {
		t.Fatalf("bounds exceeded: %d responses, %d CRLs", responses, crls)
	}
}

func TestNewRevocationCacheNeedsAClock(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	egress.NewRevocationCache(nil, egress.CacheOptions{})
}
