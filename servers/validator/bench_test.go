package main

import (
	"io"
	"net/http"
	"testing"

	"github.com/svc-dss/dss/servers/internal/servertest"
)

// BenchmarkHealth measures one request through the whole server stack
// (request id, access log, routing, JSON) over loopback HTTP: the fixed
// cost every API call pays.
func BenchmarkHealth(b *testing.B) {
	requireDev(b, []string{"--dev"})
	s := servertest.Run(b, run, []string{"--dev"}, offline(b)).URL
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
	b.ReportAllocs()
	for b.Loop() {
		res, err := client.Get(s + "/actuator/health")
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
}
