package tlcache_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/matryer/is"

	"github.com/svc-dss/dss/adapters/tlcache"
	"github.com/svc-dss/dss/ports"
)

var t0 = time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)

func open(t *testing.T) (*tlcache.Cache, *strings.Builder) {
	t.Helper()
	var logs strings.Builder
	c, err := tlcache.Open(filepath.Join(t.TempDir(), "tl-cache"), slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return c, &logs
}

const url = "https://ec.europa.eu/tools/lotl/eu-lotl.xml"

func TestStoreLoadRoundTrip(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	c, _ := open(t)
	_, err := c.Load(ctx, url)
	is.True(errors.Is(err, ports.ErrNotCached))

	is.NoErr(c.Store(ctx, url, []byte("<TrustServiceStatusList/>"), ports.ListMeta{Downloaded: t0, LastOnlineConfirmation: t0}))
	got, err := c.Load(ctx, url)
	is.NoErr(err)
	is.Equal(string(got.Data), "<TrustServiceStatusList/>")
	is.Equal(got.Meta.URL, url)
	is.Equal(got.Meta.SHA256, "cc7d1bbe1ce9b27b97e51a061a09fa16c677e9893543de7a5ad0b429320305a7")
	is.True(got.Meta.LastOnlineConfirmation.Equal(t0))

	// A new version replaces the old and the old bytes are removed.
	is.NoErr(c.Store(ctx, url, []byte("<TrustServiceStatusList v2/>"), ports.ListMeta{Downloaded: t0.Add(time.Hour)}))
	got, err = c.Load(ctx, url)
	is.NoErr(err)
	is.Equal(string(got.Data), "<TrustServiceStatusList v2/>")
	files, _ := filepath.Glob(filepath.Join(c.Dir(), "*.xml"))
	is.Equal(len(files), 1)

	// Metadata alone can change.
	is.NoErr(c.StoreMeta(ctx, url, ports.ListMeta{LastOnlineConfirmation: t0.Add(2 * time.Hour), ConsecutiveFailures: 2}))
	got, err = c.Load(ctx, url)
	is.NoErr(err)
	is.Equal(got.Meta.ConsecutiveFailures, 2)
	is.True(got.Meta.LastOnlineConfirmation.Equal(t0.Add(2 * time.Hour)))
	is.Equal(string(got.Data), "<TrustServiceStatusList v2/>")
}

func TestCorruptCopiesAreIgnoredAndLogged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tests := []struct {
		name    string
		corrupt func(t *testing.T, dir string)
		log     string
	}{
		{"metadata not JSON", func(t *testing.T, dir string) {
			write(t, glob(t, dir, "*.json"), "{not json")
		}, "unreadable metadata"},
		{"bytes altered", func(t *testing.T, dir string) {
			write(t, glob(t, dir, "*.xml"), "<tampered/>")
		}, "digest mismatch"},
		{"bytes missing", func(t *testing.T, dir string) {
			if err := os.Remove(glob(t, dir, "*.xml")); err != nil {
				t.Fatal(err)
			}
		}, "bytes missing"},
		{"metadata names a path outside the cache", func(t *testing.T, dir string) {
			write(t, glob(t, dir, "*.json"), `{"url":"`+url+`","sha256":"x","file":"../../etc/passwd"}`)
		}, "unreadable metadata"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			is := is.New(t)
			c, logs := open(t)
			is.NoErr(c.Store(ctx, url, []byte("<list/>"), ports.ListMeta{Downloaded: t0}))
			tt.corrupt(t, c.Dir())
			_, err := c.Load(ctx, url)
			is.True(errors.Is(err, ports.ErrNotCached))
			is.True(strings.Contains(logs.String(), tt.log))
		})
	}
}

// TestCrashMidWriteKeepsTheOldCopy simulates a crash after the new bytes
// were written but before the metadata was replaced: the old copy stays
// whole and loadable. A leftover temporary file is ignored.
func TestCrashMidWriteKeepsTheOldCopy(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	ctx := context.Background()
	c, _ := open(t)
	is.NoErr(c.Store(ctx, url, []byte("<old/>"), ports.ListMeta{Downloaded: t0}))
	// What a crash leaves: a half-written temporary file and a complete
	// new data file that no metadata names yet.
	write(t, filepath.Join(c.Dir(), ".tmp-123"), "<ne")
	write(t, filepath.Join(c.Dir(), "deadbeef.0000.xml"), "<new/>")
	got, err := c.Load(ctx, url)
	is.NoErr(err)
	is.Equal(string(got.Data), "<old/>")
}

func glob(t *testing.T, dir, pattern string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(m) != 1 {
		t.Fatalf("%s: %d matches", pattern, len(m))
	}
	return m[0]
}

func write(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
}
