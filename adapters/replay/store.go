package replay

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/svc-dss/dss/ports"
)

// ErrFull is a Store that holds its capacity of unexpired ids.
var ErrFull = errors.New("replay: store full")

// A Store is an in-memory, bounded ReplayStore. It is safe for concurrent
// use.
type Store struct {
	clock    func() time.Time
	capacity int

	mu sync.Mutex
	// until is when each remembered id expires.
	until map[string]time.Time
	// expiries orders the ids by expiry, so that a sweep only looks at
	// the expired ones. It holds the same ids as until: an id is recorded
	// again only once it expired, and the sweep before that pops it.
	expiries expiryHeap
}

var _ ports.ReplayStore = (*Store)(nil)

// New returns a Store holding at most capacity unexpired ids. Clock is
// time.Now when nil. New panics when capacity is not positive.
func New(capacity int, clock func() time.Time) *Store {
	if capacity <= 0 {
		panic(fmt.Sprintf("replay: capacity %d is not positive", capacity))
	}
	if clock == nil {
		clock = time.Now
	}
	return &Store{clock: clock, capacity: capacity, until: map[string]time.Time{}}
}

// Use records id until until. It reports false when id is remembered
// from an earlier Use and has not expired yet. An id whose until has
// already passed is not recorded (whatever it guards has expired) and
// reports true. When the store holds its capacity of unexpired ids, Use
// returns an error wrapping ErrFull and does not record id.
func (s *Store) Use(ctx context.Context, id string, until time.Time) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, fmt.Errorf("replay: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.clock()
	if u, ok := s.until[id]; ok && u.After(now) {
		return false, nil
	}
	if !until.After(now) {
		return true, nil
	}
	s.sweep(now)
	if len(s.until) >= s.capacity {
		return false, fmt.Errorf("replay: %d unexpired ids: %w", len(s.until), ErrFull)
	}
	s.until[id] = until
	heap.Push(&s.expiries, expiry{id: id, until: until})
	return true, nil
}

// Len returns how many ids are remembered, expired ones not yet swept
// included.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.until)
}

// sweep forgets the ids expired at now. Each id is pushed once per Use
// and popped once, so the sweeps cost O(log n) per Use overall.
func (s *Store) sweep(now time.Time) {
	for len(s.expiries) > 0 && !s.expiries[0].until.After(now) {
		e := heap.Pop(&s.expiries).(expiry)
		delete(s.until, e.id)
	}
}

type expiry struct {
	id    string
	until time.Time
}

// expiryHeap is a min-heap of expiries (container/heap).
type expiryHeap []expiry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].until.Before(h[j].until) }
func (h expiryHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *expiryHeap) Push(x any)        { *h = append(*h, x.(expiry)) }
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}
