package session_test

import (
	"bytes"
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"

	"github.com/svc-dss/dss/adapters/redisconn"
	"github.com/svc-dss/dss/adapters/session"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/ports"
)

func TestMain(m *testing.M) { redistest.Main(m) }

// redisWorld is a test's share of Redis: a raw client to look at the
// keys, and stores on it (replicas) on one settable clock.
type redisWorld struct {
	r     redistest.Redis
	raw   *redis.Client
	clock *clock
}

func newRedisWorld(t *testing.T) *redisWorld {
	t.Helper()
	r := redistest.New(t)
	return &redisWorld{r: r, raw: openRedis(t, r.URL), clock: &clock{now: t0}}
}

func openRedis(t *testing.T, u string) *redis.Client {
	t.Helper()
	c, err := redisconn.Open(redisconn.Options{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// replica is a store with a client of its own, as another process has.
func (w *redisWorld) replica(t *testing.T, maxReportBytes int) *session.Redis {
	t.Helper()
	return session.NewRedis(openRedis(t, w.r.URL), w.r.Prefix, maxReportBytes, w.clock.Now)
}

func TestRedisCreateGetDelete(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newRedisWorld(t)
	st := w.replica(t, 0)
	ctx := context.Background()
	s := sess("a", time.Hour)
	s.Tenant, s.Subject = "t", "alice"
	s.Last = &ports.Reports{DocumentName: "doc.pdf", Detailed: []byte("<detailed/>"), ETSI: []byte("<etsi/>")}
	is.NoErr(st.Create(ctx, s))

	other := w.replica(t, 0) // another replica reads what the first wrote
	got, err := other.Get(ctx, "a")
	is.NoErr(err)
	is.Equal(got, s) // every field, the reports included

	is.True(errors.Is(other.Create(ctx, sess("a", time.Hour)), session.ErrExists))

	is.NoErr(other.Delete(ctx, "a"))
	_, err = st.Get(ctx, "a")
	is.True(errors.Is(err, ports.ErrNoSession))
	is.NoErr(st.Delete(ctx, "a")) // unknown: not an error
	n, err := w.raw.Exists(ctx, w.r.Prefix+"session:a", w.r.Prefix+"session:a:last").Result()
	is.NoErr(err)
	is.Equal(n, int64(0)) // both keys gone
	is.Equal(st.Create(ctx, ports.Session{}).Error(), "session: empty ID")
}

// The store's clock decides: a session is gone at its Expires, whatever
// Redis's TTL says; the TTL is the remaining time on that clock.
func TestRedisExpiry(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newRedisWorld(t)
	st := w.replica(t, 0)
	ctx := context.Background()
	is.NoErr(st.Create(ctx, sess("a", time.Minute)))
	is.NoErr(st.Create(ctx, sess("gone", 0))) // already expired: not kept
	ttl, err := w.raw.PTTL(ctx, w.r.Prefix+"session:a").Result()
	is.NoErr(err)
	is.True(ttl > 59*time.Second && ttl <= time.Minute+time.Millisecond) // ttl
	n, err := w.raw.Exists(ctx, w.r.Prefix+"session:gone").Result()
	is.NoErr(err)
	is.Equal(n, int64(0))

	w.clock.Advance(time.Minute - time.Nanosecond)
	_, err = st.Get(ctx, "a")
	is.NoErr(err) // until the last instant
	w.clock.Advance(time.Nanosecond)
	_, err = st.Get(ctx, "a")
	is.True(errors.Is(err, ports.ErrNoSession)) // at Expires it is gone
	_, err = st.Update(ctx, "a", func(*ports.Session) error { t.Fatal("fn called on an expired session"); return nil })
	is.True(errors.Is(err, ports.ErrNoSession))
}

// The cases of TestUpdate, on Redis.
func TestRedisUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	errRefused := errors.New("refused")
	tests := []struct {
		name    string
		fn      func(*ports.Session) error
		wantErr error
		errText string
		check   func(is *is.I, st *session.Redis)
	}{
		{"moves the expiry", func(s *ports.Session) error { s.Expires = t0.Add(2 * time.Hour); return nil }, nil, "",
			func(is *is.I, st *session.Redis) {
				got, err := st.Get(ctx, "a")
				is.NoErr(err)
				is.Equal(got.Expires, t0.Add(2*time.Hour))
			}},
		{"a failing fn stores nothing", func(s *ports.Session) error { s.Subject = "mallory"; return errRefused }, errRefused, "",
			func(is *is.I, st *session.Redis) {
				got, err := st.Get(ctx, "a")
				is.NoErr(err)
				is.Equal(got.Subject, "")
			}},
		{"the ID cannot change", func(s *ports.Session) error { s.ID = "b"; return nil }, nil, "session: an update changed the ID",
			func(is *is.I, st *session.Redis) {
				_, err := st.Get(ctx, "b")
				is.True(errors.Is(err, ports.ErrNoSession))
			}},
		{"an expiry in the past ends the session", func(s *ports.Session) error { s.Expires = t0; return nil }, nil, "",
			func(is *is.I, st *session.Redis) {
				_, err := st.Get(ctx, "a")
				is.True(errors.Is(err, ports.ErrNoSession))
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			st := newRedisWorld(t).replica(t, 0)
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
		t.Parallel()
		is := is.New(t)
		st := newRedisWorld(t).replica(t, 0)
		_, err := st.Update(ctx, "nope", func(*ports.Session) error { t.Fatal("fn called"); return nil })
		is.True(errors.Is(err, ports.ErrNoSession))
	})
}

// Updates of one session from two replicas at once: none is lost.
func TestRedisConcurrentUpdates(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newRedisWorld(t)
	replicas := []*session.Redis{w.replica(t, 0), w.replica(t, 0)}
	ctx := context.Background()
	is.NoErr(replicas[0].Create(ctx, sess("a", time.Hour)))
	var wg sync.WaitGroup
	for i := range 40 {
		st := replicas[i%2]
		wg.Go(func() {
			_, err := st.Update(ctx, "a", func(s *ports.Session) error { s.Expires = s.Expires.Add(time.Second); return nil })
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	got, err := replicas[1].Get(ctx, "a")
	is.NoErr(err)
	is.Equal(got.Expires, t0.Add(time.Hour+40*time.Second))
}

// The reports live beside the session, bounded: an update that leaves
// them alone keeps them (and moves their expiry); reports over the bound
// are not kept, and neither are the previous document's.
func TestRedisReports(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	w := newRedisWorld(t)
	st := w.replica(t, 100)
	ctx := context.Background()
	is.NoErr(st.Create(ctx, sess("a", time.Hour)))
	first := &ports.Reports{DocumentName: "first.pdf", Detailed: []byte("<d/>")} // no ETSI report
	_, err := st.Update(ctx, "a", func(s *ports.Session) error { s.Last = first; return nil })
	is.NoErr(err)

	w.clock.Advance(10 * time.Minute)
	got, err := st.Update(ctx, "a", func(s *ports.Session) error { s.Expires = w.clock.Now().Add(time.Hour); return nil })
	is.NoErr(err)
	is.Equal(got.Last, first)
	is.True(got.Last.ETSI == nil) // absent, not empty
	ttl, err := w.raw.PTTL(ctx, w.r.Prefix+"session:a:last").Result()
	is.NoErr(err)
	is.True(ttl > 59*time.Minute) // moved with the session

	big := &ports.Reports{DocumentName: "big.pdf", Detailed: bytes.Repeat([]byte("x"), 60), ETSI: bytes.Repeat([]byte("y"), 60)}
	_, err = st.Update(ctx, "a", func(s *ports.Session) error { s.Last = big; return nil })
	is.True(errors.Is(err, session.ErrReportsTooLarge))
	is.Equal(err.Error(), "session: reports too large to keep: 127 bytes, at most 100")
	got, err = st.Get(ctx, "a")
	is.NoErr(err)
	is.True(got.Last == nil) // not first.pdf's: the downloads must not serve another document
}

// Redis down: an error that is not ErrNoSession, so that the UI says the
// store failed rather than that the browser is signed out.
func TestRedisDown(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	addr := l.Addr().String()
	l.Close()
	st := session.NewRedis(openRedis(t, "redis://"+addr+"/0"), "p:", 0, nil)
	ctx := context.Background()
	want := "session: redis: dial tcp " + addr + ": connect: connection refused"
	_, err = st.Get(ctx, "a")
	is.True(!errors.Is(err, ports.ErrNoSession))
	is.True(strings.HasPrefix(err.Error(), want)) // Get
	_, err = st.Update(ctx, "a", func(*ports.Session) error { t.Fatal("fn called"); return nil })
	is.True(strings.HasPrefix(err.Error(), want)) // Update
	is.True(strings.HasPrefix(st.Create(ctx, ports.Session{ID: "a", Expires: time.Now().Add(time.Hour)}).Error(), want))
	is.True(strings.HasPrefix(st.Delete(ctx, "a").Error(), want))
}
