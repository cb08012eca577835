package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/svc-dss/dss/ports"
)

// ErrReportsTooLarge is an update whose reports exceed the Redis store's
// bound. The session is kept without reports.
var ErrReportsTooLarge = errors.New("session: reports too large to keep")

// DefaultMaxReportBytes bounds a session's reports in a Redis store:
// the detailed and ETSI reports of a document of some hundred signatures
// fit; what does not would cost every request of the session its
// transfer (each request reads the session, reports included).
const DefaultMaxReportBytes = 4 << 20

// maxUpdateAttempts bounds the retries of an update that raced another
// update of the same session (WATCH saw the keys change). Between
// attempts an update waits a random while, longer each time, so that
// the racers spread out instead of colliding again.
const maxUpdateAttempts = 30

// A Redis is a SessionStore in Redis, shared by every replica that uses
// the same server and prefix: a browser signed in on one replica is
// signed in on all. It is safe for concurrent use.
//
// A session is two keys: prefix+"session:"+ID holds the session as JSON
// without its reports, and the same with ":last" appended holds the last
// validation's reports as a hash (name, detailed, etsi), raw bytes. Both
// expire at the session's Expires, measured on this replica's clock, and
// Get checks Expires again: the application's clock, not Redis's,
// decides when a session ends. Updates are optimistic transactions
// (WATCH, MULTI/EXEC), retried when another update of the session came
// first, so none is lost. An update that leaves the reports as they were
// rewrites only the session, and moves the reports' expiry.
//
// Unlike [Store], a Redis store holds as many sessions as Redis has
// memory for: bound it there (maxmemory with volatile-ttl eviction drops
// the sessions expiring soonest, as a full Store does).
type Redis struct {
	c        *redis.Client
	prefix   string
	clock    func() time.Time
	maxBytes int
}

var _ ports.SessionStore = (*Redis)(nil)

// NewRedis returns a store that keeps the sessions under prefix, with at
// most maxReportBytes of reports each (DefaultMaxReportBytes when zero or
// less). Clock is time.Now when nil. NewRedis panics when c is nil.
func NewRedis(c *redis.Client, prefix string, maxReportBytes int, clock func() time.Time) *Redis {
	if c == nil {
		panic("session: nil Redis client")
	}
	if clock == nil {
		clock = time.Now
	}
	if maxReportBytes <= 0 {
		maxReportBytes = DefaultMaxReportBytes
	}
	return &Redis{c: c, prefix: prefix + "session:", clock: clock, maxBytes: maxReportBytes}
}

func (st *Redis) key(id string) string     { return st.prefix + id }
func (st *Redis) lastKey(id string) string { return st.prefix + id + ":last" }

// Create stores s if its ID is not in use (SET NX). A session whose
// Expires has already passed is not stored.
func (st *Redis) Create(ctx context.Context, s ports.Session) error {
	if s.ID == "" {
		return errors.New("session: empty ID")
	}
	ttl := st.ttl(s)
	if ttl <= 0 {
		return nil
	}
	data, err := encode(s)
	if err != nil {
		return err
	}
	ok, err := st.c.SetNX(ctx, st.key(s.ID), data, ttl).Result()
	if err != nil {
		return fmt.Errorf("session: redis: %w", err)
	}
	if !ok {
		return ErrExists
	}
	if s.Last == nil {
		return nil
	}
	_, err = st.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		st.writeLast(ctx, p, s, ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("session: redis: %w", err)
	}
	return nil
}

// Get returns the session, its reports included.
func (st *Redis) Get(ctx context.Context, id string) (ports.Session, error) {
	return st.read(ctx, st.c, id)
}

