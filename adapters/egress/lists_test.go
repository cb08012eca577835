package egress_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/egress"
	"github.com/svc-dss/dss/ports"
)

const list = "<TrustServiceStatusList>v1</TrustServiceStatusList>"

func digest(s string) []byte { sum := sha256.Sum256([]byte(s)); return sum[:] }

// publisher serves /tl.xml, and /tl.sha2 with the given content ("" = 404).
func publisher(t *testing.T, body, sha2 string) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	var downloads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/tl.xml":
			downloads.Add(1)
			io.WriteString(w, body)
		case "/tl.sha2":
			if sha2 == "" {
				http.NotFound(w, r)
				return
			}
			io.WriteString(w, sha2)
		case "/slow.xml":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		case "/reset.xml":
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		case "/empty.xml":
			w.WriteHeader(http.StatusOK)
		case "/huge.xml":
			w.Write(make([]byte, egress.MaxListBytes+1))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &downloads
}

func source(t *testing.T, o egress.Options) *egress.ListSource {
	t.Helper()
	c, err := egress.NewClient(o)
	if err != nil {
		t.Fatal(err)
	}
	return egress.NewListSource(c)
}

func TestFetch(t *testing.T) {
	t.Parallel()
	known := hex.EncodeToString(digest(list))
	tests := []struct {
		name      string
		sha2      string
		known     string
		path      string
		want      string
		err       error
		fetchErr  bool
		downloads int32
	}{
		{name: "first download", path: "/tl.xml", want: list, downloads: 1},
		{name: "unchanged by hex companion: no download", sha2: known, known: known, path: "/tl.xml", err: ports.ErrNotModified, downloads: 0},
		{name: "unchanged by base64 companion", sha2: base64.StdEncoding.EncodeToString(digest(list)) + "\n", known: known, path: "/tl.xml", err: ports.ErrNotModified, downloads: 0},
		{name: "companion says changed: downloaded", sha2: known, known: hex.EncodeToString(digest("the old list")), path: "/tl.xml", want: list, downloads: 1},
		{name: "no companion, same bytes", known: known, path: "/tl.xml", err: ports.ErrNotModified, downloads: 1},
		{name: "garbage companion is ignored", sha2: "not a digest", known: known, path: "/tl.xml", err: ports.ErrNotModified, downloads: 1},
		{name: "404", path: "/missing.xml", fetchErr: true},
		{name: "connection reset", path: "/reset.xml", fetchErr: true},
		{name: "too large", path: "/huge.xml", fetchErr: true},
		{name: "empty body", path: "/empty.xml", fetchErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			is := is.New(t)
			srv, downloads := publisher(t, list, tt.sha2)
			data, err := source(t, egress.Options{}).Fetch(context.Background(), srv.URL+tt.path, tt.known)
			switch {
			case tt.fetchErr:
				is.True(egress.IsFetchError(err))
			case tt.err != nil:
				is.True(errors.Is(err, tt.err))
			default:
				is.NoErr(err)
				is.Equal(string(data), tt.want)
			}
			if tt.path == "/tl.xml" {
				is.Equal(downloads.Load(), tt.downloads)
			}
		})
	}
}

func TestFetchErrorNamesTheStatus(t *testing.T) {
	t.Parallel()
	srv, _ := publisher(t, list, "")
	_, err := source(t, egress.Options{}).Fetch(context.Background(), srv.URL+"/missing.xml", "")
	is.New(t).Equal(err.Error(), "egress: GET "+srv.URL+"/missing.xml: HTTP 404")
}

func TestSlowPublisherTimesOut(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, _ := publisher(t, list, "")
	_, err := source(t, egress.Options{Timeout: 200 * time.Millisecond}).Fetch(context.Background(), srv.URL+"/slow.xml", "")
	is.True(egress.IsFetchError(err))
	is.True(strings.Contains(err.Error(), "Client.Timeout"))
}

// TestProxyAppliesToListDownloads runs a real forward proxy and checks the
// download went through it.
func TestProxyAppliesToListDownloads(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	srv, _ := publisher(t, list, "")
	var proxied atomic.Int32
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proxied.Add(1)
		if !r.URL.IsAbs() {
			http.Error(w, "not a proxy request", http.StatusBadRequest)
			return
		}
		out, _ := http.NewRequestWithContext(r.Context(), r.Method, r.URL.String(), nil)
		res, err := http.DefaultTransport.RoundTrip(out)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		defer res.Body.Close()
		w.WriteHeader(res.StatusCode)
		io.Copy(w, res.Body)
	}))
	t.Cleanup(proxy.Close)
	host, port, _ := net.SplitHostPort(strings.TrimPrefix(proxy.URL, "http://"))
	p, _ := strconv.Atoi(port)
	data, err := source(t, egress.Options{ProxyHost: host, ProxyPort: p}).Fetch(context.Background(), srv.URL+"/tl.xml", "")
	is.NoErr(err)
	is.Equal(string(data), list)
	is.Equal(proxied.Load(), int32(1))
}

func TestNewClientRefusesAProxyWithoutPort(t *testing.T) {
	_, err := egress.NewClient(egress.Options{ProxyHost: "proxy"})
	is.New(t).Equal(err.Error(), "egress: proxy proxy needs a port from 1 to 65535, got 0")
}
