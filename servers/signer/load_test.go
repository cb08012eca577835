package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/svc-dss/dss/fixtures/load"
)

// TestLoad runs the load tool for a few seconds against a signer in this
// process (real control database, real SoftHSM2 token), signing as proxy
// A with fresh tokens, and requires that every request succeeded and the
// figures were printed. The figures are reported, not judged.
func TestLoad(t *testing.T) {
	w := newSignWorld(t)
	der, err := x509.MarshalPKCS8PrivateKey(w.a.key)
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "proxy-a.pem")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	// The server listens on every address; the tool takes loopback only.
	u, err := url.Parse(w.url)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://127.0.0.1:" + u.Port()
	var out, errOut bytes.Buffer
	code := load.Command(context.Background(), []string{"-signer", base, "-key", keyFile, "-kid", w.a.kid,
		"-tenant", w.a.tenant, "-module", w.a.module, "-key-label", "sign-p256", "-alg", "ECDSA",
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
