//go:build linux

package main

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/postgres"
	"github.com/svc-dss/dss/fixtures/pgtest"
	"github.com/svc-dss/dss/fixtures/pkcs11shim"
	"github.com/svc-dss/dss/fixtures/redistest"
	"github.com/svc-dss/dss/servers/internal/servertest"
)

// TestSignerFaults runs the signer binary, built once, against a real
// control database, Redis and SoftHSM2 token, and takes each away while
// it serves: sign-ska answers 502 infrastructure-failure meanwhile, signs
// nothing, never answers 200 with a signature that does not verify, and
// recovers when the part is back, without a restart. Every 200 is
// checked against the key's public half.
func TestSignerFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the signer and stops its database, Redis and HSM under it")
	}
	t.Parallel()
	bin := servertest.Build(t, "github.com/svc-dss/dss/servers/signer")

	t.Run("control database stopped and started", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
		defer cancel()
		cluster, err := pgtest.StartCluster(ctx)
		is.NoErr(err)
		t.Cleanup(func() { _ = cluster.Stop() })
		f := startFaultSigner(t, bin, seedSignWorld(t, cluster.URL()))
		is.Equal(f.sign(t, f.token(t)), 200)

		refused := f.token(t)
		var ids []string
		is.NoErr(cluster.Restart(ctx, func() {
			for range 3 {
				status, p := f.signProblem(t, refused)
				is.Equal(status, 502)
				ids = append(ids, p.RequestID)
			}
		}))
		f.refusedMeanwhile(t, ids) // nothing signed while it was down
		is.True(strings.Contains(f.p.Stdout(), "connect: connection refused"))
		is.Equal(f.sign(t, refused), 200) // the same token: it was never recorded as used
	})

	t.Run("Redis stopped and started", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		own := redistest.StartT(t, redistest.Options{})
		f := startFaultSigner(t, bin, seedSignWorld(t, pgtest.NewDatabaseURL(t)), redistest.Env(own.URL(), "faults:")...)
		is.Equal(f.sign(t, f.token(t)), 200)

		is.NoErr(own.Stop())
		refused := f.token(t)
		var ids []string
		for range 3 {
			status, p := f.signProblem(t, refused)
			is.Equal(status, 502)
			is.Equal(p.Detail, errReplayDetail)
			ids = append(ids, p.RequestID)
		}
		f.refusedMeanwhile(t, ids)

		// Redis back where it was, empty: the token refused while it was
		// down signs once, and only once.
		redistest.StartT(t, redistest.Options{Port: redistest.PortOf(t, own.URL())})
		is.Equal(f.sign(t, refused), 200)
		status, p := f.signProblem(t, refused)
		is.Equal(status, 401)
		is.Equal(p.Detail, "the token's jti was used before")
	})

	t.Run("HSM token removed and back", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		w := seedSignWorld(t, pgtest.NewDatabaseURL(t))
		shim := pkcs11shim.Build(t, w.tokA.ModulePath())
		f := startFaultSigner(t, bin, onShim(t, w, shim), shim.Env()...)
		is.Equal(f.sign(t, f.token(t)), 200)

		is.NoErr(shim.Remove())
		var ids []string
		for range 3 {
			status, p := f.signProblem(t, f.token(t))
			is.Equal(status, 502)
			is.Equal(p.Detail, errSignUnavailableDetail)
			ids = append(ids, p.RequestID)
		}
		f.refusedMeanwhile(t, ids)

		// Back: the sessions of before the removal are dead; the pool
		// opens new ones and logs in again.
		is.NoErr(shim.Restore())
		is.Equal(f.sign(t, f.token(t)), 200)
		f.noSessionsInUse(t)

		// Removed and put back twice while callers sign without pause:
		// every answer is a verified signature or a 502.
		counts := f.underLoad(t, 4, func() {
			for range 2 {
				is.NoErr(shim.Remove())
				f.eventually(t, func() bool { return f.sign(t, f.token(t)) == 502 })
				is.NoErr(shim.Restore())
				f.eventually(t, func() bool { return f.sign(t, f.token(t)) == 200 })
			}
		})
		is.True(counts[200] > 0 && counts[502] > 0) // both sides of the fault were met
		f.noSessionsInUse(t)
	})

	t.Run("HSM slower than the signing timeout", func(t *testing.T) {
		t.Parallel()
		is := is.New(t)
		w := seedSignWorld(t, pgtest.NewDatabaseURL(t))
		shim := pkcs11shim.Build(t, w.tokA.ModulePath())
		f := startFaultSigner(t, bin, onShim(t, w, shim), append(shim.Env(), "SVC_DSS_SIGNING_TIMEOUT_SECONDS=1")...)
		is.Equal(f.sign(t, f.token(t)), 200)

		// Each C_Sign takes longer than the whole operation may: more
		// calls at once than the pool has sessions, all refused.
		is.NoErr(shim.Slow(3 * time.Second))
		var wg sync.WaitGroup
		problems, errs := make([]servertest.Problem, 12), make([]error, 12)
		statuses := make([]int, 12)
		for i := range statuses {
			auth := f.token(t)
			wg.Go(func() { statuses[i], problems[i], errs[i] = f.try(auth) })
		}
		wg.Wait()
		var ids []string
		for i, s := range statuses {
			is.NoErr(errs[i])
			is.Equal(s, 502)
			ids = append(ids, problems[i].RequestID)
		}
		f.refusedMeanwhile(t, ids)
		is.True(strings.Contains(f.p.Stdout(), "hsm: timed out"))

		// Back at speed: the calls left behind finish on their own and
		// give their sessions back; new calls sign.
		is.NoErr(shim.Restore())
		f.eventually(t, func() bool { return f.sign(t, f.token(t)) == 200 })
		f.noSessionsInUse(t)
	})
}