// Update applies fn to the session and stores the result, atomically with
// respect to other updates of the session on any replica: when another
// update came first, fn runs again on the session it stored. An update that
// moves Expires to the past ends the session. Reports larger than the
// bound are not kept: the session is stored without any (never with the
// previous document's) and the error wraps ErrReportsTooLarge.
func (st *Redis) Update(ctx context.Context, id string, fn func(*ports.Session) error) (ports.Session, error) {
	for attempt := range maxUpdateAttempts {
		if attempt > 0 {
			if err := backOff(ctx, attempt); err != nil {
				return ports.Session{}, fmt.Errorf("session: %w", err)
			}
		}
		var out ports.Session
		// failed is the callback's own outcome, returned as is: fn's
		// error, a refused update, or Redis failing in the callback,
		// already marked as such.
		var failed, tooLarge error
		err := st.c.Watch(ctx, func(tx *redis.Tx) error {
			s, err := st.read(ctx, tx, id)
			if err != nil {
				failed = err
				return err
			}
			before := s.Last
			if err := fn(&s); err != nil {
				failed = err
				return err
			}
			if s.ID != id {
				failed = errors.New("session: an update changed the ID")
				return failed
			}
			if s.Last != nil && s.Last != before {
				if n := reportBytes(s.Last); n > st.maxBytes {
					tooLarge = fmt.Errorf("%w: %d bytes, at most %d", ErrReportsTooLarge, n, st.maxBytes)
					s.Last = nil
				}
			}
			data, err := encode(s)
			if err != nil {
				failed = err
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				ttl := st.ttl(s)
				if ttl <= 0 {
					p.Del(ctx, st.key(id), st.lastKey(id))
					return nil
				}
				p.Set(ctx, st.key(id), data, ttl)
				if s.Last == before {
					p.PExpire(ctx, st.lastKey(id), ttl)
					return nil
				}
				st.writeLast(ctx, p, s, ttl)
				return nil
			})
			if err != nil && !errors.Is(err, redis.TxFailedErr) {
				failed = fmt.Errorf("session: redis: %w", err)
				return failed
			}
			out = s
			return err
		}, st.key(id), st.lastKey(id))
		switch {
		case failed != nil:
			return ports.Session{}, failed
		case errors.Is(err, redis.TxFailedErr):
			continue // another update came first: read again
		case err != nil:
			return ports.Session{}, fmt.Errorf("session: redis: %w", err)
		case tooLarge != nil:
			return ports.Session{}, tooLarge
		}
		return out, nil
	}
	return ports.Session{}, fmt.Errorf("session: %d concurrent updates came first", maxUpdateAttempts)
}

// backOff waits up to attempt milliseconds, at random, or until ctx is
// done.
func backOff(ctx context.Context, attempt int) error {
	t := time.NewTimer(rand.N(time.Duration(attempt) * time.Millisecond))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Delete forgets the session.
func (st *Redis) Delete(ctx context.Context, id string) error {
	if err := st.c.Del(ctx, st.key(id), st.lastKey(id)).Err(); err != nil {
		return fmt.Errorf("session: redis: %w", err)
	}
	return nil
}

// ttl is how long s has left on this replica's clock, rounded up to
// Redis's milliseconds.
func (st *Redis) ttl(s ports.Session) time.Duration {
	ttl := s.Expires.Sub(st.clock())
	if ttl <= 0 {
		return 0
	}
	return ttl.Round(time.Millisecond) + time.Millisecond
}

// read reads the session id and its reports with c, which is the client
// or a transaction watching the keys.
func (st *Redis) read(ctx context.Context, c redis.Cmdable, id string) (ports.Session, error) {
	cmds, err := c.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Get(ctx, st.key(id))
		p.HGetAll(ctx, st.lastKey(id))
		return nil
	})
	if errors.Is(err, redis.Nil) {
		return ports.Session{}, fmt.Errorf("session: %w", ports.ErrNoSession)
	}
	if err != nil {
		return ports.Session{}, fmt.Errorf("session: redis: %w", err)
	}
	var s ports.Session
	if err := json.Unmarshal([]byte(cmds[0].(*redis.StringCmd).Val()), &s); err != nil {
		return ports.Session{}, fmt.Errorf("session: stored session: %w", err)
	}
	if !s.Expires.After(st.clock()) {
		return ports.Session{}, fmt.Errorf("session: expired: %w", ports.ErrNoSession)
	}
	if last := cmds[1].(*redis.MapStringStringCmd).Val(); len(last) > 0 {
		s.Last = &ports.Reports{DocumentName: last["name"], Detailed: []byte(last["detailed"])}
		if etsi, ok := last["etsi"]; ok {
			s.Last.ETSI = []byte(etsi)
		}
	}
	return s, nil
}

// writeLast replaces the reports of s in p, or deletes them when s has
// none.
func (st *Redis) writeLast(ctx context.Context, p redis.Pipeliner, s ports.Session, ttl time.Duration) {
	k := st.lastKey(s.ID)
	p.Del(ctx, k)
	if s.Last == nil {
		return
	}
	fields := []any{"name", s.Last.DocumentName, "detailed", s.Last.Detailed}
	if s.Last.ETSI != nil {
		fields = append(fields, "etsi", s.Last.ETSI)
	}
	p.HSet(ctx, k, fields...)
	p.PExpire(ctx, k, ttl)
}

// encode is the session as stored: JSON of every field but the reports,
// which have a key of their own. The whole ports.Session is encoded, so
// that a field added to it is kept without a change here.
func encode(s ports.Session) ([]byte, error) {
	s.Last = nil
	data, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("session: encode: %w", err)
	}
	return data, nil
}

func reportBytes(r *ports.Reports) int {
	return len(r.DocumentName) + len(r.Detailed) + len(r.ETSI)
}
