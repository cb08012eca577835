package replay

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/svc-dss/dss/ports"
)

// A Redis is a ReplayStore in Redis, shared by every replica that uses
// the same server and prefix: an id one replica recorded is refused by
// all. It is safe for concurrent use.
type Redis struct {
	c      *redis.Client
	prefix string
	clock  func() time.Time
}

var _ ports.ReplayStore = (*Redis)(nil)

// NewRedis returns a store that keeps each id under prefix+"jti:"+id.
// Clock is time.Now when nil. NewRedis panics when c is nil.
func NewRedis(c *redis.Client, prefix string, clock func() time.Time) *Redis {
	if c == nil {
		panic("replay: nil Redis client")
	}
	if clock == nil {
		clock = time.Now
	}
	return &Redis{c: c, prefix: prefix + "jti:", clock: clock}
}

// Use records id until until with one SET NX: the first replica to
// record id gets true, every later one false, until the key expires. The
// key lives for the remaining time until until, measured on this
// replica's clock, so that a Redis whose clock is off neither forgets an
// id early nor keeps it for ever. An id whose until has already passed is
// not recorded and reports true, as in [Store.Use].
//
// An error (Redis down, slow, refusing) is returned as is: the caller
// must refuse the token, since it cannot know whether it was used.
func (r *Redis) Use(ctx context.Context, id string, until time.Time) (bool, error) {
	ttl := until.Sub(r.clock())
	if ttl <= 0 {
		return true, nil
	}
	// Redis keeps expiries in milliseconds; round up, so that the id is
	// never forgotten before until.
	ttl = ttl.Round(time.Millisecond) + time.Millisecond
	ok, err := r.c.SetNX(ctx, r.prefix+id, 1, ttl).Result()
	if err != nil {
		return false, fmt.Errorf("replay: redis: %w", err)
	}
	return ok, nil
}
