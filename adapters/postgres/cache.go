package postgres

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Recommended settings for [NewCachedControl].
const (
	// DefaultCacheTTL bounds how long a revoked licence or a changed
	// provider keeps its old answer.
	DefaultCacheTTL = 30 * time.Second

	// DefaultCacheEntries bounds each of the caches. Unknown tenants
	// are cached too, so requests naming random UUIDs fill the cache; the
	// bound keeps that to a few megabytes.
	DefaultCacheEntries = 10_000
)

// CachedControl is a [Control] with a TTL cache in front of the lookups
// made on every validation request: Provider, HasFeature and
// ValidationPolicy. Found and
// not-found answers are kept for the TTL; errors are not, so a database
// that is back answers the next request. When a cache is full the oldest
// answer is dropped. The other lookups go to the database every time.
//
// The embedded Control answers the uncached lookups (HasPermission,
// ClientKey, Module, Partition); calling its Provider, HasFeature or
// ValidationPolicy directly bypasses the cache.
//
// A CachedControl is safe for concurrent use. Concurrent misses for the
// same key each query the database; the cache does not merge them.
type CachedControl struct {
	*Control
	providers *ttlCache[string, answer[Provider]]
	features  *ttlCache[featureKey, validity]
	policies  *ttlCache[string, answer[string]]
}

// An answer is a lookup's row, or that there is none: both are cached.
type answer[T any] struct {
	v     T
	found bool
}

type featureKey struct{ tenant, feature string }

// NewCachedControl returns c with answers cached for ttl, at most
// maxEntries providers and maxEntries licences, and ages measured with
// clock (time.Now in production). See [DefaultCacheTTL] and
// [DefaultCacheEntries].
//
// It panics if c or clock is nil, ttl is not positive or maxEntries is
// less than 1: those are wiring mistakes.
func NewCachedControl(c *Control, ttl time.Duration, maxEntries int, clock func() time.Time) *CachedControl {
	switch {
	case c == nil:
		panic("postgres: NewCachedControl: nil Control")
	case clock == nil:
		panic("postgres: NewCachedControl: nil clock")
	case ttl <= 0:
		panic(fmt.Sprintf("postgres: NewCachedControl: ttl %v is not positive", ttl))
	case maxEntries < 1:
		panic(fmt.Sprintf("postgres: NewCachedControl: maxEntries %d is less than 1", maxEntries))
	}
	return &CachedControl{
		Control:   c,
		providers: newTTLCache[string, answer[Provider]](ttl, maxEntries, clock),
		features:  newTTLCache[featureKey, validity](ttl, maxEntries, clock),
		policies:  newTTLCache[string, answer[string]](ttl, maxEntries, clock),
	}
}

// ValidationPolicy is [Control.ValidationPolicy], answered from the cache
// when it can be: every validation of a tenant asks it, and a tenant whose
// provider and licence come from the cache is then served while the
// database is away, as before the policy column (a changed default shows
// once the TTL is over).
func (c *CachedControl) ValidationPolicy(ctx context.Context, tenant string) (string, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return "", fmt.Errorf("postgres: validation policy: %w", ErrInvalidTenant)
	}
	if a, ok := c.policies.get(id); ok {
		if !a.found {
			return "", fmt.Errorf("postgres: validation policy of tenant %s: %w (cached)", id, ErrNotFound)
		}
		return a.v, nil
	}
	name, err := c.Control.ValidationPolicy(ctx, id)
	switch {
	case err == nil:
		c.policies.put(id, answer[string]{v: name, found: true})
	case errors.Is(err, ErrNotFound):
		c.policies.put(id, answer[string]{})
	}
	return name, err
}

// Provider is [Control.Provider], answered from the cache when it can be.
func (c *CachedControl) Provider(ctx context.Context, tenant string) (Provider, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return Provider{}, fmt.Errorf("postgres: provider: %w", ErrInvalidTenant)
	}
	if a, ok := c.providers.get(id); ok {
		if !a.found {
			return Provider{}, fmt.Errorf("postgres: provider of tenant %s: %w (cached)", id, ErrNotFound)
		}
		return a.v, nil
	}
	p, err := c.Control.Provider(ctx, id)
	switch {
	case err == nil:
		c.providers.put(id, answer[Provider]{v: p, found: true})
	case errors.Is(err, ErrNotFound):
		c.providers.put(id, answer[Provider]{})
	}
	return p, err
}

// HasFeature is [Control.HasFeature], answered from the cache when it can
// be. The cache holds the licence's validity period, not a yes or no, so
// the answer for at is exact for the period read.
func (c *CachedControl) HasFeature(ctx context.Context, tenant, feature string, at time.Time) (bool, error) {
	id, ok := canonicalUUID(tenant)
	if !ok {
		return false, nil
	}
	k := featureKey{id, feature}
	v, ok := c.features.get(k)
	if !ok {
		var err error
		if v, err = c.Control.licence(ctx, id, feature); err != nil {
			return false, err
		}
		c.features.put(k, v)
	}
	return v.covers(at), nil
}

// A ttlCache is a map whose entries expire ttl after they were stored and
// which holds at most max entries, dropping the oldest. Because every
// entry lives equally long, insertion order is expiry order, and one list
// serves both for eviction and for sweeping out expired entries.
type ttlCache[K comparable, V any] struct {
	ttl   time.Duration
	max   int
	clock func() time.Time

	mu      sync.Mutex
	entries map[K]*list.Element // of *ttlEntry[K, V]
	order   *list.List          // oldest first
}

type ttlEntry[K comparable, V any] struct {
	key     K
	val     V
	expires time.Time
}

func newTTLCache[K comparable, V any](ttl time.Duration, max int, clock func() time.Time) *ttlCache[K, V] {
	return &ttlCache[K, V]{ttl: ttl, max: max, clock: clock, entries: map[K]*list.Element{}, order: list.New()}
}

func (c *ttlCache[K, V]) get(k K) (V, bool) {
	now := c.clock()
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.entries[k]
	if !ok {
		var zero V
		return zero, false
	}
	e := el.Value.(*ttlEntry[K, V])
	if c.expired(e, now) {
		c.remove(el)
		var zero V
		return zero, false
	}
	return e.val, true
}

func (c *ttlCache[K, V]) put(k K, v V) {
	now := c.clock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[k]; ok {
		e := el.Value.(*ttlEntry[K, V])
		e.val, e.expires = v, now.Add(c.ttl)
		c.order.MoveToBack(el)
		return
	}
	for el := c.order.Front(); el != nil && c.expired(el.Value.(*ttlEntry[K, V]), now); el = c.order.Front() {
		c.remove(el)
	}
	for c.order.Len() >= c.max {
		c.remove(c.order.Front())
	}
	c.entries[k] = c.order.PushBack(&ttlEntry[K, V]{key: k, val: v, expires: now.Add(c.ttl)})
}

// expired also treats an entry as expired when the clock went back by
// more than the TTL, so that a stepped clock cannot keep an answer alive.
func (c *ttlCache[K, V]) expired(e *ttlEntry[K, V], now time.Time) bool {
	left := e.expires.Sub(now)
	return left <= 0 || left > c.ttl
}

func (c *ttlCache[K, V]) remove(el *list.Element) {
	delete(c.entries, el.Value.(*ttlEntry[K, V]).key)
	c.order.Remove(el)
}

func (c *ttlCache[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}
