//go:build linux

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"math/rand/v2"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/sampleset"
	"github.com/svc-dss/dss/fixtures/tl"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// faultSeed fixes the kill points of TestKillDuringRefresh;
// SVC_DSS_FAULTS_SEED chooses others.
const faultSeed = 25

// TestPublisherFaults runs the validator binary against a list publisher
// that misbehaves in each of the ways a publisher can, after a good
// refresh filled the cache. The server's start-up refresh meets the
// fault; then a document is validated through the API, the cached list
// bytes are compared with those before, and `validator trust status`,
// another process, reads the outcome from the cache.
func TestPublisherFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the validator against a misbehaving list publisher")
	}
	t.Parallel()
	bin := buildValidator(t)
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	_, files, err := sampleset.Build(p)
	if err != nil {
		t.Fatal(err)
	}
	sample := files["cades-valid-LT.p7m"]
	if sample == nil {
		t.Fatal("no sample cades-valid-LT.p7m")
	}

	// newVersion publishes sequence number 2 of DE with defect d, so that
	// the validator's cached digest no longer matches and it downloads.
	newVersion := func(d tl.Defect) func(*tl.Ecosystem) error {
		return func(eco *tl.Ecosystem) error {
			spec := eco.Spec("DE")
			spec.SequenceNumber = 2
			return eco.Publish("DE", spec, d)
		}
	}
	tests := []struct {
		name    string
		fault   func(*tl.Ecosystem) error
		lists   []string // the lists the fault reaches
		outcome string   // their lastRefresh outcome
		refused string   // the authenticity of the refused copy, if any
	}{
		{"down", func(eco *tl.Ecosystem) error { return eco.Close() }, []string{"EU", "CH"}, "download", ""},
		{"slow past the timeout", func(eco *tl.Ecosystem) error {
			eco.Publisher.SetFault(tl.MemberPath("DE"), tl.Hang)
			return newVersion(0)(eco)
		}, []string{"DE"}, "download", ""},
		{"garbage", func(eco *tl.Ecosystem) error {
			eco.Publisher.Put(tl.MemberPath("DE"), []byte("<html>502 Bad Gateway</html>\x00\xff"))
			return nil
		}, []string{"DE"}, "parse", ""},
		{"signed by another key", newVersion(tl.WrongSigner), []string{"DE"}, "signature-indeterminate", "INDETERMINATE"},
		{"tampered", newVersion(tl.Tampered), []string{"DE"}, "signature-invalid", "INVALID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			eco, env := ecosystemFor(t, p)
			env = append(append(offline(t), env...), "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_AFTER=PT0S")
			cache := cacheDir(env)
			code, _, refreshErr := runValidator(t, bin, env, "trust", "refresh")
			if code != 0 {
				t.Fatalf("the good refresh exits %d:\n%s", code, refreshErr)
			}
			before := cachedBytes(t, cache)
			is.Equal(len(before), 4)

			is.NoErr(tt.fault(eco))
			srv := serveValidator(t, bin, env)
			td := waitForOutcome(t, srv, tt.lists[0], tt.outcome)

			status, sum := validateOne(t, srv, sample)
			is.Equal(status, http.StatusOK) // verdicts continue
			for _, td := range []verdict.TrustData{td, sum.TrustData} {
				for _, terr := range tt.lists {
					l := list(td, terr)
					is.True(l.LastRefresh != nil)
					is.Equal(l.LastRefresh.Outcome, tt.outcome)
					if tt.refused != "" {
						is.True(l.Refused != nil)
						is.Equal(l.Refused.Authenticity, tt.refused)
					}
					if tt.outcome == "parse" {
						// §3 rule 8: a list that does not parse drops its anchors.
						is.True(l.ParseFailed)
						is.Equal(l.Anchors, 0)
						continue
					}
					is.True(l.Anchors > 0 || l.Kind == "LOTL") // the last good copy stays in use
					is.Equal(*l.SequenceNumber, 1)
				}
				if tt.refused != "" {
					is.True(td.Degraded)
					is.True(!td.AnchorDataAuthenticated)
				}
			}

			is.Equal(cachedBytes(t, cache), before) // nothing bad was written

			code, out, errOut := runValidator(t, bin, env, "trust", "status")
			is.Equal(code, 0)
			var fromCache verdict.TrustData
			is.NoErr(json.Unmarshal([]byte(out), &fromCache))
			for _, terr := range tt.lists {
				l := list(fromCache, terr)
				is.True(l.LastRefresh != nil)
				is.Equal(l.LastRefresh.Outcome, tt.outcome)
			}
			if t.Failed() {
				t.Logf("trust status stderr:\n%s\nserver logs:\n%s", errOut, tail(srv.logs.String(), 4<<10))
			}
		})
	}
}

