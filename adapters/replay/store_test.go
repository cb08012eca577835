package replay_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/replay"
)

var t0 = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// clock is a settable clock.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

// step is one Use, at a time, and what it must answer.
type step struct {
	at    time.Duration // after t0
	id    string
	until time.Duration // after t0
	ok    bool
	err   error // wrapped, or nil
}

func TestStore(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		capacity int
		steps    []step
	}{
		{"single use", 10, []step{
			{0, "a", time.Minute, true, nil},
			{time.Second, "a", time.Minute, false, nil},
			{2 * time.Second, "a", 2 * time.Minute, false, nil},
			{2 * time.Second, "b", time.Minute, true, nil},
		}},
		{"expiry frees the id", 10, []step{
			{0, "a", time.Minute, true, nil},
			{time.Minute - time.Nanosecond, "a", 2 * time.Minute, false, nil},
			{time.Minute, "a", 2 * time.Minute, true, nil},
			{time.Minute + time.Second, "a", 3 * time.Minute, false, nil},
		}},
		{"until already passed is not recorded", 1, []step{
			{time.Minute, "a", 0, true, nil},
			{time.Minute, "a", 0, true, nil},
			{time.Minute, "b", 2 * time.Minute, true, nil}, // capacity 1 still free
		}},
		{"bounded", 2, []step{
			{0, "a", time.Minute, true, nil},
			{0, "b", 2 * time.Minute, true, nil},
			{0, "c", time.Minute, false, replay.ErrFull},
			{0, "a", time.Minute, false, nil},              // still remembered: not full's fault
			{time.Minute, "c", 3 * time.Minute, true, nil}, // a expired, swept
			{time.Minute, "d", 3 * time.Minute, false, replay.ErrFull},
			{time.Minute, "c", 3 * time.Minute, false, nil},
			{3 * time.Minute, "d", 4 * time.Minute, true, nil}, // b and c swept
			{3 * time.Minute, "e", 4 * time.Minute, true, nil},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			c := &clock{now: t0}
			s := replay.New(tt.capacity, c.Now)
			for _, st := range tt.steps {
				c.Set(t0.Add(st.at))
				ok, err := s.Use(context.Background(), st.id, t0.Add(st.until))
				is.True(errors.Is(err, st.err)) // error of the step
				is.Equal(ok, st.ok)             // answer of the step
			}
			is.True(s.Len() <= tt.capacity)
		})
	}
}

func TestStoreCancelled(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	s := replay.New(1, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Use(ctx, "a", time.Now().Add(time.Minute))
	is.True(errors.Is(err, context.Canceled))
	is.Equal(s.Len(), 0)
}

func TestNewPanics(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	defer func() { is.True(recover() != nil) }()
	replay.New(0, nil)
}

// Many goroutines racing for the same ids: each id is granted exactly
// once. Run with -race.
func TestStoreConcurrent(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	const ids, racers = 50, 16
	s := replay.New(ids, nil)
	until := time.Now().Add(time.Hour)
	var granted [ids]atomic.Int32
	var wg sync.WaitGroup
	for range racers {
		wg.Go(func() {
			for i := range ids {
				ok, err := s.Use(context.Background(), fmt.Sprint("id-", i), until)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					granted[i].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for i := range ids {
		is.Equal(granted[i].Load(), int32(1)) // each id granted once
	}
	is.Equal(s.Len(), ids)
}

func BenchmarkUse(b *testing.B) {
	c := &clock{now: t0}
	s := replay.New(1<<16, c.Now)
	i := 0
	for b.Loop() {
		i++
		// Ids live 1,000 steps of a millisecond: the store stays at about
		// 1,000 entries, sweeping as it goes.
		c.Set(t0.Add(time.Duration(i) * time.Millisecond))
		if _, err := s.Use(context.Background(), fmt.Sprint(i), t0.Add(time.Duration(i+1000)*time.Millisecond)); err != nil {
			b.Fatal(err)
		}
	}
}
