package tsp

import (
	"bytes"
	"crypto"
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/svc-dss/dss/fixtures/pki"
)

// The fixture PKI with its TSA, started on first use and shared by the
// tests of this package: building it derives RSA keys, which takes most of
// a second (and minutes under the fuzzer's instrumentation, which is why
// it is not started in TestMain).
var (
	serverOnce sync.Once
	serverVal  *pki.Server
	serverErr  error
)

// fixture returns the shared fixture PKI server. Its clock is pinned to
// 1.5 s after pki.ReferenceTime.
func fixture(tb testing.TB) *pki.Server {
	tb.Helper()
	serverOnce.Do(func() {
		serverVal, serverErr = pki.NewServer()
		if serverErr == nil {
			serverVal.SetClock(func() time.Time { return pki.ReferenceTime.Add(1500 * time.Millisecond) })
		}
	})
	if serverErr != nil {
		tb.Fatal(serverErr)
	}
	return serverVal
}

func TestMain(m *testing.M) {
	code := m.Run()
	if serverVal != nil {
		if err := serverVal.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// timestamp asks the fixture TSA to time-stamp data and returns the
// response.
func timestamp(tb testing.TB, data []byte, h crypto.Hash, opts RequestOptions) []byte {
	tb.Helper()
	hh := h.New()
	hh.Write(data)
	req, err := CreateRequest(h, hh.Sum(nil), opts)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := http.Post(fixture(tb).TSAURL(), "application/timestamp-query", bytes.NewReader(req))
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/timestamp-reply" {
		tb.Fatalf("TSA answered %s, %s", resp.Status, resp.Header.Get("Content-Type"))
	}
	return body
}

// token time-stamps data and returns the raw token, which must parse.
func token(tb testing.TB, data []byte, opts RequestOptions) []byte {
	tb.Helper()
	_, raw, err := ParseResponse(timestamp(tb, data, crypto.SHA256, opts))
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}
