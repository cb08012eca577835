package session

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/svc-dss/dss/ports"
)

// ErrExists is a Create with an ID that is in use.
var ErrExists = errors.New("session: ID in use")

// A Store is an in-memory, bounded SessionStore. It is safe for
// concurrent use.
type Store struct {
	clock    func() time.Time
	capacity int

	mu   sync.Mutex
	byID map[string]*entry
	// expiries orders the entries by Expires, soonest first; each entry
	// knows its index, so that an update moves it in O(log n).
	expiries expiryHeap
}

type entry struct {
	s     ports.Session
	index int
}

var _ ports.SessionStore = (*Store)(nil)

// New returns a Store holding at most capacity sessions. Clock is
// time.Now when nil. New panics when capacity is not positive.
func New(capacity int, clock func() time.Time) *Store {
	if capacity <= 0 {
		panic(fmt.Sprintf("session: capacity %d is not positive", capacity))
	}
	if clock == nil {
		clock = time.Now
	}
	return &Store{clock: clock, capacity: capacity, byID: map[string]*entry{}}
}

// Create stores s. A session whose Expires has already passed is not
// stored. A full store first evicts the session that expires soonest.
func (st *Store) Create(ctx context.Context, s ports.Session) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	if s.ID == "" {
		return errors.New("session: empty ID")
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	now := st.clock()
	st.sweep(now)
	if _, ok := st.byID[s.ID]; ok {
		return ErrExists
	}
	if !s.Expires.After(now) {
		return nil
	}
	for len(st.byID) >= st.capacity {
		st.remove(st.expiries[0])
	}
	e := &entry{s: s}
	st.byID[s.ID] = e
	heap.Push(&st.expiries, e)
	return nil
}

// Get returns a copy of the session.
func (st *Store) Get(ctx context.Context, id string) (ports.Session, error) {
	if err := ctx.Err(); err != nil {
		return ports.Session{}, fmt.Errorf("session: %w", err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	e, err := st.live(id)
	if err != nil {
		return ports.Session{}, err
	}
	return e.s, nil
}

// Update applies fn to a copy of the session under the store's lock and
// keeps the result. An update that moves Expires to the past ends the
// session.
func (st *Store) Update(ctx context.Context, id string, fn func(*ports.Session) error) (ports.Session, error) {
	if err := ctx.Err(); err != nil {
		return ports.Session{}, fmt.Errorf("session: %w", err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	e, err := st.live(id)
	if err != nil {
		return ports.Session{}, err
	}
	s := e.s
	if err := fn(&s); err != nil {
		return ports.Session{}, err
	}
	if s.ID != id {
		return ports.Session{}, fmt.Errorf("session: an update changed the ID")
	}
	if !s.Expires.After(st.clock()) {
		st.remove(e)
		return s, nil
	}
	e.s = s
	heap.Fix(&st.expiries, e.index)
	return s, nil
}

// Delete forgets the session.
func (st *Store) Delete(ctx context.Context, id string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("session: %w", err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if e, ok := st.byID[id]; ok {
		st.remove(e)
	}
	return nil
}

// Len returns how many sessions are held, expired ones not yet swept
// included.
func (st *Store) Len() int {
	st.mu.Lock()
	defer st.mu.Unlock()
	return len(st.byID)
}

// live returns the entry of id if it has not expired, and forgets it if
// it has.
func (st *Store) live(id string) (*entry, error) {
	e, ok := st.byID[id]
	if !ok {
		return nil, fmt.Errorf("session: %w", ports.ErrNoSession)
	}
	if !e.s.Expires.After(st.clock()) {
		st.remove(e)
		return nil, fmt.Errorf("session: expired: %w", ports.ErrNoSession)
	}
	return e, nil
}

// sweep forgets the sessions expired at now.
func (st *Store) sweep(now time.Time) {
	for len(st.expiries) > 0 && !st.expiries[0].s.Expires.After(now) {
		st.remove(st.expiries[0])
	}
}

func (st *Store) remove(e *entry) {
	heap.Remove(&st.expiries, e.index)
	delete(st.byID, e.s.ID)
}

// expiryHeap is a min-heap of entries by Expires (container/heap).
type expiryHeap []*entry

func (h expiryHeap) Len() int           { return len(h) }
func (h expiryHeap) Less(i, j int) bool { return h[i].s.Expires.Before(h[j].s.Expires) }
func (h expiryHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}
func (h *expiryHeap) Push(x any) {
	e := x.(*entry)
	e.index = len(*h)
	*h = append(*h, e)
}
func (h *expiryHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return e
}
