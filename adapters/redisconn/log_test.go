package redisconn_test

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/redisconn"
)

// syncBuffer is a bytes.Buffer safe for the library's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// The library's complaint about a Redis it cannot dial is a JSON log
// line of ours. Not parallel: the library's logger is the process's.
func TestLogTo(t *testing.T) {
	is := is.New(t)
	var logs syncBuffer
	redisconn.LogTo(slog.New(slog.NewJSONHandler(&logs, nil)))
	defer redisconn.LogTo(slog.New(slog.DiscardHandler))
	l, err := net.Listen("tcp", "127.0.0.1:0")
	is.NoErr(err)
	addr := l.Addr().String()
	l.Close()
	c, err := redisconn.Open(redisconn.Options{URL: "redis://:s3cret@" + addr})
	is.NoErr(err)
	defer c.Close()
	is.True(c.Ping(context.Background()).Err() != nil)
	is.True(strings.Contains(logs.String(), `"level":"WARN","msg":"redis client","message":"connection pool: failed to dial after`)) // logs.String()
	is.True(!strings.Contains(logs.String(), "s3cret"))
}
