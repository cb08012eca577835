package tlcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sync"

	"github.com/svc-dss/dss/ports"
)

// Memory is a cache that keeps its lists in memory, for a process that
// must not write what it reads: trusted lists given as files, or the
// refreshes of a library user over a service's cache (Over). Safe for
// concurrent use.
type Memory struct {
	// under is read for a list Memory does not hold; nil: none.
	under ports.TrustListCache

	mu    sync.Mutex
	lists map[string]ports.CachedList
}

var _ ports.TrustListCache = (*Memory)(nil)

// NewMemory returns an empty cache.
func NewMemory() *Memory { return &Memory{lists: map[string]ports.CachedList{}} }

// Over returns a cache that reads under and keeps what is stored in
// memory: under is never written.
func Over(under ports.TrustListCache) *Memory {
	m := NewMemory()
	m.under = under
	return m
}

// Load returns the copy of url stored last, else under's.
func (m *Memory) Load(ctx context.Context, url string) (ports.CachedList, error) {
	m.mu.Lock()
	l, ok := m.lists[url]
	m.mu.Unlock()
	if ok {
		l.Data = slices.Clone(l.Data)
		return l, nil
	}
	if m.under != nil {
		return m.under.Load(ctx, url)
	}
	return ports.CachedList{}, fmt.Errorf("tlcache: %s: %w", url, ports.ErrNotCached)
}

// Store keeps a copy of data with lm, its digest computed here.
func (m *Memory) Store(_ context.Context, url string, data []byte, lm ports.ListMeta) error {
	sum := sha256.Sum256(data)
	lm.URL, lm.SHA256 = url, hex.EncodeToString(sum[:])
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lists[url] = ports.CachedList{Data: slices.Clone(data), Meta: lm}
	return nil
}

// StoreMeta updates the metadata of the copy of url, taking under's copy
// into memory first.
func (m *Memory) StoreMeta(ctx context.Context, url string, lm ports.ListMeta) error {
	l, err := m.Load(ctx, url)
	if err != nil {
		return err
	}
	l.Meta.Downloaded, l.Meta.LastOnlineConfirmation, l.Meta.ConsecutiveFailures = lm.Downloaded, lm.LastOnlineConfirmation, lm.ConsecutiveFailures
	m.mu.Lock()
	defer m.mu.Unlock()
	m.lists[url] = l
	return nil
}
