package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/load"
)

// TestLoad runs the load tool for a few seconds against a development
// validator in this process with the samples of every format, and
// requires that every request succeeded and the figures were printed.
// The server's CPU time is this process's, the tool's own included; the
// figures are reported, not judged.
func TestLoad(t *testing.T) {
	t.Parallel()
	addr := freeAddress(t)
	dir, _ := samplesFor(t, addr)
	s := dev(t, "SVC_DSS_VALIDATOR_DEV_PKI_ADDRESS="+addr)
	waitFor(t, s.URL, func(td verdict.TrustData) bool { return td.Current })
	// The server listens on every address; the tool takes loopback only.
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://127.0.0.1:" + u.Port()
	var out, errOut bytes.Buffer
	code := load.Command(context.Background(), []string{"-validator", base, "-samples", dir,
		"-duration", "3s", "-concurrency", "2", "-pid", strconv.Itoa(os.Getpid())}, &out, &errOut)
	t.Logf("\n%s%s", out.String(), errOut.String())
	if code != 0 {
		t.Fatalf("loadgen exit code %d", code)
	}
	for _, want := range []string{"errors: 0\n", "req/s wall", "per server CPU-second", "p50", "p99", "server RSS: before"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in the output", want)
		}
	}
}
