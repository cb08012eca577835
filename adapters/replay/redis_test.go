package replay_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
	"github.com/redis/go-redis/v9"

	"github.com/svc-dss/dss/adapters/redisconn"
	"github.com/svc-dss/dss/adapters/replay"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/ports"
)

func TestMain(m *testing.M) { redistest.Main(m) }

func redisClient(t *testing.T, u string) *redis.Client {
	t.Helper()
	c, err := redisconn.Open(redisconn.Options{URL: u})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// The memory store and the Redis store answer the same steps the same
// way, except for capacity, which Redis leaves to its maxmemory.
func TestRedisStore(t *testing.T) {
	t.Parallel()
	r := redistest.New(t)
	c := redisClient(t, r.URL)
	tests := []struct {
		name  string
		steps []step
	}{
		{"single use", []step{
			{0, "a", time.Minute, true, nil},
			{time.Second, "a", time.Minute, false, nil},
			{2 * time.Second, "a", 2 * time.Minute, false, nil},
			{2 * time.Second, "b", time.Minute, true, nil},
		}},
		{"until already passed is not recorded", []step{
			{time.Minute, "a", 0, true, nil},
			{time.Minute, "a", 0, true, nil},
			{time.Minute, "a", 2 * time.Minute, true, nil},
			{time.Minute, "a", 2 * time.Minute, false, nil},
		}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			clk := &clock{now: t0}
			// Each case its own prefix: the ids repeat across cases.
			s := replay.NewRedis(c, fmt.Sprint(r.Prefix, i, ":"), clk.Now)
			for _, st := range tt.steps {
				clk.Set(t0.Add(st.at))
				ok, err := s.Use(context.Background(), st.id, t0.Add(st.until))
				is.NoErr(err)       // error of the step
				is.Equal(ok, st.ok) // answer of the step
			}
		})
	}
}

// The key lives for the remaining lifetime, rounded up: Redis forgets the
// id when it expires, not before.
func TestRedisExpiry(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := redistest.New(t)
	c := redisClient(t, r.URL)
	s := replay.NewRedis(c, r.Prefix, nil)
	ctx := context.Background()
	ok, err := s.Use(ctx, "t/k/short", time.Now().Add(300*time.Millisecond))
	is.NoErr(err)
	is.True(ok)
	ttl, err := c.PTTL(ctx, r.Prefix+"jti:t/k/short").Result()
	is.NoErr(err)
	is.True(ttl > 250*time.Millisecond && ttl <= 302*time.Millisecond) // the remaining lifetime
	ok, err = s.Use(ctx, "t/k/short", time.Now().Add(time.Minute))
	is.NoErr(err)
	is.True(!ok) // still remembered
	time.Sleep(400 * time.Millisecond)
	ok, err = s.Use(ctx, "t/k/short", time.Now().Add(time.Minute))
	is.NoErr(err)
	is.True(ok) // expired: whatever it guarded has expired too
}

// Two replicas, each with its own client, racing for the same ids: each
// id is granted exactly once across both.
func TestRedisSharedByReplicas(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	r := redistest.New(t)
	replicas := []ports.ReplayStore{
		replay.NewRedis(redisClient(t, r.URL), r.Prefix, nil),
		replay.NewRedis(redisClient(t, r.URL), r.Prefix, nil),
	}
	const ids, racers = 50, 8
	until := time.Now().Add(time.Minute)
	var granted [ids]atomic.Int32
	var wg sync.WaitGroup
	for i := range racers {
		s := replicas[i%len(replicas)]
		wg.Go(func() {
			for id := range ids {
				ok, err := s.Use(context.Background(), fmt.Sprint("id-", id), until)
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					granted[id].Add(1)
				}
			}
		})
	}
	wg.Wait()
	for id := range ids {
		is.Equal(granted[id].Load(), int32(1)) // each id granted once
	}
}

// Redis down: an error, never a grant (the caller fails closed).
func TestRedisDown(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	addr := l.Addr().String()
	l.Close()
	s := replay.NewRedis(redisClient(t, "redis://"+addr+"/0"), "p:", nil)
	ok, err := s.Use(context.Background(), "a", time.Now().Add(time.Minute))
	is.True(!ok)
	is.True(err != nil)
	is.True(strings.HasPrefix(err.Error(), "replay: redis: dial tcp "+addr+": connect: connection refused")) // err
}
