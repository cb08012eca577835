package validator_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/app/config"
	"github.com/svc-dss/dss/app/validator"
	"github.com/svc-dss/dss/fixtures/pki"
	"github.com/svc-dss/dss/fixtures/tl"
)

// t0 is when the fixture lists are issued (an hour before) and first
// fetched.
var t0 = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

type logBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}
func (l *logBuffer) String() string { l.mu.Lock(); defer l.mu.Unlock(); return l.b.String() }

// env is a fixture ecosystem on 127.0.0.1 with a cache directory that
// survives the validators built on it, as the disk survives a restart
// (app/validation's tests have the same, for the trust store alone).
type env struct {
	eco      *tl.Ecosystem
	cacheDir string
	clock    *clock
}

func newEnv(t *testing.T) *env {
	t.Helper()
	p, err := pki.New("http://127.0.0.1:9")
	if err != nil {
		t.Fatal(err)
	}
	eco, err := tl.NewEcosystem(p, t0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eco.Close() })
	return &env{eco: eco, cacheDir: filepath.Join(t.TempDir(), "tl-cache"), clock: &clock{now: t0}}
}

// validator builds the application over e's lists with env on top.
func (e *env) validator(t *testing.T, env ...string) (*validator.Validator, *logBuffer) {
	t.Helper()
	return e.validatorWith(t, nil, env...)
}

// validatorWith is validator with options.
func (e *env) validatorWith(t *testing.T, opts []validator.Option, env ...string) (*validator.Validator, *logBuffer) {
	t.Helper()
	lists, err := e.eco.ValidatorEnv(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	base := append([]string{
		"SVC_DSS_VALIDATOR_PERMIT_ALL=true", "SVC_DSS_TL_CACHE=" + e.cacheDir,
		// far from the test's time: only the catch-up may run
		"SVC_DSS_VALIDATOR_REFRESH_CRON=0 0 3 1 1 *",
		// the refreshes the tests wait for run at once
		"SVC_DSS_VALIDATOR_REFRESH_JITTER=PT0S",
	}, lists...)
	cfg, err := config.LoadValidator(nil, append(base, env...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	v, err := validator.New(context.Background(), cfg, slog.New(slog.NewJSONHandler(logs, nil)), e.clock.Now, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v, logs
}

// §8 "Freshness" keys: the catch-up runs once after start-up when the
// cached lists are behind; startup-catch-up false suppresses only it.
func TestStartupCatchUp(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     []string
		age     time.Duration // since the cache was last confirmed
		catchUp bool
	}{
		{"never confirmed: catch up", nil, -1, true},
		{"confirmed an hour ago: no catch-up", nil, time.Hour, false},
		{"confirmed two days ago: catch up", nil, 48 * time.Hour, true},
		{"startup-catch-up-after PT30M: an hour is behind", []string{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_AFTER=PT30M"}, time.Hour, true},
		{"startup-catch-up false: never", []string{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP=false"}, -1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			if tt.age >= 0 {
				// a first run of the service fills the cache
				v, _ := e.validator(t)
				v.Validation().Refresh(context.Background())
				e.clock.Advance(tt.age)
			}
			v, logs := e.validator(t, append([]string{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S"}, tt.env...)...)
			is.NoErr(v.Start(context.Background()))
			is.True(strings.Contains(logs.String(), `"msg":"trusted-list refresh scheduled","cron":"0 0 3 1 1 *"`)) // the daily job always
			is.Equal(strings.Contains(logs.String(), "catch-up refresh scheduled"), tt.catchUp)
			if tt.catchUp {
				deadline := time.Now().Add(10 * time.Second)
				for !v.Validation().TrustStatus(e.clock.Now()).Current && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				is.True(v.Validation().TrustStatus(e.clock.Now()).Current) // the catch-up ran
			}
		})
	}
}

// Each refresh, scheduled or catch-up, first waits the replica's jitter:
// a random time below svc.dss.validator.refresh-jitter, drawn by the
// injected source (pinned here). Without a jitter none is drawn.
func TestRefreshJitter(t *testing.T) {
	t.Parallel()
	const pinned = 300 * time.Millisecond
	tests := []struct {
		name    string
		env     []string
		drawn   time.Duration // the max the source is asked for; 0: never asked
		waitLog string        // "": none
	}{
		{"scheduled refresh waits the drawn jitter", []string{"SVC_DSS_VALIDATOR_REFRESH_CRON=* * * * * *", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP=false", "SVC_DSS_VALIDATOR_REFRESH_JITTER=PT1H"},
			time.Hour, `"msg":"trusted-list refresh due: waiting this replica's jitter","wait":300000000`},
		{"catch-up waits the drawn jitter", []string{"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP_DELAY=PT0S", "SVC_DSS_VALIDATOR_REFRESH_JITTER=PT2M"},
			2 * time.Minute, `"msg":"trusted-list refresh due: waiting this replica's jitter","wait":300000000`},
		{"no jitter: none drawn", []string{"SVC_DSS_VALIDATOR_REFRESH_CRON=* * * * * *", "SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP=false", "SVC_DSS_VALIDATOR_REFRESH_JITTER=PT0S"},
			0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			e := newEnv(t)
			var mu sync.Mutex
			var asked []time.Duration
			pin := validator.WithJitter(func(max time.Duration) time.Duration {
				mu.Lock()
				defer mu.Unlock()
				asked = append(asked, max)
				return pinned
			})
			v, logs := e.validatorWith(t, []validator.Option{pin}, tt.env...)
			began := time.Now()
			is.NoErr(v.Start(context.Background()))
			deadline := time.Now().Add(10 * time.Second)
			for !v.Validation().TrustStatus(e.clock.Now()).Current && time.Now().Before(deadline) {
				time.Sleep(20 * time.Millisecond)
			}
			is.True(v.Validation().TrustStatus(e.clock.Now()).Current) // the refresh ran
			mu.Lock()
			defer mu.Unlock()
			if tt.drawn == 0 {
				is.Equal(len(asked), 0) // never drawn
				is.True(!strings.Contains(logs.String(), "waiting this replica's jitter"))
				return
			}
			is.True(len(asked) >= 1)
			is.Equal(asked[0], tt.drawn)                         // bounded by the configuration
			is.True(time.Since(began) >= pinned)                 // the refresh waited the drawn time
			is.True(strings.Contains(logs.String(), tt.waitLog)) // logs.String()
		})
	}
}

// A refresh waiting its jitter ends with the scheduler: Close does not
// wait out the jitter.
func TestRefreshJitterEndsWithClose(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t)
	hour := validator.WithJitter(func(time.Duration) time.Duration { return time.Hour })
	v, logs := e.validatorWith(t, []validator.Option{hour}, "SVC_DSS_VALIDATOR_REFRESH_CRON=* * * * * *",
		"SVC_DSS_VALIDATOR_TRUST_STARTUP_CATCH_UP=false", "SVC_DSS_VALIDATOR_REFRESH_JITTER=PT2H")
	is.NoErr(v.Start(context.Background()))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "waiting this replica's jitter") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	is.True(strings.Contains(logs.String(), `"wait":3600000000000`)) // waiting
	began := time.Now()
	is.NoErr(v.Close())
	is.True(time.Since(began) < 5*time.Second)                  // the wait ended
	is.True(!v.Validation().TrustStatus(e.clock.Now()).Current) // and no refresh ran
}
