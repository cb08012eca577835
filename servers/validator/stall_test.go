package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"runtime"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/fixtures/pgtest"
)

// stalledUpload opens a raw connection to addr and sends the headers of
// a multipart upload that declares 40 MiB, and the first bytes of its
// body: the form token (when csrf is set) and the start of a file. Then
// it stalls.
func stalledUpload(t *testing.T, addr, method, path, cookie, csrf string) net.Conn {
	t.Helper()
	body := ""
	if csrf != "" {
		body = "--b\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n" + csrf + "\r\n"
	}
	body += "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.pdf\"\r\n\r\n%PDF-1.7 and then nothing"
	head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: %s\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: %d\r\nAccept: text/html\r\n", method, path, addr, 40<<20)
	if cookie != "" {
		head += "Cookie: " + plainCookieName + "=" + cookie + "\r\n"
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if _, err := io.WriteString(conn, head+"\r\n"+body); err != nil {
		t.Fatal(err)
	}
	return conn
}

// heapInUse is the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// Issue 14: ten stalled connections that sent about 166 bytes each held
// 200 MiB, because every path parsed multipart before authentication and
// reserved the declared length. Now nobody's upload is read before its
// caller is authenticated, refusals come at once, and an authenticated
// upload that stalls holds what it sent. Not parallel: it measures the
// heap of the process the servers run in.
func TestStalledUploadsHoldNoBuffer(t *testing.T) {
	const n = 10 // connections per case
	locked := start(t, nil, "SVC_DSS_VALIDATOR_PERMIT_ALL=false", "SVC_DSS_CONTROL_DB_URL="+pgtest.NewDatabaseURL(t))
	open := dev(t) // permit-all: the API and the UI take uploads from anyone
	b := (&uiWorld{url: open.URL}).browser(t)
	csrf := csrfOf(t, b.get("/validate").body)
	host := func(s string) string { u, _ := url.Parse(s); return u.Host }

	const signIn = "You are not signed in, or your session has ended. Sign in again to continue."
	refused := []struct {
		name, method, path string
		status             int
		detail             string // the error page's, for pages
	}{
		{"the health probe", http.MethodGet, "/actuator/health", 200, ""},
		{"the health probe, posted", http.MethodPost, "/actuator/health", 405, ""},
		{"the API without a token", http.MethodPost, "/api/validate", 401, ""},
		{"the UI upload without a session", http.MethodPost, "/validate", 401, signIn},
		{"the sign-out without a session", http.MethodPost, "/validate/logout", 401, signIn},
		{"no such path", http.MethodPost, "/nothing", 404, ""},
	}
	before := heapInUse()
	var conns [][]net.Conn
	for _, tt := range refused {
		var cs []net.Conn
		for range n {
			cs = append(cs, stalledUpload(t, host(locked.URL), tt.method, tt.path, "", ""))
		}
		conns = append(conns, cs)
	}
	// Authenticated uploads that stall: read, but only what arrived.
	var reading []net.Conn
	for range n {
		reading = append(reading, stalledUpload(t, host(open.URL), http.MethodPost, "/api/validate", "", ""),
			stalledUpload(t, host(open.URL), http.MethodPost, "/validate", b.cookie(), csrf))
	}
	time.Sleep(300 * time.Millisecond) // let the servers take in what was sent
	held := heapInUse() - before
	t.Logf("%d stalled uploads declaring 40 MiB each: heap %+d bytes", n*(len(refused)+2), held)
	is.New(t).True(held < 2<<20) // not 40 MiB each: a few kilobytes of connection state

	for i, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			for _, conn := range conns[i] {
				is.NoErr(conn.SetReadDeadline(time.Now().Add(2 * time.Second))) // the server's read timeout is 20 s
				res, err := http.ReadResponse(bufio.NewReader(conn), nil)
				is.NoErr(err) // answered without the body
				page, _ := io.ReadAll(res.Body)
				is.Equal(res.StatusCode, tt.status)
				is.True(res.Close) // the body was not read: the connection ends
				if tt.detail != "" {
					is.Equal(text(string(page), "error-detail"), tt.detail)
				}
			}
		})
	}
	// The authenticated uploads are still being read: no answer yet.
	is := is.New(t)
	for _, conn := range reading {
		is.NoErr(conn.SetReadDeadline(time.Now().Add(50 * time.Millisecond)))
		_, err := conn.Read(make([]byte, 1))
		ne, ok := errors.AsType[net.Error](err)
		is.True(ok && ne.Timeout()) // still reading
	}
}
