package validation_test

import (
	"context"
	"crypto/x509"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/svc-dss/dss/adapters/keystore"
	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/adapters/trustlist"
	"github.com/svc-dss/dss/app/validation"
	"github.com/svc-dss/dss/domain/trust"
	"github.com/svc-dss/dss/domain/verdict"
	"github.com/svc-dss/dss/fixtures/realworld"
	"github.com/svc-dss/dss/ports"
)

// The 2023 EU snapshot in the corpus: LOTL 332 and the member lists it
// pointed to, cached by EU DSS under mangled URLs. Its signer is reached
// from the 2019 OJ keystore only through pivots 282 and 300.
const (
	lotlURL    = "https://ec.europa.eu/tools/lotl/eu-lotl.xml"
	snapshotAt = "2023-09-28T12:00:00Z"
)

var mangle = regexp.MustCompile(`[^a-zA-Z0-9]`)

// offlineSource fails the test if the trust store goes online.
type offlineSource struct{ tb testing.TB }

func (s offlineSource) Fetch(ctx context.Context, url, _ string) ([]byte, error) {
	s.tb.Errorf("offline load fetched %s", url)
	return nil, ports.ErrNotCached
}

// corpusStore returns a trust store over a cache filled from the corpus
// snapshot, and the bytes cached.
func corpusStore(tb testing.TB) (*validation.TrustStore, int64) {
	tb.Helper()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cache, err := tlcache.Open(tb.TempDir(), logger)
	if err != nil {
		tb.Fatal(err)
	}
	total := fillCorpusCache(tb, cache)
	at, _ := time.Parse(time.RFC3339, snapshotAt)
	src := validation.TrustSources{LOTLURL: lotlURL, OJCerts: corpusOJ(tb), OJSource: "keystore.p12"}
	return validation.NewTrustStore(src, cache, offlineSource{tb}, trust.PrivateCA{}, func() time.Time { return at }, logger), total
}

// corpusOJKeystore is the 2019 OJ keystore of the corpus and its password.
const corpusOJKeystore, corpusOJPassword = "dss/oj-keystore/keystore.p12", "dss-password"

func corpusOJ(tb testing.TB) []*x509.Certificate {
	tb.Helper()
	oj, err := keystore.ReadTrustStore(filepath.Join(realworld.Trust(tb), corpusOJKeystore), "PKCS12", corpusOJPassword)
	if err != nil {
		tb.Fatal(err)
	}
	return oj
}

// fillCorpusCache stores the corpus snapshot's lists in cache under the
// URLs they were published at and returns the bytes stored.
func fillCorpusCache(tb testing.TB, cache *tlcache.Cache) int64 {
	tb.Helper()
	corpusTrust := realworld.Trust(tb)
	ctx := context.Background()
	at, _ := time.Parse(time.RFC3339, snapshotAt)
	var total int64
	put := func(url, file string) bool {
		data, err := os.ReadFile(filepath.Join(corpusTrust, file))
		if err != nil {
			return false
		}
		total += int64(len(data))
		if err := cache.Store(ctx, url, data, ports.ListMeta{Downloaded: at, LastOnlineConfirmation: at}); err != nil {
			tb.Fatal(err)
		}
		return true
	}
	lotlFile := "dss/cookbook-cache/" + mangle.ReplaceAllString(lotlURL, "_") + ".xml"
	put(lotlURL, lotlFile)
	put("https://ec.europa.eu/tools/lotl/eu-lotl-pivot-300.xml", "dss/lotl/eu-lotl-pivot-300.xml")
	put("https://ec.europa.eu/tools/lotl/eu-lotl-pivot-282.xml", "dss/lotl/eu-lotl-pivot-282.xml")
	raw, _ := os.ReadFile(filepath.Join(corpusTrust, lotlFile))
	lotl, err := trustlist.Parse(raw)
	if err != nil {
		tb.Fatal(err)
	}
	for _, p := range trustlist.MemberLists(lotl) {
		put(p.Location, "dss/cookbook-cache/"+mangle.ReplaceAllString(p.Location, "_")+".xml")
	}
	return total
}

// TestCorpusSnapshotFromCache loads the real 2023 EU snapshot from the
// cache: the LOTL authenticates through its pivots, and each member list
// against the signers its LOTL pointer announces.
func TestCorpusSnapshotFromCache(t *testing.T) {
	t.Parallel()
	s, _ := corpusStore(t)
	snap := s.LoadCache(context.Background())
	at, _ := time.Parse(time.RFC3339, snapshotAt)
	td := verdict.NewTrustData(snap, at, thresholds)
	counts := map[string]int{}
	for _, l := range td.Lists {
		counts[l.Authenticity]++
		t.Logf("%-3s %-13s %-14s anchors %4d", l.Territory, l.State, l.Authenticity, l.Anchors)
	}
	t.Logf("authenticity: %v", counts)
	if got := td.Lists[0]; got.Territory != "EU" || got.Authenticity != "VALID" {
		t.Fatalf("LOTL 332 through pivots 282/300: %s %s, want EU VALID", got.Territory, got.Authenticity)
	}
	if counts["INVALID"] != 0 {
		t.Errorf("%d member lists INVALID", counts["INVALID"])
	}
	if counts["VALID"] < 25 {
		t.Errorf("only %d lists VALID", counts["VALID"])
	}
}

// BenchmarkLoadEUFromCache measures what start-up does: the whole EU
// snapshot parsed and authenticated from the on-disk cache.
func BenchmarkLoadEUFromCache(b *testing.B) {
	s, total := corpusStore(b)
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		s.LoadCache(context.Background())
	}
}
