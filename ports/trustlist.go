package ports

import (
	"context"
	"errors"
	"time"
)

// ErrNotCached is returned by a TrustListCache that holds no copy of a list.
var ErrNotCached = errors.New("trusted list not cached")

// ListMeta is what the cache keeps beside a list's bytes: where it came
// from and what this service knows of its freshness.
type ListMeta struct {
	URL    string
	SHA256 string // hex digest of the cached bytes
	// Downloaded is when these bytes were fetched.
	Downloaded time.Time
	// LastOnlineConfirmation is the last time a refresh confirmed the
	// publisher still serves these bytes (downloaded or digest unchanged).
	LastOnlineConfirmation time.Time
	// ConsecutiveFailures counts refreshes of this list that failed since
	// the last confirmation.
	ConsecutiveFailures int
	// LastRefresh is the outcome of the latest online refresh ("ok", or
	// the failure's category: "download", "parse", "signature-invalid",
	// "signature-indeterminate") and LastRefreshAt when it ran; empty
	// before the first. Another process reads them (trust status).
	LastRefresh   string
	LastRefreshAt time.Time
}

// A CachedList is a list's bytes with their metadata.
type CachedList struct {
	Data []byte
	Meta ListMeta
}

// TrustListCache keeps the last good copy of each trusted list on disk.
// Load returns an error wrapping ErrNotCached when there is no usable copy;
// a corrupt copy is reported as not cached (and logged by the adapter), so
// that start-up carries on without it. Store replaces a list atomically:
// a crash at any point leaves the previous or the new copy, never half of
// one. StoreMeta updates the metadata of the cached copy only.
type TrustListCache interface {
	Load(ctx context.Context, url string) (CachedList, error)
	Store(ctx context.Context, url string, data []byte, meta ListMeta) error
	StoreMeta(ctx context.Context, url string, meta ListMeta) error
}

// ErrNotModified is returned by a TrustListSource when the publisher's
// copy has the digest the caller already holds.
var ErrNotModified = errors.New("trusted list not modified")

// TrustListSource downloads trusted lists from their publishers. Fetch
// returns ErrNotModified when knownSHA256 is not empty and the publisher's
// copy still has that digest (checked with the TS 119 612 .sha2 companion
// where published, else by downloading and hashing).
type TrustListSource interface {
	Fetch(ctx context.Context, url, knownSHA256 string) ([]byte, error)
}