// TestKillDuringRefresh kills `validator trust refresh` with SIGKILL at
// seeded random points of a slow refresh that replaces every list, again
// and again; after each kill every cached list loads intact, and a
// restarted validator loads them all.
func TestKillDuringRefresh(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the validator and kills it in the middle of refreshes")
	}
	t.Parallel()
	is := is.New(t)
	seed := uint64(faultSeed)
	if s := os.Getenv("SVC_DSS_FAULTS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("SVC_DSS_FAULTS_SEED: %v", err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	bin := buildValidator(t)
	eco, env := ecosystem(t)
	env = append(append(offline(t), env...), "PATH=/usr/bin:/bin")
	cache := cacheDir(env)
	code, _, _ := runValidator(t, bin, env, "trust", "refresh")
	is.Equal(code, 0)

	const delay = 40 * time.Millisecond // per answer: a pass takes some 10 of them
	eco.Publisher.SetDelay(delay)
	var killedAt []time.Duration
	for round := range 8 {
		for i, terr := range []string{"EU", "DE", "FR", "CH"} {
			spec := eco.Spec(terr)
			spec.SequenceNumber = 2 + round*4 + i
			is.NoErr(eco.Publish(terr, spec, 0))
		}
		at := time.Duration(rng.Int64N(int64(20 * delay)))
		killedAt = append(killedAt, at)
		cmd := exec.Command(bin, "trust", "refresh")
		cmd.Env = env
		is.NoErr(cmd.Start())
		time.Sleep(at)
		is.NoErr(cmd.Process.Signal(syscall.SIGKILL))
		err := cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			// It finished before the kill: still a valid round.
			is.NoErr(err)
		}

		// Every list the cache names loads: old copy or new, never half.
		var logs bytes.Buffer
		c, err := tlcache.Open(cache, slog.New(slog.NewTextHandler(&logs, nil)))
		is.NoErr(err)
		metas, err := filepath.Glob(filepath.Join(cache, "*.json"))
		is.NoErr(err)
		is.Equal(len(metas), 4)
		for _, m := range metas {
			var meta struct{ URL string }
			raw, err := os.ReadFile(m)
			is.NoErr(err)
			is.NoErr(json.Unmarshal(raw, &meta))
			_, err = c.Load(context.Background(), meta.URL)
			is.NoErr(err) // a damaged copy is reported as not cached
		}
		is.Equal(logs.String(), "")

		code, out, errOut := runValidator(t, bin, env, "trust", "status")
		is.Equal(code, 0)
		var td verdict.TrustData
		is.NoErr(json.Unmarshal([]byte(out), &td))
		for _, l := range td.Lists {
			is.Equal(l.Authenticity, "VALID")
			is.True(l.SequenceNumber != nil)
		}
		is.Equal(len(td.Lists), 4)
		is.True(!strings.Contains(errOut, "ignoring the cached copy"))
	}
	t.Logf("seed %d: killed after %v", seed, killedAt)
}

// buildValidator returns the validator binary (without development
// mode), built once per test process.
func buildValidator(t *testing.T) string {
	t.Helper()
	bin, err := builtValidator()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// cacheDir returns the trusted-list cache env names (its last setting).
func cacheDir(env []string) string {
	dir := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "SVC_DSS_TL_CACHE="); ok {
			dir = v
		}
	}
	return dir
}

// cachedBytes returns the list files of the cache by name.
func cachedBytes(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.xml"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(n)] = b
	}
	return out
}

// runValidator runs the binary as a command and returns its exit code and
// output.
func runValidator(t *testing.T, bin string, env []string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Env, cmd.Stdout, cmd.Stderr = env, &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// A binaryServer is the validator binary serving on loopback.
type binaryServer struct {
	url  string
	pid  int
	logs *servertest.Buffer // its log lines, standard output and error
}

// serveValidator starts the binary with args and env (its whole
// environment) and returns once it listens; it is interrupted when the
// test ends, and killed if it does not stop within 10 s.
func serveValidator(t *testing.T, bin string, env []string, args ...string) binaryServer {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &servertest.Buffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("validator logs (last 4 KiB):\n%s", tail(logs.String(), 4<<10))
		}
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			logs.Write(append(sc.Bytes(), '\n'))
			var rec struct{ Msg, Addr string }
			if json.Unmarshal(sc.Bytes(), &rec) == nil && rec.Msg == "listening" {
				addr <- rec.Addr
			}
		}
	}()
	select {
	case a := <-addr:
		_, port, err := net.SplitHostPort(a)
		if err != nil {
			t.Fatal(err)
		}
		return binaryServer{url: "http://127.0.0.1:" + port, pid: cmd.Process.Pid, logs: logs}
	case <-time.After(2 * time.Minute):
		t.Fatalf("the validator did not listen:\n%s", logs.String())
	}
	panic("unreachable")
}

// waitForOutcome polls the server's trust status until the list of
// territory reports outcome as its last refresh. A publisher that hangs
// is given up after the download's header timeout (30 s).
func waitForOutcome(t *testing.T, s binaryServer, territory, outcome string) verdict.TrustData {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		_, td := getJSON[verdict.TrustData](t, s.url+"/api/trust-status")
		if l := list(td, territory); l.LastRefresh != nil && l.LastRefresh.Outcome == outcome {
			return td
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never reported %s: %+v\n%s", territory, outcome, list(td, territory), tail(s.logs.String(), 4<<10))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// validateOne posts a document to /api/validate and returns the status
// and the verdict.
func validateOne(t *testing.T, s binaryServer, doc []byte) (int, verdict.ValidationSummary) {
	t.Helper()
	return validateAs(t, s, "", doc)
}

// validateAs is validateOne with the Authorization header auth ("":
// none).
func validateAs(t *testing.T, s binaryServer, auth string, doc []byte) (int, verdict.ValidationSummary) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	fw, err := w.CreateFormFile("file", "sample.p7m")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(doc)
	w.Close()
	req, err := http.NewRequest(http.MethodPost, s.url+"/api/validate", &b)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", w.FormDataContentType())
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	var sum verdict.ValidationSummary
	if err := json.Unmarshal(body, &sum); err != nil {
		t.Fatalf("%d: %v\n%s", res.StatusCode, err, body)
	}
	return res.StatusCode, sum
}
