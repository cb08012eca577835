// Package tlcache keeps the last good copy of each trusted list on disk,
// with its metadata, in the directory svc.dss.validator.tl-cache-dir.
//
// # Layout and atomicity
//
// For a list URL u, with k the hex SHA-256 of u:
//
//	k.<sha256 of the bytes>.xml   the list's bytes, named by their digest
//	k.json                        metadata: URL, digest, times, failures
//
// Store writes the bytes to a temporary file, syncs and renames it to its
// content-addressed name, then replaces k.json the same way, and only then
// removes the previous bytes. A crash at any point leaves k.json naming a
// complete file: the old copy or the new one, never half of one.
//
// # Corruption
//
// A metadata file that does not parse, or bytes whose digest differs from
// the metadata, are logged and treated as not cached: start-up carries on
// without that list rather than trusting a damaged copy.
package tlcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/svc-dss/dss/ports"
)

// Cache is a directory of cached lists. It is safe for concurrent use by
// one process; the refresh job is its only writer.
type Cache struct {
	dir    string
	logger *slog.Logger
}

var _ ports.TrustListCache = (*Cache)(nil)

// Open returns the cache in dir, creating the directory if needed.
func Open(dir string, logger *slog.Logger) (*Cache, error) {
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, fmt.Errorf("tlcache: %w", err)
	}
	return &Cache{dir: dir, logger: logger}, nil
}

// Dir returns the cache directory.
func (c *Cache) Dir() string { return c.dir }

// meta is the JSON form of ports.ListMeta, with a file name for the bytes.
type meta struct {
	URL                    string    `json:"url"`
	SHA256                 string    `json:"sha256"`
	File                   string    `json:"file"`
	Downloaded             time.Time `json:"downloaded"`
	LastOnlineConfirmation time.Time `json:"lastOnlineConfirmation,omitzero"`
	ConsecutiveFailures    int       `json:"consecutiveFailures"`
	LastRefresh            string    `json:"lastRefresh,omitempty"`
	LastRefreshAt          time.Time `json:"lastRefreshAt,omitzero"`
}

func key(url string) string {
	sum := sha256.Sum256([]byte(url))
	return hex.EncodeToString(sum[:16])
}

// Load returns the cached copy of url.
func (c *Cache) Load(ctx context.Context, url string) (ports.CachedList, error) {
	m, err := c.readMeta(url)
	if err != nil {
		return ports.CachedList{}, err
	}
	data, err := os.ReadFile(filepath.Join(c.dir, m.File))
	if err != nil {
		c.logger.WarnContext(ctx, "trusted-list cache: bytes missing, ignoring the cached copy", slog.String("url", url), slog.String("error", err.Error()))
		return ports.CachedList{}, fmt.Errorf("tlcache: %s: %w", url, ports.ErrNotCached)
	}
	sum := sha256.Sum256(data)
	if got := hex.EncodeToString(sum[:]); got != m.SHA256 {
		c.logger.WarnContext(ctx, "trusted-list cache: digest mismatch, ignoring the cached copy", slog.String("url", url), slog.String("file", m.File))
		return ports.CachedList{}, fmt.Errorf("tlcache: %s: %w", url, ports.ErrNotCached)
	}
	return ports.CachedList{Data: data, Meta: m.public()}, nil
}

func (c *Cache) readMeta(url string) (meta, error) {
	raw, err := os.ReadFile(filepath.Join(c.dir, key(url)+".json"))
	if errors.Is(err, fs.ErrNotExist) {
		return meta{}, fmt.Errorf("tlcache: %s: %w", url, ports.ErrNotCached)
	}
	if err != nil {
		return meta{}, fmt.Errorf("tlcache: %s: %w", url, err)
	}
	var m meta
	if err := json.Unmarshal(raw, &m); err != nil || m.URL != url || m.File == "" || strings.ContainsAny(m.File, `/\`) {
		c.logger.Warn("trusted-list cache: unreadable metadata, ignoring the cached copy", slog.String("url", url), slog.String("file", key(url)+".json"))
		return meta{}, fmt.Errorf("tlcache: %s: %w", url, ports.ErrNotCached)
	}
	return m, nil
}

func (m meta) public() ports.ListMeta {
	return ports.ListMeta{
		URL: m.URL, SHA256: m.SHA256, Downloaded: m.Downloaded,
		LastOnlineConfirmation: m.LastOnlineConfirmation, ConsecutiveFailures: m.ConsecutiveFailures,
		LastRefresh: m.LastRefresh, LastRefreshAt: m.LastRefreshAt,
	}
}

// Store replaces the cached copy of url with data. The digest in lm is
// computed here; the caller's value is ignored.
func (c *Cache) Store(ctx context.Context, url string, data []byte, lm ports.ListMeta) error {
	old, _ := c.readMeta(url)
	sum := sha256.Sum256(data)
	digest := hex.EncodeToString(sum[:])
	m := meta{
		URL: url, SHA256: digest, File: key(url) + "." + digest + ".xml",
		Downloaded: lm.Downloaded, LastOnlineConfirmation: lm.LastOnlineConfirmation, ConsecutiveFailures: lm.ConsecutiveFailures,
		LastRefresh: lm.LastRefresh, LastRefreshAt: lm.LastRefreshAt,
	}
	if err := writeAtomic(filepath.Join(c.dir, m.File), data); err != nil {
		return fmt.Errorf("tlcache: store %s: %w", url, err)
	}
	if err := c.writeMeta(m); err != nil {
		return fmt.Errorf("tlcache: store %s: %w", url, err)
	}
	if old.File != "" && old.File != m.File {
		// The new copy is in place; the old bytes are garbage now. A
		// failure here only leaves a stray file.
		if err := os.Remove(filepath.Join(c.dir, old.File)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			c.logger.WarnContext(ctx, "trusted-list cache: could not remove the previous copy", slog.String("file", old.File), slog.String("error", err.Error()))
		}
	}
	return nil
}

// StoreMeta updates the metadata of the cached copy of url, keeping its
// bytes. The URL and digest in lm are ignored.
func (c *Cache) StoreMeta(ctx context.Context, url string, lm ports.ListMeta) error {
	m, err := c.readMeta(url)
	if err != nil {
		return err
	}
	m.Downloaded = lm.Downloaded
	m.LastOnlineConfirmation = lm.LastOnlineConfirmation
	m.ConsecutiveFailures = lm.ConsecutiveFailures
	m.LastRefresh, m.LastRefreshAt = lm.LastRefresh, lm.LastRefreshAt
	if err := c.writeMeta(m); err != nil {
		return fmt.Errorf("tlcache: store metadata of %s: %w", url, err)
	}
	return nil
}

func (c *Cache) writeMeta(m meta) error {
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(c.dir, key(m.URL)+".json"), append(raw, '\n'))
}

// writeAtomic writes data to a temporary file in the same directory, syncs
// it and renames it over path, then syncs the directory so the rename
// survives a crash.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
