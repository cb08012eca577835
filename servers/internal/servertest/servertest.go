// Package servertest runs a server binary as a real process for tests:
// build, start on a free port, find the address it logs, signal, wait.
package servertest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Build compiles the main package pkg (an import path) into a temporary
// directory and returns the binary's path.
func Build(t testing.TB, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), filepath.Base(pkg))
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

// A Process is a started server.
type Process struct {
	cmd    *exec.Cmd
	Addr   string // host:port it listens on
	mu     sync.Mutex
	stdout bytes.Buffer
	done   chan struct{}
	err    error
}

// Start runs bin with env added to the test's environment and waits (up to
// 20 s) for its "listening" log line. The process is killed at cleanup if
// it is still running.
func Start(t testing.TB, bin string, env ...string) *Process {
	t.Helper()
	p := &Process{done: make(chan struct{})}
	p.cmd = exec.Command(bin)
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stderr = os.Stderr
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Bytes()
			p.mu.Lock()
			p.stdout.Write(line)
			p.stdout.WriteByte('\n')
			p.mu.Unlock()
			var rec struct {
				Msg  string `json:"msg"`
				Addr string `json:"addr"`
			}
			if json.Unmarshal(line, &rec) == nil && rec.Msg == "listening" {
				addr <- rec.Addr
			}
		}
		_, _ = io.Copy(io.Discard, out)
		p.err = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		select {
		case <-p.done:
		default:
			_ = p.cmd.Process.Kill()
			<-p.done
		}
	})
	select {
	case a := <-addr:
		p.Addr = a
	case <-p.done:
		t.Fatalf("%s exited before listening: %v\n%s", bin, p.err, p.Stdout())
	case <-time.After(20 * time.Second):
		t.Fatalf("%s did not log a listening address within 20 s\n%s", bin, p.Stdout())
	}
	return p
}

// Signal sends sig to the process.
func (p *Process) Signal(t testing.TB, sig syscall.Signal) {
	t.Helper()
	if err := p.cmd.Process.Signal(sig); err != nil {
		t.Fatalf("signal %v: %v", sig, err)
	}
}

// Wait waits for the process to exit within ctx and returns its exit code.
func (p *Process) Wait(ctx context.Context) (int, error) {
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode(), nil
	case <-ctx.Done():
		return -1, ctx.Err()
	}
}

// Stdout returns what the process logged so far.
func (p *Process) Stdout() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stdout.String()
}
