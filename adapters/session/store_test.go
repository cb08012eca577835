package session_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/session"
	"github.com/svc-dss/dss/ports"
)

var t0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

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

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func newStore(capacity int) (*session.Store, *clock) {
	c := &clock{now: t0}
	return session.New(capacity, c.Now), c
}

func sess(id string, lifetime time.Duration) ports.Session {
	return ports.Session{ID: id, CSRF: "csrf-" + id, Started: t0, Expires: t0.Add(lifetime)}
}

func TestCreateGetDelete(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	st, _ := newStore(10)
	ctx := context.Background()
	last := &ports.Reports{DocumentName: "doc.pdf"}
	s := sess("a", time.Hour)
	s.Tenant, s.Subject, s.Last = "t", "alice", last
	is.NoErr(st.Create(ctx, s))

	got, err := st.Get(ctx, "a")
	is.NoErr(err)
	is.Equal(got.Subject, "alice")
	is.True(got.Last == last) // the reports are shared, not copied

	got.Subject = "changed in the copy"
	again, err := st.Get(ctx, "a")
	is.NoErr(err)
	is.Equal(again.Subject, "alice") // a copy was handed out

	is.True(errors.Is(st.Create(ctx, sess("a", time.Hour)), session.ErrExists))

	is.NoErr(st.Delete(ctx, "a"))
	_, err = st.Get(ctx, "a")
	is.True(errors.Is(err, ports.ErrNoSession))
	is.NoErr(st.Delete(ctx, "a")) // unknown: not an error
	is.Equal(st.Len(), 0)
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	st, c := newStore(10)
	ctx := context.Background()
	is.NoErr(st.Create(ctx, sess("a", time.Minute)))
	is.NoErr(st.Create(ctx, sess("b", time.Hour)))
	is.NoErr(st.Create(ctx, sess("gone", 0))) // already expired: not kept
	is.Equal(st.Len(), 2)

	c.Advance(time.Minute - time.Nanosecond)
	_, err := st.Get(ctx, "a")
	is.NoErr(err) // until the last instant

	c.Advance(time.Nanosecond)
	_, err = st.Get(ctx, "a")
	is.True(errors.Is(err, ports.ErrNoSession)) // at Expires it is gone
	_, err = st.Update(ctx, "a", func(*ports.Session) error { t.Fatal("fn called on an expired session"); return nil })
	is.True(errors.Is(err, ports.ErrNoSession))

	// Expired sessions are swept when another is created.
	c.Advance(time.Hour)
	is.NoErr(st.Create(ctx, ports.Session{ID: "c", Expires: c.Now().Add(time.Hour)}))
	is.Equal(st.Len(), 1)
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	errRefused := errors.New("refused")
	tests := []struct {
		name    string
		fn      func(*ports.Session) error
		wantErr error  // matched with errors.Is
		errText string // the message, when there is no sentinel
		check   func(is *is.I, st *session.Store)
	}{
		{"moves the expiry", func(s *ports.Session) error { s.Expires = t0.Add(2 * time.Hour); return nil }, nil, "",
			func(is *is.I, st *session.Store) {
				got, err := st.Get(ctx, "a")
				is.NoErr(err)
				is.Equal(got.Expires, t0.Add(2*time.Hour))
			}},
		{"a failing fn stores nothing", func(s *ports.Session) error { s.Subject = "mallory"; return errRefused }, errRefused, "",
			func(is *is.I, st *session.Store) {
				got, err := st.Get(ctx, "a")
				is.NoErr(err)
				is.Equal(got.Subject, "")
			}},
		{"the ID cannot change", func(s *ports.Session) error { s.ID = "b"; return nil }, nil, "session: an update changed the ID",
			func(is *is.I, st *session.Store) {
				_, err := st.Get(ctx, "b")
				is.True(errors.Is(err, ports.ErrNoSession))
			}},
		{"an expiry in the past ends the session", func(s *ports.Session) error { s.Expires = t0; return nil }, nil, "",
			func(is *is.I, st *session.Store) {
				_, err := st.Get(ctx, "a")
				is.True(errors.Is(err, ports.ErrNoSession))
				is.Equal(st.Len(), 0)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			st, _ := newStore(10)
			is.NoErr(st.Create(ctx, sess("a", time.Hour)))
			_, err := st.Update(ctx, "a", tt.fn)
			switch {
			case tt.wantErr != nil:
				is.True(errors.Is(err, tt.wantErr))
			case tt.errText != "":
				is.Equal(err.Error(), tt.errText)
			default:
				is.NoErr(err)
			}
			tt.check(is, st)
		})
	}
	t.Run("unknown session", func(t *testing.T) {
		is := is.New(t)
		st, _ := newStore(10)
		_, err := st.Update(ctx, "nope", func(*ports.Session) error { t.Fatal("fn called"); return nil })
		is.True(errors.Is(err, ports.ErrNoSession))
	})
}

// Updates of one session are serialised: none is lost.
func TestConcurrentUpdates(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	st, _ := newStore(10)
	ctx := context.Background()
	is.NoErr(st.Create(ctx, sess("a", time.Hour)))
	var wg sync.WaitGroup
	for range 100 {
		wg.Go(func() {
			_, err := st.Update(ctx, "a", func(s *ports.Session) error { s.Expires = s.Expires.Add(time.Second); return nil })
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := st.Get(ctx, "a")
	is.NoErr(err)
	is.Equal(got.Expires, t0.Add(time.Hour+100*time.Second))
}

// A full store evicts the session that would expire soonest, after the
// expired ones.
func TestCapacity(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	st, c := newStore(3)
	ctx := context.Background()
	is.NoErr(st.Create(ctx, sess("signed-in", 30*time.Minute)))
	is.NoErr(st.Create(ctx, sess("login-1", 10*time.Minute)))
	is.NoErr(st.Create(ctx, sess("login-2", 11*time.Minute)))
	is.NoErr(st.Create(ctx, sess("login-3", 12*time.Minute)))
	is.Equal(st.Len(), 3)
	_, err := st.Get(ctx, "login-1")
	is.True(errors.Is(err, ports.ErrNoSession)) // evicted: it expired soonest
	_, err = st.Get(ctx, "signed-in")
	is.NoErr(err)

	// Expired sessions make room before anything is evicted.
	c.Advance(11*time.Minute + time.Second)
	is.NoErr(st.Create(ctx, ports.Session{ID: "late", Expires: c.Now().Add(time.Minute)}))
	for _, id := range []string{"signed-in", "login-3", "late"} {
		_, err := st.Get(ctx, id)
		is.NoErr(err) // id
	}

	// Many logins cannot push out a session that outlives them all.
	for i := range 50 {
		is.NoErr(st.Create(ctx, ports.Session{ID: fmt.Sprint("flood-", i), Expires: c.Now().Add(10 * time.Minute)}))
	}
	_, err = st.Get(ctx, "signed-in")
	is.NoErr(err)
	is.Equal(st.Len(), 3)
}

func TestCancelledContext(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	st, _ := newStore(1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	is.True(errors.Is(st.Create(ctx, sess("a", time.Hour)), context.Canceled))
	_, err := st.Get(ctx, "a")
	is.True(errors.Is(err, context.Canceled))
	_, err = st.Update(ctx, "a", func(*ports.Session) error { return nil })
	is.True(errors.Is(err, context.Canceled))
	is.True(errors.Is(st.Delete(ctx, "a"), context.Canceled))
}

func TestNewPanicsOnNoCapacity(t *testing.T) {
	t.Parallel()
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	session.New(0, nil)
}
