package servertest

import (
	"bytes"
	"context"
	"io"
	"net"
	"sync"
	"testing"
)

// RunFunc is the signature of both servers' run: it serves until ctx is
// done and returns the exit code; ready receives the bound address.
type RunFunc func(ctx context.Context, args, environ []string, stdout, stderr io.Writer, ready func(net.Addr)) int

// A Server is a server started in-process through its run function, as
// main starts it.
type Server struct {
	URL  string // http://host:port
	Logs *Buffer
}

// Run starts run with args and environ and waits until it listens. It is
// stopped when the test ends, and a non-zero exit code fails the test.
// environ should set the port to 0.
func Run(t testing.TB, run RunFunc, args, environ []string) *Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{Logs: &Buffer{}}
	addr := make(chan net.Addr, 1)
	code := make(chan int, 1)
	go func() { code <- run(ctx, args, environ, s.Logs, s.Logs, func(a net.Addr) { addr <- a }) }()
	select {
	case a := <-addr:
		s.URL = "http://" + a.String()
	case c := <-code:
		cancel()
		t.Fatalf("server exited with %d before listening:\n%s", c, s.Logs)
	}
	t.Cleanup(func() {
		cancel()
		if c := <-code; c != 0 {
			t.Errorf("server exit code %d\n%s", c, s.Logs)
		}
	})
	return s
}

// Buffer is a bytes.Buffer safe for the server's and the test's goroutines.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
