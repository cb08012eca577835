package egress

import (
	"container/list"
	"time"
)

// lru is a weight-bounded least-recently-used map whose entries also
// expire. It is not safe for concurrent use; RevocationCache locks.
type lru[K comparable, V any] struct {
	max    int64 // bound on the sum of weights
	weight int64
	order  *list.List // front: most recently used
	items  map[K]*list.Element
}

type lruItem[K comparable, V any] struct {
	key     K
	value   V
	expires time.Time
	weight  int64
}

func newLRU[K comparable, V any](max int64) *lru[K, V] {
	return &lru[K, V]{max: max, order: list.New(), items: make(map[K]*list.Element)}
}

// get returns the value for k if present and not expired at now. An
// expired entry is dropped.
func (l *lru[K, V]) get(k K, now time.Time) (V, bool) {
	var zero V
	e, ok := l.items[k]
	if !ok {
		return zero, false
	}
	it := e.Value.(*lruItem[K, V])
	if !now.Before(it.expires) {
		l.remove(e)
		return zero, false
	}
	l.order.MoveToFront(e)
	return it.value, true
}

// put stores v under k until expires, evicting least recently used
// entries until the weights fit. A value heavier than the bound is not
// stored (and replaces nothing).
func (l *lru[K, V]) put(k K, v V, expires time.Time, weight int64) {
	if weight > l.max {
		return
	}
	if e, ok := l.items[k]; ok {
		l.remove(e)
	}
	l.items[k] = l.order.PushFront(&lruItem[K, V]{key: k, value: v, expires: expires, weight: weight})
	l.weight += weight
	for l.weight > l.max {
		l.remove(l.order.Back())
	}
}

func (l *lru[K, V]) remove(e *list.Element) {
	it := e.Value.(*lruItem[K, V])
	l.order.Remove(e)
	delete(l.items, it.key)
	l.weight -= it.weight
}

func (l *lru[K, V]) len() int { return len(l.items) }