// errSignUnavailableDetail is the detail of a sign-ska call the control
// database or the HSM failed.
const errSignUnavailableDetail = "signing could not run: the control database or the HSM failed or timed out; quote the request id when reporting it"

// A faultSigner is the signer binary serving a seeded world.
type faultSigner struct {
	*signWorld
	p *servertest.Process
}

// startFaultSigner starts bin on w's control database with env added and
// a metrics token; the process sees w's SoftHSM2 tokens.
func startFaultSigner(t *testing.T, bin string, w *signWorld, env ...string) *faultSigner {
	t.Helper()
	p := servertest.Start(t, bin, append([]string{"SERVER_PORT=0", "SVC_DSS_CONTROL_DB_URL=" + w.admin,
		"SVC_DSS_SIGNER_METRICS_TOKEN=" + metricsTokenForTests, "SOFTHSM2_CONF=" + w.tokA.ConfigPath()}, env...)...)
	_, port, _ := strings.Cut(p.Addr, "]:")
	if port == "" {
		_, port, _ = strings.Cut(p.Addr, ":")
	}
	w.url = "http://127.0.0.1:" + port
	return &faultSigner{signWorld: w, p: p}
}

// onShim makes w's partition load its token through shim.
func onShim(t *testing.T, w *signWorld, shim *pkcs11shim.Shim) *signWorld {
	t.Helper()
	db, err := postgres.OpenWritable(postgres.Options{URL: w.admin})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE hsm_partitions SET pkcs11_module = $1 WHERE tenant_id = $2`, shim.Module, tenantA); err != nil {
		t.Fatal(err)
	}
	return w
}

// faultDigest is what the fault tests sign: with sign-p256, ECDSA.
var faultDigest = digest(crypto.SHA256, "document under faults")

// token is a new token of proxy A over the request of faultDigest.
func (f *faultSigner) token(t *testing.T) string {
	return "Bearer " + f.a.token(t, body(f.a, "sign-p256", "SHA-256", "ECDSA", "", faultDigest), nil)
}

// sign posts the request of faultDigest with auth and returns the
// status. A 200's signature must verify with the key's public half, and
// any other status be a problem whose detail names none of the world's
// internals.
func (f *faultSigner) sign(t *testing.T, auth string) int {
	t.Helper()
	status, _ := f.signProblem(t, auth)
	return status
}

// signProblem is sign, returning the problem of a refusal too.
func (f *faultSigner) signProblem(t *testing.T, auth string) (int, servertest.Problem) {
	t.Helper()
	status, p, err := f.try(auth)
	if err != nil {
		t.Fatal(err)
	}
	f.noInternals(t, p.Detail)
	return status, p
}

// try posts the request of faultDigest with auth and checks the answer
// as sign does, returning what is wrong with it as an error: it may run
// on any goroutine.
func (f *faultSigner) try(auth string) (int, servertest.Problem, error) {
	b := body(f.a, "sign-p256", "SHA-256", "ECDSA", "", faultDigest)
	req, err := http.NewRequest(http.MethodPost, f.url+signPath, bytes.NewReader(b))
	if err != nil {
		return 0, servertest.Problem{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", auth)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, servertest.Problem{}, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, servertest.Problem{}, err
	}
	if res.StatusCode == http.StatusOK {
		var out signed
		if err := json.Unmarshal(raw, &out); err != nil {
			return 0, servertest.Problem{}, fmt.Errorf("200: %w\n%s", err, raw)
		}
		if len(out.Signatures) != 1 || !ecdsa.VerifyASN1(f.pubs["sign-p256"].(*ecdsa.PublicKey), faultDigest, out.Signatures[0]) {
			return 0, servertest.Problem{}, fmt.Errorf("200 with a signature that does not verify:\n%s", raw)
		}
		return res.StatusCode, servertest.Problem{}, nil
	}
	var p servertest.Problem
	if err := json.Unmarshal(raw, &p); err != nil {
		return 0, servertest.Problem{}, fmt.Errorf("%d: %w\n%s", res.StatusCode, err, raw)
	}
	if res.StatusCode == http.StatusBadGateway && p.Type != "urn:svc-dss:problem:infrastructure-failure" {
		return 0, servertest.Problem{}, fmt.Errorf("502 of type %s", p.Type)
	}
	return res.StatusCode, p, nil
}

// underLoad runs callers that sign without pause while fault runs, and
// fails the test if any answer is other than a verified 200 or a 502
// infrastructure-failure. It returns the count of each status.
func (f *faultSigner) underLoad(t *testing.T, callers int, fault func()) map[int]int {
	t.Helper()
	var (
		mu     sync.Mutex
		counts = map[int]int{}
		errs   []error
		done   = make(chan struct{})
		wg     sync.WaitGroup
	)
	for range callers {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				auth := "Bearer " + f.a.token(t, body(f.a, "sign-p256", "SHA-256", "ECDSA", "", faultDigest), nil)
				status, _, err := f.try(auth)
				mu.Lock()
				counts[status]++
				if err == nil && status != http.StatusOK && status != http.StatusBadGateway {
					err = fmt.Errorf("status %d", status)
				}
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
			}
		})
	}
	fault()
	close(done)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	return counts
}

// outcomeOf waits for the audit record of the request id and returns
// its outcome.
func (f *faultSigner) outcomeOf(t *testing.T, id string) string {
	t.Helper()
	outcome := ""
	f.eventually(t, func() bool {
		for line := range strings.SplitSeq(f.p.Stdout(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "sign-ska" && rec["request_id"] == id {
				outcome, _ = rec["outcome"].(string)
				return true
			}
		}
		return false
	})
	return outcome
}

// refusedMeanwhile asserts that the calls of the request ids were
// audited as failed: nothing was signed for them.
func (f *faultSigner) refusedMeanwhile(t *testing.T, ids []string) {
	t.Helper()
	if len(ids) == 0 {
		t.Fatal("no call was made during the fault")
	}
	for _, id := range ids {
		if o := f.outcomeOf(t, id); o != "failed" {
			t.Fatalf("request %s: outcome %q during the fault", id, o)
		}
	}
}

// noSessionsInUse waits until the metrics show no HSM session busy: none
// was leaked by the fault.
func (f *faultSigner) noSessionsInUse(t *testing.T) {
	t.Helper()
	f.eventually(t, func() bool {
		m := servertest.Scrape(t, f.url, metricsTokenForTests)
		return m.Has("svc_dss_hsm_sessions_in_use", nil) && m.Value("svc_dss_hsm_sessions_in_use", nil) == 0
	})
}

// eventually polls cond until it holds, for at most a minute: a
// condition, not a timing, is asserted.
func (f *faultSigner) eventually(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("never held; signer logs:\n%s", tail(f.p.Stdout(), 4<<10))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}
